"""What the planned calls will cost: tokens, USD and wall time, per provider and in total.

Estimates for the *new* calls (stored ones are replayed: no tokens, no cost, no wait):

- **input tokens**: the rendered prompt's length over the model's characters per token,
  learned from the stored calls of the plan (their recorded input tokens against their
  prompts), else 4. A judge call on a summary not written yet adds the mean length of the
  stored summaries (else 1,600 characters).
- **output tokens** and **latency**: the mean of the stored calls of the same model and kind
  (summary, judge, repair), else of the same kind, else a default (400/150 tokens, 10/5 s).
- **USD**: each call at its model's price (:mod:`pytest_rwe.providers.prices`); a model
  without a price makes the provider's and the total's cost unknown (None), never 0.
- **wall time**: per provider endpoint, the new calls' latencies over the concurrency
  (``--rwe-concurrency`` bounds each endpoint); the run takes at least the longest endpoint
  and at least one summary followed by one judge call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_rwe.plan.calls import PlannedCall
from pytest_rwe.providers.prices import PriceTable, TokenCounts

DEFAULT_CHARS_PER_TOKEN = 4.0
DEFAULT_SUMMARY_CHARS = 1600
DEFAULT_OUTPUT_TOKENS: Mapping[str, float] = {"summary": 400.0, "judge": 150.0, "repair": 150.0}
DEFAULT_LATENCY_S: Mapping[str, float] = {"summary": 10.0, "judge": 5.0, "repair": 5.0}


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class Basis:
    """What the estimates were learned from: the stored calls of the plan."""

    chars_per_token: Mapping[str, float] = field(default_factory=dict)
    mean_output: Mapping[tuple[str, str], float] = field(default_factory=dict)
    mean_latency: Mapping[tuple[str, str], float] = field(default_factory=dict)
    summary_chars: float = DEFAULT_SUMMARY_CHARS
    stored_calls: int = 0

    @classmethod
    def learn(cls, calls: Iterable[PlannedCall]) -> Basis:
        chars: dict[str, list[int]] = {}
        outputs: dict[tuple[str, str], list[float]] = {}
        latencies: dict[tuple[str, str], list[float]] = {}
        summaries: list[int] = []
        stored = 0
        for call in calls:
            result = call.stored
            if result is None or call.local:
                continue
            stored += 1
            usage = result.usage
            if usage.input_tokens:
                chars.setdefault(call.model, [0, 0])
                chars[call.model][0] += call.prompt_chars
                chars[call.model][1] += usage.input_tokens
            if usage.output_tokens is not None:
                outputs.setdefault((call.model, call.kind), []).append(usage.output_tokens)
                outputs.setdefault(("", call.kind), []).append(usage.output_tokens)
            latencies.setdefault((call.model, call.kind), []).append(result.latency_s)
            latencies.setdefault(("", call.kind), []).append(result.latency_s)
            if call.kind == "summary":
                summaries.append(len(result.text))
        return cls(
            chars_per_token={m: c / t for m, (c, t) in chars.items() if t},
            mean_output={k: sum(v) / len(v) for k, v in outputs.items()},
            mean_latency={k: sum(v) / len(v) for k, v in latencies.items()},
            summary_chars=_mean(summaries) or DEFAULT_SUMMARY_CHARS,
            stored_calls=stored,
        )

    def _of(self, table: Mapping[tuple[str, str], float], call: PlannedCall,
            default: Mapping[str, float]) -> float:
        found = table.get((call.model, call.kind))
        if found is None:
            found = table.get(("", call.kind))
        return default[call.kind] if found is None else found

    def input_tokens(self, call: PlannedCall) -> int:
        chars = call.prompt_chars + (self.summary_chars if call.awaits_summary else 0)
        return round(chars / self.chars_per_token.get(call.model, DEFAULT_CHARS_PER_TOKEN))

    def output_tokens(self, call: PlannedCall) -> int:
        return round(self._of(self.mean_output, call, DEFAULT_OUTPUT_TOKENS))

    def latency(self, call: PlannedCall) -> float:
        return 0.0 if call.local else self._of(self.mean_latency, call, DEFAULT_LATENCY_S)


@dataclass
class Tally:
    """Counts of calls and the estimates of the new ones."""

    calls: int = 0
    stored: int = 0
    new: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float | None = 0.0
    wall_s: float = 0.0

    def add(self, call: PlannedCall, basis: Basis, prices: PriceTable) -> None:
        self.calls += 1
        if not call.new:
            self.stored += 1
            return
        self.new += 1
        if call.local:
            return  # in-process: no tokens reported, no bill
        tokens_in, tokens_out = basis.input_tokens(call), basis.output_tokens(call)
        self.input_tokens += tokens_in
        self.output_tokens += tokens_out
        cost = prices.usd(call.model, TokenCounts(1, 0, tokens_in, tokens_out))
        self.usd = None if cost is None or self.usd is None else self.usd + cost

    def to_dict(self, *, wall: bool = True) -> dict[str, Any]:
        counts = {"calls": self.calls, "stored": self.stored, "new": self.new,
                  "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                  "usd": self.usd}
        # a model shares its endpoint's concurrency with the others there: no wall time
        return counts | {"wall_s": round(self.wall_s, 1)} if wall else counts


@dataclass
class Plan:
    """The plan of a run: per provider (and per model in it) and in total."""

    providers: dict[str, Tally]
    models: dict[str, dict[str, Tally]]
    total: Tally
    concurrency: int
    record: str
    basis: Basis
    unpriced: list[str]
    local: int  # calls of builtin models (in-process, free)

    def to_dict(self) -> dict[str, Any]:
        """plan.json: ``{"providers": {...}, "total": {...}}`` and how it was estimated."""
        return {
            "providers": {name: {**tally.to_dict(),
                                 "models": {m: t.to_dict(wall=False)
                                            for m, t in self.models[name].items()}}
                          for name, tally in self.providers.items()},
            "total": self.total.to_dict(),
            "record": self.record,
            "concurrency": self.concurrency,
            "estimated_from_stored_calls": self.basis.stored_calls,
            "unpriced": list(self.unpriced),
        }


def build_plan(calls: Sequence[PlannedCall], prices: PriceTable, *, concurrency: int,
               record: str = "new") -> Plan:
    """Count and estimate ``calls`` (see the module docstring)."""
    basis = Basis.learn(calls)
    providers: dict[str, Tally] = {}
    models: dict[str, dict[str, Tally]] = {}
    total = Tally()
    busy: dict[str, float] = {}  # endpoint -> seconds of new calls
    endpoints: dict[str, set[str]] = {}
    longest = {"summary": 0.0, "judge": 0.0}
    for call in calls:
        for tally in (providers.setdefault(call.provider, Tally()),
                      models.setdefault(call.provider, {}).setdefault(call.model, Tally()),
                      total):
            tally.add(call, basis, prices)
        if call.new:
            seconds = basis.latency(call)
            busy[call.endpoint] = busy.get(call.endpoint, 0.0) + seconds
            endpoints.setdefault(call.provider, set()).add(call.endpoint)
            kind = "summary" if call.kind == "summary" else "judge"
            longest[kind] = max(longest[kind], seconds)
    for name, tally in providers.items():
        tally.wall_s = max((busy[e] / concurrency for e in endpoints.get(name, ())), default=0.0)
    total.wall_s = max([t.wall_s for t in providers.values()]
                       + [longest["summary"] + longest["judge"]])
    unpriced = sorted({c.model for c in calls if c.new and prices.price(c.model) is None})
    return Plan(providers, models, total, concurrency, record, basis, unpriced,
                local=sum(1 for c in calls if c.local))


__all__ = ["Basis", "Plan", "Tally", "build_plan"]
