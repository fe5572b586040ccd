"""The undefined-key rule cannot move a score or a rank of the paper's method.

DESIGN.md's rubric scored a key on which every model has the same mean 1.0 for everyone; now
it is undefined and left out of the sum. Either way every model's weighted sum changes by the
same constant, which the final min-max normalization removes: the scores, the ranks (what the
paper's Figure 2 shows) and the weights at which the top model changes (its sensitivity
statements) are the same. Checked against an independent, literal implementation of
DESIGN.md's rubric, on tables of nine models like the paper's Table 1.
"""

from __future__ import annotations

import random

import pytest

from pytest_rwe.stats.rubric import DEFAULT_WEIGHTS, RUBRIC_KEYS, score_models
from pytest_rwe.stats.sensitivity import weight_sensitivity

Table = dict[str, dict[str, float]]


def literal_rubric(table: Table, weights: dict[str, float]) -> dict[str, float]:
    """DESIGN.md's rubric as written: min-max per key (time reversed, min == max -> 1.0),
    weighted sum, min-max again (all equal -> 1.0)."""
    def norm(values: list[float], reverse: bool = False) -> list[float]:
        lo, hi = min(values), max(values)
        if hi - lo <= 1e-12:
            return [1.0] * len(values)
        return [((hi - v) if reverse else (v - lo)) / (hi - lo) for v in values]

    models = list(table)
    sums = [0.0] * len(models)
    for key in RUBRIC_KEYS:
        column = norm([table[m][key] for m in models], reverse=key == "inference_time")
        sums = [s + weights[key] * v for s, v in zip(sums, column, strict=True)]
    return dict(zip(models, norm(sums), strict=True))


def nine_models(seed: int, constant: tuple[str, ...] = ()) -> Table:
    rng = random.Random(seed)
    table = {}
    for i in range(9):
        row = {"direction_of_effect": round(rng.uniform(0.6, 1.0), 3),
               "numbers_accurate": round(rng.uniform(0.6, 1.0), 3),
               "completeness": round(rng.uniform(0.8, 1.0), 3),
               "inference_time": round(rng.uniform(2.0, 30.0), 2)}
        table[f"model-{i}"] = row
    for key in constant:  # e.g. every model judged complete on every study
        for row in table.values():
            row[key] = 1.0
    return table


@pytest.mark.parametrize("constant", [(), ("completeness",), ("completeness",
                                                               "numbers_accurate")])
@pytest.mark.parametrize("seed", range(5))
def test_scores_and_ranks_are_those_of_the_literal_rubric(seed: int,
                                                          constant: tuple[str, ...]) -> None:
    table = nine_models(seed, constant)
    result = score_models(table)
    expected = literal_rubric(table, dict(DEFAULT_WEIGHTS))
    assert {m: s.score for m, s in result.models.items()} == pytest.approx(expected)
    assert result.undefined == tuple(k for k in RUBRIC_KEYS if k in constant)
    order = sorted(expected, key=lambda m: -expected[m])
    assert [m.model for m in result.ranking()] == order


@pytest.mark.parametrize("seed", range(3))
def test_the_top_model_changes_at_the_same_weights(seed: int) -> None:
    table = nine_models(seed, ("completeness",))
    sensitivity = weight_sensitivity(table)
    assert "completeness" not in sensitivity  # undefined: its weight changes nothing
    for key, sens in sensitivity.items():
        for segment in sens.segments:
            w = (segment.low + segment.high) / 2
            weights = {**DEFAULT_WEIGHTS, key: w}
            literal = literal_rubric(table, weights)
            best = max(literal.values())
            assert segment.top == tuple(m for m, s in literal.items() if s >= best - 1e-9)
