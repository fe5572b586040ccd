"""Where a pytest-rwe run's CPU goes, per thread (a pytest plugin for the benchmarks only).

Loaded with ``-p benchmarks.cpu_probe``; writes to the file named by ``RWE_CPU_PROBE`` a JSON
object of CPU seconds (user + system) per thread name at the end of the run: the engine's
event loop (``rwe-engine``: calls, store, judging), the main thread (pytest, fixtures, claim
diagnostics, the report), the SDK imports (``rwe-sdk-preload``), the offline models'
threads, and short-lived helper threads (``other``). The main thread's figure includes
pytest's start-up.

Beside the CPU it notes when (``time.monotonic``, one clock for every process on Linux, so
the benchmark compares it with the fake server's answer times) the last test ended, when the
session's finish (the report) began and ended, and when pytest unconfigured: the split of
the time after the last answer (``benchmarks/runs.py``).
"""

from __future__ import annotations

import collections
import json
import os
import threading
import time
from typing import Any

import pytest

_CPU: collections.Counter[str] = collections.Counter()
_MARKS: dict[str, float] = {}
_run = threading.Thread.run


def _measured(self: threading.Thread) -> None:
    try:
        _run(self)
    finally:
        name = self.name if self.name.startswith("rwe-") else "other"
        _CPU[name] += time.thread_time()


threading.Thread.run = _measured  # type: ignore[method-assign]


def pytest_runtest_logfinish() -> None:
    _MARKS["last_test_end"] = time.monotonic()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish() -> Any:
    _MARKS["sessionfinish_start"] = time.monotonic()
    try:
        return (yield)
    finally:
        _MARKS["sessionfinish_end"] = time.monotonic()


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    path = os.environ.get("RWE_CPU_PROBE")
    if not path or hasattr(config, "workerinput"):
        return
    _CPU["main"] += time.thread_time()
    _MARKS["unconfigure"] = time.monotonic()
    with open(path, "w", encoding="utf-8") as out:
        data: dict[str, Any] = {k: round(v, 3) for k, v in _CPU.most_common()}
        json.dump({"threads": data, "marks": _MARKS}, out)
