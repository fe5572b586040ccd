"""Fleiss' and Cohen's kappa on textbook examples, and a juror against labels."""

from __future__ import annotations

import pytest

from pytest_rwe.stats.agreement import cohen_kappa, confusion, fleiss_kappa, fleiss_kappa_counts

# Fleiss (1971) as worked on Wikipedia's "Fleiss' kappa" page: 10 subjects, 14 raters,
# 5 categories; P-bar = 0.378, P_e = 0.213, kappa = 0.210.
WIKIPEDIA_FLEISS = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_fleiss_wikipedia_example() -> None:
    result = fleiss_kappa_counts(WIKIPEDIA_FLEISS)
    assert result.kappa == pytest.approx(0.210, abs=5e-4)
    assert result.observed == pytest.approx(0.378, abs=5e-4)
    assert result.expected == pytest.approx(0.213, abs=5e-4)
    assert (result.subjects, result.excluded, result.ratings) == (10, 0, 140)


def test_fleiss_from_ratings_matches_counts() -> None:
    ratings = [[c for c, n in enumerate(row) for _ in range(n)] for row in WIKIPEDIA_FLEISS]
    assert fleiss_kappa(ratings).kappa == fleiss_kappa_counts(WIKIPEDIA_FLEISS).kappa


def test_fleiss_perfect_agreement_and_undefined() -> None:
    assert fleiss_kappa([[1, 1, 1], [0, 0, 0], [1, 1, 1]]).kappa == pytest.approx(1.0)
    everyone_passes = fleiss_kappa([[1, 1, 1], [1, 1, 1]])
    assert everyone_passes.kappa is None and everyone_passes.observed == 1.0


def test_fleiss_with_abstentions() -> None:
    # Subject 1: 1,1,1 -> P = 1. Subject 2: 1,0 (one abstained) -> P = 0.
    # Subject 3: 0 only (two abstained): fewer than two answers, excluded.
    # P-bar = 0.5; pooled over subjects 1-2: four 1s and one 0 -> P_e = .8^2 + .2^2 = .68
    # kappa = (.5 - .68) / (1 - .68) = -.5625
    result = fleiss_kappa([[1, 1, 1], [1, 0, None], [None, 0, None]])
    assert result.kappa == pytest.approx(-0.5625)
    assert (result.subjects, result.excluded, result.abstentions) == (2, 1, 3)


def test_fleiss_rejects_ragged_tables() -> None:
    with pytest.raises(ValueError, match="one count per category"):
        fleiss_kappa_counts([[1, 2], [3]])


def test_cohen_wikipedia_example() -> None:
    # Wikipedia "Cohen's kappa": 50 proposals; both yes 20, A yes/B no 5, A no/B yes 10,
    # both no 15: p_o = .7, p_e = .5*.6 + .5*.4 = .5, kappa = .4
    a = [1] * 20 + [1] * 5 + [0] * 10 + [0] * 15
    b = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)


@pytest.mark.parametrize(
    ("cells", "kappa"),
    [
        # Wikipedia's "same percentages, different numbers": p_o = .6 in both.
        ((45, 15, 25, 15), 0.06 / 0.46),  # p_e = .6*.7 + .4*.3 = .54
        ((25, 35, 5, 35), 0.14 / 0.54),  # p_e = .6*.3 + .4*.7 = .46
    ],
)
def test_cohen_same_agreement_different_kappa(cells: tuple[int, ...], kappa: float) -> None:
    yy, yn, ny, nn = cells
    a = ["yes"] * (yy + yn) + ["no"] * (ny + nn)
    b = ["yes"] * yy + ["no"] * yn + ["yes"] * ny + ["no"] * nn
    assert cohen_kappa(a, b) == pytest.approx(kappa)


def test_cohen_drops_abstentions_and_handles_degenerate() -> None:
    assert cohen_kappa([1, 0, None, 1], [1, 0, 0, None]) == pytest.approx(1.0)
    assert cohen_kappa([1, 1], [1, 1]) is None
    assert cohen_kappa([], []) is None
    with pytest.raises(ValueError, match="same items"):
        cohen_kappa([1], [1, 0])


def test_confusion_counts_errors_as_the_positive_class() -> None:
    labels = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    preds = [0, 0, 0, 1, 1, 1, 1, 1, 0, None]
    result = confusion(labels, preds, seed=3)
    assert (result.caught, result.missed, result.passed, result.false_alarms) == (3, 1, 4, 1)
    assert result.abstained == 1
    assert result.accuracy == pytest.approx(7 / 9)
    assert result.sensitivity == pytest.approx(3 / 4)  # 3 of 4 wrong summaries caught
    assert result.specificity == pytest.approx(4 / 5)
    # 2x2 [3, 1 / 1, 4], n = 9: p_o = 7/9, p_e = (4*4 + 5*5)/81 = 41/81 -> kappa = 22/40
    assert result.kappa == pytest.approx(0.55)
    assert result.kappa_ci is not None
    assert result.kappa_ci.mean == pytest.approx(0.55)
    assert -1 <= result.kappa_ci.low < 0.55 < result.kappa_ci.high <= 1
    assert confusion(labels, preds, seed=3) == result


def test_confusion_undefined_parts() -> None:
    result = confusion([1, 1, 1], [1, 1, 1])
    assert result.sensitivity is None and result.specificity == 1.0
    assert result.kappa is None and result.kappa_ci is None
    with pytest.raises(ValueError, match=r"predictions\[1\] must be 0 \(wrong\) or 1"):
        confusion([1, 0], [1, 2])
    with pytest.raises(ValueError, match="3 labels but 2 predictions"):
        confusion([1, 0, 1], [1, 0])
