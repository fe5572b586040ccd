"""A change over time stated against the values at the time points: "remission increased
between two years (58.2%) and five years (46.6%)", "rose steadily from 32.7% at 6 months to
69.7%, 63.4% and 59.2%".

Only for an outcome a study without a comparator reports under one name at several time
points with a value and no effect estimate (a case series' proportions or means at 6, 12 and
24 months): a change word ("increased", "rose", "fell", "declined") that the reader tied to
two or more of those time points states how the value moved between them. It is checked
against the study's values at the earliest and the latest time point it names; with
"steadily" (or "consistently", "progressively", "continuously") at every reported time
point in between as well. A clause that states both directions for the name ("rose, then
fell"), or measures the change from before the first time point ("fell from baseline to
30% at one year and 35% at two"), is not judged: which words go with which step is not read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from itertools import pairwise

from pytest_rwe.rules.analysis import Analysis, Claim
from pytest_rwe.rules.at_time import TIME_COUNT, TIME_UNIT, in_days, timepoint_days
from pytest_rwe.rules.text import Span
from pytest_rwe.study import Outcome, Study

__all__ = ["TrendFinding", "trend_findings"]

TrendFinding = tuple[Span, str, str]  # the quote, the study field, the message

# verbs of change over time, not comparisons ("higher", "more") nor valence ("improved")
_CHANGE = re.compile(r"^(?:increas|rose|rise|rising|grew|grow|climb|went\s+up|fell|fall|"
                     r"declin|decreas|drop|dipp|went\s+down)", re.IGNORECASE)
# a change from a reference before the first time point ("fell from baseline to 30% at one
# year and 35% at two"): it says nothing of how the time points compare
_FROM_BEFORE = re.compile(r"\b(?:baseline|before|pre-?(?:operative(?:ly)?|treatment|surgery)|"
                          r"prior\s+to|at\s+entry|at\s+start)\b", re.IGNORECASE)
_STEADY = re.compile(r"\b(?:steadily|consistently|progressively|continuously|continually|"
                     r"monotonically)\b", re.IGNORECASE)


def _value(outcome: Outcome) -> tuple[str, float] | None:
    """The outcome's one reported value (a share or a mean) when it has no effect estimate."""
    if outcome.effect is not None or len(outcome.estimates) != 1:
        return None
    measure, estimate = next(iter(outcome.estimates.items()))
    return str(measure), estimate.value


Points = list[tuple[float, Outcome, float]]  # (days, outcome, value) in time order


def _series(study: Study) -> dict[str, tuple[str, Points]]:
    """Per name: the measure and the time points that carry one value of it, when all carry
    the same kind of value and there are two or more."""
    by_name: dict[str, list[tuple[float, Outcome, str, float]]] = {}
    for outcome in study.outcomes:
        days, value = timepoint_days(outcome), _value(outcome)
        if days is not None and value is not None:
            by_name.setdefault(outcome.name, []).append((days, outcome, *value))
    out: dict[str, tuple[str, Points]] = {}
    for name, points in by_name.items():
        if len(points) > 1 and len({p[2] for p in points}) == 1 and \
                len({p[0] for p in points}) == len(points):
            out[name] = (points[0][2],
                         [(d, o, v) for d, o, _, v in sorted(points, key=lambda p: p[0])])
    return out


_WRITTEN_TIME = re.compile(r"\b" + TIME_COUNT + r"[\s-]*" + TIME_UNIT, re.IGNORECASE)


def _written_days(text: str) -> set[float]:
    """The time points written in ``text`` ("six months", "2-year", "5 y"), in days."""
    found = (in_days(m.group(1), m.group(2)) for m in _WRITTEN_TIME.finditer(text))
    return {round(d) for d in found if d is not None}


def _field(outcome: Outcome, measure: str) -> str:
    return f"results.outcomes[{json.dumps(outcome.key + '!' + measure)}]"


def _moves(values: list[float], direction: str) -> bool:
    return all((b > a) if direction == "higher" else (b < a) for a, b in pairwise(values))


def _judged(claims: Iterable[Claim]) -> list[Claim]:
    return [c for c in claims if c.grounded and not c.baseline and not c.hedged and
            c.outcome is not None and c.cue is not None and c.direction in ("higher", "lower")
            and _CHANGE.match(c.cue.quote)]


def trend_findings(study: Study, analysis: Analysis) -> list[TrendFinding]:
    """Changes over time that the study's values at the time points named contradict."""
    series = _series(study)
    if not series:
        return []
    findings: list[TrendFinding] = []
    by_clause: dict[tuple[int, str], list[Claim]] = {}
    for claim in analysis.claims:
        if claim.outcome is not None and claim.outcome.name in series:
            by_clause.setdefault((claim.clause.start, claim.outcome.name), []).append(claim)
    for (_, name), claims in by_clause.items():
        if {c.direction for c in claims if c.direction in ("higher", "lower")} - \
                {c.direction for c in _judged(claims)}:
            continue  # a comparison word besides the change word: not read as one trend
        judged = _judged(claims)
        directions = {c.direction for c in judged}
        if len(directions) != 1:
            continue
        clause = judged[0].clause
        if _FROM_BEFORE.search(clause.quote):
            continue
        written = _written_days(clause.quote)
        # the time points the clause writes out name them, whichever one the reader tied
        keys = {c.outcome.key for c in judged if c.outcome is not None} | {
            o.key for d, o, _ in series[name][1] if round(d) in written}
        if len(keys) < 2:
            continue
        direction = directions.pop() or ""
        measure, points = series[name]
        named = [i for i, (_, o, _) in enumerate(points) if o.key in keys]
        span = points[named[0]:named[-1] + 1]
        steady = _STEADY.search(clause.quote) is not None
        values = [v for _, _, v in span] if steady else [span[0][2], span[-1][2]]
        if _moves(values, direction):
            continue
        cue = judged[0].cue
        assert cue is not None
        start = min(cue.start, *(c.mention.span.start for c in judged if c.mention))
        end = max(cue.end, *(c.mention.span.end for c in judged if c.mention))
        shown = ", ".join(f"{v:g} at {o.timepoint}" for _, o, v in span)
        how = "rose at every step" if steady else "was higher at the end"
        if direction == "lower":
            how = how.replace("rose", "fell").replace("higher", "lower")
        findings.append((Span(start, end, analysis.text[start:end]),
                         _field(span[-1][1], measure),
                         f"says {name} {how}, but the study reports {shown}"))
    return findings
