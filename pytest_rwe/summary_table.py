"""The end-of-session table in the terminal, from evaluation records (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.verdict import CRITERIA


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _fmt(value: float | None, pattern: str = "{:.2f}") -> str:
    return "n/a" if value is None else pattern.format(value)


def render_terminal_summary(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Per model: each criterion's mean and passes, inference time, abstentions and badges."""
    by_model: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        by_model.setdefault(str(record["model"]), []).append(record)
    header = ["model", "studies", *CRITERIA, "time/summary", "abstained", "badges g/y/r"]
    rows = [header]
    for model, items in by_model.items():
        row = [model, str(len(items))]
        for criterion in CRITERIA:
            means = [
                float(r["verdict"][criterion]["mean"]) for r in items
                if r.get("verdict") and r["verdict"][criterion]["mean"] is not None
            ]
            passed = sum(
                1 for r in items if r.get("verdict")
                and r["verdict"][criterion]["mean"] is not None
                and float(r["verdict"][criterion]["mean"]) >= float(r["thresholds"][criterion])
            )
            row.append(f"{_fmt(_mean(means))} ({passed}/{len(items)} pass)")
        latencies = [float(r["summary"]["latency_s"]) for r in items if r.get("summary")]
        row.append(_fmt(_mean(latencies), "{:.3f}s"))
        abstained = sum(
            int(r["verdict"][c]["abstentions"]) for r in items if r.get("verdict") for c in CRITERIA
        )
        row.append(str(abstained))
        badges = [str(r.get("badge")) for r in items]
        row.append("/".join(str(badges.count(b)) for b in ("green", "yellow", "red")))
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["", "pytest-rwe: jury means per model (criterion mean over studies)"]
    for row in rows:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        lines.append("  ".join(cells).rstrip())
    return lines
