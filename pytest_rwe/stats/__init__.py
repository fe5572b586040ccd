"""Pure statistics for the session report: rubric, bootstrap, agreement, rankings.

Plain Python (no numpy): every function takes JSON-like data and is seeded where random.
"""

from pytest_rwe.stats.agreement import (
    Confusion,
    FleissKappa,
    cohen_kappa,
    confusion,
    fleiss_kappa,
    fleiss_kappa_counts,
)
from pytest_rwe.stats.bootstrap import CI, bootstrap_ci, mean_ci, paired_diff_ci, percentile
from pytest_rwe.stats.bradley_terry import BradleyTerry, Rating, bradley_terry, fit_strengths
from pytest_rwe.stats.pairwise import (
    TIME_TOLERANCE,
    WEIGHTED_SCORE,
    PerStudy,
    differences_from_top,
    pair_scores,
    quality_score,
)
from pytest_rwe.stats.resolution import Resolution, ranking_resolution
from pytest_rwe.stats.rubric import (
    DEFAULT_WEIGHTS,
    RUBRIC_KEYS,
    ModelMeans,
    ModelScore,
    RubricResult,
    competition_ranks,
    normalize,
    resolve_weights,
    score_models,
)
from pytest_rwe.stats.sensitivity import Segment, WeightSensitivity, weight_sensitivity

__all__ = [
    "CI",
    "DEFAULT_WEIGHTS",
    "RUBRIC_KEYS",
    "TIME_TOLERANCE",
    "WEIGHTED_SCORE",
    "BradleyTerry",
    "Confusion",
    "FleissKappa",
    "ModelMeans",
    "ModelScore",
    "PerStudy",
    "Rating",
    "Resolution",
    "RubricResult",
    "Segment",
    "WeightSensitivity",
    "bootstrap_ci",
    "bradley_terry",
    "cohen_kappa",
    "competition_ranks",
    "confusion",
    "differences_from_top",
    "fit_strengths",
    "fleiss_kappa",
    "fleiss_kappa_counts",
    "mean_ci",
    "normalize",
    "pair_scores",
    "paired_diff_ci",
    "percentile",
    "quality_score",
    "ranking_resolution",
    "resolve_weights",
    "score_models",
    "weight_sensitivity",
]
