"""The weighted rubric of the RWESummary benchmark, reproduced as DESIGN.md states it.

Per model: the mean of each criterion over studies and the mean inference time per summary.
Each of the four is min-max normalized across the scored models (inference time reversed:
fastest = 1), the normalized values are summed with weights, and the weighted sums are
min-max normalized again across models, giving a score in 0..1 (shown as 0-100%).

``cost`` (USD per summary: the model's own calls, not the jury's) is a fifth key, off by
default; given a weight (``--rwe-weights ...,cost=W``) it is normalized like inference
time, cheapest = 1. An unknown cost (no price for the model) is a missing value.

Edge cases (each a documented decision, tested in tests/stats/test_rubric_score.py):

- **Fewer than two scored models**: min-max normalization is undefined. The result has
  ``normalization_defined=False``, a ``note`` saying why, the raw means, and no normalized
  values, weighted sum, score or rank.
- **A model with no evaluation** (no criterion mean at all: every summary failed, or no juror
  ever answered) gets no score, whatever its latency: it is listed with ``missing``.
- **Every model has the same value on a key** (min == max): the key cannot rank them, so its
  normalized value is undefined (None; "-" in the report) and it is left out of the
  weighted sum; the remaining weights are used as they are (not rescaled). ``undefined``
  lists such keys and ``note`` says so. (Scoring it 1.0 for everyone, as min-max by
  convention would, showed two all-zero models as "norm direction 1.00".) When every
  weighted key is undefined, nothing separates the models: normalization is undefined.
- **Every weighted sum equal** with different values (a tie): every score is 1.0 and every
  model shares rank 1. Every weight 0: nothing is scored (normalization undefined).
- **Ties**: scores within 1e-9 of each other share a rank; ranks are competition ranks
  (1, 1, 3).
- **Missing values** (None: every juror abstained on every study, or no latency recorded):
  a key missing for *every* model is dropped from the weighted sum (it cannot separate
  models) and listed in ``dropped``. A model missing any other key with a non-zero weight is
  not scored (``missing`` lists the keys) and the normalization spans the scored models only.
  Keys with weight 0 may be missing; their normalized value is then simply absent.
- **normalize_max** (e.g. ``{"completeness": 1.0}``): the max of that key's range is the given
  value instead of the observed max; the min stays the observed min, so the model with the
  lowest mean still gets 0 and a model at the observed max gets (max - min) / (given - min),
  not 1, unless it reaches the given value. Values above the given max are clipped to 1.0;
  a given max at or below the observed min gives every model 1.0 (everyone reaches it).
  For ``inference_time`` the given value is the slowest time of the range (seconds), the
  fastest observed time still scores 1 and times beyond the given value clip to 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_rwe.criteria import default_weights
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME

COST = "cost"
#: the paper's rubric
RUBRIC_KEYS: tuple[str, ...] = (*CRITERIA, INFERENCE_TIME)
#: keys that take part only when given a weight (off by default)
OPTIONAL_KEYS: tuple[str, ...] = (COST,)
ALL_KEYS: tuple[str, ...] = (*RUBRIC_KEYS, *OPTIONAL_KEYS)
#: keys where lower is better (and which are not 0..1 means)
LOWER_IS_BETTER: tuple[str, ...] = (INFERENCE_TIME, COST)
DEFAULT_WEIGHTS: Mapping[str, float] = default_weights()  # the criterion table's
TIE_TOLERANCE = 1e-9

ModelMeans = Mapping[str, Mapping[str, float | None]]
"""model -> {criterion or "inference_time": mean (None when missing)}."""


def check_key(key: str, what: str = "key") -> str:
    """Return ``key`` when it is a criterion, inference_time or cost, else raise a ValueError."""
    if key not in ALL_KEYS:
        raise ValueError(f"unknown {what} {key!r}; valid {what}s: {', '.join(ALL_KEYS)}")
    return key


def active_keys(weights: Mapping[str, float]) -> tuple[str, ...]:
    """The rubric's keys, and the optional ones ``weights`` names."""
    return (*RUBRIC_KEYS, *(k for k in OPTIONAL_KEYS if k in weights))


