"""The baseline comparison and the drop gate, for the terminal and report.md (pure).

Rendered from ``report["gating"]`` (see :func:`pytest_rwe.report.baseline.gate_section`);
a report without that section renders nothing, so runs without ``--rwe-baseline`` and
without missing responses look exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe import escape
from pytest_rwe.criteria import label
from pytest_rwe.report.md_table import md_table
from pytest_rwe.verdict import CRITERIA

Segment = tuple[str, str | None]
Line = list[Segment]

SHORT = {c: label(c) for c in CRITERIA}
#: studies listed per failure (the rest are counted)
STUDY_LIMIT = 10


_esc = escape.markdown


def _diff(cell: Mapping[str, Any] | None) -> str:
    if not cell:
        return "n/a"
    return f"{cell['diff']:+.3f} [{cell['ci_low']:+.3f}, {cell['ci_high']:+.3f}]"


def _flag(cell: Mapping[str, Any] | None, limit: float | None) -> str:
    if not cell:
        return ""
    if limit is not None and cell["ci_high"] < -limit:
        return " DROP"
    return " *" if cell["ci_low"] > 0 or cell["ci_high"] < 0 else ""


def _studies(worse: list[Mapping[str, Any]]) -> str:
    shown = ", ".join(f"{w['study']} ({w['baseline']:.2f} -> {w['current']:.2f})"
                      for w in worse[:STUDY_LIMIT])
    more = len(worse) - STUDY_LIMIT
    return shown + (f", and {more} more" if more > 0 else "")


def _source(comparison: Mapping[str, Any]) -> str:
    extra = [str(comparison["baseline_created_at"])] if comparison.get("baseline_created_at") \
        else []
    if comparison.get("baseline_git_commit"):
        extra.append(f"commit {str(comparison['baseline_git_commit'])[:12]}")
    return str(comparison.get("source") or "baseline") + (f" ({', '.join(extra)})"
                                                          if extra else "")


def baseline_lines(report: Mapping[str, Any]) -> list[Line]:
    """The comparison with the baseline, per model and criterion, for the terminal summary."""
    gating = report.get("gating") or {}
    comparison = gating.get("baseline")
    if not comparison:
        return []
    level = round(100 * comparison["level"])
    limits = gating.get("max_drop") or {}
    lines: list[Line] = [[(f"against the baseline {_source(comparison)}: this run - baseline "
                           f"over shared studies [{level}% paired bootstrap; * = excludes 0]:",
                           "bold")]]
    for model, cells in comparison["models"].items():
        n = max((c["n"] for c in cells.values() if c), default=0)
        parts = [f"{SHORT[c]} {_diff(cells.get(c))}{_flag(cells.get(c), limits.get(c))}"
                 for c in CRITERIA]
        colour = "red" if any(_flag(cells.get(c), limits.get(c)) == " DROP" for c in CRITERIA) \
            else None
        lines.append([(f"  {model} ({n} studies): " + "; ".join(parts), colour)])
    for key, what in (("models_only_current", "models not in the baseline"),
                      ("models_only_baseline", "baseline models not in this run"),
                      ("studies_only_current", "studies not in the baseline"),
                      ("studies_only_baseline", "baseline studies not in this run")):
        names = comparison.get(key) or []
        if names:
            lines.append([(f"  {what}: {len(names)} ({', '.join(names[:STUDY_LIMIT])}"
                           f"{', ...' if len(names) > STUDY_LIMIT else ''})", "yellow")])
    return lines


def gate_lines(report: Mapping[str, Any]) -> list[Line]:
    """The drop gate's verdict and the missing responses, printed last."""
    gating = report.get("gating") or {}
    lines: list[Line] = []
    missing = gating.get("missing_responses") or []
    if missing:
        by_model: dict[str, list[str]] = {}
        for item in missing:
            by_model.setdefault(item["model"], []).append(item["study"])
        lines.append([(f"pytest-rwe: {len(missing)} evaluation(s) have no recorded response "
                       "(replay-only, --rwe-record none); record them with --rwe-record new:",
                       "red")])
        lines += [[(f"  {model}: {', '.join(studies)}", "red")]
                  for model, studies in by_model.items()]
    limits = gating.get("max_drop") or {}
    if not limits or gating.get("baseline") is None:
        return lines
    wanted = ", ".join(f"{c}={v:g}" for c, v in limits.items())
    if gating["passed"]:
        lines.append([(f"pytest-rwe baseline gate passed (--rwe-max-drop {wanted})", "green")])
        return lines
    lines.append([(f"pytest-rwe baseline gate FAILED (--rwe-max-drop {wanted}); exit status 1:",
                   "red")])
    for failure in gating["failures"]:
        if failure.get("cause"):
            what = f"{failure['criterion']}: " if failure.get("criterion") else ""
            lines.append([(f"  {failure['model']}: {what}{failure['cause']}", "red")])
            continue
        lines.append([(f"  {failure['model']}: {failure['criterion']} dropped "
                       f"{failure['diff']:+.3f} [{failure['ci_low']:+.3f}, "
                       f"{failure['ci_high']:+.3f}] vs the baseline, beyond "
                       f"-{failure['max_drop']:g}"
                       f"; worse on {len(failure['worse'])} studies: "
                       f"{_studies(failure['worse'])}", "red")])
    return lines


def baseline_markdown(report: Mapping[str, Any]) -> list[str]:
    """The comparison and the drop gate as a report.md section ([] when there is none)."""
    gating = report.get("gating") or {}
    lines: list[str] = []
    missing = gating.get("missing_responses") or []
    if missing:
        lines += ["### Not recorded", "",
                  f"{len(missing)} evaluation(s) had no recorded response in this replay-only "
                  "run (`--rwe-record none`), so they could not be evaluated; record them with "
                  "`--rwe-record new` (needs the vendor's API key):", ""]
        lines += [f"- `{_esc(m['model'])}` on `{_esc(m['study'])}`" for m in missing]
        lines.append("")
    comparison = gating.get("baseline")
    if not comparison:
        return lines
    limits = gating.get("max_drop") or {}
    level = round(100 * comparison["level"])
    lines += ["### Against the baseline", "",
              f"`{_esc(_source(comparison))}`: this run minus the baseline over the studies "
              f"both have, with {level}% paired-bootstrap intervals.", ""]
    if limits:
        wanted = ", ".join(f"{c} {v:g}" for c, v in limits.items())
        verdict = "passed" if gating["passed"] else "failed"
        lines += [f"**Baseline gate {verdict}** (max drop: {wanted}).", ""]
    rows = []
    for model, cells in comparison["models"].items():
        n = max((c["n"] for c in cells.values() if c), default=0)
        rows.append([f"`{_esc(model)}`", str(n), *(
            f"{_diff(cells.get(c))}{_flag(cells.get(c), limits.get(c))}" for c in CRITERIA)])
    lines += md_table(["model", "studies", *CRITERIA], rows)
    for failure in gating.get("failures") or []:
        lines.append("")
        if failure.get("cause"):
            what = f"{failure['criterion']}: " if failure.get("criterion") else ""
            lines.append(f"- `{_esc(failure['model'])}` {what}{_esc(failure['cause'])}")
            continue
        lines.append(f"- `{_esc(failure['model'])}` {failure['criterion']} dropped "
                     f"{failure['diff']:+.3f} [{failure['ci_low']:+.3f}, "
                     f"{failure['ci_high']:+.3f}]; worse on: {_esc(_studies(failure['worse']))}")
    lines.append("")
    return lines
