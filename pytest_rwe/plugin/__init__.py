"""pytest-rwe's pytest plugin: thin glue over the pure core (entry point ``rwe``)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from typing import Any

import pytest

from pytest_rwe.plugin import hookspecs, selection
from pytest_rwe.plugin.records import PROGRESS_PROPERTY, RECORD_PROPERTY, record_key
from pytest_rwe.plugin.session import (
    RUN_ID_KEY,
    SESSION_KEY,
    RweCase,
    get_session,
    jury_rules,
    jury_rules_given,
)
from pytest_rwe.plugin.studies import (
    NoStudy,
    check_studies,
    no_study_problem,
    placeholder_problem,
)
from pytest_rwe.redact import remember_url_secrets
from pytest_rwe.report.progress import Progress
from pytest_rwe.store.leader import RunLeader

PROGRESS_OUTPUT = "rwe_progress"  # a worker's last counters, in xdist's workeroutput


class RecordCollector:
    """Gathers each evaluation record once, from local and xdist worker reports alike."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: dict[tuple[str, str, int], dict[str, Any]] = {}
        self.progress = Progress(started_at=time.monotonic())

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == PROGRESS_PROPERTY and isinstance(value, str):
                self.progress.update(json.loads(value))
                self._show_progress()
            if name != RECORD_PROPERTY or not isinstance(value, str):
                continue
            record = json.loads(value)
            key = record_key(record)
            if key not in self.records:  # one record per pair, shipped by each criterion's test
                self.records[key] = record
                self.config.hook.pytest_rwe_record(config=self.config, record=record)

    def _show_progress(self) -> None:
        # only on long runs that call models, and never more than every few seconds
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None or not self.progress.due(time.monotonic()):
            return
        if any(p["calls"] for p in self.progress.by_process.values()):
            reporter.write_line(self.progress.line(len(self.records)))


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    from pytest_rwe.plugin.options import add_options

    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    from pytest_rwe.drift.extension import DriftSnapshotExtension
    from pytest_rwe.plugin import baseline, fixtures, report

    # a model@URL may carry a password: redact it wherever it shows up, even on its own
    remember_url_secrets(_configured_names(config))
    # the rwe_* fixtures, where tests run (xdist workers included)
    config.pluginmanager.register(fixtures, "rwe-fixtures")
    DriftSnapshotExtension.live = None  # per session (pytester runs sessions in one process)
    if not hasattr(config, "workerinput"):
        config.stash[RUN_ID_KEY] = f"{os.getpid()}-{time.time():.3f}"
        # only the controller (or a plain run) aggregates, prints and writes
        config.pluginmanager.register(RecordCollector(config), "rwe-records")
        report.register(config)  # the session report: terminal, files, --rwe-min gate
        # Options and ini keys are read (and a bad value stops the run, naming the option)
        # now, before xdist starts workers: a usage error raised in a worker would crash it.
        rwe = get_session(config)
        if config.getoption("--rwe-model") or config.getoption("--rwe-jury"):
            rwe.check_usable()  # asked for on the command line: check the keys now too
        selection.conditions(config)  # a bad --rwe-select or rwe_select stops the run now
        if (config.getoption("--rwe-cases") or config.getoption("--rwe-model")
                or config.getoption("--rwe-select")):
            # asked for on the command line: a folder without a study, or a selection that
            # keeps none, is a usage error now, before xdist starts workers (a mistyped path
            # or value must not pass on no evidence)
            check_studies(config)
        if jury_rules_given(config):
            jury_rules(config)  # a bad quorum or rule stops the run before workers start
        if rwe.settings.variants:
            rwe.variant_prompts  # noqa: B018 - a bad template in a variant stops it too
    calls_here = hasattr(config, "workerinput") or not _distributing(config)  # not a controller
    if (calls_here and not config.option.collectonly
            and (config.getoption("--rwe-model") or config.getoption("--rwe-jury"))):
        # a run that is going to evaluate: import the SDKs while pytest collects
        get_session(config).preload_sdks()
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(), "rwe-xdist")
    if not hasattr(config, "workerinput"):
        # after the report plugin, as before: its sessionfinish runs last (trylast)
        config.pluginmanager.register(baseline.read_gate(config), "rwe-baseline-gate")
    if config.getoption("--rwe-plan") and not hasattr(config, "workerinput"):
        from pytest_rwe.plugin import plan

        plan.configure(config)  # one process, no call, no report: the plan instead


@pytest.hookimpl(tryfirst=True)
def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object,
                              right: object) -> list[str] | None:
    """``assert profile == rwe_snapshot`` explains the drift instead of dumping two objects."""
    # never imported here: without the module, no RweSnapshot exists to explain
    snapshot = sys.modules.get("pytest_rwe.plugin.snapshot")
    return None if snapshot is None else snapshot.assertrepr(op, left, right)


