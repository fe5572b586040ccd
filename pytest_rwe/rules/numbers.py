"""numbers_accurate: every number of the summary must come from the study, at its precision.

Each written number gets a context from the words before it: a p-value ("p = 0.03"), an
estimate or interval ("HR 0.76, 95% CI ..."), a group size ("n = 271"), or plain. A p-value or
an estimate is checked first against the outcomes named in its sentence, so a number moved to
another outcome is caught; a group size is checked against the group it is written for.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from pytest_rwe.rules.claims import Analysis
from pytest_rwe.rules.index import Entry, StudyIndex, matches
from pytest_rwe.rules.text import NumberMention, Span, numbers_in, stem
from pytest_rwe.study import Study

_P_CONTEXT = re.compile(r"\bp\s*(?:-?\s*values?)?\s*(?:was|were|of|is|:)?\s*(?:[<>≤≥=]=?\s*)?$"
                        r"|\bp\s*(?:-?\s*values?)?\s*(?:was|were|of|is)?\s*(?:less|greater)\s+than"
                        r"\s*$", re.IGNORECASE)
_LABEL_RE = re.compile(r"\b(?:a?HRs?|a?ORs?|a?RRs?|IRRs?|MDs?|CIs?)\b|\b(?:hazard|odds|risk|rate)"
                       r"\s+ratios?\b|\brelative\s+risks?\b|\b(?:mean\s+)?(?:difference|change)s?"
                       r"\b|\bconfidence\s+intervals?\b|\bestimates?\b")
_LABEL_CI_RE = re.compile(r"\b(?:hazard|odds|risk|rate)\s+ratios?\b|\brelative\s+risks?\b|\b(?:"
                          r"mean\s+)?(?:difference|change)s?\b|\bconfidence\s+intervals?\b|\b"
                          r"estimates?\b", re.IGNORECASE)
_GAP_RE = re.compile(r"^(?:[\s,;:=()\[\]%\u2212\u2013\-]|\d[\d.,]*|\.\d+|\b(?:to|of|was|were|is|"
                     r"and|adjusted|95|CI|confidence|interval|s|by|about|approximately|around|"
                     r"percentage|points?|pp|units?|mmHg|range|from|between)\b)*$",
                     re.IGNORECASE)
_POINT_RE = re.compile(r"(?:\b(?:a?HR|a?OR|a?RR|IRR|MD)|\b(?:hazard|odds|risk|rate)\s+ratio|"
                       r"\brelative\s+risk|\bmean\s+(?:difference|change))\s*(?:[:=,]|\bof\b|"
                       r"\bwas\b|\bis\b|\bwere\b)?\s*$", re.IGNORECASE)
_CI_RE = re.compile(r"\b(?:CI|confidence\s+interval)\s*(?:[:=,]|\bof\b|\bwas\b|\bfrom\b)?\s*$",
                    re.IGNORECASE)
_SIZE_AFTER = re.compile(r"^\s*(?:new\s+)?(?:patients|participants|subjects|individuals|people|"
                         r"adults|users|veterans|respondents|persons|women|men|children|"
                         r"initiators|employees|cases)\b", re.IGNORECASE)
_BRIDGE = frozenset(stem(w) for w in ["patients", "participants", "subjects", "individuals",
                                      "people", "adults", "users", "were", "was", "in", "the",
                                      "on", "receiving", "received", "taking", "treated", "with",
                                      "who", "using", "initiating", "started", "starting", "new",
                                      "of", "group", "arm"])
_BEFORE_BRIDGE = frozenset(stem(w) for w in [
    "users", "patients", "participants", "subjects", "group", "arm", "numbered", "included",
    "totalled", "totaled", "was", "were", "of", ":", "=", ","])
_NULL_TALK = re.compile(r"\b(?:cross|crosses|crossed|crossing|includ\w*|span\w*|null|unity|"
                        r"overlap\w*|exclud\w*)\b", re.IGNORECASE)


@dataclass(frozen=True)
class NumberFinding:
    """A number the study does not support, and why."""

    span: Span
    field: str
    message: str


def _role(text: str, number: NumberMention, clause: Span | None) -> str:
    """ "point" right after a measure label, "ci" right after "CI", else ""."""
    lo = clause.start if clause else 0
    before = text[max(lo, number.span.start - 40):number.span.start]
    if _POINT_RE.search(before):
        return "point"
    if _CI_RE.search(before):
        return "ci"
    return ""


def _context(text: str, number: NumberMention, clause: Span | None) -> str:
    lo = clause.start if clause else 0
    before = text[max(lo, number.span.start - 40):number.span.start]
    if _P_CONTEXT.search(before[-24:]):
        return "p"
    labels = list(_LABEL_RE.finditer(before)) + list(_LABEL_CI_RE.finditer(before))
    if labels:
        last = max(labels, key=lambda m: m.end())
        gap = before[last.end():]
        # A closed parenthesis ends the label's reach: "(HR 1.27) and 10% higher ...".
        if _GAP_RE.match(gap) and gap.count(")") <= gap.count("("):
            return "effect"
    if re.search(r"\bn\s*=\s*$", before, re.IGNORECASE) or \
            _SIZE_AFTER.match(text[number.span.end:number.span.end + 30]):
        return "size"
    return "plain"


def check_numbers(study: Study, index: StudyIndex, analysis: Analysis) -> list[NumberFinding]:
    """Every written number that no study number supports at the precision written."""
    text = analysis.text
    mentioned_anywhere = {m.outcome.key for m in analysis.mentions}
    findings: list[NumberFinding] = []
    previous: tuple[NumberMention, str] | None = None
    for number in numbers_in(text):
        clause = analysis.clause_of(number.span.start)
        span = clause[2] if clause else None
        context = _context(text, number, span)
        if previous is not None and context == "plain" and previous[1] in ("p", "effect") and \
                re.fullmatch(r"[\s,;]*(?:and|or|to|,)?[\s,;]*(?:p\s*[=<>]\s*)?",
                             text[previous[0].span.end:number.span.start], re.IGNORECASE):
            context = previous[1]  # "HRs of 2.72 and 1.31", "p = 0.02 and 0.04"
        previous = (number, context)
        if _accepted_anyway(text, number, span):
            continue
        local, strict = _local_outcomes(analysis, number)
        role = _role(text, number, span) if context == "effect" else ""
        problem = _check(study, index, number, context, local, mentioned_anywhere, role, strict)
        if problem is not None:
            findings.append(NumberFinding(number.span, problem[0], problem[1]))
            continue
        swapped = _size_swap(study, analysis, number) or _baseline_swap(study, analysis, number)
        if swapped is not None:
            findings.append(swapped)
    return findings


def _local_outcomes(analysis: Analysis, number: NumberMention) -> tuple[set[str], bool]:
    """The outcomes a number is written for: those named since the last ")" before it.

    The second value is True when that is certain: the number directly follows the full
    names of its outcomes ("hypokalemia (HR 2.72"), so a value of any other outcome is wrong.
    """
    lo, hi = analysis.sentence_of(number.span.start)
    in_sentence = [m for m in analysis.mentions if lo <= m.positions[0] < hi]
    before = [m for m in in_sentence if m.span.end <= number.span.start]
    if not before:
        return {m.outcome.key for m in in_sentence}, False
    start = analysis.tokens[lo].start if hi > lo else 0
    close = analysis.text.rfind(")", start, number.span.start)
    segment = [m for m in before if m.span.start > close]
    chosen = segment or before
    strict = bool(segment) and all(m.full for m in segment) and bool(
        re.fullmatch(r"[^()]*\([^()]*", analysis.text[segment[-1].span.end:number.span.start]))
    return {m.outcome.key for m in chosen}, strict


def _accepted_anyway(text: str, number: NumberMention, clause: Span | None) -> bool:
    after = text[number.span.end:number.span.end + 30]
    if number.value == 95 and number.is_percent and re.search(r"CI|confiden", after, re.I):
        return True
    if number.value in (0.05, 5.0) and not number.is_word and (
            number.value == 0.05 or re.search(r"signific|level|alpha", after, re.I)):
        return True
    return number.value in (0.0, 1.0) and clause is not None and bool(
        _NULL_TALK.search(clause.quote))


def _fits(number: NumberMention, entry: Entry) -> bool:
    written = number.value * number.scale
    decimals = number.decimals
    if number.hedged and abs(written - entry.value) <= 0.1 * abs(entry.value):
        return True  # "roughly 25% lower" for 24% and 27%
    return matches(written, decimals, entry.value) or (
        number.scale != 1.0 and matches(number.value, decimals, entry.value))


def _pvalue_fits(number: NumberMention, entry: Entry) -> bool:
    if number.operator in ("<", "<="):
        return entry.value <= number.value + 1e-12
    if number.operator in (">", ">="):
        return entry.value >= number.value - 1e-12 and not entry.shown.lstrip().startswith("<")
    return _fits(number, entry)


def _check(study: Study, index: StudyIndex, number: NumberMention, context: str,
           local: set[str], mentioned: set[str], role: str = "", strict: bool = False
           ) -> tuple[str, str] | None:
    written = number.span.quote
    if context in ("p", "effect"):
        kinds = ("p",) if context == "p" else ("effect", "percent", "derived")
        fit = _pvalue_fits if context == "p" else _fits
        pool = [e for e in index.of_kind(*kinds) if e.outcome is not None]
        if local:
            own = [e for e in pool if e.outcome in local]
            if any(fit(number, e) for e in own if not role or e.role in (role, "")):
                return None
            moved = [e for e in own if fit(number, e)]
            if moved:
                what = "point estimate" if role == "point" else "confidence limit"
                return (moved[0].field, f"{written} is written as the {what}, but in "
                        f"{moved[0].field} = {moved[0].shown} it is not")
            elsewhere = [e for e in pool if e.outcome not in local and fit(number, e)
                         and (not role or e.role in (role, ""))]
            if elsewhere and (strict or all(e.outcome in mentioned for e in elsewhere)):
                names = sorted({_name(study, k) for k in local})
                return (elsewhere[0].field,
                        f"{written} is {elsewhere[0].field} = {elsewhere[0].shown}, not a value "
                        f"of {', '.join(names)} named in the same sentence")
            if elsewhere and not strict:
                return None
        elif any(fit(number, e) for e in pool):
            return None
        if context == "p":
            nearest = _nearest(number, pool if not local else
                               [e for e in pool if e.outcome in local])
            return (nearest.field if nearest else "results.outcomes",
                    f"p-value {written} matches no p-value of the study" +
                    (f" (nearest: {nearest.field} = {nearest.shown})" if nearest else ""))
        if context == "effect" and local and (strict or role == "point"):
            nearest = _nearest(number, [e for e in pool if e.outcome in local])
            return (nearest.field if nearest else "results.outcomes",
                    f"estimate {written} is not the study's value"
                    + (f" ({nearest.field} = {nearest.shown})" if nearest else ""))
        # An estimate-like number may still be a plain study number (a size, a baseline value).
    if context == "effect":
        pool = [e for e in index.entries if e.kind in ("baseline", "size") or (
            e.kind == "derived" and e.field.startswith("results.baseline"))]
    elif number.is_percent:
        pool = [e for e in index.entries if e.kind != "p"]
    else:
        pool = index.entries
    if any(_fits(number, e) for e in pool) or any(
            number.operator and _pvalue_fits(number, e) for e in index.of_kind("p")):
        return None
    nearest = _nearest(number, [e for e in index.entries if e.kind != "derived"])
    return (nearest.field if nearest else "study",
            f"{written} matches no number of the study at the precision written" +
            (f" (nearest: {nearest.field} = {nearest.shown})" if nearest else ""))


def _nearest(number: NumberMention, pool: list[Entry]) -> Entry | None:
    if not pool:
        return None
    return min(pool, key=lambda e: abs(e.value - number.value * number.scale))


def _name(study: Study, key: str) -> str:
    return next((o.name for o in study.outcomes if o.key == key), key)


def _size_swap(study: Study, analysis: Analysis, number: NumberMention) -> NumberFinding | None:
    """A group size written for the other group ("chlorthalidone (n = 693,337)")."""
    sizes = {"intervention": study.intervention_size, "control": study.control_size}
    if None in sizes.values() or sizes["intervention"] == sizes["control"] or number.decimals:
        return None
    written = number.value * number.scale
    own = next((g for g, s in sizes.items() if s is not None and matches(written, 0, s)), None)
    if own is None or number.scale != 1.0 or _in_list(analysis.text, number):
        return None  # "A and B users (735,657 and 206,570)": the order is the reader's to map
    group = _group_of(analysis, number)
    if group is None or group == own:
        return None
    field = f"results.{own}_size"
    return NumberFinding(number.span, field, (
        f"{number.span.quote} is written for the {group} group, but it is {field} "
        f"(the {group} group has {sizes[group]:,})"))


def _group_of(analysis: Analysis, number: NumberMention) -> str | None:
    clause = analysis.clause_of(number.span.start)
    if clause is None:
        return None
    lo, hi, span = clause
    tokens = analysis.tokens
    at = next((i for i in range(lo, hi) if tokens[i].start >= number.span.start), hi)
    refs = [g for g in analysis.groups if lo <= g.position < hi]
    before = [g for g in refs if g.position < at]
    after = [g for g in refs if g.position > at]
    prefix = analysis.text[max(span.start, number.span.start - 8):number.span.start]
    last = before[-1] if before else None
    last_end = max(last.end, last.position) if last else -1
    if re.search(r"(?:\(|\bn\s*=)\s*$", prefix, re.IGNORECASE):
        # "chlorthalidone (n = 36,918)": the group named right before the parenthesis.
        return last.group if last and at - last_end <= 6 else None
    if after:
        gap = range(at + 1, after[0].position)
        if len(gap) <= 4 and all(tokens[i].norm in _BRIDGE for i in gap):
            return after[0].group
    if last and not last.comparison and at - last_end <= 4 and all(
            tokens[i].norm in _BEFORE_BRIDGE for i in range(last_end + 1, at)):
        return last.group  # "chlorthalidone users numbered 36,918"
    return None


_ORDER_RE = re.compile(r"\b(intervention|treated|exposed|control|comparator|unexposed)\s*"
                       r"(?:group\s*)?(?:vs\.?|versus|and|/|compared\s+with)\s*"
                       r"(intervention|treated|exposed|control|comparator|unexposed)\b",
                       re.IGNORECASE)
_PAIR_GAP = re.compile(r"^\s*%?\s*(?:vs\.?|versus|and|compared\s+with|against|/)\s*$",
                       re.IGNORECASE)


def _baseline_sides(study: Study, number: NumberMention) -> list[tuple[str, str, str]]:
    """(characteristic, the group whose value it is, the other group) for a baseline value
    the number fits on one side only."""
    written = number.value * number.scale
    sides = []
    for name, base in study.baseline.items():
        fits_i = matches(written, number.decimals, base.intervention)
        fits_c = matches(written, number.decimals, base.control)
        if fits_i != fits_c:
            sides.append((name, "intervention" if fits_i else "control",
                          "control" if fits_i else "intervention"))
    return sides


def _declared_order(analysis: Analysis, number: NumberMention) -> tuple[str, str] | None:
    """The group order a "X vs Y" pair of values is written in, when the sentence says it:
    "(intervention vs control)", or "in A vs B" with A and B the two groups."""
    lo, hi = analysis.sentence_of(number.span.start)
    if hi <= lo:
        return None
    start, end = analysis.tokens[lo].start, analysis.tokens[hi - 1].end
    words = {"treated": "intervention", "exposed": "intervention", "comparator": "control",
             "unexposed": "control"}
    match = _ORDER_RE.search(analysis.text, start, end)
    if match is not None:
        first, second = (words.get(g.lower(), g.lower()) for g in match.groups())
        if first != second:
            return first, second
    return None


def _baseline_swap(study: Study, analysis: Analysis, number: NumberMention
                   ) -> NumberFinding | None:
    """A baseline value written for the other group ("85.0 in the control group" when 85.0
    is the intervention group's value, or an "X vs Y" pair in the reverse of its order)."""
    sides = _baseline_sides(study, number)
    if len(sides) != 1 or number.hedged:
        return None
    name, own, _other = sides[0]
    base = study.baseline[name]
    field = f"results.baseline_differences[{json.dumps(name)}]"
    # a value in a list ("142.7/86.5 vs 144.5/87.3") is placed by its declared order only
    group = (_pair_group(study, analysis, number, name) if _in_list(analysis.text, number)
             else _group_of(analysis, number))
    if group is None or group == own:
        return None
    return NumberFinding(number.span, field, (
        f"{number.span.quote} is written for the {group} group, but in {field} = "
        f"{base.text!r} it is the {own} group's value"))


def _pair_group(study: Study, analysis: Analysis, number: NumberMention, name: str
                ) -> str | None:
    """The group of a value in an "A vs B" pair of one characteristic, in a declared order."""
    order = _declared_order(analysis, number)
    if order is None:
        return None
    numbers = numbers_in(analysis.text)
    at = next((i for i, n in enumerate(numbers) if n.span.start == number.span.start), None)
    if at is None:
        return None
    for partner, position in ((at + 1, 0), (at - 1, 1)):
        if not 0 <= partner < len(numbers):
            continue
        left, right = (number, numbers[partner]) if position == 0 else (numbers[partner], number)
        if not _PAIR_GAP.match(analysis.text[left.span.end:right.span.start]):
            continue
        # the partner must be a value of the same characteristic for the pair to be read
        if any(n == name for n, _, _ in _baseline_sides(study, numbers[partner])):
            return order[position]
    return None


_LIST_GAP = re.compile(r"^\s*%?\s*(?:/|,|;|and|or|vs\.?|versus|to)\s*$", re.IGNORECASE)


def _in_list(text: str, number: NumberMention) -> bool:
    """The number is one of several written together: "X and Y", "X vs Y", "X/Y"."""
    numbers = numbers_in(text)
    at = next((i for i, n in enumerate(numbers) if n.span.start == number.span.start), None)
    if at is None:
        return False
    before = numbers[at - 1] if at > 0 else None
    after = numbers[at + 1] if at + 1 < len(numbers) else None
    return bool((before and _LIST_GAP.match(text[before.span.end:number.span.start]))
                or (after and _LIST_GAP.match(text[number.span.end:after.span.start])))
