"""How far each rubric weight can move before the top model changes.

The normalized values do not depend on the weights, and the final min-max normalization is
increasing, so the top model is the one with the largest weighted sum. Varying one weight w
with the others fixed, each model's weighted sum is a line ``a + w * v`` (v = its normalized
value on that key); the winner is the upper envelope of the lines, and every change of
winner happens where two lines cross. Breakpoints are therefore exact, not a grid.

The scan covers ``[0, max(upper, current weight)]``. The stable range is the closed interval
around the current weight on which every current top model stays on top (at its ends it
ties with the model that wins beyond). When the top is itself a tie between models whose
lines cross there, any change of that weight breaks the tie, and the range is one point.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise

from pytest_rwe.stats.rubric import ModelMeans, active_keys, score_models

DEFAULT_UPPER = 100.0
_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Segment:
    """Between two breakpoints, the model(s) on top."""

    low: float
    high: float
    top: tuple[str, ...]


@dataclass(frozen=True)
class WeightSensitivity:
    """The stable range of one weight and who wins outside it (None: the scan's end)."""

    key: str
    weight: float
    top: tuple[str, ...]
    low: float
    high: float
    below: tuple[str, ...] | None
    above: tuple[str, ...] | None
    segments: tuple[Segment, ...]


def _top(lines: Mapping[str, tuple[float, float]], w: float) -> tuple[str, ...]:
    values = {m: a + w * v for m, (a, v) in lines.items()}
    best = max(values.values())
    tolerance = _TOLERANCE * max(1.0, abs(best))
    return tuple(m for m, value in values.items() if value >= best - tolerance)


def weight_sensitivity(means: ModelMeans, *, weights: Mapping[str, float] | None = None,
                       normalize_max: Mapping[str, float] | None = None,
                       upper: float = DEFAULT_UPPER) -> dict[str, WeightSensitivity]:
    """For each rubric weight, the range keeping the top model(s), and the winners outside it.

    Returns {} when the rubric is undefined (fewer than two scored models). A key is left out
    when it is missing for every model, or (weight 0) for some scored model, or undefined
    (every model has the same value: it is not in the sum, so its weight changes nothing).
    """
    rubric = score_models(means, weights=weights, normalize_max=normalize_max)
    if not rubric.normalization_defined:
        return {}
    scored = {m: s for m, s in rubric.models.items() if s.weighted_sum is not None}
    result: dict[str, WeightSensitivity] = {}
    for key in active_keys(rubric.weights):
        if key in rubric.dropped or key in rubric.undefined or any(
                s.normalized.get(key) is None for s in scored.values()):
            continue  # raising this weight would leave some model unscored: no line to draw
        current = rubric.weights[key]
        end = max(upper, current)
        lines = {m: ((s.weighted_sum or 0.0) - current * (s.normalized[key] or 0.0),
                     s.normalized[key] or 0.0)
                 for m, s in scored.items()}
        points = {0.0, end, current}
        items = list(lines.values())
        for x, (a1, v1) in enumerate(items):
            for a2, v2 in items[x + 1:]:
                if abs(v1 - v2) > _TOLERANCE:
                    crossing = (a2 - a1) / (v1 - v2)
                    if 0.0 < crossing < end:
                        points.add(crossing)
        ordered = sorted(points)
        segments: list[Segment] = []
        for lo, hi in pairwise(ordered):
            top = _top(lines, (lo + hi) / 2)
            if segments and segments[-1].top == top:
                segments[-1] = Segment(segments[-1].low, hi, top)
            else:
                segments.append(Segment(lo, hi, top))
        top_now = _top(lines, current)
        # Where all current top models are on top is an interval (upper envelope of lines),
        # and its ends are breakpoints, so checking the breakpoints finds it exactly.
        stable = [p for p in ordered if set(top_now) <= set(_top(lines, p))]
        low, high = min(stable), max(stable)
        below = _top(lines, _just_inside(ordered, low, -1)) if low > 0.0 else None
        above = _top(lines, _just_inside(ordered, high, +1)) if high < end else None
        result[key] = WeightSensitivity(key, current, top_now, low, high, below, above,
                                        tuple(segments))
    return result


def _just_inside(points: list[float], at: float, direction: int) -> float:
    """The midpoint between ``at`` and its neighbouring breakpoint in ``direction``."""
    index = points.index(at) + direction
    return (at + points[index]) / 2
