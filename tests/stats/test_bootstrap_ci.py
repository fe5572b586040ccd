"""Percentile bootstrap: reproducible, sane widths, and roughly nominal coverage."""

from __future__ import annotations

import random
import statistics

import pytest

from pytest_rwe.stats.bootstrap import CI, bootstrap_ci, mean_ci, paired_diff_ci, percentile

SCORES = [1, 1, 0, 1, 2 / 3, 1, 1 / 3, 1, 1, 0, 1, 1, 2 / 3, 1, 1, 1, 0, 1, 1, 1 / 3]


def test_percentile_interpolates_linearly() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.0) == 1.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 1.0) == 4.0
    assert percentile([10.0, 20.0], 0.25) == 12.5


def test_mean_ci_is_seeded_and_reproducible() -> None:
    first = mean_ci(SCORES, seed=7)
    assert first == mean_ci(SCORES, seed=7)
    assert first.mean == pytest.approx(statistics.fmean(SCORES))
    assert first.low < first.mean < first.high
    assert mean_ci(SCORES, seed=8) != first  # another seed, other resamples
    mean, lo, hi = first  # unpacks as a tuple
    assert isinstance(first, CI) and (mean, lo, hi) == tuple(first)


def test_mean_ci_width_shrinks_with_more_studies() -> None:
    rng = random.Random(3)
    small = [float(rng.random() < 0.7) for _ in range(10)]
    large = [float(rng.random() < 0.7) for _ in range(400)]
    w_small = mean_ci(small).high - mean_ci(small).low
    w_large = mean_ci(large).high - mean_ci(large).low
    assert w_large < w_small / 3


def test_degenerate_inputs() -> None:
    assert mean_ci([0.4]) == (0.4, 0.4, 0.4)
    assert mean_ci([1.0] * 13) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="no values"):
        mean_ci([])
    with pytest.raises(ValueError, match="finite"):
        mean_ci([1.0, float("nan")])
    with pytest.raises(ValueError, match="level"):
        mean_ci(SCORES, level=95)
    with pytest.raises(ValueError, match="resamples"):
        mean_ci(SCORES, resamples=0)


def test_coverage_is_near_nominal() -> None:
    # Bernoulli(0.7) over 40 studies: the percentile interval should cover 0.7 about 95% of
    # the time (a little less at this n). 300 experiments: a band of +- ~4 SE is 0.88..0.99.
    rng = random.Random(2024)
    covered = 0
    trials = 300
    for trial in range(trials):
        sample = [float(rng.random() < 0.7) for _ in range(40)]
        _, lo, hi = mean_ci(sample, resamples=500, seed=trial)
        covered += lo <= 0.7 <= hi
    assert 0.88 <= covered / trials <= 0.99


def test_level_widens_interval() -> None:
    narrow = mean_ci(SCORES, level=0.5)
    wide = mean_ci(SCORES, level=0.99)
    assert wide.low < narrow.low and narrow.high < wide.high


def test_paired_difference_cancels_shared_study_difficulty() -> None:
    # Each study has its own difficulty shared by both models; model a is always 0.1 better.
    rng = random.Random(5)
    difficulty = [rng.random() * 0.8 for _ in range(30)]
    a = [d + 0.1 for d in difficulty]
    diff = paired_diff_ci(a, difficulty)
    assert diff == pytest.approx((0.1, 0.1, 0.1))
    # Resampled separately, the same data give a wide interval straddling 0.
    unpaired_a, unpaired_b = mean_ci(a), mean_ci(difficulty, seed=1)
    assert unpaired_a.low < unpaired_b.high


def test_paired_difference_sign_and_reproducibility() -> None:
    a = [1, 1, 1, 0, 1, 1, 1, 1, 0, 1]
    b = [0, 1, 0, 0, 1, 0, 1, 0, 0, 1]
    first = paired_diff_ci(a, b, seed=11)
    assert first == paired_diff_ci(a, b, seed=11)
    assert first.mean == pytest.approx(0.4)
    assert 0 < first.low <= first.mean <= first.high
    flipped = paired_diff_ci(b, a, seed=11)
    assert flipped.mean == pytest.approx(-0.4)
    assert flipped.low == pytest.approx(-first.high)
    with pytest.raises(ValueError, match="same studies"):
        paired_diff_ci(a, b[:-1])


def test_bootstrap_ci_of_another_statistic() -> None:
    median = bootstrap_ci([1.0, 2.0, 3.0, 4.0, 100.0], statistics.median, resamples=300)
    assert median.mean == 3.0
    assert median.low >= 1.0 and median.high <= 100.0
