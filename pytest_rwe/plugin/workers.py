"""Which pytest process this is (plain run, xdist controller or worker), in one place, and
the hooks that exist only under pytest-xdist. Light: pytest and the stdlib only.

Works on a ``pytest.Config`` and is safe under ``-p no:xdist`` (xdist's own ``is_xdist_*``
helpers take a request or session, and fail when ``config.option.dist`` does not exist).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

PROGRESS_OUTPUT = "rwe_progress"  # a worker's last counters, in xdist's workeroutput
RUN_ID_INPUT = "rwe_run_id"  # the controller's run id, in xdist's workerinput
DIST_INPUT = "rwe_dist"  # how xdist hands out tests (see pytest_rwe.store.leader)


def worker_input(config: pytest.Config) -> dict[str, Any] | None:
    """What the xdist controller gave this worker, or None outside a worker."""
    return getattr(config, "workerinput", None)


def is_worker(config: pytest.Config) -> bool:
    """Whether this process is an xdist worker."""
    return hasattr(config, "workerinput")


def is_distributing(config: pytest.Config) -> bool:
    """Whether this process hands tests out to xdist workers (``-n``, ``--dist``)."""
    return getattr(config.option, "dist", "no") != "no"


def process_name(config: pytest.Config) -> str:
    """``gw0``, ``gw1``... on a worker, ``main`` otherwise."""
    return str((worker_input(config) or {}).get("workerid", "main"))


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
        from pytest_rwe.plugin.session import RUN_ID_KEY

        # every worker shares the controller's run id (the store uses it for "this run")
        node.workerinput[RUN_ID_INPUT] = node.config.stash[RUN_ID_KEY]
        # which worker makes the calls depends on how xdist hands out tests (see leader.py)
        node.workerinput[DIST_INPUT] = str(node.config.getoption("dist"))
