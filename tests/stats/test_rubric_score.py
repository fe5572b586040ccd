"""The weighted rubric: a hand-computed example and every documented edge case."""

from __future__ import annotations

import pytest

from pytest_rwe.stats.rubric import (
    DEFAULT_WEIGHTS,
    competition_ranks,
    normalize,
    resolve_weights,
    score_models,
)

# Three models; time is mean seconds per summary.
THREE: dict[str, dict[str, float | None]] = {
    "A": {"direction_of_effect": 0.9, "numbers_accurate": 0.8, "completeness": 0.7,
          "inference_time": 2.0},
    "B": {"direction_of_effect": 0.7, "numbers_accurate": 1.0, "completeness": 0.9,
          "inference_time": 1.0},
    "C": {"direction_of_effect": 0.5, "numbers_accurate": 0.6, "completeness": 0.8,
          "inference_time": 4.0},
}


def test_hand_computed_example_with_default_weights() -> None:
    # direction:   min .5, max .9, span .4 -> A (.9-.5)/.4 = 1,  B (.7-.5)/.4 = .5, C 0
    # numbers:     min .6, max 1., span .4 -> A (.8-.6)/.4 = .5, B 1,               C 0
    # completeness min .7, max .9, span .2 -> A 0,               B 1,  C (.8-.7)/.2 = .5
    # time (reversed, fastest = 1): min 1, max 4, span 3 -> A (4-2)/3 = 2/3, B 1, C 0
    # weighted sums (20, 6, 5, 3):
    #   A = 20*1  + 6*.5 + 5*0  + 3*2/3 = 20 + 3 + 0 + 2 = 25
    #   B = 20*.5 + 6*1  + 5*1  + 3*1   = 10 + 6 + 5 + 3 = 24
    #   C = 20*0  + 6*0  + 5*.5 + 3*0   = 2.5
    # final: min 2.5, max 25, span 22.5 -> A 1, B (24-2.5)/22.5 = 21.5/22.5, C 0
    result = score_models(THREE)
    assert result.normalization_defined
    a, b, c = result.models["A"], result.models["B"], result.models["C"]
    assert a.normalized == pytest.approx({"direction_of_effect": 1.0, "numbers_accurate": 0.5,
                                          "completeness": 0.0, "inference_time": 2 / 3})
    assert b.normalized == pytest.approx({"direction_of_effect": 0.5, "numbers_accurate": 1.0,
                                          "completeness": 1.0, "inference_time": 1.0})
    assert c.normalized == pytest.approx({"direction_of_effect": 0.0, "numbers_accurate": 0.0,
                                          "completeness": 0.5, "inference_time": 0.0})
    assert (a.weighted_sum, b.weighted_sum, c.weighted_sum) == pytest.approx((25, 24, 2.5))
    assert (a.score, b.score, c.score) == pytest.approx((1.0, 21.5 / 22.5, 0.0))
    assert (a.rank, b.rank, c.rank) == (1, 2, 3)
    assert [m.model for m in result.ranking()] == ["A", "B", "C"]
    assert result.note is None


def test_weights_override_a_subset() -> None:
    # Only direction changes (20 -> 0): A = 0 + 3 + 0 + 2 = 5, B = 0 + 6 + 5 + 3 = 14,
    # C = 2.5 -> B 1, A (5-2.5)/11.5, C 0.
    result = score_models(THREE, weights={"direction_of_effect": 0})
    assert result.weights == {**DEFAULT_WEIGHTS, "direction_of_effect": 0.0}
    scores = {m: s.score for m, s in result.models.items()}
    assert scores == pytest.approx({"A": 2.5 / 11.5, "B": 1.0, "C": 0.0})
    assert result.models["B"].rank == 1


def test_normalize_max_keeps_observed_min() -> None:
    # completeness normalized against 1.0: min .7 stays, span 1.0 - .7 = .3
    #   A 0, B (.9-.7)/.3 = 2/3, C (.8-.7)/.3 = 1/3
    # sums: A 25 (unchanged), B 10 + 6 + 5*2/3 + 3 = 22 1/3, C 5/3
    # final span 25 - 5/3 = 70/3 -> B (67/3 - 5/3) / (70/3) = 62/70
    result = score_models(THREE, normalize_max={"completeness": 1.0})
    assert result.models["B"].normalized["completeness"] == pytest.approx(2 / 3)
    assert result.models["C"].normalized["completeness"] == pytest.approx(1 / 3)
    assert result.models["B"].weighted_sum == pytest.approx(67 / 3)
    assert result.models["B"].score == pytest.approx(62 / 70)
    assert result.normalize_max == {"completeness": 1.0}


