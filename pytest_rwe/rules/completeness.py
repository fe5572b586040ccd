"""completeness: every outcome with p <= 0.05 reported as a difference or a higher/lower risk.

An outcome counts as reported when a claim about it states a difference: a direction, a
difference without a side, significance, or its own result (an estimate, a share, a p-value)
written beside its name. A name alone ("mortality was also examined", "cognitive decline
was analysed as a component") does not report it, and neither does "no significant
difference". An outcome is called missing only when no claim the juror could not tie to an
outcome could be about it (a claim whose clause shares a word of the outcome's name), so a
sentence the juror cannot read makes it abstain rather than accuse.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from pytest_rwe.rules.abbreviations import RESERVED
from pytest_rwe.rules.affirmed import affirmed_beside, denied_after
from pytest_rwe.rules.blankets import composite_by_parts, counted_blanket
from pytest_rwe.rules.claims import Analysis, Claim
from pytest_rwe.rules.denials import denied_beside
from pytest_rwe.rules.index import matches
from pytest_rwe.rules.list_items import list_parts
from pytest_rwe.rules.name_index import OutcomeIndex
from pytest_rwe.rules.neither import denied_by_neither
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.rules.reported import (
    estimate_written,
    estimates,
    in_written_range,
    only_examined,
)
from pytest_rwe.rules.text import Span
from pytest_rwe.study import Study

# a number followed by a unit of time is when an outcome was measured, and one followed by
# people ("583 patients") how many were studied: neither is an outcome's result
_TIME_AFTER = re.compile(r"[\s-]*(?:days?|weeks?|months?|years?|yrs?|mo|hours?|h|minutes?|"
                         r"min|(?:\w+[\s-]+)?(?:patients|participants|people|persons|adults|"
                         r"children|women|men|subjects|individuals|users|respondents|cases))\b",
                         re.IGNORECASE)


@dataclass(frozen=True)
class Missing:
    """A significant outcome the summary does not report, and how it treats it."""

    span: Span
    key: str
    said: str  # "not mentioned", "as not significant", "as no difference", "only named"


def status(claim: Claim, text: str, sentence: Span, cued: bool) -> str:
    """How a claim reports its outcome: difference, null, nonsig, bare (a sentence that
    holds a result or a claim the juror may not have tied to it) or named (a sentence with
    the name and nothing of a result: "mortality was also examined")."""
    if claim.direction == "null":
        return "null"
    if claim.direction in ("higher", "lower"):
        # "a higher risk, though not significant" still mentions it as a higher risk
        return "difference"
    if claim.significant is False:
        return "nonsig"
    if claim.significant is True or claim.cue is not None:
        return "difference"
    if claim.mention is None or cued or _result_written(text, sentence):
        return "bare"
    return "named"


def _result_written(text: str, sentence: Span) -> bool:
    """The sentence writes a number that is not a time point ("at 12 months")."""
    for number in numbers_in(sentence.quote):
        end = sentence.start + number.span.end
        if _TIME_AFTER.match(text[end:end + 24]) or (
                number.value.is_integer() and 1900 <= number.value <= 2100) or re.search(
                r"\bn\s*=\s*$", text[max(0, end - len(number.span.quote) - 6):
                                    end - len(number.span.quote)]):
            continue
        return True
    return False


_BULLET = re.compile(r"\s*(?:[-*\u2022\u2013]|\d{1,2}[.)])\s+[^\W\d_]")


def tabular(text: str) -> bool:
    """A table fragment ("X | 24.6 | 27.1 | 0.04", or rows of numbers): text the juror cannot
    read as prose. A bulleted list ("- Gout: HR 0.69, p = 0.003") is prose, line by line."""
    if "|" in text or "\t" in text:
        return True
    rows = 0
    for line in text.splitlines():
        if _BULLET.match(line):
            continue  # "- MACE: 1.56 (1.34-1.82), p < 0.001": a list item, read as prose
        numbers = len(numbers_in(line))
        words = len(re.findall(r"[A-Za-z]{2,}", line))
        rows += numbers >= 3 and numbers >= words
    return rows >= 2


_COMPONENT_OF = re.compile(
    r"\b(?:combined|composite)\s+(?:(?:outcome|endpoint|end\s+point|measure|event)s?\s+)?of\s+"
    r"(?:the\s+)?(?P<list>[^.;:()]{0,100}?(?:,|\bor\b|\band\b)\s+)?$", re.IGNORECASE)
_NOT_A_LIST = re.compile(r"\b(?:was|were|is|are|had|has|than|lower|higher|less|more|reduc\w*|"
                         r"increas\w*|decreas\w*|with)\b", re.IGNORECASE)


@functools.lru_cache(maxsize=64)
def _names_composites(text: str) -> bool:
    """The text writes "combined" or "composite" at all (read once per summary)."""
    return "ombine" in text or "omposite" in text


def _component(text: str, sentence: Span, claim: Claim) -> bool:
    """The claim's name is listed as a part of a composite ("less likely to be diagnosed with
    the combined outcome of memory decline, dementia or Alzheimer's disease (HR 0.76)"): the
    result is the composite's, not the part's."""
    if claim.mention is None or not sentence.start <= claim.mention.span.start <= sentence.end:
        return False
    if re.search(r"\b(?:or|and|composite|combined)\b", claim.mention.outcome.name):
        return False  # "the composite of cardiac death or HF rehospitalization": its own name
    if not _names_composites(text):
        return False
    # a list of parts is short: look only just before the name, not the whole sentence
    match = _COMPONENT_OF.search(text, max(sentence.start, claim.mention.span.start - 200),
                                 claim.mention.span.start)
    return match is not None and not _NOT_A_LIST.search(match.group("list") or "")


_PEOPLE_NEXT = re.compile(r"[\s-]*(?:patients|people|persons|participants|survivors|"
                          r"adults|children|women|men|subjects|individuals|cases|cohort)\b",
                          re.IGNORECASE)


# "PHQ-9 of 10 or more", "PHQ-9 >= 10", "a score of at least 5": a threshold for entry
_THRESHOLD_NEXT = re.compile(
    r"\s*(?:of\s+\d+(?:\.\d+)?\s+or\s+(?:more|higher|above|greater)\b|(?:of\s+)?(?:>=|\u2265|>|"
    r"at\s+least|above)\s*\d+(?:\.\d+)?(?!\s*(?:%|percent|points?|units?|days?|weeks?|months?|"
    r"years?)\b))", re.IGNORECASE)


def _describes_people(text: str, claim: Claim) -> bool:
    """The outcome's name modifies a noun of people ("first-MI patients", "stroke
    survivors") or states a threshold for entry ("PHQ-9 of 10 or more"): it says who was
    studied, not what happened to them."""
    if claim.mention is None or claim.cue is not None:
        return False
    end = claim.mention.span.end
    return bool(_PEOPLE_NEXT.match(text, end) or _THRESHOLD_NEXT.match(text, end))


def _sentences(analysis: Analysis) -> list[tuple[Span, bool]]:
    """Each sentence's span, and whether a claim cue stands in it."""
    cues = sorted(c.cue.start for c in analysis.claims if c.cue is not None)
    out = []
    for lo, hi in analysis.sentences:
        if hi <= lo:
            continue
        start, end = analysis.tokens[lo].start, analysis.tokens[hi - 1].end
        at = bisect.bisect_left(cues, start)
        out.append((Span(start, end, analysis.text[start:end]),
                    at < len(cues) and cues[at] <= end))
    return out


