"""The progress line of long runs: evaluations done, calls made, store hits, retries, errors.

Each process (xdist worker or a plain run) ships a snapshot of its own counters on its
test reports; the controller keeps the latest snapshot per process and prints the sum now
and then. Pure: no pytest, no clock of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

COUNTERS = ("calls", "store_hits", "retries", "rate_limited", "errors")


@dataclass
class Progress:
    """Latest counters per process, and when the line was last shown."""

    interval_s: float = 10.0
    started_at: float = 0.0
    shown_at: float = 0.0
    total: int = 0
    by_process: dict[str, dict[str, int]] = field(default_factory=dict)

    def update(self, snapshot: Mapping[str, Any]) -> None:
        """Take a process's snapshot: {"process", "total", and each of COUNTERS}."""
        self.total = max(self.total, int(snapshot.get("total", 0)))
        self.by_process[str(snapshot["process"])] = {
            name: int(snapshot.get(name, 0)) for name in COUNTERS
        }

    def due(self, now: float) -> bool:
        """A line is due every ``interval_s`` once the run has lasted that long."""
        if now - max(self.started_at, self.shown_at) < self.interval_s:
            return False
        self.shown_at = now
        return True

    def line(self, done: int) -> str:
        """``rwe: 40/138 evaluations done; 412 calls, 30 store hits, 2 retries, 0 errors``."""
        sums = {name: sum(p[name] for p in self.by_process.values()) for name in COUNTERS}
        total = f"/{self.total}" if self.total else ""
        text = (f"rwe: {done}{total} evaluations done; {sums['calls']} calls, "
                f"{sums['store_hits']} store hits, {sums['retries']} retries")
        if sums["rate_limited"]:
            text += f" ({sums['rate_limited']} rate-limited)"
        return text + f", {sums['errors']} errors"
