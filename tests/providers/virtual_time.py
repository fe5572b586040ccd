"""An asyncio event loop with virtual time: sleeps and timeouts happen instantly, in order.

Code under test runs unchanged (asyncio.sleep, loop.call_later, asyncio.timeout all read
``loop.time()``); whenever every task waits for a timer, the clock jumps to the next timer.
So a simulation of many concurrent calls is deterministic and takes no real time. No threads
and no real I/O: the loop raises if it would block with nothing scheduled (a deadlock).
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _JumpingSelector(selectors.DefaultSelector):
    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if ready:
            return ready
        if timeout is None:
            raise RuntimeError("virtual-time loop: every task waits and no timer is set")
        self.now += max(0.0, timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self._jumping = _JumpingSelector()
        super().__init__(self._jumping)

    def time(self) -> float:
        return self._jumping.now


def run_virtual(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion on a fresh virtual-time loop."""
    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.close()
