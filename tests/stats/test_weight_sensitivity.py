"""Weight sensitivity: exact breakpoints where the top model changes."""

from __future__ import annotations

import random

import pytest

from pytest_rwe.stats.rubric import RUBRIC_KEYS, score_models
from pytest_rwe.stats.sensitivity import weight_sensitivity

# Two models at opposite extremes, so every normalized value is 0 or 1:
# A: direction 1, numbers 0, completeness 0, slow (0); B: the reverse.
TWO = {
    "A": {"direction_of_effect": 1.0, "numbers_accurate": 0.0, "completeness": 0.0,
          "inference_time": 3.0},
    "B": {"direction_of_effect": 0.0, "numbers_accurate": 1.0, "completeness": 1.0,
          "inference_time": 1.0},
}


def test_known_flip_points() -> None:
    # Default weights: A = 20, B = 6 + 5 + 3 = 14, so A is on top.
    result = weight_sensitivity(TWO)
    direction = result["direction_of_effect"]  # A = w, B = 14: A stays on top for w >= 14
    assert direction.top == ("A",) and direction.weight == 20
    assert (direction.low, direction.high) == pytest.approx((14, 100))
    assert direction.below == ("B",) and direction.above is None
    numbers = result["numbers_accurate"]  # A = 20, B = w + 8: flips at 12
    assert (numbers.low, numbers.high) == pytest.approx((0, 12))
    assert numbers.below is None and numbers.above == ("B",)
    assert (result["completeness"].low, result["completeness"].high) == pytest.approx((0, 11))
    time = result["inference_time"]  # B = 11 + w: flips at 9
    assert time.low == 0 and time.high == pytest.approx(9) and time.above == ("B",)
    assert [(s.top, round(s.low, 9), round(s.high, 9)) for s in direction.segments] == [
        (("B",), 0, 14), (("A",), 14, 100)]


def test_a_tie_at_the_current_weight_is_a_single_point() -> None:
    result = weight_sensitivity(TWO, weights={"direction_of_effect": 14})
    direction = result["direction_of_effect"]
    assert direction.top == ("A", "B")
    assert direction.low == direction.high == 14
    assert direction.below == ("B",) and direction.above == ("A",)


def test_scan_extends_to_a_weight_above_the_upper_bound() -> None:
    result = weight_sensitivity(TWO, weights={"direction_of_effect": 150}, upper=100)
    assert result["direction_of_effect"].high == 150


def test_segments_agree_with_rescoring_on_a_grid() -> None:
    rng = random.Random(9)
    means = {
        f"m{i}": {"direction_of_effect": rng.random(), "numbers_accurate": rng.random(),
                  "completeness": rng.random(), "inference_time": 1 + 3 * rng.random()}
        for i in range(6)
    }
    result = weight_sensitivity(means, upper=60)
    for key in RUBRIC_KEYS:
        sens = result[key]
        for segment in sens.segments:
            for fraction in (0.1, 0.5, 0.9):
                w = segment.low + fraction * (segment.high - segment.low)
                rubric = score_models(means, weights={key: w})
                top = tuple(m for m, s in rubric.models.items() if s.rank == 1)
                assert top == segment.top, (key, w)
        assert sens.low <= sens.weight <= sens.high
        assert sens.segments[0].low == 0 and sens.segments[-1].high == 60


def test_undefined_rubric_gives_nothing() -> None:
    assert weight_sensitivity({"A": TWO["A"]}) == {}
