"""Adaptive concurrency for one provider endpoint: as many calls at once as it accepts.

:class:`AdaptiveLimit` starts at the configured ceiling (``--rwe-concurrency``) and adapts
to what the provider says, like TCP's congestion window:

- *overload* (429, Anthropic's 529, Gemini's RESOURCE_EXHAUSTED, 503): the limit is cut
  multiplicatively (x 0.7), at most once per round of calls: calls sent before the last cut
  were sent under the old limit, so their rejections say nothing new. The limit at which
  the overload came is remembered as the known-bad level;
- *success*: the limit grows by one per round (``1 / limit`` per answer) while it is below
  the known-bad level minus one, then by one per ``probe_rounds`` rounds, so the provider's
  true cap is probed rarely once it is found. Past the known-bad level the memory is
  forgotten (capacity came back) and growth is fast again;
- *stall* (an overload while no other call of ours is in flight, so the provider admits
  nothing at all: a rate limit rather than a concurrency cap): new calls are held for the
  wait the provider asked for and the limit restarts at 1, growing by one per answer (slow
  start) back to 0.7 x the limit before the stall.

Waiting calls are admitted in order, retries of rejected calls first. A cross-process budget
(:mod:`pytest_rwe.store.budget`) may cap the limit further (``budget``). Pure asyncio, no
provider code. Its clock is the event loop's (``loop.time()``), so tests can run it on a
loop with virtual time.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

Clock = Callable[[], float]

DECREASE = 0.7  # multiplicative cut on overload
PROBE_ROUNDS = 8  # rounds per step of growth near the known-bad level


@dataclass
class LimitStats:
    """What one endpoint's limit did during the run (for the progress line and the report)."""

    ceiling: int
    peak_in_flight: int = 0
    lowest_limit: int = 0
    overloads: int = 0  # overload answers seen (429, 529, 503 ...)
    cuts: int = 0  # times the limit was cut
    stalls: int = 0  # times new calls were held because nothing was admitted
    waits: int = 0  # retry waits of rejected calls
    wait_s: float = 0.0  # their total length
    calls: int = 0  # attempts sent
    by_status: dict[int, int] = field(default_factory=dict)


class Slot:
    """One admitted call; report how it went with :meth:`succeeded` or :meth:`overloaded`."""

    def __init__(self, limit: AdaptiveLimit, round_: int, started: float) -> None:
        self._limit = limit
        self.round = round_
        self.started = started

    def succeeded(self) -> None:
        self._limit._on_success(self._limit._clock() - self.started)

    def overloaded(self, wait_s: float, status: int | None = None) -> None:
        """The provider refused this call for load; ``wait_s`` is how long it asked for."""
        self._limit._on_overload(self.round, wait_s, status)


