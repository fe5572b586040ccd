"""Where a live run's CPU goes, by pytest-rwe function (a pytest plugin for the benchmarks only).

Loaded with ``-p benchmarks.cpu_components``; writes to the file named by
``RWE_CPU_COMPONENTS`` a JSON object: per function below, the CPU seconds of the threads that
ran it (``time.thread_time``, outermost call only) and how many calls. It wraps the functions
once the engine fixture is set up (the engine imported and started, its SDKs still loading, so
no call is made yet and the imports keep their place in the run); what it shows is the share of the
client's CPU per call that is the store, the claim diagnostics, the report and so on, next to
:mod:`benchmarks.cpu_probe`'s per-thread figures.
"""

from __future__ import annotations

import collections
import functools
import inspect
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

#: (module, attribute): what is timed (a ``Class.method`` or a module function)
TARGETS = (
    ("pytest_rwe.store.response_store", "ResponseStore.save_request"),
    ("pytest_rwe.store.response_store", "ResponseStore.file_as"),
    ("pytest_rwe.store.keys", "request_hashes"),
    ("pytest_rwe.engine", "_claim_diagnostics"),
    ("pytest_rwe.rules.diagnostics", "juror_findings"),
    ("pytest_rwe.replies", "parse_judge_reply"),
    ("pytest_rwe.prompts", "judge_request"),
    ("pytest_rwe.plugin.evaluation", "evaluate_case"),
    ("pytest_rwe.report.report_json", "build_report"),
    ("pytest_rwe.report.report_json", "write_report"),
)
_CPU: collections.defaultdict[str, float] = collections.defaultdict(float)
_CALLS: collections.Counter[str] = collections.Counter()
_depth = threading.local()
_installed = False


def _timed(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        depth = getattr(_depth, "value", 0)
        _depth.value = depth + 1
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            _depth.value = depth
            _CALLS[name] += 1
            if depth == 0:  # a timed function inside another is counted in the outer one
                _CPU[name] += time.thread_time() - start

    return timed


def _install() -> None:
    for module_name, attr in TARGETS:
        module = sys.modules.get(module_name)
        if module is None:
            # not imported yet: import it now (report modules load at the end anyway)
            module = __import__(module_name, fromlist=["_"])
        owner_name, _, name = attr.rpartition(".")
        owner = getattr(module, owner_name) if owner_name else module
        original = getattr(owner, name, None)
        if original is None or inspect.iscoroutinefunction(original):
            continue
        wrapped = _timed(original, attr)
        setattr(owner, name, wrapped)
        if not owner_name:  # `from module import name` copies elsewhere too
            for other in list(sys.modules.values()):
                if other is not None and getattr(other, name, None) is original:
                    setattr(other, name, wrapped)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
                         ) -> Any:
    global _installed
    result = yield
    if not _installed and fixturedef.argname == "rwe_engine":
        # the engine is imported and started, its SDKs still loading: no call made yet
        _installed = True
        _install()
    return result


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    path = os.environ.get("RWE_CPU_COMPONENTS")
    if not path or hasattr(config, "workerinput"):
        return
    with open(path, "w", encoding="utf-8") as out:
        json.dump({name: {"cpu_s": round(cpu, 3), "calls": _CALLS[name]}
                   for name, cpu in sorted(_CPU.items(), key=lambda kv: -kv[1])}, out)
