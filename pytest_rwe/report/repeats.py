"""Consistency across ``--rwe-repeat N``: per (model, study), how many repeats pass each
criterion; per model, the mean share of passing repeats and pass^k (every repeat passes),
each with a 95% bootstrap interval over studies (pure).

A repeat passes a criterion when its jury mean reaches the threshold with a quorum; a repeat
without a verdict (its summary or its jury failed) does not pass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pytest_rwe.report.evidence import criterion_value
from pytest_rwe.verdict import CRITERIA

Record = Mapping[str, Any]
ALL = "all_criteria"
#: (model, study) pairs whose repeats disagree, listed per model
DISAGREE_LIMIT = 20


def repeat_passes(record: Record, criterion: str) -> bool:
    """Whether one repeat passes ``criterion`` (threshold reached, with a quorum)."""
    value = criterion_value((record.get("verdict") or {}).get(criterion))
    threshold = (record.get("thresholds") or {}).get(criterion)
    return value is not None and threshold is not None and value >= float(threshold)


def repeat_section(records: Sequence[Record], models: Sequence[str], *, rule: str,
                   interval: Callable[[list[float], str], dict[str, Any]]) -> dict[str, Any] | None:
    """The ``repeats`` section of report.json, or None when no pair has two repeats.

    ``interval(values, seed_key)`` gives ``{mean, ci_low, ci_high, n}`` of per-study values.
    """
    pairs: dict[tuple[str, str], list[Record]] = {}
    for record in records:
        pairs.setdefault((str(record["model"]), str(record["study"])), []).append(record)
    most = max((len(v) for v in pairs.values()), default=0)
    if most < 2:
        return None
    section: dict[str, Any] = {"repeats": most, "rule": rule, "models": {}}
    for model in models:
        mine = {study: rs for (m, study), rs in sorted(pairs.items()) if m == model}
        if not mine:
            continue
        per_criterion: dict[str, Any] = {}
        disagree: list[dict[str, Any]] = []
        every: list[float] = []
        for study, repeats in mine.items():
            passed = {c: sum(repeat_passes(r, c) for r in repeats) for c in CRITERIA}
            every.append(float(all(passed[c] == len(repeats) for c in CRITERIA)))
            split = {c: n for c, n in passed.items() if 0 < n < len(repeats)}
            if split:
                disagree.append({"study": study, "repeats": len(repeats), "passed": passed})
        for criterion in CRITERIA:
            shares = [sum(repeat_passes(r, criterion) for r in rs) / len(rs)
                      for rs in mine.values()]
            per_criterion[criterion] = {
                "pass_share": interval(shares, f"{model}:{criterion}:pass_share"),
                "pass_all": interval([float(s == 1.0) for s in shares],
                                     f"{model}:{criterion}:pass_all"),
                "consistent": sum(1 for s in shares if s in (0.0, 1.0)),
            }
        section["models"][model] = {
            "studies": len(mine), "criteria": per_criterion,
            ALL: {"pass_all": interval(every, f"{model}:{ALL}:pass_all")},
            "disagreeing": disagree[:DISAGREE_LIMIT], "disagreeing_count": len(disagree),
        }
    return section
