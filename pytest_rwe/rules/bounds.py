"""Tolerances and p-value bounds: a written number fits a study value at the precision
written (a hedged one also within HEDGE_TOLERANCE); "p < 0.01" must hold for the p-value of
the outcome it is written for, and a bound closing a list ("(all p < 0.01)") for each
outcome of the list."""

from __future__ import annotations

import re

from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.approximate import HEDGE_TOLERANCE
from pytest_rwe.rules.index import Entry, StudyIndex, matches
from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.rules.proportions import sentence_mentions


def tolerance(number: NumberMention, value: float) -> float:
    """How far a written number may be from a study value: half a unit of its last digit;
    a hedged number ("about 0.9") also HEDGE_TOLERANCE of the value, whichever is wider."""
    tolerance = 0.5 * 10.0 ** (-number.decimals) + 1e-9
    if number.hedged:
        tolerance = max(tolerance, HEDGE_TOLERANCE * abs(value) + 1e-9)
    return float(tolerance)


def fits(number: NumberMention, entry: Entry) -> bool:
    written = number.value * number.scale
    if number.hedged and abs(written - entry.value) <= tolerance(number, entry.value):
        return True
    return matches(written, number.decimals, entry.value) or (
        number.scale != 1.0 and matches(number.value, number.decimals, entry.value))


def pvalue_fits(number: NumberMention, entry: Entry) -> bool:
    if number.operator in ("<", ">") and abs(entry.value - number.value) <= 1e-12 and \
            not entry.shown.lstrip().startswith(number.operator):
        return False  # "p < 0.001" for p = 0.001: a strict bound its own value does not meet
    if number.operator in ("<", "<="):
        return entry.value <= number.value + 1e-12
    if number.operator in (">", ">="):
        return entry.value >= number.value - 1e-12 and not entry.shown.lstrip().startswith("<")
    return fits(number, entry)


_SHARED_BOUND = re.compile(r"\(\s*(?:all|each|both)\s+(?:with\s+)?p(?:\s*-?\s*values?)?\s*"
                           r"(?:[<>≤≥]=?|(?:was|were)?\s*(?:less|greater)\s+than|below|above)\s*$",
                           re.IGNORECASE)
_EXCEPT = re.compile(r"\b(?:except|apart|other|others|remaining|rest|but)\b", re.IGNORECASE)


def shared_bound(index: StudyIndex, analysis: Analysis, mention_starts: list[int],
                  number: NumberMention, context: str) -> tuple[str, str] | None:
    """A bound closing a list, "A (HR 0.76), B (HR 0.66) and C (HR 0.73) (all p < 0.01)",
    holds for every outcome the clause names before it. Only when the clause writes no other
    p-value and no exception ("apart from gout, all had p < 0.001")."""
    if context != "p" or number.operator not in ("<", "<=", ">", ">="):
        return None
    text = analysis.text
    if not _SHARED_BOUND.search(text[max(0, number.span.start - 32):number.span.start]):
        return None
    clause = analysis.clause_of(number.span.start)
    if clause is None:
        return None
    span = clause[2]
    before = text[span.start:number.span.start]
    if _EXCEPT.search(before) or re.search(r"\bp\s*(?:-?\s*values?)?\s*[=<>≤≥]", before[:-32]
                                           if len(before) > 32 else "", re.IGNORECASE):
        return None
    keys = sorted({m.outcome.key for m in sentence_mentions(analysis, mention_starts,
                                                            number.span.start)
                   if span.start <= m.span.start < number.span.start})
    for entry in index.of_outcomes(keys, "p"):
        if not pvalue_fits(number, entry):
            return (entry.field, f"p {number.operator} {number.span.quote} is written for all of "
                    f"them, but {entry.field} = {entry.shown}")
    return None
