"""What the report says about the studies themselves (pure): their plausibility warnings and
the ``--rwe-select`` selection.

A study file can be valid and still contradict itself (an estimate outside its interval, an
interval that disagrees with its p-value, an implausible size:
:mod:`pytest_rwe.study.checks`). Such a study still runs, but its verdicts rest on numbers
that cannot all be right, so the report lists the warnings of the studies it evaluated:
once per run, in report.json (``study_warnings``), the terminal, report.md and report.html.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_rwe import escape

if TYPE_CHECKING:  # the renderers below need no study model (nor pydantic) loaded
    from pytest_rwe.study import Study

Line = list[tuple[str, str | None]]
#: the terminal lists at most this many warnings (report.json, .md and .html have them all)
TERMINAL_WARNINGS = 10


def _relative(path: Path | None, root: Path | None) -> str | None:
    if path is None:
        return None
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def study_warnings(studies: Iterable[Study], root: Path | None = None) -> list[dict[str, Any]]:
    """Every plausibility warning of ``studies``, sorted by study id: ``{study, file, where,
    message}`` with ``file`` relative to ``root`` (a committed report names no local folder)."""
    from pytest_rwe.study.checks import check_study

    entries = []
    for study in sorted(studies, key=lambda s: s.id):
        for warning in check_study(study):
            entries.append({"study": study.id, "file": _relative(warning.path, root),
                            "where": warning.where, "message": warning.message})
    return entries


def selection_text(report: Mapping[str, Any]) -> str | None:
    """``--rwe-select design=cohort: 111 of 181 studies``, or None without a selection."""
    selection = report.get("selection")
    if not isinstance(selection, Mapping):
        return None
    return (f"--rwe-select {selection['expression']}: {selection['selected']} of "
            f"{selection['studies']} studies")


def _warnings(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(report.get("study_warnings") or ())


def _text(entry: Mapping[str, Any]) -> str:
    return f"{entry['file'] or entry['study']}: {entry['where']}: {entry['message']}"


def warning_lines(report: Mapping[str, Any]) -> list[Line]:
    """The terminal lines: how many, then the first few (nothing without a warning)."""
    warnings = _warnings(report)
    if not warnings:
        return []
    studies = len({w["study"] for w in warnings})
    lines: list[Line] = [[(f"study warnings: {len(warnings)} in {studies} "
                           f"stud{'y' if studies == 1 else 'ies'} (valid files whose numbers "
                           "contradict each other; rwe validate lists them too):", "bold")]]
    lines += [[("  " + _text(w), "yellow")]
              for w in warnings[:TERMINAL_WARNINGS]]
    if len(warnings) > TERMINAL_WARNINGS:
        lines.append([(f"  ... {len(warnings) - TERMINAL_WARNINGS} more (report.json "
                       "study_warnings)", None)])
    return lines


def warning_markdown(report: Mapping[str, Any]) -> list[str]:
    """report.md lines (nothing without a warning)."""
    warnings = _warnings(report)
    if not warnings:
        return []
    return ["### Study warnings", "",
            "Valid study files whose numbers contradict each other: check them against the "
            "source.", "", *(f"- {escape.markdown(_text(w))}" for w in warnings), ""]


def warning_html(report: Mapping[str, Any]) -> str:
    """The report.html section (empty without a warning)."""
    warnings = _warnings(report)
    if not warnings:
        return ""
    items = "".join(f"<li>{escape.html(_text(w))}</li>" for w in warnings)
    return ('<h2>Study warnings</h2><p class="meta">Valid study files whose numbers '
            f"contradict each other: check them against the source.</p><ul>{items}</ul>")