class AdaptiveLimit:
    """At most :attr:`current` concurrent calls to one endpoint (see the module docstring)."""

    def __init__(
        self,
        ceiling: int,
        *,
        start: float | None = None,
        decrease: float = DECREASE,
        probe_rounds: int = PROBE_ROUNDS,
    ) -> None:
        if ceiling < 1:
            raise ValueError(f"concurrency ceiling must be >= 1, got {ceiling}")
        self.ceiling = ceiling
        self.limit = float(min(start or ceiling, ceiling))
        self.budget: int | None = None  # a cross-process share, when the store sets one
        self.in_flight = 0
        self.stats = LimitStats(ceiling, lowest_limit=int(self.limit))
        self._clock = _loop_time
        self._decrease = decrease
        self._probe_rounds = probe_rounds
        self._round = 0
        self._bad: float | None = None
        self._threshold = float(ceiling)  # slow start below it after a stall
        self._held_until = 0.0
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._answered_since_cut = True
        self._episode_from = self.limit
        self._latency = 0.0  # recent answers' mean time, seconds
        self._last_wait = 0.0  # the wait the last overload asked for

    # -- reading ---------------------------------------------------------------------------
    @property
    def current(self) -> int:
        """How many calls may be in flight now (the adapted limit within the budget)."""
        allowed = max(1, math.floor(self.limit + 1e-9))
        return allowed if self.budget is None else min(allowed, self.budget)

    @property
    def held_for(self) -> float:
        """Seconds new calls are still held after a stall (0 when they are not)."""
        if not self._held_until:
            return 0.0  # never held: no clock to read (this is asked on every admission)
        return max(0.0, self._held_until - self._clock())

    @property
    def queued(self) -> int:
        return len(self._waiters)

    # -- admission -------------------------------------------------------------------------
    @asynccontextmanager
    async def slot(self, *, retry: bool = False) -> AsyncIterator[Slot]:
        """Wait for a place (retries before new calls), hold it for one attempt."""
        await self._acquire(0 if retry else 1)
        slot = Slot(self, self._round, self._clock())
        self.stats.calls += 1
        try:
            yield slot
        finally:
            self.in_flight -= 1
            self._wake()

    async def _acquire(self, priority: int) -> None:
        while True:
            while (held := self.held_for) > 0:
                await asyncio.sleep(held)
            if not self._waiters and self.in_flight < self.current:
                break
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            entry = (priority, next(self._order), waiter)
            heapq.heappush(self._waiters, entry)
            try:
                await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self.in_flight -= 1  # admitted, then cancelled before it could run
                    self._wake()
                elif entry in self._waiters:
                    self._waiters.remove(entry)
                    heapq.heapify(self._waiters)
                raise
            if self.held_for <= 0:
                return  # _wake counted us in
            self.in_flight -= 1  # a stall began while we were queued: wait it out, slot-free
            self._wake()
        self.in_flight += 1
        self.stats.peak_in_flight = max(self.stats.peak_in_flight, self.in_flight)

    def _wake(self) -> None:
        """Admit queued calls while there is room (each woken call is counted in here)."""
        while self._waiters and self.in_flight < self.current and self.held_for <= 0:
            _, _, waiter = heapq.heappop(self._waiters)
            if waiter.done():
                continue
            self.in_flight += 1
            self.stats.peak_in_flight = max(self.stats.peak_in_flight, self.in_flight)
            waiter.set_result(None)

    def set_budget(self, budget: int | None) -> None:
        """Cap the limit at ``budget`` concurrent calls (a cross-process share); None: no cap."""
        self.budget = budget
        self._wake()

    # -- feedback --------------------------------------------------------------------------
    def _on_success(self, latency: float) -> None:
        self._answered_since_cut = True
        self._latency += (latency - self._latency) * 0.1  # moving average of answer times
        if self.in_flight < self.current and not self._waiters:
            # not held back by the limit: an answer proves nothing about more concurrency
            return
        if self.limit < self._threshold:
            self.limit += 1.0  # slow start after a stall: doubles per round
        elif self._bad is not None and self.limit + 1.0 >= self._bad:
            if len(self._waiters) / self.current * self._latency < self._last_wait:
                # the queued work ends before a rejected probe could come back: probing now
                # would only make the run's last call wait out a Retry-After
                return
            self.limit += 1.0 / (self.limit * self._probe_rounds)
        else:
            self.limit += 1.0 / self.limit
        if self._bad is not None and self.limit >= self._bad + 1.0:
            self._bad = None  # beyond the level that failed, without failing: it changed
        self.limit = min(self.limit, float(self.ceiling))
        self._wake()

    def _on_overload(self, round_: int, wait_s: float, status: int | None) -> None:
        stats = self.stats
        stats.overloads += 1
        self._last_wait = wait_s
        if status is not None:
            stats.by_status[status] = stats.by_status.get(status, 0) + 1
        if round_ != self._round:
            return  # sent before the last cut: already accounted for
        if self.in_flight <= 1:  # this call still holds its slot: nothing else of ours runs
            # Refused although sent within the last cut's limit, with nothing else in flight:
            # the provider admits nothing at all now (a rate limit, not a concurrency cap).
            # Hold new calls as long as it asked, then start again from one call.
            stats.stalls += 1
            self._cut()
            self._held_until = max(self._held_until, self._clock() + wait_s)
            self._threshold = max(1.0, self._episode_from * self._decrease)
            self._bad = None  # a stall says nothing about how many calls at once it takes
            self._set_limit(1.0)
            # queued calls are admitted on releases and answers; after a hold there may be none
            asyncio.get_running_loop().call_later(wait_s, self._wake)
            return
        self._cut()
        self._bad = self.limit
        self._set_limit(max(1.0, self.limit * self._decrease))
        self._threshold = min(self._threshold, self.limit)

    def _cut(self) -> None:
        """Start a new round; the first cut since calls got through starts an episode."""
        if self._answered_since_cut:
            self._episode_from = self.limit  # where the trouble began, for the slow start
        self._answered_since_cut = False
        self._round += 1
        self.stats.cuts += 1

    def _set_limit(self, value: float) -> None:
        self.limit = value
        self.stats.lowest_limit = min(self.stats.lowest_limit, self.current)

    def note_wait(self, seconds: float) -> None:
        """A rejected call waits ``seconds`` before its retry (counted for the report)."""
        self.stats.waits += 1
        self.stats.wait_s += seconds

    def snapshot(self) -> dict[str, int | float]:
        """JSON-able counters (shipped on test reports for the progress line and the report)."""
        s = self.stats
        return {
            "ceiling": self.ceiling,
            "limit": self.current,
            "peak": s.peak_in_flight,
            "lowest": s.lowest_limit,
            "calls": s.calls,
            "overloads": s.overloads,
            "rate_limited": s.by_status.get(429, 0),
            "cuts": s.cuts,
            "stalls": s.stalls,
            "waits": s.waits,
            "wait_s": round(s.wait_s, 3),
            "queued": len(self._waiters),
            "in_flight": self.in_flight,
        }


def _loop_time() -> float:
    return asyncio.get_running_loop().time()
