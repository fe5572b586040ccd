"""The suite: each (model, study) is judged on each criterion against its threshold."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from pytest_rwe import CRITERIA, Criterion, Summary, Verdict, assert_criterion


@pytest.mark.parametrize("criterion", CRITERIA)
def test_summary(
    rwe_verdict: Verdict,
    rwe_summary: Summary,
    rwe_thresholds: Mapping[Criterion, float],
    criterion: Criterion,
) -> None:
    assert_criterion(rwe_verdict, criterion, rwe_thresholds[criterion], rwe_summary.text)
