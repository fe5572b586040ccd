"""Bradley-Terry ratings from per-study pairwise comparisons, with bootstrap intervals.

On every study, each pair of models that both have a per-study weighted score (see
``pairwise``: quality criteria only, unless a time weight is given, and then only a time
difference beyond the tolerance counts) is one comparison: a win for the higher score, half
a win each for a tie.
Strengths are fitted by Hunter's (2004) MM algorithm. A prior of ``prior`` virtual games per
pair, split evenly, keeps a model that wins (or loses) everything finite and makes models
that were never compared equal. Ratings are Elo-like: 1500 + (400 / ln 10) * (log-strength -
mean log-strength), so the mean rating is 1500 and a 400-point gap means 10:1 odds.

Intervals resample whole studies (the same resample for every model, so the comparisons of a
study stay together) and refit; percentile bounds, seeded with ``random.Random(seed)``.
Because a comparison depends only on its two models, these ratings do not move when a third
model joins the run, unlike the min-max normalized rubric score.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_rwe.stats.bootstrap import CI, check_options, interval
from pytest_rwe.stats.pairwise import (
    TIME_TOLERANCE,
    PerStudy,
    models_of,
    outcome,
    pair_scores,
)
from pytest_rwe.stats.rubric import resolve_weights

CENTRE = 1500.0
SCALE = 400.0 / math.log(10)
DEFAULT_PRIOR = 1.0
BT_RESAMPLES = 1000
# Stop when no log-strength moves more than this in a sweep. The point fit is tight; the
# bootstrap refits start from it and need far less (1e-6 is ~1e-4 rating points), which
# keeps 1,000 refits of 9 models well under a second.
POINT_TOLERANCE = 1e-10
RESAMPLE_TOLERANCE = 1e-6
_MAX_ITERATIONS = 10_000

Matrix = list[list[float]]


def study_wins(per_study: PerStudy, models: Sequence[str],
               weights: Mapping[str, float] | None = None, *, time_weight: float = 0.0,
               time_tolerance: float = TIME_TOLERANCE) -> list[Matrix]:
    """Per study, wins[i][j] = wins of models[i] over models[j] on that study (ties = 0.5)."""
    w = resolve_weights(weights)
    index = {m: i for i, m in enumerate(models)}
    k = len(models)
    result: list[Matrix] = []
    for by_model in per_study.values():
        wins = [[0.0] * k for _ in range(k)]
        present = [m for m in models if m in by_model]
        for x, a in enumerate(present):
            for b in present[x + 1:]:
                scores = pair_scores(by_model[a], by_model[b], w, time_weight=time_weight,
                                     time_tolerance=time_tolerance)
                if scores is None:
                    continue
                won = outcome(*scores)
                wins[index[a]][index[b]] += won
                wins[index[b]][index[a]] += 1.0 - won
        result.append(wins)
    return result


def fit_strengths(wins: Matrix, *, prior: float = DEFAULT_PRIOR,
                  start: Sequence[float] | None = None,
                  tolerance: float = POINT_TOLERANCE) -> list[float]:
    """Log-strengths (mean 0) maximizing the Bradley-Terry likelihood of ``wins`` plus prior."""
    if prior <= 0:
        raise ValueError(f"prior must be > 0 (virtual games per pair), got {prior!r}")
    k = len(wins)
    if k < 2:
        return [0.0] * k  # nobody to compare with: the centre
    half = prior / 2
    w = [[wins[i][j] + half if i != j else 0.0 for j in range(k)] for i in range(k)]
    # games[i][i] = 0, so the j == i term of the update adds nothing and needs no skipping.
    games = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    total_wins = [sum(row) for row in w]
    p = [math.exp(t) for t in start] if start is not None else [1.0] * k
    for _ in range(_MAX_ITERATIONS):
        old = p[:]
        # Gauss-Seidel form of the MM update (each p_i uses the p_j already updated this
        # sweep): still a minorize-maximize step, and about twice as fast to converge.
        for i in range(k):
            pi = p[i]
            p[i] = total_wins[i] / sum(g / (pi + pj) for g, pj in zip(games[i], p, strict=True))
        # Rescale to geometric mean 1: BT strengths are defined only up to a common factor.
        shift = math.exp(-sum(math.log(v) for v in p) / k)
        p = [v * shift for v in p]
        if max(abs(math.log(a / b)) for a, b in zip(p, old, strict=True)) < tolerance:
            break
    return [math.log(v) for v in p]


def to_ratings(log_strengths: Sequence[float]) -> list[float]:
    """Elo-like ratings: mean 1500, 400 points per factor 10 in strength."""
    if not log_strengths:
        return []
    mean = sum(log_strengths) / len(log_strengths)
    return [CENTRE + SCALE * (t - mean) for t in log_strengths]


@dataclass(frozen=True)
class Rating:
    """A model's Bradley-Terry rating, its interval, and the comparisons behind it."""

    model: str
    rating: float
    low: float
    high: float
    wins: float
    comparisons: int

    @property
    def ci(self) -> CI:
        return CI(self.rating, self.low, self.high)


