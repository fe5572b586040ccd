"""Per-test records: an evaluation as JSON primitives, shipped on the test report.

xdist can only carry JSON primitives on ``user_properties``; these records are built here,
travel as JSON text, and are aggregated by the controller identically with or without xdist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_rwe.engine import CallUsage, Evaluation
    from pytest_rwe.verdict import Criterion

RECORD_VERSION = 1
RECORD_PROPERTY = "rwe"  # user_properties name of a test's record (JSON text)
PROGRESS_PROPERTY = "rwe_progress"  # ... of the process's counters after the test (JSON text)


def evaluation_record(
    evaluation: Evaluation,
    thresholds: Mapping[Criterion, float],
    claims: Mapping[str, Any] | None = None,
    findings: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The JSON-able record of one (model, study, repeat) evaluation.

    ``claims`` is the summary's claim diagnostics and ``findings`` what each juror's answer
    points at in the summary, per criterion and juror (:mod:`pytest_rwe.rules.diagnostics`); the
    findings join each juror's entry of the verdict.
    """
    summary = evaluation.summary
    verdict = evaluation.verdict
    verdict_record = verdict.to_dict() if verdict else None
    if verdict_record is not None and findings:
        for criterion, cell in verdict_record.items():
            for juror in cell["jurors"]:
                juror.update(findings.get(criterion, {}).get(juror["juror"], {}))
    return {
        "version": RECORD_VERSION,
        "model": evaluation.model,
        "study": evaluation.study_id,
        "repeat": evaluation.repeat,
        "error": evaluation.error,
        "summary": summary.to_dict() | {"replayed": summary.replayed} if summary else None,
        "verdict": verdict_record,
        "badge": verdict.badge(thresholds) if verdict else "red",
        "thresholds": dict(thresholds),
        "claims": dict(claims) if claims is not None else None,
        "usage": usage_dict(evaluation.calls),
    }


def usage_dict(calls: tuple[CallUsage, ...]) -> dict[str, Any]:
    """The tokens of an evaluation's calls: its summary, and per juror its judge calls and
    repairs (``TokenCounts.to_dict`` form)."""
    from pytest_rwe.providers.prices import TokenCounts  # heavy: only where records are built

    summary = TokenCounts()
    jurors: dict[str, TokenCounts] = {}
    for call in calls:
        if call.kind == "summary":
            summary = summary.add(call.usage, replayed=call.replayed)
        else:
            jurors[call.model] = jurors.get(call.model, TokenCounts()).add(
                call.usage, replayed=call.replayed)
    return {"summary": summary.to_dict(),
            "jurors": {juror: counts.to_dict() for juror, counts in jurors.items()}}


def record_key(record: Mapping[str, Any]) -> tuple[str, str, int]:
    """The identity of a record: several tests (one per criterion) ship the same one."""
    return (str(record["model"]), str(record["study"]), int(record["repeat"]))