def _loose_difference_near(analysis: Analysis, claim: Claim) -> bool:
    """A claim about nothing named, in the same sentence or the next ("All three were
    significantly lower"), that may report the names listed before it."""
    if claim.mention is None:
        return False
    ranges = [r for r in analysis.sentences if r[1] > r[0]]
    at = next((i for i, (lo, hi) in enumerate(ranges)
               if analysis.tokens[lo].start <= claim.mention.span.start
               <= analysis.tokens[hi - 1].end), None)
    if at is None:
        return False
    first = analysis.tokens[ranges[at][0]].start
    last = analysis.tokens[ranges[min(at + 1, len(ranges) - 1)][1] - 1].end
    return any(c.outcome is None and c.generic and not c.baseline and c.direction != "null"
               and c.significant is not False and c.cue is not None
               and first <= c.cue.start <= last for c in analysis.claims)


def _could_be_about(analysis: Analysis, index: OutcomeIndex, claim: Claim, key: str) -> bool:
    """A claim naming no outcome could be about this one: its clause holds a word of the
    outcome's name (or one of its abbreviations), in a part of the clause that does not
    write another outcome's estimate or p-value instead of this one's."""
    words = set(index.names.get(key, ()))
    aliases = {a for a, keys in index.aliases.items() if key in keys}
    lo = bisect.bisect_left(analysis.token_starts, claim.clause.start)
    hi = bisect.bisect_left(analysis.token_starts, claim.clause.end)
    found = []
    for token in analysis.tokens[lo:hi]:
        if token.text.lower().replace("-", "") in aliases:
            found.append(token.start)
        elif token.text.lower().startswith(_CLAIM_WORDS):
            continue  # "not significantly associated" is not about "clinically significant X"
        elif index.words_matching(token.norm) & words:
            found.append(token.start)
    if not found:
        return False
    parts = list_parts(claim.clause)
    return not all(_values_of_another(analysis, part.quote, key)
                   for part in parts if any(part.start <= at < part.end for at in found))