def resolve_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """The default weights with any subset overridden (an optional key joins when given);
    weights must be finite and >= 0."""
    resolved = dict(DEFAULT_WEIGHTS)
    for key, value in (weights or {}).items():
        check_key(key, "weight")
        if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ValueError(f"weight {key}={value!r} must be a finite number >= 0")
        resolved[key] = float(value)
    return resolved


def check_normalize_max(normalize_max: Mapping[str, float] | None) -> dict[str, float]:
    """Validate normalizing maxima: in [0, 1] for criteria, > 0 seconds for inference_time,
    > 0 USD for cost."""
    checked: dict[str, float] = {}
    for key, value in (normalize_max or {}).items():
        check_key(key, "normalize-max key")
        ok = isinstance(value, (int, float)) and math.isfinite(value)
        if ok and key in LOWER_IS_BETTER:
            ok = value > 0
        elif ok:
            ok = 0 <= value <= 1
        if not ok:
            bound = ("a number of seconds > 0" if key == INFERENCE_TIME
                     else "a number of USD > 0" if key == COST else "a number in [0, 1]")
            raise ValueError(f"normalize-max {key}={value!r} must be {bound}")
        checked[key] = float(value)
    return checked


def _check_value(model: str, key: str, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{model}: {key} must be a finite number or None, got {value!r}")
    if key in LOWER_IS_BETTER and value < 0:
        unit = "seconds" if key == INFERENCE_TIME else "USD"
        raise ValueError(f"{model}: {key} must be >= 0 {unit}, got {value!r}")
    if key not in LOWER_IS_BETTER and not 0 <= value <= 1:
        raise ValueError(f"{model}: {key} is a mean of 0/1 scores and must be in [0, 1], "
                         f"got {value!r}")
    return float(value)


def normalize(values: Iterable[float], *, reverse: bool = False,
              maximum: float | None = None) -> list[float]:
    """Min-max normalize to 0..1 (reverse: smallest = 1); min == max gives 1.0 everywhere."""
    xs = list(values)
    if not xs:
        return []
    lo = min(xs)
    hi = max(xs) if maximum is None else maximum
    span = hi - lo
    if span <= TIE_TOLERANCE * max(1.0, abs(hi)):
        return [1.0] * len(xs)
    out = [((hi - x) if reverse else (x - lo)) / span for x in xs]
    return [min(1.0, max(0.0, v)) for v in out]


def competition_ranks(scores: Mapping[str, float]) -> dict[str, int]:
    """Rank 1 = highest; scores within TIE_TOLERANCE share a rank (1, 1, 3)."""
    ranks: dict[str, int] = {}
    for name, score in scores.items():
        better = sum(1 for other in scores.values() if other > score + TIE_TOLERANCE)
        ranks[name] = better + 1
    return ranks


@dataclass(frozen=True)
class ModelScore:
    """One model's place in the rubric; empty/None fields when it could not be scored."""

    model: str
    raw: Mapping[str, float | None]
    #: None for a key that is undefined (every model has the same value)
    normalized: Mapping[str, float | None] = field(default_factory=dict)
    weighted_sum: float | None = None
    score: float | None = None
    rank: int | None = None
    missing: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "raw": dict(self.raw),
            "normalized": dict(self.normalized),
            "weighted_sum": self.weighted_sum,
            "score": self.score,
            "rank": self.rank,
            "missing": list(self.missing),
        }


