"""Shared fixtures of pytest-rwe's own tests."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
CURATED = ROOT / "cases" / "studies"


@pytest.fixture
def cohort_raw() -> dict[str, object]:
    """A small valid cohort study in the pipeline's flat format."""
    return {
        "id": "demo_cohort",
        "design": "cohort",
        "question": "Is drug A, compared with drug B, associated with asthma visits?",
        "picot": {
            "population": "Adults with asthma; propensity-score matched",
            "intervention": "Drug A",
            "control": "Drug B",
            "outcome": "Inpatient visits for asthma",
            "timeframe": "3 years",
        },
        "results": {
            "intervention_size": "1523",
            "control_size": 1498,
            "baseline_differences": {"age_mean": "control 47.3579 vs intervention 71.2047"},
            "outcomes": {
                "outcome_3yrs.ip.visit.for.asthma_bin!OR": "0.866 (0.665, 1.13)",
                "outcome_3yrs.ip.visit.for.asthma_bin!pvalue": "0.28",
                "outcome_3yrs.fev1_cont!MD": "-0.12 (-0.2, -0.04)",
                "outcome_3yrs.fev1_cont!pvalue": "<0.001",
            },
        },
        "source": {"title": "synthetic test study"},
    }
