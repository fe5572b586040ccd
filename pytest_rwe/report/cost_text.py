"""The tokens-and-cost table of a report, as plain cells every renderer shows (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe import escape

HEADER = ["calls", "replayed", "input", "output", "reasoning", "cached", "USD"]
UNKNOWN = "unknown"


def usd_text(value: float | None) -> str:
    """A cost in USD: "$0.0123", or "unknown" (no price, or tokens unknown), never 0."""
    if value is None:
        return UNKNOWN
    return f"${value:.4f}" if value < 100 else f"${value:,.2f}"


def _count(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def _row(label: str, entry: Mapping[str, Any]) -> list[str]:
    calls = f"{entry['calls']:,}"
    if entry.get("unknown") and entry.get("usd") is None:  # it matters only to the cost
        calls += f" ({entry['unknown']} {UNKNOWN})"
    return [label, calls, f"{entry['replayed']:,}",
            *(_count(entry.get(f"{n}_tokens")) for n in ("input", "output", "reasoning",
                                                          "cached")),
            usd_text(entry.get("usd"))]


def cost_rows(report: Mapping[str, Any]) -> list[list[str]]:
    """Header, then per model its summaries and its judging, per juror its calls over every
    model, and the total; empty for a report without a cost section (older reports)."""
    cost = report.get("cost")
    if not cost:
        return []
    rows = [["", *HEADER]]
    for name, model in report["models"].items():
        usage = model.get("usage")
        if usage:
            rows.append(_row(f"{name} summaries", usage["summary"]))
            rows.append(_row(f"{name} judged", usage["judge"]))
    for juror, entry in cost["jurors"].items():
        rows.append(_row(f"juror {juror}", entry))
    rows.append(_row("total", cost["total"]))
    return rows


def cost_note(report: Mapping[str, Any]) -> str:
    """Where the prices come from, and what "unknown" and "-" mean."""
    prices = report["cost"]["prices"]
    source = f"shipped table of {prices['date']}" if prices.get("date") else "shipped table"
    overrides = prices.get("overrides") or []
    if overrides:
        source += " with " + ", ".join(overrides)
    unpriced = [m for m, p in (prices.get("models") or {}).items() if p is None]
    note = (f"prices (USD per 1M tokens): {source}. Replayed calls (answered from the store, "
            "recorded earlier or by another process of this run) count with the tokens recorded "
            "with them; a judge call shared by two models counts for each. \"-\": the vendor "
            "reported no such count; unknown: tokens or price unknown, never 0.")
    if unpriced:
        note += (f" No price for {', '.join(unpriced)}: give one with --rwe-prices FILE or "
                 "ini rwe_prices.")
    return note


def cost_html(report: Mapping[str, Any]) -> str:
    """The table as an HTML section (every cell escaped); empty without a cost section."""
    rows = cost_rows(report)
    if not rows:
        return ""
    e = escape.html
    header, *body = rows
    cells = "".join(
        "<tr>" + f"<td>{e(row[0])}</td>" + "".join(f'<td class="num">{e(c)}</td>'
                                                   for c in row[1:]) + "</tr>"
        for row in body)
    return ("<h2>Tokens and cost</h2>" + f"<p>{e(cost_note(report))}</p>"
            + "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in header) + "</tr>"
            + cells + "</table>")


__all__ = ["cost_html", "cost_note", "cost_rows", "usd_text"]
