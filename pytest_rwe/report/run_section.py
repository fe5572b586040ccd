"""The report's run section: how the calls went (pure renderers of ``report["run"]``).

Calls made, store hits, retries, 429s and failed calls, and per provider endpoint the
concurrency the adaptive limit used: the ceiling (``--rwe-concurrency``), the peak in
flight, the limit at the end, the lowest it went, the overloads (429s, 503/529) seen, the
cuts and stalls, and how long rejected calls waited before their retries. A run that called
no provider (replay only, builtin models) has no run section to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe import escape
from pytest_rwe.report.md_table import md_table
from pytest_rwe.report.progress import short_names

Line = list[tuple[str, str | None]]
_HEAD = ["endpoint", "ceiling", "peak", "final", "lowest", "calls", "429s", "other overloads",
         "cuts", "stalls", "retry waits"]


def _run(report: Mapping[str, Any]) -> Mapping[str, Any] | None:
    run = report.get("run")
    # builtin models call no provider: a run of them only has nothing to say here
    return run if isinstance(run, Mapping) and run.get("endpoints") else None


def _totals(run: Mapping[str, Any]) -> str:
    text = (f"{run['calls']} calls ({run['retries']} retries), {run['store_hits']} store "
            f"hits, {run['rate_limited']} answered 429, {run['errors']} failed for good")
    if run.get("processes", 1) > 1:
        text += f"; {run['processes']} processes"
    return text


def _rows(run: Mapping[str, Any]) -> list[list[str]]:
    endpoints = run.get("endpoints") or {}
    names = short_names(endpoints)
    rows = []
    for key, s in endpoints.items():
        rows.append([names[key], str(s.get("ceiling", "")), str(s.get("peak", "")),
                     str(s.get("final", "")), str(s.get("lowest", "")), str(s.get("calls", 0)),
                     str(s.get("rate_limited", 0)),
                     str(s.get("overloads", 0) - s.get("rate_limited", 0)),
                     str(s.get("cuts", 0)), str(s.get("stalls", 0)),
                     f"{s.get('waits', 0)} ({float(s.get('wait_s', 0)):.1f} s)"])
    return rows


def run_lines(report: Mapping[str, Any]) -> list[Line]:
    """The terminal lines (nothing when the run called no model)."""
    run = _run(report)
    if run is None:
        return []
    lines: list[Line] = [[("calls: ", "bold"), (_totals(run), None)]]
    rows = _rows(run)
    if rows:
        table = [_HEAD, *rows]
        widths = [max(len(row[i]) for row in table) for i in range(len(_HEAD))]
        lines.append([("concurrency per provider endpoint (adaptive; ceiling --rwe-concurrency):",
                       "bold")])
        lines += [[("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                    .rstrip(), None)] for row in table]
    return lines


def run_markdown(report: Mapping[str, Any]) -> list[str]:
    """report.md lines (nothing when the run called no model)."""
    run = _run(report)
    if run is None:
        return []
    lines = ["### Run", "", escape.markdown(_totals(run)) + ".", ""]
    rows = _rows(run)
    if rows:
        lines += md_table(_HEAD, ([escape.markdown(c) for c in row] for row in rows))
        lines.append("")
    return lines


def run_html(report: Mapping[str, Any]) -> str:
    """The report.html section (empty when the run called no model)."""
    run = _run(report)
    if run is None:
        return ""
    rows = "".join("<tr>" + "".join(f"<td>{escape.html(c)}</td>" for c in row) + "</tr>"
                   for row in _rows(run))
    table = ("<table><tr>" + "".join(f"<th>{escape.html(h)}</th>" for h in _HEAD) + "</tr>"
             + rows + "</table>") if rows else ""
    return (f'<h2>Run</h2><p class="meta">{escape.html(_totals(run))}. Concurrency per '
            "provider endpoint: the limit adapts to the 429s and overloads the provider "
            "sends, within the ceiling (--rwe-concurrency).</p>" + table)
