"""This run against a saved baseline report.json, per model and criterion (pure).

Both sides are read the same way, from ``results[]``: per study, the jury mean of each
criterion (repeats averaged). A model is compared over the studies both runs have a value
for, as the mean of (this run - baseline) with a paired-bootstrap interval: resampling
studies keeps each pair together, so study difficulty cancels out. Timings, dates, commits
and the rubric are not compared, so a baseline made on another machine compares cleanly.

``--rwe-max-drop criterion=value`` fails a model when the whole interval lies below
``-value``: a drop the studies support, not noise. No evidence, no pass: it also fails a
model of the baseline that has no evaluation in this run (absent, every pair errored, no
study found, no study in common), naming the cause.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pytest_rwe.report.evidence import criterion_value
from pytest_rwe.settings import Wording, read_numbers
from pytest_rwe.stats.bootstrap import DEFAULT_LEVEL, DEFAULT_RESAMPLES, paired_diff_ci
from pytest_rwe.verdict import CRITERIA

REPORT_SCHEMA = "pytest-rwe/report"
#: at most this many studies that got worse are listed per model and criterion
WORSE_LIMIT = 10

StudyMeans = dict[str, dict[str, dict[str, float]]]
"""model -> study -> {criterion: jury mean} (only criteria with a value)."""


def load_baseline(path: Path) -> dict[str, Any]:
    """Read a saved report.json; raise ValueError naming the file and the fix."""
    fix = ("pass a report.json written by `pytest --rwe-report DIR` (e.g. "
           "cases/golden/baseline/report.json)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"--rwe-baseline: {path} does not exist; {fix}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"--rwe-baseline: cannot read {path}: {exc}; {fix}") from None
    if not isinstance(data, dict) or data.get("schema") != REPORT_SCHEMA:
        raise ValueError(f"--rwe-baseline: {path} is not a pytest-rwe report (field 'schema' "
                         f"is not {REPORT_SCHEMA!r}); {fix}")
    if not isinstance(data.get("results"), list):
        raise ValueError(f"--rwe-baseline: {path} has no 'results' list; {fix}")
    return data


_MAX_DROP = Wording(
    malformed="--rwe-max-drop {part!r}: {raw!r} is not a number >= 0; {example}",
    unknown="--rwe-max-drop {part!r}: unknown criterion {key!r}; use one of {keys}; {example}",
    not_number="--rwe-max-drop {part!r}: {raw!r} is not a number >= 0; {example}",
    out_of_range="--rwe-max-drop {part!r}: {raw!r} is not a number >= 0; {example}",
)


def parse_max_drop(text: str | None) -> dict[str, float]:
    """``criterion=value,...`` -> {criterion: value}; raise SettingsError with the fix."""
    return read_numbers(text or "", option="--rwe-max-drop", keys=CRITERIA,
                        example="write criterion=value, e.g. "
                                "direction_of_effect=0.05,completeness=0.1",
                        check="non_negative", wording=_MAX_DROP)


def study_means(report: Mapping[str, Any]) -> StudyMeans:
    """Per model and study, each criterion's jury mean from ``results[]``, repeats averaged."""
    sums: dict[str, dict[str, dict[str, list[float]]]] = {}
    for result in report.get("results") or []:
        by_study = sums.setdefault(str(result["model"]), {}).setdefault(str(result["study"]), {})
        for criterion in CRITERIA:
            mean = criterion_value((result.get("criteria") or {}).get(criterion))
            if mean is not None:
                by_study.setdefault(criterion, []).append(mean)
    return {model: {study: {c: sum(v) / len(v) for c, v in cell.items()}
                    for study, cell in studies.items()}
            for model, studies in sums.items()}


def _cell(current: Mapping[str, Mapping[str, float]], baseline: Mapping[str, Mapping[str, float]],
          criterion: str, *, resamples: int, seed: str, level: float) -> dict[str, Any] | None:
    shared = sorted(s for s in current if s in baseline
                    and criterion in current[s] and criterion in baseline[s])
    if not shared:
        return None
    now = [current[s][criterion] for s in shared]
    before = [baseline[s][criterion] for s in shared]
    ci = paired_diff_ci(now, before, resamples=resamples, seed=seed, level=level)
    diffs = sorted(((a - b, s) for a, b, s in zip(now, before, shared, strict=True)
                    if a < b), key=lambda pair: (pair[0], pair[1]))
    return {
        "diff": ci.mean, "ci_low": ci.low, "ci_high": ci.high, "n": len(shared),
        "current": sum(now) / len(now), "baseline": sum(before) / len(before),
        "worse": [{"study": s, "current": current[s][criterion],
                   "baseline": baseline[s][criterion]} for _, s in diffs],
        "better": sum(1 for a, b in zip(now, before, strict=True) if a > b),
    }


