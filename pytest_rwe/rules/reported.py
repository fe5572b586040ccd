"""How a summary reports an outcome without the juror finding its name, and how it names one
without reporting it.

- By its own estimate: "64% lower risk of low potassium (HR 0.36)" reports hypokalemia when
  0.36 (or its 64%) is that outcome's value; when other outcomes share the value, only if
  the value is written more often than those outcomes, each reported by name, account for
  ("15% less low magnesium and 15% less gout" with gout and hypomagnesemia both HR 0.85).
- By a range of estimates: "repeat procedures (HRs 1.42 to 1.50)" reports target vessel
  revascularization (HR 1.47), and the outcomes at its ends, when 1.42 and 1.50 are the
  estimates of outcomes whose names share a word with its name (any and target lesion
  revascularization).
- Only named: "Acute renal failure was also examined alongside chronic kidney disease" says
  nothing of its result, even when the sentence goes on to another outcome's p-value.
"""

from __future__ import annotations

import re

from pytest_rwe.rules.claims import Analysis, Claim
from pytest_rwe.rules.index import matches
from pytest_rwe.rules.name_index import OutcomeIndex
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in
from pytest_rwe.rules.text import Span
from pytest_rwe.rules.truth import Fact

# an estimate written as one: "(HR 1.33)", "HR of 0.76", "nonfatal major (1.49)", "HRs 1.42,
# 1.47 and 1.50", "OR 9.7 for three, 16.9 for four and 37.6 for five" (a short phrase after
# each value says whose it is)
_ESTIMATE_BEFORE = re.compile(r"(?:\b(?:a?HRs?|sHRs?|a?ORs?|a?RRs?|a?PRs?|IRRs?|MDs?)|ratios?|"
                              r"difference)\s*(?:of|was|=|:|,)?\s*(?:[-\u2212]?\d+\.\d+(?:\s+"
                              r"(?:for|in|at|among|with)\s+[\w-]+(?:\s+[\w-]+)?)?\s*(?:,|and)"
                              r"\s*){0,3}$|\(\s*$", re.IGNORECASE)
# "(HR 0.77, 0.66-0.90": a number opening an interval right after an estimate is its
# confidence limit, not an estimate ("HRs 1.42 to 1.50" is a range of estimates)
_OPENS_INTERVAL = re.compile(r"\s*(?:[-\u2013]|to\b)\s*[-\u2212]?\d", re.IGNORECASE)
_AFTER_ESTIMATE = re.compile(r"\d\s*[,;]\s*$")
_CHANGE_AFTER = re.compile(r"\s*(?:%|percent|per\s+cent)\s*(?:\w+\s+)?(?:lower|higher|less|more|"
                           r"greater|fewer|reduc\w*|increas\w*|decreas\w*|excess|rise|drop)\b",
                           re.IGNORECASE)
_EXAMINED = re.compile(r"\b(?:also\s+)?(?:examined|assessed|evaluated|analy[sz]ed|modell?ed|"
                       r"studied|considered|looked\s+at|measured|included|investigated)\b",
                       re.IGNORECASE)


def _as_written(number: NumberMention, text: str, fact: Fact) -> bool:
    """The number is this fact's estimate as a summary writes one: the point after a label,
    or a ratio's percent change beside a word of change ("64% lower", "a 21% increase")."""
    if fact.point is None:
        return False
    if number.is_percent:
        if not fact.is_ratio or not _CHANGE_AFTER.match(text[number.span.end:
                                                             number.span.end + 30]):
            return False
        change = abs(fact.point - 1.0) * 100.0
        return number.value >= 5 and matches(number.value, number.decimals, change)
    if number.decimals < 1 or not matches(number.value, number.decimals, fact.point):
        return False
    labelled = bool(_ESTIMATE_BEFORE.search(text[max(0, number.span.start - 40):
                                                 number.span.start])) and not (
        _OPENS_INTERVAL.match(text, number.span.end)
        and _AFTER_ESTIMATE.search(text, 0, number.span.start))
    return labelled or _own_interval_after(number, text, fact)


# "counselling/therapy 1.51 (1.24-1.83)": a value followed by its own interval
_INTERVAL_AFTER = re.compile(r"\s*\(\s*(?:95\s*%\s*CI[:,]?\s*)?([-\u2212]?\d+\.\d+)\s*"
                             r"(?:-|\u2013|to|,)\s*([-\u2212]?\d+\.\d+)\s*[,;)]", re.IGNORECASE)


