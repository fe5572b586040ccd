"""No evidence, no pass: why a gated model has no evaluation, and the ``--rwe-min`` gate (pure).

A gate asked to certify a model's mean must fail when the run holds no evidence for it, and
say why: no study was found, no test of the model ran, every summary failed, or no study
reached the jury's quorum. Never a skip, never "n/a" quietly passing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.verdict import CRITERIA, Criterion

Record = Mapping[str, Any]
#: characters of a pair's error quoted in a cause
ERROR_CHARS = 200


def quorum_met(cell: Mapping[str, Any] | None) -> bool:
    """Whether a record's criterion reached its quorum (records made before it: yes)."""
    return cell is not None and bool(cell) and bool(cell.get("quorum_met", True))


def criterion_value(cell: Mapping[str, Any] | None) -> float | None:
    """A record's criterion jury mean, or None when there is none or no quorum."""
    if not cell or cell.get("mean") is None or not quorum_met(cell):
        return None
    return float(cell["mean"])


def no_evaluation_cause(model: str, records: Sequence[Record], criterion: Criterion | None = None,
                        *, no_study: str | None = None) -> str:
    """Why ``model`` has no value on ``criterion`` (any criterion when None) in ``records``."""
    mine = [r for r in records if str(r["model"]) == model]
    if not mine:
        if no_study:
            return no_study
        return ("no test of this model ran (deselected with -k, or not collected): this run "
                "holds no evaluation of it")
    failed = [r for r in mine if r.get("summary") is None or r.get("verdict") is None]
    if len(failed) == len(mine):
        first = " ".join(str(failed[0].get("error") or "no error recorded").split())
        return (f"every pair errored ({len(failed)} of {len(mine)} evaluations have no "
                f"verdict); first error: {first[:ERROR_CHARS]}")
    criteria = [criterion] if criterion else list(CRITERIA)
    cells = [(r.get("verdict") or {}).get(c) for r in mine for c in criteria]
    judged = [c for c in cells if c and c.get("mean") is not None]
    if judged and not any(quorum_met(c) for c in judged):
        quorum = judged[0].get("quorum")
        return (f"no study reached the jury's quorum ({quorum} answering jurors, rwe_quorum): "
                "too many jurors errored or abstained")
    return "no juror answered on any study (every juror errored or abstained)"


def min_gate(criteria: Mapping[str, Mapping[str, Mapping[str, Any]]],
             minimums: Mapping[Criterion, float], records: Sequence[Record], *,
             models: Sequence[str] = (), no_study: str | None = None) -> dict[str, Any]:
    """The ``--rwe-min`` gate over the models of the records and the configured ``models``:
    every criterion mean must reach its minimum; no mean at all fails, with its cause."""
    failures = []
    gated = list(dict.fromkeys([*models, *criteria]))
    for model in gated if minimums else []:
        for criterion, minimum in minimums.items():
            mean = ((criteria.get(model) or {}).get(criterion) or {}).get("mean")
            if mean is not None and mean >= minimum:
                continue
            cause = None if mean is not None else no_evaluation_cause(
                model, records, criterion, no_study=no_study)
            failures.append({"model": model, "criterion": criterion, "mean": mean,
                             "minimum": minimum, "cause": cause})
    return {"minimums": dict(minimums), "passed": not failures, "failures": failures,
            "models": gated}
