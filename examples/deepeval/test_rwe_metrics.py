"""The RWE jury as deepeval metrics, offline: run with

    DEEPEVAL_TELEMETRY_OPT_OUT=1 DEEPEVAL_DISABLE_DOTENV=1 pytest examples/deepeval

The summaries come from ``builtin/template`` and the jury is ``builtin/rules`` (no API key,
no network). Swap in LLM jurors with ``jurors=("o4-mini", "claude-sonnet-4-20250514",
"gemini-2.5-pro")`` and your keys; their answers are recorded in ``.rwe_cache``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deepeval import assert_test

from pytest_rwe import Study, load_study, summarize
from pytest_rwe.integrations.deepeval import (
    Completeness,
    DirectionOfEffect,
    NumbersAccurate,
    rwe_test_case,
)

STUDIES = Path(__file__).resolve().parents[2] / "cases" / "studies"
# one study of each design in the public suite
STUDY_IDS = [
    "legend_htn_ace_inhibitors_vs_arbs_cardiovascular",  # cohort, hazard ratios
    "brfss_recent_cannabis_use_myocardial_infarction",  # cross-sectional, odds ratios
    "iscgm_t2d_basal_or_oral_therapy_case_series",  # case series, pre/post changes
]


def jury() -> list[DirectionOfEffect | NumbersAccurate | Completeness]:
    """The three criteria; a criterion passes when the jury mean reaches 0.5."""
    return [DirectionOfEffect(threshold=0.5), NumbersAccurate(threshold=0.5),
            Completeness(threshold=0.5)]


def study(study_id: str) -> Study:
    return load_study(STUDIES / f"{study_id}.json")


@pytest.mark.parametrize("study_id", STUDY_IDS)
def test_builtin_summary_passes_the_jury(study_id: str) -> None:
    case = study(study_id)
    assert_test(rwe_test_case(case, summarize(case)), jury())


def test_a_reversed_effect_fails_direction_of_effect() -> None:
    case = study("legend_htn_ace_inhibitors_vs_arbs_cardiovascular")
    summary = summarize(case)
    assert "significantly higher risk" in summary
    wrong = summary.replace("significantly higher risk", "significantly lower risk")
    with pytest.raises(AssertionError, match="Direction of Effect"):
        assert_test(rwe_test_case(case, wrong), [DirectionOfEffect()])


def test_an_invented_number_fails_numbers_accurate() -> None:
    case = study("legend_htn_ace_inhibitors_vs_arbs_cardiovascular")
    wrong = summarize(case).replace("HR 1.15", "HR 1.51")
    with pytest.raises(AssertionError, match="Numbers Accurate"):
        assert_test(rwe_test_case(case, wrong), [NumbersAccurate()])