def _own_interval_after(number: NumberMention, text: str, fact: Fact) -> bool:
    """The number is followed by a bracket holding both limits of this fact's interval: a
    point estimate and its interval written together, with no label needed."""
    if fact.low is None or fact.high is None:
        return False
    match = _INTERVAL_AFTER.match(text, number.span.end)
    if match is None:
        return False
    low, high = (match.group(i).replace("\u2212", "-") for i in (1, 2))
    return all(matches(float(v), len(v.split(".")[1]), limit)
               for v, limit in ((low, fact.low), (high, fact.high)))


def estimates(analysis: Analysis, key: str, claimed: frozenset[str] = frozenset()
              ) -> list[Span]:
    """Where the summary writes this outcome's estimate, when that can only be its own (see
    the module docstring; ``claimed``: the outcomes the summary reports by name)."""
    fact = analysis.facts.get(key)
    if fact is None or fact.point is None:
        return []
    text = analysis.text
    own: list[Span] = []
    # by form (a percent change, an estimate): "a 40% lower risk (HR 0.60)" is one statement
    shared: dict[bool, list[Span]] = {True: [], False: []}
    sharing: set[str] = set()
    for number in numbers_in(text):
        if not _as_written(number, text, fact):
            continue
        others = {k for k, f in analysis.facts.items() if k != key and _as_written(number, text,
                                                                                  f)}
        if not others:
            own.append(number.span)
        elif others <= claimed:
            shared[number.is_percent].append(number.span)
            sharing |= others
    if own:
        return own
    return next((spans for spans in shared.values() if len(spans) > len(sharing)), [])


def estimate_written(analysis: Analysis, key: str, claimed: frozenset[str] = frozenset()
                     ) -> str | None:
    """"difference" when the summary writes the outcome's own estimate, "null" when only in
    a clause of no difference, None when it does not write it."""
    spans = estimates(analysis, key, claimed)
    if not spans:
        return None
    for span in spans:
        clause = analysis.clause_of(span.start)
        if clause is None:
            return "difference"
        lo, hi = clause[2].start, clause[2].end
        null = any(c.cue is not None and lo <= c.cue.start < hi and (
            c.direction == "null" or (c.direction is None and c.significant is False))
            and not _other_named_between(analysis, key, span.start, c.cue.start)
            for c in analysis.claims)
        if not null:
            return "difference"
    return "null"


def _other_named_between(analysis: Analysis, key: str, one: int, other: int) -> bool:
    """Another outcome is named between an estimate and a cue of no difference ("to make the
    groups comparable, ... a lower risk of death (...) and of readmission (HR 0.90)"): the
    cue speaks of what stands on its own side, not of this estimate."""
    return analysis.names_other(key, min(one, other), max(one, other))


def only_examined(analysis: Analysis, claim: Claim) -> bool:
    """The outcome's own stretch of the clause (up to the next outcome named) says it was
    examined, and writes no number and no claim cue."""
    if claim.mention is None:
        return False
    start = claim.mention.span.end
    end = claim.clause.end
    key = claim.outcome.key if claim.outcome is not None else ""
    for mention in analysis.mentions:
        if mention.span.start >= start and mention.outcome.key != key:
            end = min(end, mention.span.start)
            break
    stretch = analysis.text[start:end]
    if not _EXAMINED.search(stretch) or numbers_in(stretch):
        return False
    return not any(c.cue is not None and start <= c.cue.start < end for c in analysis.claims)


_RANGE = re.compile(r"\b(?:a?HRs?|sHRs?|a?ORs?|a?RRs?|a?PRs?|IRRs?)\s*(?:of|:|=|from|ranging\s+"
                    r"from)?\s*(\d+\.\d+)\s*(?:-|\u2013|to)\s*(\d+\.\d+)(?!\s*[;,]?\s*p\b)",
                    re.IGNORECASE)


def in_written_range(analysis: Analysis, index: OutcomeIndex, key: str) -> bool:
    """The outcome's estimate lies inside a range of estimates the summary writes whose two
    ends are the estimates of two other outcomes, each sharing a word of its name (see the
    module docstring)."""
    fact = analysis.facts.get(key)
    if fact is None or fact.point is None or not _RANGE.search(analysis.text):
        return False
    words = set(index.names.get(key, ()))
    for match in _RANGE.finditer(analysis.text):
        low, high = (float(match.group(i)) for i in (1, 2))
        if not low - 0.005 <= fact.point <= high + 0.005:
            continue
        # each end the estimate of this outcome or of one sharing a word of its name
        ends = [{k for k, f in analysis.facts.items() if f.point is not None
                 and matches(value, len(text.split(".")[1]), f.point)
                 and (k == key or words & set(index.names.get(k, ())))}
                for value, text in ((low, match.group(1)), (high, match.group(2)))]
        if all(ends) and ends[0] | ends[1] != {key}:
            return True
    return False
