"""The plan as text for the terminal (pure)."""

from __future__ import annotations

from pytest_rwe.plan.estimate import Plan, Tally
from pytest_rwe.report.cost_text import usd_text


def duration(seconds: float) -> str:
    """``42s``, ``3m 05s``, ``2h 10m``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def _cells(label: str, tally: Tally, *, wall: bool = True) -> list[str]:
    return [label, f"{tally.calls:,}", f"{tally.stored:,}", f"{tally.new:,}",
            f"{tally.input_tokens:,}", f"{tally.output_tokens:,}", usd_text(tally.usd),
            duration(tally.wall_s) if wall else ""]


def plan_lines(plan: Plan) -> list[str]:
    """A table per provider (and its models) and the total, then what the figures rest on."""
    rows = [["provider / model", "calls", "stored", "new", "new input tok", "new output tok",
             "new USD", "wall"]]
    for name, tally in plan.providers.items():
        rows.append(_cells(name, tally))
        for model, per_model in plan.models[name].items():
            rows.append(_cells(f"  {model}", per_model, wall=False))
    rows.append(_cells("total", plan.total))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    table = ["  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                              for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    lines = [f"pytest-rwe plan: no model was called (record mode {plan.record}, concurrency "
             f"{plan.concurrency} per provider endpoint)", *table]
    stored = plan.basis.stored_calls
    lines.append(f"  tokens, cost and wall time are estimates for the new calls, from "
                 f"{stored} stored call(s) of this run" if stored else
                 "  tokens, cost and wall time are estimates for the new calls (no stored call "
                 "to learn from: about 4 characters per token and default answer lengths)")
    lines.append("  a new judge reply that cannot be read will add one repair call: "
                 "not foreseeable, not counted")
    if plan.local:
        lines.append(f"  {plan.local} call(s) of builtin models run in-process (free, not "
                     "stored)")
    if plan.unpriced:
        lines.append(f"  no price for {', '.join(plan.unpriced)}: cost unknown; give one with "
                     "--rwe-prices FILE or ini rwe_prices")
    vendor_new = plan.total.new - plan.local
    if plan.record == "none" and vendor_new:
        lines.append(f"  replay-only (--rwe-record none): {vendor_new} call(s) are not stored, "
                     "so the run will fail them; record them with --rwe-record new")
    return lines


__all__ = ["duration", "plan_lines"]
