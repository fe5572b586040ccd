"""Paired comparison of two prompt variants of one model over the same studies."""

from __future__ import annotations

import random

import pytest

from pytest_rwe.stats.variants import (
    NOT_RESOLVED,
    REAL,
    VARIANT_KEYS,
    compare_variants,
    min_paired_studies,
    weighted_quality,
)

StudyValues = dict[str, float | None]


def _values(direction: float, numbers: float, completeness: float,
            time: float = 1.0) -> StudyValues:
    return {"direction_of_effect": direction, "numbers_accurate": numbers,
            "completeness": completeness, "inference_time": time}


def _noisy_reference(n: int, seed: int = 3) -> dict[str, StudyValues]:
    rng = random.Random(seed)
    return {f"s{i:02d}": _values(rng.choice([0.0, 1 / 3, 2 / 3, 1.0]),
                                 rng.choice([0.0, 1 / 3, 2 / 3, 1.0]),
                                 rng.choice([0.0, 1 / 3, 2 / 3, 1.0]),
                                 rng.uniform(0.5, 1.5))
            for i in range(n)}


def test_a_known_difference_is_found_real() -> None:
    reference = {f"s{i}": _values(0.0 if i % 4 else 1 / 3, 0.5, 0.5) for i in range(20)}
    # the variant gets direction right on every study; numbers and completeness unchanged
    variant = {s: dict(v, direction_of_effect=1.0) for s, v in reference.items()}
    result = compare_variants(reference, variant, seed="m:v")
    direction = result["direction_of_effect"]
    assert direction.verdict == REAL and direction.real
    assert direction.studies == 20
    assert direction.difference is not None
    assert direction.difference.mean == pytest.approx(1.0 - sum(
        v["direction_of_effect"] or 0.0 for v in reference.values()) / 20)
    assert direction.difference.low > 0
    # direction has weight 20 of 31: the weighted score moves by 20/31 of its difference
    weighted = result["weighted_score"]
    assert weighted.verdict == REAL
    assert weighted.difference is not None
    assert weighted.difference.mean == pytest.approx(direction.difference.mean * 20 / 31)
    for key in ("numbers_accurate", "completeness", "inference_time"):
        assert result[key].verdict == NOT_RESOLVED
        assert result[key].difference == (0.0, 0.0, 0.0)


def test_a_worse_variant_is_real_too_with_a_negative_interval() -> None:
    reference = _noisy_reference(30)
    variant = {s: dict(v, numbers_accurate=0.0) for s, v in reference.items()}
    numbers = compare_variants(reference, variant)["numbers_accurate"]
    assert numbers.verdict == REAL
    assert numbers.difference is not None and numbers.difference.high < 0


def test_identical_variants_are_not_resolved_on_any_key() -> None:
    reference = _noisy_reference(40)
    result = compare_variants(reference, {s: dict(v) for s, v in reference.items()})
    assert set(result) == set(VARIANT_KEYS)
    for diff in result.values():
        assert diff.verdict == NOT_RESOLVED and diff.studies == 40
        assert diff.difference == (0.0, 0.0, 0.0)


def test_noise_either_way_is_not_resolved() -> None:
    # the variant is better on half the studies and worse on the other half
    reference = {f"s{i:02d}": _values(0.5, 0.5, 0.5) for i in range(24)}
    variant = {s: _values(1.0 if i % 2 else 0.0, 0.5, 0.5)
               for i, s in enumerate(sorted(reference))}
    direction = compare_variants(reference, variant)["direction_of_effect"]
    assert direction.verdict == NOT_RESOLVED and direction.note is None
    assert direction.difference is not None
    assert direction.difference.low < 0 < direction.difference.high


def test_too_few_paired_studies_are_never_real() -> None:
    assert min_paired_studies(0.95) == 6  # 2 * 0.5**5 = 0.0625 > 0.05
    assert min_paired_studies(0.9) == 5
    reference = {f"s{i}": _values(0.0, 0.5, 0.5) for i in range(5)}
    variant = {s: _values(1.0, 0.5, 0.5) for s in reference}
    direction = compare_variants(reference, variant)["direction_of_effect"]
    # a zero-width interval at +1: it looks certain, but five studies cannot show it
    assert direction.difference == (1.0, 1.0, 1.0)
    assert direction.verdict == NOT_RESOLVED
    assert direction.note is not None and "only 5 paired studies" in direction.note
    reference["s5"], variant["s5"] = _values(0.0, 0.5, 0.5), _values(1.0, 0.5, 0.5)
    assert compare_variants(reference, variant)["direction_of_effect"].verdict == REAL


def test_only_studies_with_both_values_are_paired() -> None:
    reference = _noisy_reference(10)
    variant = {s: dict(v) for s, v in reference.items()}
    variant["s00"]["completeness"] = None  # every juror abstained there
    del variant["s01"]  # the variant's summary of s01 failed
    reference["extra"] = _values(1.0, 1.0, 1.0)  # only the reference has it
    result = compare_variants(reference, variant)
    assert result["completeness"].studies == 8
    assert result["direction_of_effect"].studies == 9
    assert result["weighted_score"].studies == 8  # a missing weighted criterion: no score
    empty = compare_variants(reference, {})["direction_of_effect"]
    assert empty.studies == 0 and empty.difference is None
    assert empty.verdict == NOT_RESOLVED and empty.note is not None


def test_seeded_and_independent_of_order() -> None:
    reference = _noisy_reference(15, seed=1)
    variant = _noisy_reference(15, seed=2)
    first = compare_variants(reference, variant, seed="gpt:terse")
    shuffled = dict(reversed(list(variant.items())))
    assert compare_variants(dict(reversed(list(reference.items()))), shuffled,
                            seed="gpt:terse") == first
    assert compare_variants(reference, variant, seed="other") != first


def test_weighted_quality_is_a_0_to_1_score_with_the_rubric_weights() -> None:
    weights = {"direction_of_effect": 20.0, "numbers_accurate": 6.0, "completeness": 5.0,
               "inference_time": 3.0}
    assert weighted_quality(_values(1.0, 1.0, 1.0, 99.0), weights) == pytest.approx(1.0)
    assert weighted_quality(_values(1.0, 0.0, 0.0), weights) == pytest.approx(20 / 31)
    assert weighted_quality(_values(1.0, None, 0.0), weights) is None  # type: ignore[arg-type]
    only_time = dict.fromkeys(weights, 0.0) | {"inference_time": 1.0}
    assert weighted_quality(_values(1.0, 1.0, 1.0), only_time) is None
    custom = compare_variants({"s": _values(0.0, 0.0, 0.0)}, {"s": _values(0.0, 1.0, 0.0)},
                              weights={"direction_of_effect": 0.0})
    assert custom["weighted_score"].difference is not None
    assert custom["weighted_score"].difference.mean == pytest.approx(6 / 11)
