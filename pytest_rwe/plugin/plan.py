"""``--rwe-plan`` and the price options: the pytest glue over :mod:`pytest_rwe.plan` and
:mod:`pytest_rwe.providers.prices`.

A plan run collects as usual, then keeps one test that would start the engine (at its
``rwe_engine`` fixture the generation settings, which a conftest may override, are known)
and deselects the rest. That fixture's setup is replaced: every call of the selected
(model, study, repeat) pairs is resolved against the store, the plan is printed (and
written to ``plan.json`` under ``--rwe-report DIR``), and the test is skipped. No model is
called and the run exits 0. It runs in one process: xdist's ``-n`` is turned off.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_rwe.plugin.options import option_path
from pytest_rwe.plugin.session import RweCase, get_session
from pytest_rwe.plugin.workers import run_in_one_process
from pytest_rwe.providers.base import GenerationSettings
from pytest_rwe.providers.prices import PriceError, PriceTable, load_prices

if TYPE_CHECKING:  # the planner is imported by a plan run only
    from pytest_rwe.plan import Plan

PLAN_FILE = "plan.json"
#: the plugins that judge a run's evidence: a plan has none to judge
_JUDGING_PLUGINS = ("rwe-report", "rwe-no-study-exit", "rwe-baseline-gate")


def read_prices(config: pytest.Config) -> PriceTable:
    """The shipped prices with ini ``rwe_prices``, then each ``--rwe-prices`` file, applied."""
    files = [str((config.invocation_params.dir / f).resolve())
             for f in config.getoption("--rwe-prices")]
    try:
        return load_prices([*config.getini("rwe_prices"), *files], config.rootpath)
    except PriceError as exc:
        raise pytest.UsageError(str(exc)) from None


def planning(config: pytest.Config) -> bool:
    return bool(config.getoption("--rwe-plan", False))


def configure(config: pytest.Config) -> None:
    """Turn a run into a plan (call at the end of the plugin's ``pytest_configure``)."""
    # one process: before xdist's own pytest_configure (trylast) starts workers
    run_in_one_process(config)
    config.option.tx = []
    for name in _JUDGING_PLUGINS:
        plugin = config.pluginmanager.get_plugin(name)
        if plugin is not None:
            config.pluginmanager.unregister(plugin)
    config.pluginmanager.register(PlanPlugin(config), "rwe-plan")


class PlanPlugin:
    """Keeps one engine-starting test, makes the plan at its engine fixture, prints it."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.cases: list[RweCase] = []
        self.plan: Plan | None = None
        self.written: str | None = None

    @pytest.hookimpl(trylast=True)  # after -k, -m and the other plugins' deselection
    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        seen: dict[str, RweCase] = {}
        keep: pytest.Item | None = None
        for item in items:
            callspec = getattr(item, "callspec", None)
            case = callspec.params.get("rwe_case") if callspec is not None else None
            if isinstance(case, RweCase):
                seen.setdefault(case.id, case)
            if keep is None and "rwe_engine" in getattr(item, "fixturenames", ()):
                keep = item
        self.cases = list(seen.values())
        dropped = [item for item in items if item is not keep]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = [] if keep is None else [keep]
        if keep is None:  # no test would start the engine: nothing would be called
            self._make(GenerationSettings(), GenerationSettings())

    @pytest.hookimpl(tryfirst=True)
    def pytest_fixture_setup(self, fixturedef: pytest.FixtureDef[Any],
                             request: pytest.FixtureRequest) -> object:
        if fixturedef.argname != "rwe_engine":
            return None
        if self.plan is None:
            self._make(request.getfixturevalue("rwe_summarize_settings"),
                       request.getfixturevalue("rwe_judge_settings"))
        pytest.skip("pytest-rwe plan: no model was called")

    def _make(self, summarize: GenerationSettings, judge: GenerationSettings) -> None:
        from pytest_rwe.plan import build_plan, resolve_calls
        from pytest_rwe.providers.registry import create_provider
        from pytest_rwe.report.report_json import dumps
        from pytest_rwe.store import ResponseStore
        from pytest_rwe.store.files import atomic_write_text

        rwe = get_session(self.config)
        settings = rwe.settings.engine
        engine = rwe.engine_config(summarize, judge)  # as rwe_engine builds it
        pairs = [(c.arm, c.load.study, c.repeat) for c in self.cases if c.load.study]
        store = ResponseStore(rwe.settings.store, settings.store_mode, shared=False)
        calls = resolve_calls(pairs, engine, store=store, provider=lambda name: create_provider(
            name, timeout_s=settings.timeout_s))
        self.plan = build_plan(calls, read_prices(self.config),
                               concurrency=settings.concurrency, record=settings.store_mode)
        directory = self._directory()
        if directory is not None:
            path = directory / PLAN_FILE
            atomic_write_text(path, dumps(self.plan.to_dict()), fsync=True)
            self.written = str(path)

    def _directory(self) -> Path | None:
        return option_path(self.config, "--rwe-report", "rwe_report")

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.plan is None:
            return
        from pytest_rwe.plan import plan_lines

        terminalreporter.section("pytest-rwe plan", sep="=")
        for line in plan_lines(self.plan):
            terminalreporter.write_line(line)
        if self.written:
            terminalreporter.write_line(f"plan: {self.written}")

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, None, None]:
        yield
        if session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            session.exitstatus = pytest.ExitCode.OK  # a plan runs no test by design