@dataclass(frozen=True)
class BradleyTerry:
    """Ratings best first; ``studies`` is the number of studies resampled."""

    ratings: tuple[Rating, ...]
    studies: int
    resamples: int
    seed: int | str
    level: float
    prior: float
    time_weight: float = 0.0
    time_tolerance: float = TIME_TOLERANCE

    @property
    def top(self) -> str | None:
        return self.ratings[0].model if self.ratings else None

    def __getitem__(self, model: str) -> Rating:
        for rating in self.ratings:
            if rating.model == model:
                return rating
        raise KeyError(model)


def bradley_terry(per_study: PerStudy, *, weights: Mapping[str, float] | None = None,
                  time_weight: float = 0.0, time_tolerance: float = TIME_TOLERANCE,
                  resamples: int = BT_RESAMPLES, seed: int | str = 0, level: float = 0.95,
                  prior: float = DEFAULT_PRIOR) -> BradleyTerry:
    """Fit ratings on every study, then refit on ``resamples`` bootstrap resamples of studies.

    Comparisons use the criterion ``weights`` (the rubric's; its inference_time weight is
    not used); time counts only with ``time_weight`` > 0 (see :func:`pair_scores`).
    """
    check_options(resamples, level)
    if not 0 <= time_tolerance < 1:
        raise ValueError(f"time_tolerance must be in [0, 1), got {time_tolerance!r}")
    models = models_of(per_study)
    k = len(models)
    per = study_wins(per_study, models, weights, time_weight=time_weight,
                     time_tolerance=time_tolerance)
    full = _sum(per, range(len(per)), k)
    point = fit_strengths(full, prior=prior)
    replicates: list[list[float]] = [[] for _ in range(k)]
    if per:
        rng = random.Random(seed)
        n = len(per)
        studies = range(n)
        for _ in range(resamples):
            sample = rng.choices(studies, k=n)
            # Warm start from the full fit: resamples are close to it, so MM converges fast.
            refit = fit_strengths(_sum(per, sample, k), prior=prior, start=point,
                                  tolerance=RESAMPLE_TOLERANCE)
            ratings = to_ratings(refit)
            for i, r in enumerate(ratings):
                replicates[i].append(r)
    rows = []
    for i, (model, rating) in enumerate(zip(models, to_ratings(point), strict=True)):
        ci = interval(rating, replicates[i], level) if replicates[i] else CI(rating, rating,
                                                                              rating)
        comparisons = round(sum(full[i][j] + full[j][i] for j in range(k) if j != i))
        rows.append(Rating(model, rating, ci.low, ci.high, sum(full[i]), comparisons))
    rows.sort(key=lambda r: -r.rating)
    return BradleyTerry(tuple(rows), len(per), resamples, seed, level, prior, time_weight,
                        time_tolerance)


def _sum(per: Sequence[Matrix], sample: Sequence[int], k: int) -> Matrix:
    if not sample:
        return [[0.0] * k for _ in range(k)]
    return [[sum(column) for column in zip(*(per[s][i] for s in sample), strict=True)]
            for i in range(k)]