def compare_reports(current: Mapping[str, Any], baseline: Mapping[str, Any], *,
                    source: str = "", resamples: int = DEFAULT_RESAMPLES,
                    level: float = DEFAULT_LEVEL) -> dict[str, Any]:
    """This run minus the baseline, per model in both and criterion (None: no shared study)."""
    now, before = study_means(current), study_means(baseline)
    order = [str(m) for m in (current.get("model_names") or [])] + sorted(now)
    models: dict[str, dict[str, Any]] = {}
    for model in dict.fromkeys(order):
        if model not in now or model not in before:
            continue
        models[model] = {
            criterion: _cell(now[model], before[model], criterion, resamples=resamples,
                             seed=f"baseline:{model}:{criterion}", level=level)
            for criterion in CRITERIA
        }
    studies_now = {s for cell in now.values() for s in cell}
    studies_before = {s for cell in before.values() for s in cell}
    return {
        "source": source,
        "baseline_created_at": baseline.get("created_at"),
        "baseline_git_commit": baseline.get("git_commit"),
        "level": level,
        "resamples": resamples,
        "models": models,
        "models_only_current": sorted(set(now) - set(before)),
        "models_only_baseline": sorted(set(before) - set(now)),
        "studies_only_current": sorted(studies_now - studies_before),
        "studies_only_baseline": sorted(studies_before - studies_now),
    }


def drop_failures(comparison: Mapping[str, Any], max_drop: Mapping[str, float],
                  causes: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Every (model, criterion) whose interval lies entirely below ``-max_drop[criterion]``,
    and every gated one without a comparison: ``cause`` says why (``causes`` gives it per
    model absent from this run or without an evaluation)."""
    causes = causes or {}
    failures: list[dict[str, Any]] = []
    absent = list(comparison.get("models_only_baseline") or [])
    for model in absent if max_drop else []:
        cause = causes.get(model) or "no test of this model ran in this run"
        failures.append({"model": model, "criterion": None, "max_drop": None, "diff": None,
                         "ci_low": None, "ci_high": None, "worse": [],
                         "cause": f"a model of the baseline has no evaluation in this run: "
                                  f"{cause}"})
    for model, cells in comparison["models"].items():
        for criterion, limit in max_drop.items():
            cell = cells.get(criterion)
            if cell is None:
                cause = causes.get(model) or (
                    "no study has a value in both runs (no study in common with the baseline, "
                    "or no verdict on the shared ones)")
                failures.append({"model": model, "criterion": criterion, "max_drop": limit,
                                 "diff": None, "ci_low": None, "ci_high": None, "worse": [],
                                 "cause": f"nothing to compare: {cause}"})
            elif cell["ci_high"] < -limit:
                failures.append({"model": model, "criterion": criterion, "max_drop": limit,
                                 "diff": cell["diff"], "ci_low": cell["ci_low"],
                                 "ci_high": cell["ci_high"], "worse": cell["worse"],
                                 "cause": None})
    return failures


def gate_section(comparison: Mapping[str, Any] | None, max_drop: Mapping[str, float],
                 missing: Sequence[Mapping[str, str]] = (),
                 causes: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``gating`` section of report.json: the comparison, the drop gate, what is missing."""
    failures = drop_failures(comparison, max_drop, causes) if comparison is not None else []
    return {"baseline": comparison, "max_drop": dict(max_drop), "failures": failures,
            "missing_responses": [dict(m) for m in missing],
            "passed": not failures}


def missing_responses(report: Mapping[str, Any]) -> list[dict[str, str]]:
    """The (model, study) pairs a replay-only run had no recorded response for."""
    missing = []
    for result in report.get("results") or []:
        error = str(result.get("error") or "")
        if "no recorded response" in error:
            missing.append({"model": str(result["model"]), "study": str(result["study"])})
    return missing
