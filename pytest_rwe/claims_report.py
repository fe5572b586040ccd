"""Deprecated path, kept for one release: claim diagnostics are
:mod:`pytest_rwe.rules.diagnostics`; import ``claim_diagnostics`` from ``pytest_rwe``."""

import warnings

from pytest_rwe.rules.diagnostics import (
    aggregate_claims,
    claim_diagnostics,
    juror_findings,
    study_value,
)

warnings.warn("pytest_rwe.claims_report is deprecated; import claim_diagnostics from "
              "pytest_rwe (or pytest_rwe.rules.diagnostics)", DeprecationWarning, stacklevel=2)

__all__ = ["aggregate_claims", "claim_diagnostics", "juror_findings", "study_value"]