def _values_of_another(analysis: Analysis, part: str, key: str) -> bool:
    """The part writes an estimate or a p-value that is another outcome's and none of this
    one's ("bleeding inside the skull was not more common (HR 1.66, p = 0.194)" is about
    intracranial haemorrhage, not about moderate-to-severe bleeding): the claim is that
    outcome's."""
    # a bound ("p < 0.001") is shared by many outcomes: only values written exactly count
    written = [n for n in numbers_in(part) if n.decimals >= 1 and not n.is_percent
               and not n.operator]
    if not written:
        return False

    def values(fact_key: str) -> list[float]:
        fact = analysis.facts[fact_key]
        return [v for v in (fact.point, fact.p) if v is not None]

    def holds(fact_key: str) -> bool:
        return any(matches(n.value, n.decimals, v) for n in written for v in values(fact_key))

    if key in analysis.facts and holds(key):
        return False
    return any(holds(k) for k in analysis.facts if k != key)


_CLAIM_WORDS = ("significan", "statistical", "clinical", "higher", "lower", "increas",
                "decreas", "reduc")


def find_missing(study: Study, analysis: Analysis, index: OutcomeIndex,
                 must_report: Callable[[str], bool]) -> list[Missing]:
    """The significant outcomes the summary does not report as differences."""
    named = {o.key: o for o in study.outcomes}
    loose = [c for c in analysis.claims if c.outcome is None and not c.baseline]
    # With one outcome, a claim about nothing named ("there was no significant difference
    # between the groups") can only be about that outcome.
    sole = len(named) == 1
    table: list[bool] = []  # tabular(text), read once and only when needed
    sentences = _sentences(analysis)
    starts = [span.start for span, _ in sentences]
    by_outcome: dict[str, list[Claim]] = {}
    for claim in analysis.claims:
        if claim.outcome is not None and not claim.baseline:
            by_outcome.setdefault(claim.outcome.key, []).append(claim)
    missing: list[Missing] = []
    denied = denied_by_neither(analysis)
    for key in named:
        if not must_report(key):
            continue
        claims = by_outcome.get(key, [])
        if sole:
            # also beside its bare name: "Outcome: any NCD. The adjusted PR (0.45) did not
            # show a significant difference" says the one outcome did not differ
            claims = claims + [c for c in loose if c.generic]
        statuses = set()
        for claim in claims:
            where = claim.mention.span.start if claim.mention else claim.clause.end - 1
            at = max(0, bisect.bisect_right(starts, where) - 1)
            sentence, cued = sentences[at] if sentences else (claim.clause, True)
            said = status(claim, analysis.text, sentence, cued)
            if claim.mention is not None and claim.mention.span.start in denied:
                said = "null"  # "neither A (HR 0.90) nor B showed a significant difference"
            elif said == "null" and affirmed_beside(analysis, loose, claim):
                said = "bare"  # "similar in E and NS and significantly lower than in N"
            elif said == "difference" and _component(analysis.text, sentence, claim):
                # "the combined outcome of memory decline, dementia or AD": the composite's
                # result, whatever the next sentence says of "these differences"
                said = "named"
            elif said == "named" and _loose_difference_near(analysis, claim):
                said = "bare"
            elif said == "bare" and (denied_beside(analysis, loose, claim)
                                     or denied_after(analysis, claim)):
                # "the sHR for X was 5.04 (...), a difference the model did not find
                # significant": the clause's only name is what its denial is about
                said = "nonsig"
            elif said == "bare" and only_examined(analysis, claim):
                said = "named"  # "X was also examined alongside Y, and Z did not differ"
            elif said == "bare" and _describes_people(analysis.text, claim):
                said = "named"  # "175,146 first-MI patients": who was studied, not a result
            statuses.add(said)
        if statuses & {"difference", "bare"}:
            continue
        if not table:
            table.append(tabular(analysis.text))
        unsure = table[0] or any(sole or (not c.generic and _could_be_about(
            analysis, index, c, key)) for c in loose) or counted_blanket(
            analysis, loose, sum(1 for k in named if must_report(k))) or (
            not claims and composite_by_parts(analysis, named[key].name))
        if not claims and in_written_range(analysis, index, key):
            continue
        if not claims:
            said_by_value = estimate_written(analysis, key, frozenset(by_outcome))
            if said_by_value == "difference":
                continue
            if said_by_value is not None:
                missing.append(Missing(estimates(analysis, key, frozenset(by_outcome))[0], key,
                                       "as no difference"))
                continue
        if claims:
            if statuses == {"named"} and unsure:
                continue
            first = claims[0]
            span = first.mention.span if first.mention else (first.cue or Span(0, 0, ""))
            said = ("only named" if statuses == {"named"} else "as not significant"
                    if "nonsig" in statuses and "null" not in statuses else "as no difference")
            missing.append(Missing(span, key, said))
        elif not sole and not table[0] and (blanket := _blanket_denial(analysis, index, loose,
                                                                        key)) is not None:
            # "No neonatal outcome differed significantly" with neonatal hypoglycaemia
            # significant and never named: the summary says it did not differ
            missing.append(Missing(blanket, key, "as no difference"))
        elif not unsure and not abbreviation_written(analysis, index, key):
            missing.append(Missing(Span(0, 0, ""), key, "not mentioned"))
    return missing


