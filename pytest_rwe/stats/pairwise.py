"""Per-study scores and model-vs-model comparisons over the same studies.

**Per-study weighted score of a pair.** For one study, a model's score is the weighted sum of
that study's criterion scores (the jury means, already on a common 0..1 scale, so they are
not normalized), with the rubric's criterion weights. Quality only, by default: inference
time enters only with an explicit ``time_weight``, and then as a difference beyond a stated
tolerance: the model that took less than ``1 - time_tolerance`` of the other's time on that
study (10% faster by default) gets ``time_weight`` added; within the tolerance neither does.
So a latency difference of a few milliseconds, or of a few percent, never decides a
comparison, and a comparison of A with B depends only on A and B. A weighted key that is
missing (every juror abstained, no latency) leaves the model without a score on that study,
so it takes no part in that study's comparisons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_rwe.stats.bootstrap import CI, DEFAULT_LEVEL, DEFAULT_RESAMPLES, paired_diff_ci
from pytest_rwe.stats.rubric import RUBRIC_KEYS, TIE_TOLERANCE, resolve_weights
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME

StudyValues = Mapping[str, float | None]
"""{criterion: jury mean on this study, "inference_time": seconds}; None when missing."""
PerStudy = Mapping[str, Mapping[str, StudyValues]]
"""study id -> model -> StudyValues."""

WEIGHTED_SCORE = "weighted_score"
#: a model must take less than 90% of the other's time to count as faster on a study
TIME_TOLERANCE = 0.10


def quality_score(values: StudyValues, weights: Mapping[str, float]) -> float | None:
    """The weighted sum of a model's criterion scores on one study; None when a weighted
    criterion is missing. ``weights`` must be complete (see ``resolve_weights``)."""
    total = 0.0
    for criterion in CRITERIA:
        weight = weights[criterion]
        if weight:
            value = values.get(criterion)
            if value is None:
                return None
            total += weight * value
    return total


def clearly_faster(a: float, b: float, tolerance: float = TIME_TOLERANCE) -> int:
    """1 when ``a`` takes less than ``1 - tolerance`` of ``b``'s time, -1 the other way, else 0."""
    if a < b * (1.0 - tolerance):
        return 1
    if b < a * (1.0 - tolerance):
        return -1
    return 0


def pair_scores(a: StudyValues, b: StudyValues, weights: Mapping[str, float], *,
                time_weight: float = 0.0, time_tolerance: float = TIME_TOLERANCE,
                ) -> tuple[float, float] | None:
    """Both models' per-study scores for a comparison of a with b, or None if either lacks one."""
    score_a, score_b = quality_score(a, weights), quality_score(b, weights)
    if score_a is None or score_b is None:
        return None
    if time_weight:
        time_a, time_b = a.get(INFERENCE_TIME), b.get(INFERENCE_TIME)
        if time_a is None or time_b is None:
            return None
        faster = clearly_faster(time_a, time_b, time_tolerance)
        score_a += time_weight * (faster == 1)
        score_b += time_weight * (faster == -1)
    return score_a, score_b


def outcome(a: float, b: float) -> float:
    """1 when a is higher, 0 when lower, 0.5 for a tie (within the rubric's tolerance)."""
    scale = max(1.0, abs(a), abs(b))
    if abs(a - b) <= TIE_TOLERANCE * scale:
        return 0.5
    return 1.0 if a > b else 0.0


def models_of(per_study: PerStudy) -> list[str]:
    """Every model in the per-study data, in first-seen order."""
    seen: dict[str, None] = {}
    for by_model in per_study.values():
        for model in by_model:
            seen.setdefault(model, None)
    return list(seen)


def differences_from_top(per_study: PerStudy, top: str, *,
                         weights: Mapping[str, float] | None = None,
                         time_weight: float = 0.0, time_tolerance: float = TIME_TOLERANCE,
                         keys: Sequence[str] = (*RUBRIC_KEYS, WEIGHTED_SCORE),
                         resamples: int = DEFAULT_RESAMPLES, seed: int | str = 0,
                         level: float = DEFAULT_LEVEL) -> dict[str, dict[str, CI | None]]:
    """For each other model and key, the paired-bootstrap interval of (model - top).

    Pairs are the studies where both models have the value; a key with no such study is None.
    ``weighted_score`` compares the per-study weighted scores of the pair (quality only
    unless ``time_weight``, as in :func:`pair_scores`). Inference time is
    in seconds, so a negative difference means the model is faster than the top one. Each
    (model, key) draws from its own seeded stream, so the result does not depend on order.
    """
    w = resolve_weights(weights)
    for key in keys:
        if key not in (*RUBRIC_KEYS, WEIGHTED_SCORE):
            raise ValueError(f"unknown key {key!r}; valid keys: "
                             f"{', '.join((*RUBRIC_KEYS, WEIGHTED_SCORE))}")
    result: dict[str, dict[str, CI | None]] = {}
    for model in models_of(per_study):
        if model == top:
            continue
        result[model] = {}
        for key in keys:
            mine: list[float] = []
            theirs: list[float] = []
            for by_model in per_study.values():
                if model not in by_model or top not in by_model:
                    continue
                if key == WEIGHTED_SCORE:
                    pair = pair_scores(by_model[model], by_model[top], w,
                                       time_weight=time_weight, time_tolerance=time_tolerance)
                else:
                    x, y = by_model[model].get(key), by_model[top].get(key)
                    pair = None if x is None or y is None else (x, y)
                if pair is not None:
                    mine.append(pair[0])
                    theirs.append(pair[1])
            result[model][key] = paired_diff_ci(
                mine, theirs, resamples=resamples, seed=f"{seed}:{model}:{key}", level=level
            ) if mine else None
    return result