def _configured_names(config: pytest.Config) -> list[str]:
    jury = str(config.getoption("--rwe-jury") or config.getini("rwe_jury") or "")
    return [*config.getoption("--rwe-model"), *config.getini("rwe_models"), *jury.split(",")]


def _distributing(config: pytest.Config) -> bool:
    return getattr(config.option, "dist", "no") != "no"


class _XdistHooks:
    """Hooks that exist only when pytest-xdist is active."""

    @pytest.hookimpl
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        # a worker's last counters (its calls may have outlasted its own tests)
        collector = node.config.pluginmanager.get_plugin("rwe-records")
        final = getattr(node, "workeroutput", {}).get(PROGRESS_OUTPUT)
        if isinstance(collector, RecordCollector) and isinstance(final, str):
            collector.progress.update(json.loads(final))

    @pytest.hookimpl
    def pytest_configure_node(self, node: Any) -> None:
        # every worker shares the controller's run id (the store uses it for "this run")
        node.workerinput["rwe_run_id"] = node.config.stash[RUN_ID_KEY]
        # which worker makes the calls depends on how xdist hands out tests (see leader.py)
        node.workerinput["rwe_dist"] = str(node.config.getoption("dist"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    name = ("rwe_case" if "rwe_case" in metafunc.fixturenames else
            "rwe_study_load" if "rwe_study_load" in metafunc.fixturenames else None)
    if name is None:
        return
    problem = no_study_problem(metafunc.config)
    if problem:
        # not an empty parameter set (pytest would skip it and exit 0): see plugin/studies.py
        metafunc.parametrize(name, [NoStudy(problem)], ids=[NoStudy.id], indirect=True)
    elif name == "rwe_case":
        # a test of the models under test: one per (model, study, repeat)
        cases = get_session(metafunc.config).cases()
        metafunc.parametrize("rwe_case", cases, ids=[case.id for case in cases], indirect=True)
    else:
        # a test that needs only studies (e.g. your own summarizer judged by rwe_jury)
        loads = get_session(metafunc.config).loads
        metafunc.parametrize("rwe_study_load", loads, ids=[load.id for load in loads],
                             indirect=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if any(selection.load_of(item) is not None for item in items):  # the studies are loaded
        selection.deselect(config, items, get_session(config).loads)


def pytest_collection_finish(session: pytest.Session) -> None:
    problem = placeholder_problem(session.items)
    if problem and not hasattr(session.config, "workerinput"):
        raise pytest.UsageError(problem)  # a worker's placeholder test fails instead
    selected: dict[str, RweCase] = {}
    for item in session.items:
        callspec = getattr(item, "callspec", None)
        case = callspec.params.get("rwe_case") if callspec is not None else None
        if isinstance(case, RweCase):
            selected.setdefault(case.id, case)
    if selected:
        rwe = get_session(session.config)
        if not session.config.option.collectonly:
            rwe.preload_sdks()
        if hasattr(session.config, "workerinput"):
            rwe.usage_problem = rwe.find_usage_problem()  # each rwe test fails with it
        else:
            rwe.check_usable()
            jury_rules(session.config)  # a usage error here, not in every test's fixture
        rwe.selected = list(selected.values())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if RUN_ID_KEY in session.config.stash and _distributing(session.config):
        # the controller, after every worker is done: the leader's note is no longer needed
        with contextlib.suppress(pytest.UsageError):  # settings already reported by workers
            store = get_session(session.config).settings.store
            RunLeader(store, session.config.stash[RUN_ID_KEY]).remove()
    rwe = session.config.stash.get(SESSION_KEY, None)
    if rwe is not None and rwe.engine is not None:
        # The leader's queued work may be what another worker's test is waiting for; a run
        # that was stopped (Ctrl-C, -x) cancels instead.
        stopped = bool(session.shouldstop or session.shouldfail
                       or exitstatus == pytest.ExitCode.INTERRUPTED)
        worker = getattr(session.config, "workerinput", None)
        rwe.engine.close(finish=worker is not None and not stopped)
        if worker is not None:
            # the worker's last counters go to the controller with its "finished" message
            final = rwe.engine.progress_snapshot() | {"process": worker.get("workerid"),
                                                      "total": len(rwe.selected)}
            output: dict[str, Any] = session.config.workeroutput  # type: ignore[attr-defined]
            output[PROGRESS_OUTPUT] = json.dumps(final)
    if rwe is not None and rwe.preloader is not None:
        rwe.preloader.join()
