"""Which pytest process this is (plain run, xdist controller or worker), in one place, and
the hooks that exist only under pytest-xdist. Light: pytest and the stdlib only.

Works on a ``pytest.Config`` and is safe under ``-p no:xdist`` (xdist's own ``is_xdist_*``
helpers take a request or session, and fail when ``config.option.dist`` does not exist).
"""

from __future__ import annotations

import json
import os
import time
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # the leader module loads only when a run evaluates
    from pytest_rwe.store.leader import ProcessRole

PROGRESS_OUTPUT = "rwe_progress"  # a worker's last counters, in xdist's workeroutput
RUN_ID_INPUT = "rwe_run_id"  # the controller's run id, in xdist's workerinput
DIST_INPUT = "rwe_dist"  # how xdist hands out tests (see pytest_rwe.store.leader)


#: the run's id, set by the controller (or a plain run) in pytest_configure
RUN_ID_KEY = pytest.StashKey[str]()


def xdist_active(config: pytest.Config) -> bool:
    """Whether pytest-xdist is loaded in this run (not under ``-p no:xdist``)."""
    return bool(config.pluginmanager.hasplugin("xdist"))


def worker_input(config: pytest.Config) -> dict[str, Any] | None:
    """What the xdist controller gave this worker, or None outside a worker."""
    return getattr(config, "workerinput", None)


def worker_output(config: pytest.Config) -> dict[str, Any] | None:
    """What this worker hands back to the controller when it finishes, or None outside a
    worker."""
    return getattr(config, "workeroutput", None) if is_worker(config) else None


def is_worker(config: pytest.Config) -> bool:
    """Whether this process is an xdist worker."""
    return hasattr(config, "workerinput")


def is_distributing(config: pytest.Config) -> bool:
    """Whether this process hands tests out to xdist workers (``-n``, ``--dist``)."""
    return getattr(config.option, "dist", "no") != "no"


def run_in_one_process(config: pytest.Config) -> None:
    """Hand no test to xdist workers (call before xdist's own trylast pytest_configure)."""
    config.option.dist = "no"


def worker_id(config: pytest.Config) -> str | None:
    """``gw0``, ``gw1``... on a worker, None otherwise."""
    found = (worker_input(config) or {}).get("workerid")
    return str(found) if found else None


def process_name(config: pytest.Config) -> str:
    """``gw0``, ``gw1``... on a worker, ``main`` otherwise."""
    return worker_id(config) or "main"


def dist_mode(config: pytest.Config) -> str:
    """How xdist hands out the run's tests: on a worker, as its controller said (``load``
    when it said nothing); elsewhere this process's ``--dist`` (``no`` without xdist)."""
    worker = worker_input(config)
    if worker is not None:
        return str(worker.get(DIST_INPUT, "load"))
    return str(getattr(config.option, "dist", "no"))


def process_role(config: pytest.Config) -> ProcessRole:
    """This process's part in calling models (see :mod:`pytest_rwe.store.leader`)."""
    from pytest_rwe.store.leader import process_role as role_of

    return role_of(worker_id(config), dist_mode(config))


def run_id(config: pytest.Config) -> str:
    """One id for the whole run, shared by xdist workers (set by the controller)."""
    worker = worker_input(config)
    if worker and RUN_ID_INPUT in worker:
        return str(worker[RUN_ID_INPUT])
    return config.stash.get(RUN_ID_KEY, f"{os.getpid()}-{time.time():.0f}")


def register_xdist_hooks(config: pytest.Config) -> None:
    """Register :class:`XdistHooks` when pytest-xdist is active."""
    if xdist_active(config):
        config.pluginmanager.register(XdistHooks(), "rwe-xdist")


class XdistHooks:
    """Hooks that exist only when pytest-xdist is active (registered as ``rwe-xdist``)."""

    @pytest.hookimpl
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        from pytest_rwe.plugin.collect import RecordCollector

        # a worker's last counters (its calls may have outlasted its own tests)
        collector = node.config.pluginmanager.get_plugin("rwe-records")
        final = getattr(node, "workeroutput", {}).get(PROGRESS_OUTPUT)
        if isinstance(collector, RecordCollector) and isinstance(final, str):
            collector.progress.update(json.loads(final))

    @pytest.hookimpl
    def pytest_configure_node(self, node: Any) -> None:
        # every worker shares the controller's run id (the store uses it for "this run")
        node.workerinput[RUN_ID_INPUT] = node.config.stash[RUN_ID_KEY]
        # which worker makes the calls depends on how xdist hands out tests (see leader.py)
        node.workerinput[DIST_INPUT] = dist_mode(node.config)
