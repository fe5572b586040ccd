"""Bradley-Terry ratings, per-study scores, and differences from the top model."""

from __future__ import annotations

import math
import random

import pytest

from pytest_rwe.stats.bradley_terry import (
    CENTRE,
    bradley_terry,
    fit_strengths,
    study_wins,
    to_ratings,
)
from pytest_rwe.stats.pairwise import (
    WEIGHTED_SCORE,
    differences_from_top,
    pair_scores,
    study_score,
)
from pytest_rwe.stats.rubric import DEFAULT_WEIGHTS, resolve_weights

W = resolve_weights(None)


def row(d: float | None, n: float | None, c: float | None,
        t: float | None = 2.0) -> dict[str, float | None]:
    return {"direction_of_effect": d, "numbers_accurate": n, "completeness": c,
            "inference_time": t}


def test_study_score_uses_the_fastest_of_the_pair() -> None:
    # 20*1 + 6*.5 + 5*0 + 3 * (1 s / 2 s) = 24.5
    assert study_score(row(1, 0.5, 0, 2.0), W, fastest=1.0) == pytest.approx(24.5)
    assert study_score(row(1, 0.5, 0, 1.0), W, fastest=1.0) == pytest.approx(26.0)
    assert study_score(row(1, 0.5, None), W, fastest=1.0) is None
    no_time = resolve_weights({"inference_time": 0})
    assert study_score(row(1, 1, 1, None), no_time, fastest=None) == 31.0
    # A pair's scores depend only on the pair.
    assert pair_scores(row(1, 1, 1, 4.0), row(1, 1, 1, 2.0), W) == pytest.approx((32.5, 34.0))


def test_two_models_have_the_closed_form() -> None:
    # For two models the BT MLE is p_A / p_B = W_A / W_B. A won 3 of 4, plus the prior's
    # half game each: 3.5 / 1.5 -> rating gap 400 * log10(7/3).
    strengths = fit_strengths([[0.0, 3.0], [1.0, 0.0]], prior=1.0)
    ratings = to_ratings(strengths)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(7 / 3), abs=1e-4)
    assert sum(ratings) / 2 == pytest.approx(CENTRE)


def test_a_model_that_wins_everything_stays_finite() -> None:
    ratings = to_ratings(fit_strengths([[0.0, 40.0], [0.0, 0.0]]))
    assert all(math.isfinite(r) for r in ratings)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(40.5 / 0.5), abs=1e-3)
    with pytest.raises(ValueError, match="prior"):
        fit_strengths([[0.0]], prior=0)


def _clear_order(studies: int = 30, seed: int = 1) -> dict[str, dict[str, dict[str, float | None]]]:
    """Direction correct with probability .9 ('good'), .6 ('mid'), .3 ('bad'), jury of 3."""
    rng = random.Random(seed)

    def jury(p: float) -> float:
        return sum(rng.random() < p for _ in range(3)) / 3

    per: dict[str, dict[str, dict[str, float | None]]] = {}
    for s in range(studies):
        per[f"s{s}"] = {name: row(jury(p), jury(p), jury(p), 2.0)
                        for name, p in (("bad", 0.3), ("good", 0.9), ("mid", 0.6))}
    return per


def test_recovers_the_order_of_clearly_different_models() -> None:
    result = bradley_terry(_clear_order(), resamples=300, seed=4)
    assert [r.model for r in result.ratings] == ["good", "mid", "bad"]
    assert result.top == "good"
    assert sum(r.rating for r in result.ratings) / 3 == pytest.approx(CENTRE)
    good, mid, bad = result["good"], result["mid"], result["bad"]
    assert good.low <= good.rating <= good.high
    assert bad.high < mid.low  # clearly separated
    assert (good.comparisons, result.studies) == (60, 30)
    assert 0 < bad.wins < mid.wins < good.wins < 60
    assert result == bradley_terry(_clear_order(), resamples=300, seed=4)  # seeded


def test_identical_models_get_equal_ratings() -> None:
    per = _clear_order()
    for by_model in per.values():
        by_model["twin"] = dict(by_model["mid"])
    result = bradley_terry(per, resamples=200)
    assert result["twin"].rating == pytest.approx(result["mid"].rating, abs=1e-6)
    all_same = {s: {"x": row(1, 1, 1), "y": row(1, 1, 1)} for s in ("a", "b", "c")}
    tied = bradley_terry(all_same, resamples=100)
    assert [r.rating for r in tied.ratings] == pytest.approx([CENTRE, CENTRE])
    assert tied["x"].wins == 1.5  # three ties = half a win each


def test_models_without_scores_on_a_study_sit_it_out() -> None:
    per = {
        "s1": {"a": row(1, 1, 1), "b": row(0, 0, 0), "c": row(1, None, 1)},
        "s2": {"a": row(1, 1, 1), "b": row(0, 0, 0)},
    }
    wins = study_wins(per, ["a", "b", "c"])
    assert wins[0] == [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    result = bradley_terry(per, resamples=50)
    assert result["c"].comparisons == 0
    assert result["c"].rating == pytest.approx(CENTRE, abs=1e-3)  # between a and b


def test_one_model_or_none() -> None:
    single = bradley_terry({"s1": {"a": row(1, 1, 1)}}, resamples=10)
    assert [(r.model, r.rating, r.low, r.high) for r in single.ratings] == [
        ("a", CENTRE, CENTRE, CENTRE)]
    assert bradley_terry({}, resamples=10).ratings == ()


def test_differences_from_top() -> None:
    per = _clear_order()
    diffs = differences_from_top(per, "good", resamples=500, seed=2)
    assert set(diffs) == {"bad", "mid"}
    bad = diffs["bad"]
    direction = bad["direction_of_effect"]
    assert direction is not None and direction.high < 0  # clearly worse than the top
    mid = diffs["mid"]["completeness"]
    assert mid is not None and mid.low < mid.mean < mid.high < 0
    time = bad["inference_time"]
    assert time == (0.0, 0.0, 0.0)  # same latency everywhere
    weighted = bad[WEIGHTED_SCORE]
    assert weighted is not None and weighted.high < 0
    assert diffs == differences_from_top(per, "good", resamples=500, seed=2)


def test_differences_with_no_paired_study_are_none() -> None:
    per = {"s1": {"a": row(1, 1, 1), "b": row(None, 1, 1)}}
    diffs = differences_from_top(per, "a", keys=["direction_of_effect", "completeness"])
    assert diffs["b"]["direction_of_effect"] is None
    assert diffs["b"]["completeness"] == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="unknown key 'speed'"):
        differences_from_top(per, "a", keys=["speed"])


def test_default_weights_are_the_papers() -> None:
    assert dict(DEFAULT_WEIGHTS) == {"direction_of_effect": 20, "numbers_accurate": 6,
                                     "completeness": 5, "inference_time": 3}