_NONE = re.compile(r"^\W*(?:no|none|neither|nothing)\b", re.IGNORECASE)


def _blanket_denial(analysis: Analysis, index: OutcomeIndex, loose: list[Claim], key: str
                    ) -> Span | None:
    """The cue of a claim naming no outcome that denies every difference of a class the
    outcome belongs to ("no neonatal outcome differed significantly", "none of the cardiac
    outcomes was significant"), when every such claim that could be about it denies."""
    about = [c for c in loose if not c.generic and _could_be_about(analysis, index, c, key)]
    if not about or not all(c.cue is not None and _NONE.match(c.cue.quote) and (
            c.direction == "null" or c.significant is False) for c in about):
        return None
    return about[0].cue


def abbreviation_written(analysis: Analysis, index: OutcomeIndex, key: str) -> bool:
    """The summary writes the outcome's abbreviation ("any revasc/TVR/TLR 1.42/1.47/1.50",
    "ST 2.47" for definite or probable stent thrombosis: the initials of the name or of its
    last words) where the juror found no mention of it: what it says there is unread, so
    the outcome is not called unmentioned."""
    outcome = index.outcomes.get(key)
    if outcome is None:
        return False
    words = [w for w in re.findall(r"[^\W\d_]+", outcome.name) if w.lower() not in _GLUE]
    initials = {"".join(w[0] for w in words[i:]).upper() for i in range(len(words) - 1)}
    initials |= {a.upper() for a, keys in index.aliases.items() if key in keys}
    initials -= {r.upper() for r in RESERVED}  # "HR" is a hazard ratio, not "... hf rehosp."
    return any(token.text.replace("-", "").upper() in initials and token.text.isupper()
               for token in analysis.tokens)


_GLUE = frozenset({"of", "the", "and", "or", "in", "to", "for", "with", "on", "at", "by", "a",
                   "an", "from", "vs"})


def describe(name: str, shown: str, p_text: str, said: str) -> str:
    """The finding's message."""
    if said == "not mentioned":
        return f"{name} ({shown}) has p <= 0.05 and is not mentioned"
    if said == "only named":
        return (f"{name} has p = {p_text} but is only named, not reported as a difference "
                "or a higher/lower risk")
    return f"{name} has p = {p_text} but is described {said}"

