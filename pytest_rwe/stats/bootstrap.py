"""Percentile bootstrap intervals over studies, seeded and reproducible.

Resampling uses ``random.Random(seed)``, whose sequence for a given seed is fixed across
platforms and Python versions, so a report's intervals can be reproduced exactly. Percentiles
interpolate linearly between order statistics (numpy's default "linear" method).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

DEFAULT_RESAMPLES = 2000
DEFAULT_LEVEL = 0.95


class CI(NamedTuple):
    """A point estimate with the bounds of its interval; unpacks as (mean, lo, hi)."""

    mean: float
    low: float
    high: float


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of already sorted values, interpolating linearly."""
    if not sorted_values:
        raise ValueError("percentile of an empty sequence")
    position = q * (len(sorted_values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(sorted_values) - 1)
    fraction = position - below
    return sorted_values[below] + (sorted_values[above] - sorted_values[below]) * fraction


def check_options(resamples: int, level: float) -> None:
    """Raise ValueError unless resamples >= 1 and 0 < level < 1."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"resamples must be an integer >= 1, got {resamples!r}")
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1 (e.g. 0.95), got {level!r}")


def _values(values: Sequence[float], what: str) -> list[float]:
    xs = [float(v) for v in values]
    if not xs:
        raise ValueError(f"{what}: no values (an interval needs at least one study)")
    bad = [v for v in xs if not math.isfinite(v)]
    if bad:
        raise ValueError(f"{what}: values must be finite numbers, got {bad[0]!r}")
    return xs


def interval(estimate: float, replicates: list[float], level: float) -> CI:
    """Percentile interval of bootstrap replicates (sorted in place) around a point estimate."""
    replicates.sort()
    tail = (1 - level) / 2
    return CI(estimate, percentile(replicates, tail), percentile(replicates, 1 - tail))


def bootstrap_ci(values: Sequence[float], statistic: Callable[[list[float]], float], *,
                 resamples: int = DEFAULT_RESAMPLES, seed: int | str = 0,
                 level: float = DEFAULT_LEVEL) -> CI:
    """Percentile interval of any statistic of a resampled list (resampling whole items)."""
    check_options(resamples, level)
    xs = _values(values, "bootstrap")
    rng = random.Random(seed)
    n = len(xs)
    replicates = [statistic(rng.choices(xs, k=n)) for _ in range(resamples)]
    return interval(statistic(xs), replicates, level)


def mean_ci(values: Sequence[float], *, resamples: int = DEFAULT_RESAMPLES,
            seed: int | str = 0, level: float = DEFAULT_LEVEL) -> CI:
    """Mean of per-study values with its percentile bootstrap interval over studies.

    One value gives a zero-width interval at that value (nothing to resample).
    """
    check_options(resamples, level)
    xs = _values(values, "mean_ci")
    n = len(xs)
    rng = random.Random(seed)
    choices = rng.choices
    # fsum-free sum keeps this fast: 2,000 resamples x 40 studies in a few milliseconds.
    replicates = [sum(choices(xs, k=n)) / n for _ in range(resamples)]
    return interval(sum(xs) / n, replicates, level)


def paired_diff_ci(a: Sequence[float], b: Sequence[float], *,
                   resamples: int = DEFAULT_RESAMPLES, seed: int | str = 0,
                   level: float = DEFAULT_LEVEL) -> CI:
    """Mean of a - b over paired studies (same index = same study) with its interval.

    Resampling studies keeps each pair together, so study difficulty, shared by both sides,
    cancels out: this is the interval to read for model-vs-model or prompt-vs-prompt.
    """
    if len(a) != len(b):
        raise ValueError(f"paired_diff_ci: a has {len(a)} values and b has {len(b)}; "
                         "pass the same studies in the same order")
    xs = _values(a, "paired_diff_ci a")
    ys = _values(b, "paired_diff_ci b")
    diffs = [x - y for x, y in zip(xs, ys, strict=True)]
    return mean_ci(diffs, resamples=resamples, seed=seed, level=level)
