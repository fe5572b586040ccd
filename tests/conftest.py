"""Shared fixtures of pytest-rwe's own tests."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import pytest_rwe

pytest_plugins = ["pytester"]

# The plugin imports most of the package only when a run evaluates, and pytester's in-process
# runs drop every module first imported during a test. Import the package now, so that each
# test sees one copy of each module (one provider registry, one class per name). Left out:
# the deprecated paths (they warn) and the deepeval integration (an optional extra).
_LEFT_OUT = ("pytest_rwe.fixtures", "pytest_rwe.drift_plugin", "pytest_rwe.summarizer",
             "pytest_rwe.claims_report", "pytest_rwe.integrations.deepeval")
for _module in pkgutil.walk_packages(pytest_rwe.__path__, "pytest_rwe."):
    if not _module.name.startswith(_LEFT_OUT):
        importlib.import_module(_module.name)

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
