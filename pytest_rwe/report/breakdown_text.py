"""Renderings of ``report["breakdown"]``: terminal lines, report.md lines, report.html (pure).

The terminal is compact: the largest few values of each dimension, one column per model with
its three means. report.md and report.html list every value per model, with the number of
studies and each criterion's mean and bootstrap interval over them (a cell of three studies
has a wide interval, and says so). Terminal lines are escaped where the plugin writes them,
the other renderings here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe import escape
from pytest_rwe.report.md_table import md_table
from pytest_rwe.verdict import CRITERIA

Line = list[tuple[str, str | None]]
#: the terminal lists at most this many values per dimension (the largest first)
TERMINAL_VALUES = 6
_PLURAL = {"design": "designs", "source": "sources", "area": "areas"}


def _ci(cell: Mapping[str, Any] | None) -> str:
    if not cell or cell.get("mean") is None:
        return "n/a"
    return f"{cell['mean']:.2f} [{cell['ci_low']:.2f}, {cell['ci_high']:.2f}]"


def _section(report: Mapping[str, Any]) -> Mapping[str, Any] | None:
    section = report.get("breakdown")
    # one study has nothing to break down: every cell would be the overall mean
    if not isinstance(section, Mapping) or len(report.get("studies") or ()) < 2:
        return None
    return section if section.get("models") else None


def _rows(report: Mapping[str, Any], model: str, entry: Mapping[str, Any],
          dimensions: list[str]) -> list[list[str]]:
    """A model's rows ``[dimension=value, studies, *criteria]``, overall (the models
    section's means) first."""
    overall = report["models"][model]
    rows = [["overall", str(overall["studies"]),
             *(_ci(overall["criteria"][c]) for c in CRITERIA)]]
    for dimension in dimensions:
        for value, cell in entry[dimension].items():
            if cell["studies"]:
                rows.append([f"{dimension}={value}", str(cell["studies"]),
                             *(_ci(cell["criteria"][c]) for c in CRITERIA)])
    return rows


def _level(report: Mapping[str, Any]) -> int:
    return round(100 * float(report["bootstrap"]["level"]))


def _means(cell: Mapping[str, Any] | None) -> str:
    """``direction/numbers/complete`` means of a cell, ``-`` when it holds no study."""
    if not cell or not cell["studies"]:
        return "-"
    return "/".join("n/a" if cell["criteria"][c]["mean"] is None
                    else f"{cell['criteria'][c]['mean']:.2f}" for c in CRITERIA)


def breakdown_lines(report: Mapping[str, Any]) -> list[Line]:
    """The terminal lines (nothing for fewer than two studies): one row per value, one
    column per model, the three means in a cell; the intervals are in the report files."""
    section = _section(report)
    if section is None:
        return []
    dimensions, models = list(section["dimensions"]), section["models"]
    rows = [["", "n", *models]]
    left_out = []
    for dimension in dimensions:
        values = list(section["values"][dimension])
        for value in values[:TERMINAL_VALUES]:
            cells = [entry[dimension].get(value) for entry in models.values()]
            studies = max((c["studies"] for c in cells if c), default=0)
            rows.append([f"{dimension}={value}", str(studies), *(_means(c) for c in cells)])
        if len(values) > TERMINAL_VALUES:
            left_out.append(f"{len(values) - TERMINAL_VALUES} more "
                            f"{_PLURAL.get(dimension, dimension)}")
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines: list[Line] = [[(f"criterion means by {', '.join(dimensions)} (direction/numbers/"
                           f"complete; {_level(report)}% intervals in report.md, .html, "
                           ".json):", "bold")]]
    lines += [[("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                .rstrip(), None)] for row in rows]
    if left_out:
        lines.append([(f"  ... and {', '.join(left_out)} with fewer studies (in the report "
                       "files)", None)])
    return lines


def breakdown_markdown(report: Mapping[str, Any]) -> list[str]:
    """report.md lines: one table per model with every value."""
    section = _section(report)
    if section is None:
        return []
    dimensions = list(section["dimensions"])
    lines = [f"### Means by {', '.join(dimensions)}", "",
             f"Each criterion's mean over the studies of a design, source or therapeutic area, "
             f"with its {_level(report)}% bootstrap interval over those studies.", ""]
    for model, entry in section["models"].items():
        rows = _rows(report, model, entry, dimensions)
        header = [f"`{escape.markdown(model)}`", "studies", *CRITERIA]
        lines += md_table(header, ([escape.markdown(c) for c in row] for row in rows))
        lines.append("")
    return lines


def breakdown_html(report: Mapping[str, Any]) -> str:
    """The report.html section (empty for fewer than two studies)."""
    section = _section(report)
    if section is None:
        return ""
    dimensions = list(section["dimensions"])
    parts = [f"<h2>Means by {escape.html(', '.join(dimensions))}</h2>"
             f'<p class="meta">Each criterion\'s mean over the studies of a design, source or '
             f"therapeutic area, with its {_level(report)}% bootstrap interval over those "
             "studies.</p>"]
    for model, entry in section["models"].items():
        rows = _rows(report, model, entry, dimensions)
        head = "".join(f"<th>{escape.html(h)}</th>"
                       for h in (model, "studies", *CRITERIA))
        body = "".join("<tr>" + "".join(f"<td>{escape.html(c)}</td>" for c in row) + "</tr>"
                       for row in rows)
        parts.append(f"<table><tr>{head}</tr>{body}</table>")
    return "".join(parts)