def test_normalize_max_below_observed_max_clips_and_at_min_gives_one() -> None:
    clipped = score_models(THREE, normalize_max={"direction_of_effect": 0.7})
    # span .7 - .5 = .2: A (.9 -> clipped) 1, B 1, C 0
    assert [clipped.models[m].normalized["direction_of_effect"] for m in "ABC"] == \
        pytest.approx([1.0, 1.0, 0.0])
    at_min = score_models(THREE, normalize_max={"direction_of_effect": 0.5})
    assert {at_min.models[m].normalized["direction_of_effect"] for m in "ABC"} == {1.0}


def test_normalize_max_for_inference_time_is_the_slowest_bound() -> None:
    # range [1 s, 7 s]: A (7-2)/6, B 1, C (7-4)/6
    result = score_models(THREE, normalize_max={"inference_time": 7.0})
    assert [result.models[m].normalized["inference_time"] for m in "ABC"] == \
        pytest.approx([5 / 6, 1.0, 0.5])


def test_identical_models_share_rank_and_competition_ranking_skips() -> None:
    rows = {"A": THREE["A"], "A2": dict(THREE["A"]), "C": THREE["C"]}
    result = score_models(rows)
    assert result.models["A"].score == result.models["A2"].score == 1.0
    assert [result.models[m].rank for m in ("A", "A2", "C")] == [1, 1, 3]


def test_tie_on_weighted_sum_with_different_values() -> None:
    # With every weight 1: X = 1 + 0 + 1 + 0 = 2 and Y = 0 + 1 + 0 + 1 = 2 tie; Z = 0.
    rows = {
        "X": {"direction_of_effect": 1.0, "numbers_accurate": 0.0, "completeness": 1.0,
              "inference_time": 5.0},
        "Y": {"direction_of_effect": 0.0, "numbers_accurate": 1.0, "completeness": 0.0,
              "inference_time": 1.0},
        "Z": {"direction_of_effect": 0.0, "numbers_accurate": 0.0, "completeness": 0.0,
              "inference_time": 5.0},
    }
    ones = dict.fromkeys(DEFAULT_WEIGHTS, 1.0)
    result = score_models(rows, weights=ones)
    assert [result.models[m].rank for m in "XYZ"] == [1, 1, 3]
    assert result.models["X"].score == result.models["Y"].score == 1.0


def test_single_model_returns_raw_means_and_flag() -> None:
    result = score_models({"A": THREE["A"]})
    assert not result.normalization_defined
    assert result.note is not None and "one model" in result.note
    only = result.models["A"]
    assert only.raw == THREE["A"]
    assert only.normalized == {} and only.score is None and only.rank is None
    assert score_models({}).models == {}


def test_a_key_every_model_shares_is_undefined_and_left_out() -> None:
    flat = {m: {**v, "completeness": 0.8} for m, v in THREE.items()}
    result = score_models(flat)
    assert result.undefined == ("completeness",)
    assert {s.normalized["completeness"] for s in result.models.values()} == {None}
    assert "completeness: every model has the same mean" in (result.note or "")
    # the remaining weights as they are: the same sums as with completeness weighted 0
    without = score_models(flat, weights={"completeness": 0})
    for m in "ABC":
        assert result.models[m].weighted_sum == pytest.approx(without.models[m].weighted_sum)
        assert result.models[m].score == pytest.approx(without.models[m].score)
    # A = 20 + 3 + 2 = 25, B = 10 + 6 + 3 = 19, C = 0
    assert result.models["B"].weighted_sum == pytest.approx(19)


def test_two_all_zero_models_are_not_ranked_by_their_criteria() -> None:
    # the case: 0.00 on every criterion, 30 ms apart
    zero = {"fast": {**dict.fromkeys(THREE["A"], 0.0), "inference_time": 1.00},
            "slow": {**dict.fromkeys(THREE["A"], 0.0), "inference_time": 1.03}}
    result = score_models(zero)
    assert result.undefined == ("direction_of_effect", "numbers_accurate", "completeness")
    assert result.models["fast"].normalized["direction_of_effect"] is None
    # only time is left to rank them, and the note says the criteria could not
    assert result.models["fast"].score == 1.0 and result.models["slow"].score == 0.0
    assert "cannot rank them" in (result.note or "")
    # without a time weight nothing separates them: no score at all
    quality = score_models(zero, weights={"inference_time": 0})
    assert not quality.normalization_defined
    assert "nothing separates them" in (quality.note or "")
    assert {s.score for s in quality.models.values()} == {None}


