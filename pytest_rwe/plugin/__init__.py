"""pytest-rwe's pytest plugin (entry point ``rwe``): thin, so that loading it costs nothing.

pytest imports this module in every run of every project that installs pytest-rwe. It holds
only hook functions; what they need is imported in their bodies, and the heavy side (the
studies and pydantic, the engine, the store, the providers, the report renderers, syrupy's
glue) loads only when a run evaluates: rwe options on the command line, a collected test
that asks for ``rwe_case`` or ``rwe_study_load``, or records at the end of the session.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time

import pytest

from pytest_rwe.plugin import hookspecs


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    from pytest_rwe.plugin.options import add_options

    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    from pytest_rwe.plugin import fixtures
    from pytest_rwe.plugin.workers import is_distributing, is_worker, register_xdist_hooks

    names = _configured_names(config)
    if names:
        from pytest_rwe.redact import remember_url_secrets

        # a model@URL may carry a password: redact it wherever it shows up, even on its own
        remember_url_secrets(names)
    # the rwe_* fixtures, where tests run (xdist workers included)
    config.pluginmanager.register(fixtures, "rwe-fixtures")
    extension = sys.modules.get("pytest_rwe.drift.extension")
    if extension is not None:  # per session (pytester runs sessions in one process)
        extension.DriftSnapshotExtension.live = None
    if not is_worker(config):
        _configure_controller(config)
    calls_here = is_worker(config) or not is_distributing(config)  # not a controller
    if (calls_here and not config.option.collectonly
            and (config.getoption("--rwe-model") or config.getoption("--rwe-jury"))):
        from pytest_rwe.plugin.session import get_session

        # a run that is going to evaluate: import the SDKs while pytest collects
        get_session(config).preload_sdks()
    register_xdist_hooks(config)
    if not is_worker(config):
        from pytest_rwe.plugin.baseline import read_gate

        # after the report plugin, as before: its sessionfinish runs last (trylast)
        config.pluginmanager.register(read_gate(config), "rwe-baseline-gate")
    if config.getoption("--rwe-plan") and not is_worker(config):
        from pytest_rwe.plugin import plan

        plan.configure(config)  # one process, no call, no report: the plan instead


def _configure_controller(config: pytest.Config) -> None:
    """The controller (or a plain run): the run id, the collector, the report, and every
    usage error the command line can show before xdist starts workers."""
    from pytest_rwe.plugin import report
    from pytest_rwe.plugin.collect import RecordCollector
    from pytest_rwe.plugin.session import get_session, jury_rules, jury_rules_given
    from pytest_rwe.plugin.studies import check_studies
    from pytest_rwe.plugin.workers import RUN_ID_KEY

    config.stash[RUN_ID_KEY] = f"{os.getpid()}-{time.time():.3f}"
    # only the controller (or a plain run) aggregates, prints and writes
    config.pluginmanager.register(RecordCollector(config), "rwe-records")
    report.register(config)  # the session report: terminal, files, --rwe-min gate
    # Options and ini keys are read (and a bad value stops the run, naming the option) now,
    # before xdist starts workers: a usage error raised in a worker would crash it.
    rwe = get_session(config)
    if config.getoption("--rwe-model") or config.getoption("--rwe-jury"):
        rwe.check_usable()  # asked for on the command line: check the keys now too
    if config.getoption("--rwe-select") or config.getini("rwe_select"):
        from pytest_rwe.plugin import selection

        selection.conditions(config)  # a bad --rwe-select or rwe_select stops the run now
    if (config.getoption("--rwe-cases") or config.getoption("--rwe-model")
            or config.getoption("--rwe-select")):
        # asked for on the command line: a folder without a study, or a selection that
        # keeps none, is a usage error now, before xdist starts workers (a mistyped path
        # or value must not pass on no evidence)
        check_studies(config)
    if jury_rules_given(config):
        jury_rules(config)  # a bad quorum or rule stops the run before workers start
    if rwe.settings.engine.variants:
        rwe.variant_prompts  # noqa: B018 - a bad template in a variant stops it too


@pytest.hookimpl(tryfirst=True)
def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object,
                              right: object) -> list[str] | None:
    """``assert profile == rwe_snapshot`` explains the drift instead of dumping two objects."""
    # never imported here: without the module, no RweSnapshot exists to explain
    snapshot = sys.modules.get("pytest_rwe.plugin.snapshot")
    return None if snapshot is None else snapshot.assertrepr(op, left, right)


def _configured_names(config: pytest.Config) -> list[str]:
    from pytest_rwe.plugin.options import option_text  # loaded already: it added the options

    jury = option_text(config, "--rwe-jury", "rwe_jury") or ""
    names = [*config.getoption("--rwe-model"), *config.getini("rwe_models"), *jury.split(",")]
    return [name for name in names if name]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    name = ("rwe_case" if "rwe_case" in metafunc.fixturenames else
            "rwe_study_load" if "rwe_study_load" in metafunc.fixturenames else None)
    if name is None:
        return
    from pytest_rwe.plugin.session import get_session
    from pytest_rwe.plugin.studies import NoStudy, no_study_problem

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
    if "pytest_rwe.study" not in sys.modules:
        return  # no test of the studies was parametrized: there is nothing to select
    from pytest_rwe.plugin import selection
    from pytest_rwe.plugin.session import get_session

    if any(selection.load_of(item) is not None for item in items):  # the studies are loaded
        selection.deselect(config, items, get_session(config).loads)


def pytest_collection_finish(session: pytest.Session) -> None:
    from pytest_rwe.plugin.session import RweCase, get_session, jury_rules
    from pytest_rwe.plugin.studies import placeholder_problem
    from pytest_rwe.plugin.workers import is_worker

    problem = placeholder_problem(session.items)
    if problem and not is_worker(session.config):
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
        if is_worker(session.config):
            rwe.usage_problem = rwe.find_usage_problem()  # each rwe test fails with it
        else:
            rwe.check_usable()
            jury_rules(session.config)  # a usage error here, not in every test's fixture
        rwe.selected = list(selected.values())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from pytest_rwe.plugin.session import SESSION_KEY, get_session
    from pytest_rwe.plugin.workers import (
        PROGRESS_OUTPUT,
        RUN_ID_KEY,
        is_distributing,
        worker_id,
        worker_output,
    )

    if RUN_ID_KEY in session.config.stash and is_distributing(session.config):
        from pytest_rwe.store.leader import RunLeader

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
        output = worker_output(session.config)
        rwe.engine.close(finish=output is not None and not stopped)
        if output is not None:
            # the worker's last counters go to the controller with its "finished" message
            final = rwe.engine.progress_snapshot() | {"process": worker_id(session.config),
                                                      "total": len(rwe.selected)}
            output[PROGRESS_OUTPUT] = json.dumps(final)
    if rwe is not None and rwe.preloader is not None:
        rwe.preloader.join()
