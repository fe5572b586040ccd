"""Which process this is (plugin/workers.py) and its part in calling models (store.leader),
read from a real pytest config: a plain run, under ``-p no:xdist``, an xdist controller and
an xdist worker."""

from __future__ import annotations

import pytest
from e2e_kit import make_suite

from pytest_rwe.plugin import workers
from pytest_rwe.store.leader import process_role, worker_role


@pytest.mark.parametrize(("worker_id", "dist", "role"), [
    (None, "no", "alone"),
    (None, "load", "alone"),
    ("gw0", "load", "leader"),
    ("gw3", "load", "follower"),
    ("gw0", "worksteal", "leader"),
    ("gw1", "each", "follower"),
    ("gw0", "loadfile", "first"),
    ("gw2", "loadscope", "first"),
])
def test_process_role(worker_id: str | None, dist: str, role: str) -> None:
    assert process_role(worker_id, dist) == role


def test_worker_role_is_a_deprecated_alias() -> None:
    with pytest.warns(DeprecationWarning, match="process_role"):
        assert worker_role({"workerid": "gw2", "rwe_dist": "loadscope"}) == "first"
    with pytest.warns(DeprecationWarning):
        assert worker_role(None) == "alone"


@pytest.mark.parametrize("args", [(), ("-p", "no:xdist")])
def test_a_plain_run(pytester: pytest.Pytester, args: tuple[str, ...]) -> None:
    config = pytester.parseconfig(*args)
    assert workers.xdist_active(config) is not bool(args)
    assert not workers.is_worker(config) and not workers.is_distributing(config)
    assert workers.dist_mode(config) == "no"
    assert workers.worker_id(config) is None and workers.process_name(config) == "main"
    assert workers.worker_output(config) is None
    assert workers.process_role(config) == "alone"
    config.stash[workers.RUN_ID_KEY] = "run-7"
    assert workers.run_id(config) == "run-7"
    workers.run_in_one_process(config)  # safe without xdist too
    assert not workers.is_distributing(config)


def test_a_controller_and_its_workers(pytester: pytest.Pytester) -> None:
    controller = pytester.parseconfig("-n", "2", "--dist", "loadfile")
    assert workers.is_distributing(controller) and not workers.is_worker(controller)
    assert workers.dist_mode(controller) == "loadfile"
    workers.run_in_one_process(controller)
    assert not workers.is_distributing(controller)
    worker = pytester.parseconfig()
    # what xdist sets on a worker's config, with what the plugin's pytest_configure_node adds
    worker.workerinput = {"workerid": "gw1", "workercount": 2,  # type: ignore[attr-defined]
                          workers.RUN_ID_INPUT: "run-1", workers.DIST_INPUT: "each"}
    worker.workeroutput = {}  # type: ignore[attr-defined]
    assert workers.is_worker(worker) and workers.worker_id(worker) == "gw1"
    assert workers.process_name(worker) == "gw1" and workers.dist_mode(worker) == "each"
    assert workers.process_role(worker) == "follower"
    assert workers.run_id(worker) == "run-1"
    assert workers.worker_output(worker) == {}


@pytest.mark.parametrize("args", [("-p", "no:xdist"), ("-n", "2")])
def test_a_suite_runs_with_and_without_xdist(pytester: pytest.Pytester,
                                             args: tuple[str, ...]) -> None:
    make_suite(pytester, studies=("hospital_shift_work_metabolic_syndrome",))
    result = pytester.runpytest_subprocess(*args, "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3)
