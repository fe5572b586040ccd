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
    clearly_faster,
    differences_from_top,
    pair_scores,
    quality_score,
)
from pytest_rwe.stats.rubric import DEFAULT_WEIGHTS, resolve_weights

W = resolve_weights(None)


def row(d: float | None, n: float | None, c: float | None,
        t: float | None = 2.0) -> dict[str, float | None]:
    return {"direction_of_effect": d, "numbers_accurate": n, "completeness": c,
            "inference_time": t}


def test_per_study_scores_are_quality_only_by_default() -> None:
    # 20*1 + 6*.5 + 5*0 = 23; the rubric's inference_time weight is not used
    assert quality_score(row(1, 0.5, 0, 2.0), W) == pytest.approx(23.0)
    assert quality_score(row(1, 0.5, None), W) is None
    # twice as slow, same quality: a tie, whatever the latencies
    assert pair_scores(row(1, 1, 1, 4.0), row(1, 1, 1, 2.0), W) == (31.0, 31.0)
    assert pair_scores(row(1, 1, 1, None), row(1, 1, 1, 2.0), W) == (31.0, 31.0)


def test_time_counts_only_with_a_weight_and_beyond_the_tolerance() -> None:
    assert clearly_faster(1.0, 2.0) == 1 and clearly_faster(2.0, 1.0) == -1
    assert clearly_faster(1.0, 1.05) == 0  # 5% faster: within the 10% tolerance
    assert clearly_faster(0.001, 0.0011) == 0  # a tenth of a millisecond decides nothing
    assert clearly_faster(0.89, 1.0) == 1
    assert pair_scores(row(1, 1, 1, 4.0), row(1, 1, 1, 2.0), W, time_weight=3) == (31.0, 34.0)
    assert pair_scores(row(1, 1, 1, 1.95), row(1, 1, 1, 2.0), W, time_weight=3) == (31.0, 31.0)
    assert pair_scores(row(1, 1, 1, 1.0), row(1, 1, 1, 2.0), W, time_weight=3,
                       time_tolerance=0.6) == (31.0, 31.0)
    # a time weight needs both times
    assert pair_scores(row(1, 1, 1, None), row(1, 1, 1, 2.0), W, time_weight=3) is None


def test_equal_quality_gives_equal_ratings_whatever_the_latency() -> None:
    # the case: every criterion 1.00 for both models, one a millisecond faster
    per = {f"s{i}": {"fast": row(1, 1, 1, 0.030), "slow": row(1, 1, 1, 0.031)}
           for i in range(20)}
    result = bradley_terry(per, resamples=200)
    assert [r.rating for r in result.ratings] == pytest.approx([CENTRE, CENTRE])
    assert result["fast"].wins == 10.0  # 20 ties
    assert (result.time_weight, result.time_tolerance) == (0.0, 0.1)
    # even with a time weight, 3% faster is within the tolerance
    timed = bradley_terry(per, resamples=50, time_weight=3)
    assert timed["fast"].rating == pytest.approx(CENTRE)
    # twice as fast, with the weight: a real win on every study
    per = {f"s{i}": {"fast": row(1, 1, 1, 1.0), "slow": row(1, 1, 1, 2.0)} for i in range(20)}
    assert bradley_terry(per, resamples=50, time_weight=3)["fast"].wins == 20
    assert bradley_terry(per, resamples=50)["fast"].wins == 10
    with pytest.raises(ValueError, match="time_tolerance"):
        bradley_terry(per, resamples=10, time_tolerance=1.5)


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
