"""Jury reliability: Fleiss' kappa among jurors, Cohen's kappa, and a juror against labels.

Abstentions (None) are never turned into a score:

- Fleiss' kappa with a variable number of raters per subject: subject i's agreement is
  P_i = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1)) over the n_i raters that answered; subjects
  with fewer than two answers carry no agreement information and are excluded (counted in
  ``excluded``); P-bar is the unweighted mean of P_i over the remaining subjects, and the
  category shares p_j are pooled over all their answers. With a fixed number of raters this
  is exactly Fleiss (1971).
- Cohen's kappa and ``confusion`` drop the items where a side abstained (counted).
- Kappa is undefined (None) when chance agreement is 1, i.e. every answer falls in one
  category: agreement is then perfect but carries no information beyond chance.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from pytest_rwe.stats.bootstrap import CI, DEFAULT_LEVEL, DEFAULT_RESAMPLES, check_options, interval

_EPS = 1e-12


@dataclass(frozen=True)
class FleissKappa:
    """Fleiss' kappa with its parts; ``kappa`` is None when undefined (see module docs)."""

    kappa: float | None
    observed: float | None
    expected: float | None
    subjects: int
    excluded: int
    ratings: int
    abstentions: int


def fleiss_kappa_counts(counts: Sequence[Sequence[int]], abstentions: int = 0) -> FleissKappa:
    """Fleiss' kappa from a subjects x categories table of rating counts."""
    width = len(counts[0]) if counts else 0
    used: list[Sequence[int]] = []
    excluded = 0
    for row in counts:
        if len(row) != width:
            raise ValueError("fleiss_kappa_counts: every row needs one count per category")
        if any(c < 0 for c in row):
            raise ValueError(f"fleiss_kappa_counts: negative count in row {list(row)}")
        if sum(row) < 2:
            excluded += 1
        else:
            used.append(row)
    total = sum(sum(row) for row in used)
    ratings = sum(sum(row) for row in counts)
    if not used:
        return FleissKappa(None, None, None, 0, excluded, ratings, abstentions)
    p_i = [sum(c * (c - 1) for c in row) / (sum(row) * (sum(row) - 1)) for row in used]
    observed = sum(p_i) / len(p_i)
    shares = [sum(row[j] for row in used) / total for j in range(width)]
    expected = sum(p * p for p in shares)
    kappa = None if expected > 1 - _EPS else (observed - expected) / (1 - expected)
    return FleissKappa(kappa, observed, expected, len(used), excluded, ratings, abstentions)


def fleiss_kappa(ratings: Sequence[Sequence[Hashable | None]]) -> FleissKappa:
    """Fleiss' kappa from each subject's ratings (e.g. jurors' 0/1 scores; None = abstained)."""
    categories: dict[Hashable, int] = {}
    for row in ratings:
        for r in row:
            if r is not None and r not in categories:
                categories[r] = len(categories)
    counts: list[list[int]] = []
    abstentions = 0
    for row in ratings:
        counts.append([0] * len(categories))
        for r in row:
            if r is None:
                abstentions += 1
            else:
                counts[-1][categories[r]] += 1
    return fleiss_kappa_counts(counts, abstentions)


def _pairs(a: Sequence[Hashable | None],
           b: Sequence[Hashable | None]) -> tuple[list[tuple[Hashable, Hashable]], int]:
    if len(a) != len(b):
        raise ValueError(f"two raters need the same items: {len(a)} vs {len(b)} ratings")
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    return pairs, len(a) - len(pairs)


def _kappa_of_pairs(pairs: Sequence[tuple[Hashable, Hashable]]) -> float | None:
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(1 for x, y in pairs if x == y) / n
    left: dict[Hashable, int] = {}
    right: dict[Hashable, int] = {}
    for x, y in pairs:
        left[x] = left.get(x, 0) + 1
        right[y] = right.get(y, 0) + 1
    expected = sum(left[c] * right.get(c, 0) for c in left) / (n * n)
    if expected > 1 - _EPS:
        return None
    return (observed - expected) / (1 - expected)


def cohen_kappa(a: Sequence[Hashable | None], b: Sequence[Hashable | None]) -> float | None:
    """Cohen's kappa of two raters over the same items; None when undefined or no pairs."""
    return _kappa_of_pairs(_pairs(a, b)[0])


@dataclass(frozen=True)
class Confusion:
    """A juror (predictions) against labels, where the positive class is "the summary is wrong".

    A label or prediction of 0 means wrong. ``sensitivity`` is the share of wrong summaries the
    juror caught; ``specificity`` the share of right ones it passed. A share is None when its
    denominator is empty; ``kappa_ci`` is None when kappa is undefined.
    """

    caught: int  # label 0, prediction 0 (true positive)
    missed: int  # label 0, prediction 1 (false negative)
    passed: int  # label 1, prediction 1 (true negative)
    false_alarms: int  # label 1, prediction 0 (false positive)
    abstained: int
    accuracy: float | None
    sensitivity: float | None
    specificity: float | None
    kappa: float | None
    kappa_ci: CI | None


def _binary(value: object, what: str, index: int) -> int:
    if isinstance(value, (int, float)) and value in (0, 1):  # also accepts True/False
        return int(value)
    raise ValueError(f"{what}[{index}] must be 0 (wrong) or 1 (right), got {value!r}")


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def confusion(labels: Sequence[int], predictions: Sequence[int | None], *,
              resamples: int = DEFAULT_RESAMPLES, seed: int | str = 0,
              level: float = DEFAULT_LEVEL) -> Confusion:
    """Accuracy, sensitivity, specificity and Cohen's kappa (with a bootstrap CI) vs labels."""
    check_options(resamples, level)
    if len(labels) != len(predictions):
        raise ValueError(f"confusion: {len(labels)} labels but {len(predictions)} predictions")
    cells = [0, 0, 0, 0]  # index = 2 * label + prediction
    codes: list[int] = []
    abstained = 0
    for i, (label, prediction) in enumerate(zip(labels, predictions, strict=True)):
        y = _binary(label, "labels", i)
        if prediction is None:
            abstained += 1
            continue
        code = 2 * y + _binary(prediction, "predictions", i)
        cells[code] += 1
        codes.append(code)
    caught, missed, false_alarms, passed = cells
    kappa = _kappa_from_cells(cells)
    kappa_ci = None
    if kappa is not None:
        rng = random.Random(seed)
        n = len(codes)
        replicates = []
        for _ in range(resamples):
            sample = rng.choices(codes, k=n)
            value = _kappa_from_cells([sample.count(c) for c in range(4)])
            # A resample where every answer is one category has no kappa; it is skipped.
            if value is not None:
                replicates.append(value)
        kappa_ci = interval(kappa, replicates, level) if replicates else None
    n = len(codes)
    return Confusion(caught, missed, passed, false_alarms, abstained,
                     _ratio(caught + passed, n), _ratio(caught, caught + missed),
                     _ratio(passed, passed + false_alarms), kappa, kappa_ci)


def _kappa_from_cells(cells: Sequence[int]) -> float | None:
    """Cohen's kappa of a 2x2 table given as [l0p0, l0p1, l1p0, l1p1]."""
    n = sum(cells)
    if n == 0:
        return None
    observed = (cells[0] + cells[3]) / n
    label0, label1 = cells[0] + cells[1], cells[2] + cells[3]
    pred0, pred1 = cells[0] + cells[2], cells[1] + cells[3]
    expected = (label0 * pred0 + label1 * pred1) / (n * n)
    if expected > 1 - _EPS:
        return None
    return (observed - expected) / (1 - expected)
