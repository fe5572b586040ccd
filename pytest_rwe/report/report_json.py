"""report.json: a self-describing record of one run (schema in docs/report.md).

The report dict built here is the single source of every rendering (terminal, Markdown,
HTML), so what a reader sees is exactly what report.json holds. Every string in it passes
through :func:`pytest_rwe.redact.redact` (values one by one, so the JSON stays valid).
"""

from __future__ import annotations

import datetime
import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pytest_rwe import escape
from pytest_rwe.redact import redact_deep
from pytest_rwe.report.aggregate import Record, aggregate, juror_status, sorted_records
from pytest_rwe.report.breakdown import Tags, breakdown
from pytest_rwe.report.config import ReportSettings
from pytest_rwe.report.evidence import quorum_met
from pytest_rwe.report.repeats import repeat_passes
from pytest_rwe.verdict import CRITERIA

SCHEMA = "pytest-rwe/report"
SCHEMA_VERSION = 1


def git_commit(folder: Path) -> str | None:
    """``git rev-parse HEAD`` in ``folder``; None when git or a repository is absent."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True,
                              text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def utc_now() -> str:
    """The current time, UTC, ISO 8601 to the second."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def _juror_entry(juror: Mapping[str, Any]) -> dict[str, Any]:
    """A juror's answer; the rules juror's ``findings`` and the ``quotes`` (and
    ``misquotes``) of an LLM juror's explanation when the record has them."""
    entry = {"juror": juror["juror"], "score": juror["score"],
             "explanation": juror.get("explanation", ""),
             # scored, abstained (answered unreadably) or error (could not be asked)
             "status": juror_status(juror), "error": juror.get("error")}
    for key in ("findings", "quotes", "misquotes"):
        if key in juror:
            entry[key] = juror[key]
    return entry


def result_entry(record: Record) -> dict[str, Any]:
    """One (study, model, repeat): summary, latency, tokens, badge, every juror's answer."""
    verdict = record.get("verdict") or {}
    thresholds = record.get("thresholds") or {}
    criteria = {}
    for criterion in CRITERIA:
        cell = verdict.get(criterion)
        if cell is None:
            continue
        mean = cell.get("mean")
        threshold = thresholds.get(criterion)
        criteria[criterion] = {
            "mean": mean, "threshold": threshold,
            "passed": repeat_passes(record, criterion),
            "abstentions": cell.get("abstentions", 0),
            "errors": cell.get("errors", 0),
            "quorum": cell.get("quorum"), "quorum_met": quorum_met(cell),
            "jurors": [_juror_entry(j) for j in cell["jurors"]],
        }
    summary = record.get("summary")
    # a prompt variant's entry names it (its "model" is model+variant, as everywhere else)
    variant = ({"variant": record["variant"], "variant_of": record.get("variant_of")}
               if record.get("variant") is not None else {})
    return {
        "study": record["study"],
        "model": record["model"],
        **variant,
        "repeat": record["repeat"],
        "badge": record.get("badge") or "red",
        "error": record.get("error"),
        "summary": None if summary is None else {
            "text": summary.get("text"), "latency_s": summary.get("latency_s"),
            "input_tokens": summary.get("input_tokens"),
            "output_tokens": summary.get("output_tokens"),
            "replayed": summary.get("replayed")},
        "criteria": criteria,
        "excluded_jurors": list(record.get("excluded_jurors") or []),
        "self_jurors": list(record.get("self_jurors") or []),
        "usage": record.get("usage"),
    }


