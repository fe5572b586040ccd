"""numbers_accurate: every number of the summary must come from the study, at its precision.

Each written number gets a context from the words before it: a p-value ("p = 0.03"), an
estimate or interval ("HR 0.76, 95% CI ..."), a group size ("n = 271"), or plain. A p-value or
an estimate is checked first against the outcomes named in its sentence, so a number moved to
another outcome is caught; a group size is checked against the group it is written for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pytest_rwe.rules.approximate import (
    HEDGE_TOLERANCE,
    approximations_in,
)
from pytest_rwe.rules.at_time import wrong_timepoint
from pytest_rwe.rules.bounds import fits, pvalue_fits, shared_bound
from pytest_rwe.rules.claims import Analysis
from pytest_rwe.rules.consistency import (
    estimates_outside_interval,
    printed_shares,
    shares_unlike_counts,
)
from pytest_rwe.rules.count_pairs import misplaced_counts, wrong_denominators
from pytest_rwe.rules.denominators import share_of_everyone
from pytest_rwe.rules.design_labels import other_sex
from pytest_rwe.rules.design_stats import wrong_statistic
from pytest_rwe.rules.index import Entry, Kind, StudyIndex
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.number_groups import (
    NumberFinding,
    Numbers,
    baseline_swap,
    size_swap,
    whole_as_group,
)
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in, summary_numbers
from pytest_rwe.rules.number_owners import local_outcomes, named_near
from pytest_rwe.rules.number_reading import (
    at_time_written,
    at_written_time,
    full_year,
    with_counted,
)
from pytest_rwe.rules.number_roles import accepted_anyway
from pytest_rwe.rules.owned import misplaced_share, nested
from pytest_rwe.rules.proportions import check_approximation, outcome_name
from pytest_rwe.rules.text import Span
from pytest_rwe.rules.triples import wrong_limits
from pytest_rwe.study import Study

_P_CONTEXT = re.compile(r"\bp\s*(?:-?\s*values?)?\s*(?:was|were|of|is|:)?\s*(?:[<>≤≥=]=?\s*)?$"
                        r"|\bp\s*(?:-?\s*values?)?\s*(?:was|were|of|is|all)?\s*(?:(?:less|greater)"
                        r"\s+than|above|below|over|under|exceeding)\s*$", re.IGNORECASE)
_LABEL_RE = re.compile(r"\b(?:a?HRs?|a?ORs?|a?RRs?|IRRs?|MDs?|CIs?)\b|\b(?:hazard|odds|risk|rate)"
                       r"\s+ratios?\b|\brelative\s+risks?\b|\b(?:mean\s+)?(?:difference|change)s?"
                       r"\b|\bconfidence\s+intervals?\b|\bestimates?\b")
_LABEL_CI_RE = re.compile(r"\b(?:hazard|odds|risk|rate)\s+ratios?\b|\brelative\s+risks?\b|\b(?:"
                          r"mean\s+)?(?:difference|change)s?\b|\bconfidence\s+intervals?\b|\b"
                          r"estimates?\b", re.IGNORECASE)
_GAP_RE = re.compile(r"^(?:[\s,:=()\[\]%\u2212\u2013\-]|\d[\d.,]*|\.\d+|\b(?:to|of|was|were|is|"
                     r"and|adjusted|95|CI|confidence|interval|s|by|about|approximately|around|roughly|"
                     r"nearly|almost|percentage|points?|pp|units?|mmHg|range|from|between)\b)*$",
                     re.IGNORECASE)
# "mean PHQ-9 change at 6 months -3.2": the time the label's value is measured at, between
# the label and the value (not "HR 1.59 at 5 years and 1.45", the time of the value before)
_TIME_GAP = re.compile(r"\s*(?:at|after|over)\s+\d+\s*(?:months?|weeks?|years?|days?|mo|y)"
                       r"\s*(?:[,:=]|\b(?:was|were|of|is)\b)?\s*", re.IGNORECASE)
# "HR 0.82", "hazard ratio of 0.82", and hedged: "HR of about 0.9" still names the estimate,
# so it is checked against the estimate, not against a bound it happens to round to
_POINT_RE = re.compile(r"(?:\b(?:a?HR|a?OR|a?RR|IRR|MD)|\b(?:hazard|odds|risk|rate)\s+ratio|"
                       r"\brelative\s+risk|\bmean\s+(?:difference|change))\s*(?:[:=,\u2248~]|"
                       r"\bof\b|\bwas\b|\bis\b|\bwere\b)?\s*(?:\b(?:about|approximately|"
                       r"around|roughly|nearly|almost|close\s+to)\s*|~\s*)?$", re.IGNORECASE)
_CI_RE = re.compile(r"\b(?:CI|confidence\s+interval)\s*(?:[:=,]|\bof\b|\bwas\b|\bfrom\b)?\s*$",
                    re.IGNORECASE)
_SIZE_AFTER = re.compile(r"^\s*(?:new\s+)?(?:patients|participants|subjects|individuals|people|"
                         r"adults|users|veterans|respondents|persons|women|men|children|"
                         r"initiators|employees|cases)\b", re.IGNORECASE)


def _role(text: str, number: NumberMention, clause: Span | None) -> str:
    """ "point" right after a measure label, "ci" right after "CI", else ""."""
    lo = clause.start if clause else 0
    before = text[max(lo, number.span.start - 40):number.span.start]
    if _POINT_RE.search(before):
        return "point"
    if _CI_RE.search(before):
        return "ci"
    return ""


# "60-day mortality", "at 30 and 60 days": a number that a time unit follows as an adjective,
# or after "at"/"and", is a time point, never an estimate, however near a measure label it
# stands (not "a mean difference of 2 days", a value in days)
_TIME_ADJECTIVE = re.compile(r"-(?:days?|weeks?|months?|years?)\b", re.IGNORECASE)
_TIME_AFTER = re.compile(r"\s+(?:days?|weeks?|months?|years?)\b", re.IGNORECASE)
_AT_BEFORE = re.compile(r"\b(?:at|by|after|within|and|or)\s+$", re.IGNORECASE)


_N_EQUALS_BEFORE = re.compile(r"\bn\s*=\s*$", re.IGNORECASE)
_SAME_KIND_GAP = re.compile(r"[\s,]*(?:and|or|to|,)?[\s,]*(?:p\s*[=<>]\s*)?", re.IGNORECASE)


def _context(text: str, number: NumberMention, clause: Span | None) -> str:
    lo = clause.start if clause else 0
    if not number.decimals and (_TIME_ADJECTIVE.match(text, number.span.end) or (
            _TIME_AFTER.match(text, number.span.end)
            and _AT_BEFORE.search(text[max(0, number.span.start - 8):number.span.start]))):
        return "plain"
    before = text[max(lo, number.span.start - 40):number.span.start]
    if _P_CONTEXT.search(before[-24:]):
        return "p"
    labels = list(_LABEL_RE.finditer(before)) + list(_LABEL_CI_RE.finditer(before))
    if labels:
        last = max(labels, key=lambda m: m.end())
        gap = before[last.end():]
        # A closed parenthesis ends the label's reach: "(HR 1.27) and 10% higher ...".
        if (_GAP_RE.match(gap) or _TIME_GAP.fullmatch(gap)) and gap.count(")") <= gap.count("("):
            return "effect"
    if _N_EQUALS_BEFORE.search(before) or \
            _SIZE_AFTER.match(text[number.span.end:number.span.end + 30]):
        return "size"
    return "plain"


# "significance was set at p < 0.05", "not significant at p < 0.05", "alpha 0.05": the level
# defined or judged by, not a result (read in the words before the number, in its sentence)
_LEVEL_DEFINED = re.compile(r"\b(?:level|set|defined|considered|threshold|alpha|cut-?off|"
                            r"taken|accepted|significan\w*\s+(?:at|if|when))\b[^.;]*$|\u03b1",
                            re.IGNORECASE)


def _p_written_for_a_result(text: str, number: NumberMention, context: str) -> bool:
    """"(p > 0.05)", "(P value 0.05)": 0.05 written as a p-value is a result of the outcomes
    it is written for, so it is checked like any p-value, unless the words before it define
    the significance level."""
    if context != "p" or number.value != 0.05 or number.is_word:
        return False
    return not _LEVEL_DEFINED.search(text[max(0, number.span.start - 48):number.span.start])


def check_numbers(study: Study, index: StudyIndex, analysis: Analysis) -> list[NumberFinding]:
    """Every written number that no study number supports at the precision written."""
    text = analysis.text
    numbers = Numbers(text, summary_numbers(text))
    approximations = approximations_in(text)
    in_words = [a.span for a in approximations]
    mention_starts = [m.span.start for m in analysis.mentions]
    mentioned_anywhere = {m.outcome.key for m in analysis.mentions}
    findings: list[NumberFinding] = []
    previous: tuple[NumberMention, str] | None = None
    for number in numbers.items:
        if any(s.start <= number.span.start < s.end for s in in_words):
            continue  # "four in five", "2.5-fold": read as proportions below
        clause = analysis.clause_of(number.span.start)
        span = clause[2] if clause else None
        context = _context(text, number, span)
        if previous is not None and context == "plain" and previous[1] in ("p", "effect") and \
                _SAME_KIND_GAP.fullmatch(text, previous[0].span.end, number.span.start):
            context = previous[1]  # "HRs of 2.72 and 1.31", "p = 0.02 and 0.04"
        previous = (number, context)
        if accepted_anyway(text, number, span) and not _p_written_for_a_result(
                text, number, context):
            continue
        local, strict = local_outcomes(analysis, mention_starts, number)
        local = at_written_time(study, analysis, number,
                                with_counted(study, analysis, number, local))
        role = _role(text, number, span) if context == "effect" else ""

        def near(keys: set[str], strict: bool, number: NumberMention = number,
                 local: set[str] = local) -> bool:
            return named_near(study, analysis, number, local, keys, strict)

        def written_at(keys: set[str], number: NumberMention = number) -> bool:
            return at_time_written(study, analysis, number, keys)

        problem = _check(study, index, number, context, local, mentioned_anywhere, role, strict,
                         near, written_at) or shared_bound(index, analysis, mention_starts,
                                                           number, context)
        if problem is not None and context == "p" and _estimate_owner_fits(text, index, number,
                                                                           local):
            problem = None
        year = full_year(text, number)
        if problem is not None and year is not number and _check(
                study, index, year, context, local, mentioned_anywhere) is None:
            problem = None  # "registered 1990-94": 94 is 1994 (the design may write either)
        if problem is not None:
            findings.append(NumberFinding(number.span, problem[0], problem[1]))
            continue
        swapped = (size_swap(study, analysis, numbers, number)
                   or whole_as_group(study, analysis, numbers, number)
                   or baseline_swap(study, analysis, numbers, number)
                   or misplaced_share(study, index, analysis, number)
                   or other_sex(study, text, number)
                   or share_of_everyone(study, index, text, number))
        if swapped is not None:
            findings.append(swapped)
    for approximation in approximations:
        finding = check_approximation(study, analysis, index, mention_starts, approximation)
        if finding is not None:
            findings.append(finding)
    flagged = [f.span for f in findings]
    for finding in wrong_timepoint(study, index, text, numbers.items):
        if not any(s.start < finding.span.end and finding.span.start < s.end for s in flagged):
            findings.append(finding)
    flagged = [f.span for f in findings]
    for finding in (wrong_denominators(study, text) + wrong_limits(index, text)
                    + misplaced_counts(study, analysis) + wrong_statistic(study, text)):
        if not any(s.start < finding.span.end and finding.span.start < s.end for s in flagged):
            findings.append(finding)
    flagged = [f.span for f in findings]
    for contradiction in (estimates_outside_interval(text)
                          + shares_unlike_counts(text, printed_shares(study))):
        span = contradiction.span
        if not any(s.start < span.end and span.start < s.end for s in flagged):
            findings.append(NumberFinding(span, "results.outcomes", contradiction.message))
    return sorted(findings, key=lambda f: f.span.start)


def _near(index: StudyIndex, number: NumberMention, kinds: Iterable[str]) -> list[Entry]:
    """The entries of ``kinds`` a number could fit (a sorted lookup, then the exact test).

    The answer depends on the number's value and precision only, and a long summary writes
    the same values many times ("HR 0.87" for many outcomes), so each is looked up once."""
    kinds = tuple(kinds)
    key = (number.value, number.scale, number.decimals, number.hedged, kinds)
    return list(_NEAR.get(index, key, lambda: _near_entries(index, number, kinds)))


_NEAR: Memo[tuple[float, float, int, bool, tuple[str, ...]], tuple[Entry, ...]] = Memo()


def _near_entries(index: StudyIndex, number: NumberMention, kinds: tuple[str, ...]
                  ) -> tuple[Entry, ...]:
    written = number.value * number.scale
    reach = 0.5 * 10 ** (-number.decimals) + 1e-9
    if number.decimals == 0 and abs(written) >= 1000:
        reach = max(reach, 0.5 * abs(written))  # "37,000": rounded to its last non-zero digit
    if number.hedged:
        reach = max(reach, 2 * HEDGE_TOLERANCE * abs(written))
    found = index.near(kinds, written - reach, written + reach)
    if number.scale != 1.0:
        found += index.near(kinds, number.value - reach, number.value + reach)
    # fits() reads only the entry's value; a study with many outcomes holds many entries of
    # one value (800 hazard ratios of two decimals), so each value is tested once
    verdicts: dict[float, bool] = {}
    near = []
    for entry in found:
        if entry.role == "inverse":
            continue
        fit = verdicts.get(entry.value)
        if fit is None:
            fit = verdicts[entry.value] = fits(number, entry)
        if fit:
            near.append(entry)
    return tuple(near)


_EFFECT_KINDS: tuple[Kind, ...] = ("effect", "percent", "derived")


def _check(study: Study, index: StudyIndex, number: NumberMention, context: str,
           local: set[str], mentioned: set[str], role: str = "", strict: bool = False,
           near: Callable[[set[str], bool], bool] | None = None,
           written_at: Callable[[set[str]], bool] | None = None) -> tuple[str, str] | None:
    written = number.span.quote
    if context in ("p", "effect"):
        kinds: tuple[Kind, ...] = ("p",) if context == "p" else _EFFECT_KINDS
        fit = pvalue_fits if context == "p" else fits
        bound = context == "p" and number.operator in ("<", "<=", ">", ">=")
        if local:
            own = index.of_outcomes(local, *kinds)
            if any(fit(number, e) for e in own if not role or e.role in (role, "", "inverse")):
                return None
            moved = [e for e in own if fit(number, e)]
            # "(HR 1.7) and anxiety/stress-related disorders (HR 1.6)": 1.6 is a bound of a
            # named outcome but the estimate of one whose name the juror did not find
            if moved and not strict and role and any(
                    e.outcome is not None and e.outcome not in mentioned and e.role == role
                    for e in _near(index, number, kinds)):
                return None
            if moved:
                what = "point estimate" if role == "point" else "confidence limit"
                return (moved[0].field, f"{written} is written as the {what}, but in "
                        f"{moved[0].field} = {moved[0].shown} it is not")
            if bound and own:
                # a bound must hold for the outcome it is written for, whatever others have
                return (own[0].field, f"p {number.operator} {written} does not hold: "
                        f"{own[0].field} = {own[0].shown}")
            elsewhere = [e for e in (_all_p(index) if context == "p" else
                                     _near(index, number, kinds))
                         if e.outcome is not None and e.outcome not in local and fit(number, e)
                         and (not role or e.role in (role, "")) and e.role != "inverse"]
            # one outcome named at its timepoint, the number another timepoint's value of the
            # same outcome ("10-year CVD mortality (HR 2.46)" with 2.46 the 5-year HR)
            if elsewhere and near is not None and near({e.outcome or "" for e in elsewhere},
                                                       strict):
                return None
            if elsewhere and nested(study, local, {e.outcome or "" for e in elsewhere},
                                        either=False):
                return None
            timepoint_swap = len(local) == 1 and bool(elsewhere) and all(
                outcome_name(study, e.outcome or "") == outcome_name(study, next(iter(local)))
                for e in elsewhere)
            # "5-y all-cause HR 1.59, CVD HR 2.95", "within 5 and within 10 years (HRs 2.19 and
            # 2.12)": the last time phrase before the number says whose time point it is
            local_names = {outcome_name(study, k) for k in local}
            if elsewhere and written_at is not None and all(
                    outcome_name(study, e.outcome or "") in local_names for e in elsewhere) \
                    and written_at({e.outcome or "" for e in elsewhere}):
                return None
            if elsewhere and (strict or timepoint_swap
                              or all(e.outcome in mentioned for e in elsewhere)):
                names = sorted({outcome_name(study, k) for k in local})
                return (elsewhere[0].field,
                        f"{written} is {elsewhere[0].field} = {elsewhere[0].shown}, not a value "
                        f"of {', '.join(names)} named in the same sentence")
            if elsewhere and not strict:
                return None
        elif _fits_any(index, number, context, fit, kinds):
            return None
        pool = [e for e in index.of_kind(*kinds) if e.outcome is not None]
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
        candidates = [e for e in _near(index, number, ("baseline", "size", "derived"))
                      if e.kind != "derived" or e.field.startswith("results.baseline")]
    elif number.is_percent:
        candidates = _near(index, number, [k for k in index.kinds if k != "p"])
    else:
        candidates = _near(index, number, index.kinds)
    if candidates or (number.operator and any(pvalue_fits(number, e) for e in _all_p(index))):
        return None
    if _round_bound_holds(index, number):
        return None
    nearest = _nearest(number, [e for e in index.entries if e.kind != "derived"])
    return (nearest.field if nearest else "study",
            f"{written} matches no number of the study at the precision written" +
            (f" (nearest: {nearest.field} = {nearest.shown})" if nearest else ""))


def _estimate_owner_fits(text: str, index: StudyIndex, number: NumberMention,
                         local: set[str]) -> bool:
    """"more low blood sugar (OR 2.41, p < 0.001)": a p-value in one bracket with an estimate
    is the p-value of the outcome that estimate is, when the estimate (with its interval, if
    written) is one outcome's only, that outcome is not the one the juror read the name as,
    and its p-value is the one written (the name was read wrong, the numbers agree)."""
    opened = text.rfind("(", max(0, number.span.start - 80), number.span.start)
    if opened < 0 or ")" in text[opened:number.span.start]:
        return False
    written = [n for n in numbers_in(text[opened + 1:number.span.start]) if n.decimals >= 1]
    if not written or written[0].operator:
        return False
    point, bounds = written[0], written[1:3] if len(written) >= 3 else []
    owners = set()
    for entry in index.of_kind("effect"):
        if entry.outcome is None or entry.role != "point" or not fits(point, entry):
            continue
        limits = [e for e in index.of_outcomes([entry.outcome], "effect") if e.role == "ci"]
        if all(any(fits(b, e) for e in limits) for b in bounds):
            owners.add(entry.outcome)
    if len(owners) != 1 or owners & local:
        return False
    return any(pvalue_fits(number, e) for e in index.of_outcomes(owners, "p"))


def _round_bound_holds(index: StudyIndex, number: NumberMention) -> bool:
    """"more than 264,000 people" for 264,653, "under 5,000" for 4,870: a round whole number
    after a bound is a bound, so a study count above it (below it) within one unit of its last
    non-zero digit is what it says."""
    if number.decimals or number.is_percent or number.operator not in (">", ">=", "<", "<="):
        return False
    written = number.value * number.scale
    digits = str(int(abs(written)))
    zeros = len(digits) - len(digits.rstrip("0"))
    if written < 100 or not zeros:
        return False
    unit = 10.0 ** zeros
    low, high = (written, written + unit) if number.operator.startswith(">") else (
        written - unit, written)
    return any(e.kind in ("size", "text", "count", "baseline") and low <= e.value <= high
               for e in index.near(("size", "text", "count", "baseline"), low, high))


def _fits_any(index: StudyIndex, number: NumberMention, context: str,
              fit: Callable[[NumberMention, Entry], bool], kinds: tuple[Kind, ...]) -> bool:
    """With no outcome named near it, a p-value or an estimate of any outcome will do."""
    if context == "p":
        return any(fit(number, e) for e in _all_p(index))
    return any(e.outcome is not None for e in _near(index, number, kinds))


def _all_p(index: StudyIndex) -> list[Entry]:
    return [e for e in index.of_kind("p") if e.outcome is not None]


def _nearest(number: NumberMention, pool: list[Entry]) -> Entry | None:
    if not pool:
        return None
    return min(pool, key=lambda e: abs(e.value - number.value * number.scale))