@dataclass(frozen=True)
class RubricResult:
    """The rubric over the models of a run, in input order."""

    models: Mapping[str, ModelScore]
    weights: Mapping[str, float]
    normalize_max: Mapping[str, float]
    normalization_defined: bool
    note: str | None = None
    dropped: tuple[str, ...] = ()
    #: weighted keys on which every scored model has the same value: left out of the sum
    undefined: tuple[str, ...] = ()

    def ranking(self) -> list[ModelScore]:
        """Scored models best first (input order among ties), then unscored ones."""
        return sorted(self.models.values(),
                      key=lambda m: (m.rank is None, m.rank if m.rank is not None else 0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "weights": dict(self.weights),
            "normalize_max": dict(self.normalize_max),
            "normalization_defined": self.normalization_defined,
            "note": self.note,
            "dropped": list(self.dropped),
            "undefined": list(self.undefined),
            "models": {name: m.to_dict() for name, m in self.models.items()},
        }


def _constant(values: list[float], maximum: float | None) -> bool:
    lo, hi = min(values), max(values)
    return hi - lo <= TIE_TOLERANCE * max(1.0, abs(hi), abs(maximum or 0.0))


def score_models(means: ModelMeans, *, weights: Mapping[str, float] | None = None,
                 normalize_max: Mapping[str, float] | None = None) -> RubricResult:
    """Apply the weighted rubric to per-model means (see the module docstring for edge cases)."""
    w = resolve_weights(weights)
    nmax = check_normalize_max(normalize_max)
    keys = active_keys(w)
    raw: dict[str, dict[str, float | None]] = {}
    for model, values in means.items():
        for key in values:
            check_key(key, f"key of model {model!r}")
        raw[model] = {k: _check_value(model, k, values.get(k)) for k in keys}

    # a model without any criterion mean was never evaluated: it gets no score
    evaluated = [m for m in raw if any(raw[m][c] is not None for c in CRITERIA)]
    dropped = tuple(k for k in keys
                    if w[k] > 0 and evaluated and all(raw[m][k] is None for m in evaluated))
    needed = [k for k in keys if w[k] > 0 and k not in dropped]
    missing = {m: (tuple(k for k in needed if v[k] is None) if m in evaluated
                   else tuple(CRITERIA)) for m, v in raw.items()}
    scored = [m for m in evaluated if not missing[m]]
    undefined = tuple(k for k in needed if len(scored) >= 2
                      and _constant([raw[m][k] or 0.0 for m in scored], nmax.get(k)))
    ranking = [k for k in needed if k not in undefined]

    reason = None
    if not raw:
        reason = "no models: nothing to score"
    elif not evaluated:
        reason = ("no model has an evaluation (every summary failed, or no juror answered): "
                  "nothing to score")
    elif len(raw) == 1:
        reason = "one model: min-max normalization across models is undefined; raw means only"
    elif len(scored) < 2:
        reason = (f"{len(scored)} model(s) with every weighted value: min-max "
                  "normalization is undefined; raw means only")
    elif not needed:
        reason = "every weight is 0: nothing to score"
    elif not ranking:
        reason = (f"every model has the same mean on every weighted key "
                  f"({', '.join(undefined)}): nothing separates them; raw means only")
    if reason is not None:
        models = {m: ModelScore(m, raw[m], missing=missing[m]) for m in raw}
        return RubricResult(models, w, nmax, False, reason, dropped, undefined)

    normalized: dict[str, dict[str, float | None]] = {m: {} for m in scored}
    for key in keys:
        present = [m for m in scored if raw[m][key] is not None]
        if key in undefined:
            for m in present:
                normalized[m][key] = None
            continue
        column = normalize((raw[m][key] or 0.0 for m in present),
                           reverse=key in LOWER_IS_BETTER, maximum=nmax.get(key))
        for m, value in zip(present, column, strict=True):
            normalized[m][key] = value
    sums = {m: sum(w[k] * (normalized[m][k] or 0.0) for k in ranking) for m in scored}
    final = dict(zip(scored, normalize(sums.values()), strict=True))
    ranks = competition_ranks(final)
    models = {
        m: ModelScore(m, raw[m], normalized[m], sums[m], final[m], ranks[m])
        if m in final else ModelScore(m, raw[m], missing=missing[m])
        for m in raw
    }
    parts = []
    if undefined:
        parts.append(f"{', '.join(undefined)}: every model has the same mean, so "
                     f"{'it' if len(undefined) == 1 else 'they'} cannot rank them: normalized "
                     "value undefined (-), left out of the weighted sum (the other weights "
                     "unchanged)")
        if ranking == [INFERENCE_TIME]:
            parts.append("the ranking rests on inference_time alone")
    if dropped:
        parts.append(f"{', '.join(dropped)} missing for every model: left out of the sum")
    if len(scored) < len(raw):
        parts.append(f"{len(raw) - len(scored)} model(s) not scored for missing values")
    return RubricResult(models, w, nmax, True, "; ".join(parts) or None, dropped, undefined)
