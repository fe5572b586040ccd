"""Tokens and cost of a run from its records (pure): per model under test, per juror, total.

Each record carries the token counts of its evaluation's calls (``usage``: the summary, and
per juror its judge calls and repairs; see :func:`pytest_rwe.plugin.records.usage_dict`). Calls
replayed from the store count with the tokens recorded when they were made, so a replayed
run reports what the calls cost. A record from before tokens were recorded, a call whose
tokens are unknown, or a model without a price, make the cost unknown (None), never 0.

A judge call shared by two models (both wrote the same summary) is made once but counted in
the usage of each: the figures say what each model's evaluation needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.providers.prices import PriceTable, TokenCounts

Record = Mapping[str, Any]


def _sum_usd(values: Sequence[float | None]) -> float | None:
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


def summary_counts(record: Record) -> TokenCounts:
    """The tokens of a record's summary call (unknown in a record without ``usage``)."""
    usage = record.get("usage")
    if usage is None:
        return TokenCounts(calls=1, unknown=1) if record.get("summary") else TokenCounts()
    return TokenCounts.from_dict(usage.get("summary"))


def juror_counts(record: Record) -> dict[str, TokenCounts]:
    """Per juror, the tokens of a record's judge calls and repairs."""
    usage = record.get("usage") or {}
    return {str(juror): TokenCounts.from_dict(counts)
            for juror, counts in (usage.get("jurors") or {}).items()}


def summary_usd(record: Record, prices: PriceTable) -> float | None:
    """What the record's summary call cost (None: unknown; no summary: None)."""
    counts = summary_counts(record)
    if counts.calls == 0:
        return None
    return prices.usd(str(record["model"]), counts)


def _entry(counts: TokenCounts, usd: float | None) -> dict[str, Any]:
    return {**counts.to_dict(), "usd": usd}


def _judge_usd(by_juror: Mapping[str, TokenCounts], prices: PriceTable) -> float | None:
    return _sum_usd([prices.usd(juror, counts) for juror, counts in by_juror.items()])


def _judged(records: Sequence[Record]) -> tuple[dict[str, TokenCounts], bool]:
    """Per juror, the counts over ``records``; and whether a record lacked usage (old)."""
    totals: dict[str, TokenCounts] = {}
    unknown = False
    for record in records:
        if record.get("usage") is None and record.get("verdict"):
            unknown = True
        for juror, counts in juror_counts(record).items():
            totals[juror] = totals.get(juror, TokenCounts()) + counts
    return totals, unknown


def model_usage(model: str, records: Sequence[Record], prices: PriceTable) -> dict[str, Any]:
    """``models.<m>``'s ``usage`` (summary and judge calls: tokens and USD) and ``usd``."""
    mine = [r for r in records if r["model"] == model]
    summary = TokenCounts()
    for record in mine:
        summary += summary_counts(record)
    by_juror, old = _judged(mine)
    judge = sum(by_juror.values(), TokenCounts())
    if old:
        judge += TokenCounts(unknown=1)
    summary_cost = prices.usd(model, summary) if summary.calls or summary.unknown else 0.0
    judge_cost = None if old else _judge_usd(by_juror, prices)
    return {"usage": {"summary": _entry(summary, summary_cost),
                      "judge": _entry(judge, judge_cost)},
            "usd": _sum_usd([summary_cost, judge_cost])}


def cost_section(records: Sequence[Record], models: Sequence[str], jurors: Sequence[str],
                 prices: PriceTable) -> dict[str, Any]:
    """report.json's ``cost``: the prices used (date, source, overrides), each juror's calls
    over every model, and the run's total (what its calls cost, replayed ones included)."""
    by_juror, old = _judged(records)
    names = [*jurors, *sorted(set(by_juror) - set(jurors))]
    juror_entries = {j: _entry(by_juror.get(j, TokenCounts()),
                               prices.usd(j, by_juror.get(j, TokenCounts())))
                     for j in names}
    usages = {m: model_usage(m, records, prices) for m in models}
    summaries = sum((TokenCounts.from_dict(u["usage"]["summary"]) for u in usages.values()),
                    TokenCounts())
    judges = sum(by_juror.values(), TokenCounts(unknown=int(old)))
    total_usd = _sum_usd([*(u["usage"]["summary"]["usd"] for u in usages.values()),
                          None if old else _judge_usd(by_juror, prices)])
    return {"prices": prices.to_dict([*models, *names]),
            "jurors": juror_entries,
            "total": _entry(summaries + judges, total_usd)}


__all__ = ["cost_section", "juror_counts", "model_usage", "summary_counts", "summary_usd"]
