"""Per-test records: an evaluation as JSON primitives, shipped on the test report.

xdist can only carry JSON primitives on ``user_properties``; these records are built here,
travel as JSON text, and are aggregated by the controller identically with or without xdist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe.engine import Evaluation
from pytest_rwe.verdict import Criterion

RECORD_VERSION = 1


def evaluation_record(
    evaluation: Evaluation,
    thresholds: Mapping[Criterion, float],
    claims: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON-able record of one (model, study, repeat) evaluation.

    ``claims`` is the summary's claim diagnostics (:mod:`pytest_rwe.claims_report`).
    """
    summary = evaluation.summary
    verdict = evaluation.verdict
    return {
        "version": RECORD_VERSION,
        "model": evaluation.model,
        "study": evaluation.study_id,
        "repeat": evaluation.repeat,
        "error": evaluation.error,
        "summary": summary.to_record() | {"replayed": summary.replayed} if summary else None,
        "verdict": verdict.to_record() if verdict else None,
        "badge": verdict.badge(thresholds) if verdict else "red",
        "thresholds": dict(thresholds),
        "claims": dict(claims) if claims is not None else None,
    }


def record_key(record: Mapping[str, Any]) -> tuple[str, str, int]:
    """The identity of a record: several tests (one per criterion) ship the same one."""
    return (str(record["model"]), str(record["study"]), int(record["repeat"]))