def build_report(records: Sequence[Record], settings: ReportSettings, *,
                 models: Sequence[str] = (), jury: Sequence[str] = (),
                 thresholds: Mapping[str, float] | None = None,
                 prompts: Mapping[str, Any] | None = None,
                 meta: Mapping[str, Any] | None = None,
                 no_study: str | None = None,
                 run: Mapping[str, Any] | None = None,
                 variants: Sequence[str] = (),
                 study_tags: Tags | None = None,
                 study_warnings: Sequence[Mapping[str, Any]] = (),
                 selection: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The whole report: run description, aggregates, and every result; redacted.

    ``meta`` supplies ``plugin_version``, ``git_commit`` and ``created_at`` (tests pass fixed
    values; the plugin passes the real ones). ``no_study`` is why the run found no study.
    ``run`` is the run section (calls, retries, 429s, each endpoint's concurrency:
    :meth:`pytest_rwe.report.progress.Progress.run_section`). ``variants`` names the run's
    prompt variants in order (the first is the reference); ``prompts`` then holds the
    reference's templates and, under ``"variants"``, each variant's. ``study_tags`` (study id
    -> :func:`~pytest_rwe.study.selection.study_tags`) gives the ``breakdown`` by design,
    source and area; ``study_warnings`` are the plausibility warnings of the run's studies
    (:func:`pytest_rwe.report.study_notes.study_warnings`); ``selection`` is the
    ``--rwe-select`` expression with the number of studies it kept.
    """
    from pytest_rwe import __version__

    meta = dict(meta or {})
    sections = aggregate(records, settings, models=models, jury=jury, no_study=no_study,
                         variants=variants,
                         variant_prompts=(prompts or {}).get("variants"))
    tags = {study: {key: list(values) for key, values in (study_tags or {}).get(study, {}).items()}
            for study in sections["studies"]}
    report: dict[str, Any] = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "plugin_version": meta.get("plugin_version", __version__),
        "git_commit": meta.get("git_commit"),
        "created_at": meta.get("created_at") or utc_now(),
        "model_names": list(sections["models"]),
        "jury": list(jury) or sections["jurors"],
        "prompts": dict(prompts) if prompts is not None else None,
        "weights": dict(settings.weights),
        "normalize_max": dict(settings.normalize_max),
        "thresholds": dict(thresholds) if thresholds is not None else None,
        "minimums": dict(settings.minimums),
        "bootstrap": sections["bootstrap"],
        "studies": sections["studies"],
        "models": sections["models"],
        "selection": dict(selection) if selection is not None else None,
        "study_tags": tags,
        "breakdown": breakdown(records, tags, settings, models=models),
        "study_warnings": [dict(w) for w in study_warnings],
        "rubric": sections["rubric"],
        "bradley_terry": sections["bradley_terry"],
        "differences_from_top": sections["differences_from_top"],
        "sensitivity": sections["sensitivity"],
        "agreement": sections["agreement"],
        "abstentions": sections["abstentions"],
        "juror_errors": sections["juror_errors"],
        "badges": sections["badges"],
        "repeats": sections["repeats"],
        "self_judging": sections["self_judging"],
        "gate": sections["gate"],
        "variants": sections["variants"],
        "cost": sections["cost"],
        "results": [result_entry(r) for r in sorted_records(records)],
        "run": dict(run) if run is not None else None,
    }
    redacted: dict[str, Any] = redact_deep(report)
    return redacted


def dumps(report: Mapping[str, Any]) -> str:
    """report.json text: indented, UTF-8, NaN rejected (JSON has none), C1 controls escaped."""
    return escape.json_text(json.dumps(report, indent=2, ensure_ascii=False,
                                       allow_nan=False)) + "\n"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and a rename: never a half file, and
    on disk (fsync) before the run says it wrote it."""
    from pytest_rwe.store.files import atomic_write_text

    atomic_write_text(path, text, fsync=True)


def write_report(directory: Path, report: Mapping[str, Any]) -> list[Path]:
    """Write report.json, report.md and report.html into ``directory``; return the paths."""
    from pytest_rwe.report.html import render_html
    from pytest_rwe.report.markdown import render_markdown

    files = {
        "report.json": dumps(report),
        "report.md": render_markdown(report),
        "report.html": render_html(report),
    }
    paths = []
    for name, text in files.items():
        path = directory / name
        write_atomic(path, text)
        paths.append(path)
    return paths
