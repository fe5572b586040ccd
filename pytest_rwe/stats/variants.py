"""Two prompt variants of one model, compared over the same studies (paired bootstrap).

A variant is the same model run with another set of prompt templates. For each key (every
criterion, the weighted quality score and inference time) the difference is
``variant - reference`` averaged over the studies where both have a value, with the
percentile interval of a paired bootstrap over those studies (studies are resampled with
both sides together, so study difficulty cancels out). Each key draws from its own seeded
stream: the same data and seed give the same intervals, in any order.

**Verdict.** A difference is ``real`` when its interval excludes 0, otherwise ``not
resolved``. Below :func:`min_paired_studies` paired studies no difference is called real,
whatever its interval: with 5 studies even a difference of the same sign on every one is
what chance gives 1 time in 16 (a two-sided sign test), while the bootstrap of so few
values can give a zero-width interval that looks certain.

**Weighted score.** Per study, the weighted sum of the criterion scores divided by the sum
of the weights of those criteria: a 0..1 quality score with the rubric's criterion weights.
Inference time is left out (it is its own key, in seconds): a variant that writes longer
summaries is slower, and that must not read as a quality difference. The rubric's
min-max normalized score is not used: it depends on which other models are in the run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pytest_rwe.stats.bootstrap import (
    CI,
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    check_options,
    paired_diff_ci,
)
from pytest_rwe.stats.pairwise import WEIGHTED_SCORE, StudyValues, quality_score
from pytest_rwe.stats.rubric import resolve_weights
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME

VARIANT_KEYS: tuple[str, ...] = (*CRITERIA, WEIGHTED_SCORE, INFERENCE_TIME)
REAL = "real"
NOT_RESOLVED = "not resolved"


def min_paired_studies(level: float = DEFAULT_LEVEL) -> int:
    """The fewest paired studies on which a difference can be called real at ``level``: the
    smallest n where n differences of one sign would be significant (two-sided sign test)."""
    check_options(1, level)
    n = 1
    while 2 * 0.5 ** n > 1 - level:
        n += 1
    return n


@dataclass(frozen=True)
class KeyDifference:
    """``variant - reference`` on one key, over the studies where both have a value."""

    key: str
    studies: int
    difference: CI | None  # None when no study has a value on both sides
    verdict: str  # REAL or NOT_RESOLVED
    note: str | None = None  # why not resolved, when the interval is not the reason

    @property
    def real(self) -> bool:
        return self.verdict == REAL


def weighted_quality(values: StudyValues, weights: Mapping[str, float]) -> float | None:
    """The 0..1 weighted quality score of one study (see the module docstring); None when a
    weighted criterion is missing or no criterion has a weight. ``weights`` is complete."""
    total = sum(weights[c] for c in CRITERIA)
    score = quality_score(values, weights)
    if score is None or not total:
        return None
    return score / total


def _value(values: StudyValues, key: str, weights: Mapping[str, float]) -> float | None:
    if key == WEIGHTED_SCORE:
        return weighted_quality(values, weights)
    return values.get(key)


def compare_variants(reference: Mapping[str, StudyValues], variant: Mapping[str, StudyValues],
                     *, weights: Mapping[str, float] | None = None,
                     resamples: int = DEFAULT_RESAMPLES, seed: int | str = 0,
                     level: float = DEFAULT_LEVEL) -> dict[str, KeyDifference]:
    """Per key of :data:`VARIANT_KEYS`, the paired difference ``variant - reference``.

    ``reference`` and ``variant`` map study id -> the model's values on that study (jury
    means per criterion, averaged over repeats, and ``inference_time`` in seconds).
    """
    check_options(resamples, level)
    w = resolve_weights(weights)
    fewest = min_paired_studies(level)
    studies = sorted(set(reference) & set(variant))
    result: dict[str, KeyDifference] = {}
    for key in VARIANT_KEYS:
        ours: list[float] = []
        theirs: list[float] = []
        for study in studies:
            x, y = _value(variant[study], key, w), _value(reference[study], key, w)
            if x is not None and y is not None:
                ours.append(x)
                theirs.append(y)
        n = len(ours)
        if not n:
            result[key] = KeyDifference(key, 0, None, NOT_RESOLVED,
                                        "no study has a value for both variants")
            continue
        ci = paired_diff_ci(ours, theirs, resamples=resamples, seed=f"{seed}:{key}",
                            level=level)
        excludes_zero = ci.low > 0 or ci.high < 0
        if excludes_zero and n < fewest:
            result[key] = KeyDifference(key, n, ci, NOT_RESOLVED, (
                f"only {n} paired stud{'y' if n == 1 else 'ies'}: at least {fewest} are "
                f"needed to call a difference real at {100 * level:g}%"))
        else:
            result[key] = KeyDifference(key, n, ci, REAL if excludes_zero else NOT_RESOLVED)
    return result
