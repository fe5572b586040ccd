"""Renderings of ``report["breakdown"]``: terminal lines, report.md lines, report.html (pure).

The terminal is compact: per model, the largest few values of each dimension; report.md and
report.html list every value. Terminal lines are escaped where the plugin writes them, the
other renderings here. Each row gives the number of studies and every criterion's
mean over them with its bootstrap interval: a cell of three studies has a wide interval,
and says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe import escape
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


def _rows(entry: Mapping[str, Any], dimensions: list[str], limit: int | None,
          ) -> tuple[list[list[str]], list[str]]:
    """Rows ``[dimension=value, studies, *criteria]`` and what was left out (terminal)."""
    rows = [["overall", str(entry["overall"]["studies"]),
             *(_ci(entry["overall"]["criteria"][c]) for c in CRITERIA)]]
    left_out = []
    for dimension in dimensions:
        cells = [(v, c) for v, c in entry[dimension].items() if c["studies"]]
        shown = cells if limit is None else cells[:limit]
        for value, cell in shown:
            rows.append([f"{dimension}={value}", str(cell["studies"]),
                         *(_ci(cell["criteria"][c]) for c in CRITERIA)])
        if len(cells) > len(shown):
            more = len(cells) - len(shown)
            left_out.append(f"{more} more {_PLURAL.get(dimension, dimension)}")
    return rows, left_out


def _level(report: Mapping[str, Any]) -> int:
    return round(100 * float(report["bootstrap"]["level"]))


def breakdown_lines(report: Mapping[str, Any]) -> list[Line]:
    """The terminal lines (nothing for fewer than two studies)."""
    section = _section(report)
    if section is None:
        return []
    dimensions = list(section["dimensions"])
    lines: list[Line] = [[(f"criterion means by {', '.join(dimensions)} "
                           f"[{_level(report)}% bootstrap interval]:", "bold")]]
    for model, entry in section["models"].items():
        rows, left_out = _rows(entry, dimensions, TERMINAL_VALUES)
        table = [[model, "n", *CRITERIA], *rows]
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines += [[("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                    .rstrip(), None)] for row in table]
        if left_out:
            lines.append([(f"  ... and {', '.join(left_out)} with fewer studies "
                           "(every value in report.md, report.html, report.json)", None)])
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
        rows, _ = _rows(entry, dimensions, None)
        header = [f"`{escape.markdown(model)}`", "studies", *CRITERIA]
        lines += ["| " + " | ".join(header) + " |", "| " + " | ".join(["---"] * len(header))
                  + " |"]
        lines += ["| " + " | ".join(escape.markdown(c) for c in row) + " |" for row in rows]
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
        rows, _ = _rows(entry, dimensions, None)
        head = "".join(f"<th>{escape.html(h)}</th>"
                       for h in (model, "studies", *CRITERIA))
        body = "".join("<tr>" + "".join(f"<td>{escape.html(c)}</td>" for c in row) + "</tr>"
                       for row in rows)
        parts.append(f"<table><tr>{head}</tr>{body}</table>")
    return "".join(parts)