def test_everything_equal_gives_no_score() -> None:
    same = {m: dict(THREE["A"]) for m in ("P", "Q", "R")}
    result = score_models(same)
    assert not result.normalization_defined
    assert {(s.score, s.rank) for s in result.models.values()} == {(None, None)}
    zero = score_models(THREE, weights=dict.fromkeys(DEFAULT_WEIGHTS, 0))
    assert not zero.normalization_defined and "every weight is 0" in (zero.note or "")


def test_a_model_with_no_evaluation_gets_no_score() -> None:
    # a replay-only run on an empty store: no criterion mean, no latency, for every model
    empty = {m: dict.fromkeys(THREE["A"]) for m in ("X", "Y")}
    result = score_models(empty)
    assert not result.normalization_defined
    assert "no model has an evaluation" in (result.note or "")
    assert {(s.score, s.rank) for s in result.models.values()} == {(None, None)}
    # one model never judged (latency only) beside two scored ones: it is not scored
    rows = {"A": THREE["A"], "B": THREE["B"],
            "N": {**dict.fromkeys(THREE["A"]), "inference_time": 0.1}}
    mixed = score_models(rows)
    assert mixed.models["N"].score is None and mixed.models["N"].rank is None
    assert mixed.models["A"].rank == 1


def test_missing_value_leaves_model_unscored() -> None:
    rows = {**THREE, "D": {**THREE["B"], "completeness": None}}
    result = score_models(rows)
    assert result.models["D"].score is None and result.models["D"].missing == ("completeness",)
    assert result.note is not None and "not scored" in result.note
    # The others are normalized among themselves, exactly as without D.
    assert result.models["B"].score == pytest.approx(21.5 / 22.5)
    assert result.ranking()[-1].model == "D"


def test_key_missing_for_every_model_is_dropped() -> None:
    rows = {m: {**v, "inference_time": None} for m, v in THREE.items()}
    result = score_models(rows)
    assert result.dropped == ("inference_time",)
    assert result.normalization_defined
    # A = 20 + 3 + 0 = 23, B = 10 + 6 + 5 = 21, C = 2.5
    assert result.models["B"].score == pytest.approx((21 - 2.5) / (23 - 2.5))


def test_missing_value_with_zero_weight_is_allowed() -> None:
    rows = {m: {**v, "inference_time": None} for m, v in THREE.items()}
    rows["A"]["inference_time"] = 3.0
    result = score_models(rows, weights={"inference_time": 0})
    assert all(s.score is not None for s in result.models.values())
    assert "inference_time" not in result.models["B"].normalized


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"weights": {"direction": 1}}, "unknown weight 'direction'"),
        ({"weights": {"completeness": -1}}, "must be a finite number >= 0"),
        ({"normalize_max": {"completeness": 2}}, "must be a number in [0, 1]"),
        ({"normalize_max": {"inference_time": 0}}, "seconds > 0"),
    ],
)
def test_bad_options_name_the_key(kwargs: dict[str, dict[str, float]], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        score_models(THREE, **kwargs)


def test_bad_values_name_model_and_key() -> None:
    with pytest.raises(ValueError, match=r"B: completeness .* \[0, 1\]"):
        score_models({**THREE, "B": {**THREE["B"], "completeness": 1.5}})
    with pytest.raises(ValueError, match="unknown key of model 'B' 'speed'"):
        score_models({**THREE, "B": {**THREE["B"], "speed": 1.0}})
    with pytest.raises(ValueError, match="inference_time must be >= 0"):
        score_models({**THREE, "B": {**THREE["B"], "inference_time": -1.0}})


def test_helpers() -> None:
    assert normalize([3.0, 1.0, 2.0]) == [1.0, 0.0, 0.5]
    assert normalize([3.0, 1.0, 2.0], reverse=True) == [0.0, 1.0, 0.5]
    assert normalize([2.0, 2.0]) == [1.0, 1.0]
    assert competition_ranks({"a": 0.5, "b": 1.0, "c": 0.5, "d": 0.1}) == \
        {"a": 2, "b": 1, "c": 2, "d": 4}
    assert resolve_weights(None) == DEFAULT_WEIGHTS
