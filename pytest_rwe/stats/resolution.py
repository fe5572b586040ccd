"""Is the rubric's ranking resolved? The top two models' scores against bootstrap noise.

The weighted rubric amplifies small differences (min-max normalization over whichever
models are in the run), so its top model can win on a difference far inside the intervals.
Here the whole rubric is recomputed on ``resamples`` bootstrap resamples of studies (the same
resample for every model, so study difficulty stays paired): each model's means over the
resampled studies, then :func:`score_models` with the run's weights. The ranking is
*resolved* when the percentile interval of ``score(top) - score(runner-up)`` (the two best of
the full run) lies above 0; otherwise the report says it is not resolved. ``top_share`` is
the share of resamples in which the top model alone ranks first.

A resample in which a model gets no score (a value missing on every resampled study, or the
rubric undefined) counts its score as 0 for the difference.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_rwe.stats.bootstrap import CI, check_options, interval
from pytest_rwe.stats.pairwise import PerStudy, models_of
from pytest_rwe.stats.rubric import ALL_KEYS, RubricResult, score_models

RESOLUTION_RESAMPLES = 1000


@dataclass(frozen=True)
class Resolution:
    """Whether the top model's lead over the runner-up survives resampling the studies."""

    top: str
    runner_up: str
    difference: CI  # score(top) - score(runner-up), 0..1 scale
    top_share: float
    resamples: int
    level: float

    @property
    def resolved(self) -> bool:
        return self.difference.low > 0


def _means(columns: Mapping[str, Mapping[str, Sequence[float | None]]],
           counts: Mapping[int, int]) -> dict[str, dict[str, float | None]]:
    means: dict[str, dict[str, float | None]] = {}
    for model, by_key in columns.items():
        row: dict[str, float | None] = {}
        for key, values in by_key.items():
            total, n = 0.0, 0
            for index, times in counts.items():
                value = values[index]
                if value is not None:
                    total += value * times
                    n += times
            row[key] = total / n if n else None
        means[model] = row
    return means


def ranking_resolution(per_study: PerStudy, rubric: RubricResult, *,
                       weights: Mapping[str, float] | None = None,
                       normalize_max: Mapping[str, float] | None = None,
                       resamples: int = RESOLUTION_RESAMPLES, seed: int | str = 0,
                       level: float = 0.95) -> Resolution | None:
    """The resolution of ``rubric``'s ranking (computed from ``per_study`` with these weights
    and maxima); None without a defined rubric with two or more ranked models."""
    check_options(resamples, level)
    ranked = [m for m in rubric.ranking() if m.rank is not None]
    if not rubric.normalization_defined or len(ranked) < 2:
        return None
    top, runner_up = ranked[0].model, ranked[1].model
    studies = sorted(per_study)
    models = models_of(per_study)
    columns = {m: {k: [per_study[s].get(m, {}).get(k) for s in studies] for k in ALL_KEYS}
               for m in models}
    rng = random.Random(seed)
    n = len(studies)
    diffs: list[float] = []
    alone = 0
    for _ in range(resamples):
        counts: dict[int, int] = {}
        for index in rng.choices(range(n), k=n):
            counts[index] = counts.get(index, 0) + 1
        result = score_models(_means(columns, counts), weights=weights,
                              normalize_max=normalize_max)
        scores = {m: s.score for m, s in result.models.items()}
        diffs.append((scores.get(top) or 0.0) - (scores.get(runner_up) or 0.0))
        firsts = [m for m, s in result.models.items() if s.rank == 1]
        alone += firsts == [top]
    point = (ranked[0].score or 0.0) - (ranked[1].score or 0.0)
    return Resolution(top, runner_up, interval(point, diffs, level), alone / resamples,
                      resamples, level)
