"""The progress line of long runs, and the report's run section.

Each process (xdist worker or a plain run) ships a snapshot of its own counters on its
test reports (and a last one when it finishes); the controller keeps the latest snapshot
per process, prints the sum now and then, and puts it in the report's run section: calls,
store hits, retries, 429s, failed calls, and per provider endpoint the concurrency the
adaptive limit settled on (:mod:`pytest_rwe.providers.limiter`). Pure: no pytest, no clock
of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

COUNTERS = ("calls", "store_hits", "retries", "rate_limited", "errors")
#: endpoint counters summed over processes
_SUMMED = ("calls", "overloads", "rate_limited", "cuts", "stalls", "waits", "wait_s", "limit",
           "queued", "in_flight")


@dataclass
class Progress:
    """Latest counters per process, and when the line was last shown."""

    interval_s: float = 10.0
    started_at: float = 0.0
    shown_at: float = 0.0
    total: int = 0
    by_process: dict[str, dict[str, int]] = field(default_factory=dict)
    endpoints: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)

    def update(self, snapshot: Mapping[str, Any]) -> None:
        """Take a process's snapshot: {"process", "total", each of COUNTERS, "endpoints"}."""
        self.total = max(self.total, int(snapshot.get("total", 0)))
        process = str(snapshot["process"])
        self.by_process[process] = {name: int(snapshot.get(name, 0)) for name in COUNTERS}
        endpoints = snapshot.get("endpoints")
        if isinstance(endpoints, Mapping):
            self.endpoints[process] = {
                str(key): {k: float(v) for k, v in dict(stats).items()
                           if isinstance(v, (int, float))}
                for key, stats in endpoints.items() if isinstance(stats, Mapping)}

    def due(self, now: float) -> bool:
        """A line is due every ``interval_s`` once the run has lasted that long."""
        if now - max(self.started_at, self.shown_at) < self.interval_s:
            return False
        self.shown_at = now
        return True

    def line(self, done: int) -> str:
        """``rwe: 40/138 evaluations done; 412 calls, 30 store hits, 2 retries, 0 errors;
        concurrency openai 4/16 (120 queued), ...``."""
        sums = {name: sum(p[name] for p in self.by_process.values()) for name in COUNTERS}
        total = f"/{self.total}" if self.total else ""
        text = (f"rwe: {done}{total} evaluations done; {sums['calls']} calls, "
                f"{sums['store_hits']} store hits, {sums['retries']} retries")
        if sums["rate_limited"]:
            text += f" ({sums['rate_limited']} rate-limited)"
        text += f", {sums['errors']} errors"
        endpoints = self._merged()
        if endpoints:
            names = short_names(endpoints)
            parts = []
            for key, stats in endpoints.items():
                part = f"{names[key]} {stats['limit']}/{stats['ceiling']}"
                if stats.get("queued"):
                    part += f" ({stats['queued']} queued)"
                parts.append(part)
            text += "; concurrency " + ", ".join(parts)
        return text

    def run_section(self) -> dict[str, Any]:
        """The report's run section: counters summed over processes, and per endpoint the
        ceiling, the peak in flight, the limit at the end (``final``, summed over processes),
        the lowest limit, 429s and other overloads, cuts, stalls and retry waits."""
        sums = {name: sum(p[name] for p in self.by_process.values()) for name in COUNTERS}
        endpoints = {}
        for key, stats in self._merged().items():
            stats["final"] = stats.pop("limit", 0)
            stats.pop("queued", None)  # live values: the progress line's, not the report's
            stats.pop("in_flight", None)
            endpoints[key] = stats
        return {"processes": len(self.by_process), **sums, "endpoints": endpoints}

    def _merged(self) -> dict[str, dict[str, Any]]:
        """Each endpoint's counters over the processes that called it."""
        merged: dict[str, dict[str, float]] = {}
        for endpoints in self.endpoints.values():
            for key, stats in endpoints.items():
                if not stats.get("calls"):
                    continue  # a process that never called this endpoint says nothing of it
                into = merged.get(key)
                if into is None:
                    merged[key] = dict(stats)
                    continue
                for name in _SUMMED:
                    into[name] = into.get(name, 0.0) + stats.get(name, 0.0)
                into["peak"] = max(into.get("peak", 0.0), stats.get("peak", 0.0))
                into["lowest"] = min(into.get("lowest", 0.0), stats.get("lowest", 0.0))
                into["ceiling"] = max(into.get("ceiling", 0.0), stats.get("ceiling", 0.0))
        return {key: {k: (round(v, 3) if k == "wait_s" else int(v)) for k, v in s.items()}
                for key, s in sorted(merged.items())}


def short_names(endpoints: Mapping[str, Any]) -> dict[str, str]:
    """``openai`` for ``openai@https://...`` when it is the provider's only endpoint."""
    providers = [key.partition("@")[0] for key in endpoints]
    return {key: key.partition("@")[0] if providers.count(key.partition("@")[0]) == 1 else key
            for key in endpoints}
