"""The session report's pytest glue: collect records, score, print, write, gate.

Registered by :mod:`pytest_rwe.plugin` on the controller (or a plain run) only, so with xdist the
workers never print or write; the records reach it through the ``pytest_rwe_record`` hook,
once per (model, study, repeat), identically with and without xdist.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_rwe import escape
from pytest_rwe.plugin.options import option_path, option_text
from pytest_rwe.plugin.session import get_session, jury_rules
from pytest_rwe.plugin.studies import NO_STUDY_PROPERTY, no_study_problem
from pytest_rwe.redact import display_name, redact_deep
from pytest_rwe.report.progress import Progress
from pytest_rwe.settings import SettingsError, arm_name

if TYPE_CHECKING:  # the report itself loads only when there is one to build
    from pytest_rwe.engine import Engine
    from pytest_rwe.report.config import ReportSettings
    from pytest_rwe.report.terminal import Line

#: the rubric and gate options read when the run starts (a bad value is a usage error then);
#: so are the price files, --rwe-prices and ini rwe_prices
_RUBRIC_OPTIONS = (("--rwe-weights", "rwe_weights"), ("--rwe-normalize-max", "rwe_normalize_max"),
                   ("--rwe-min", "rwe_min"), ("--rwe-bt-time-weight", "rwe_bt_time_weight"))


def read_report_settings(config: pytest.Config) -> ReportSettings:
    """The report options and ini keys; a bad value is a usage error that names the fix."""
    from pytest_rwe.report.config import build_report_settings

    directory = option_path(config, "--rwe-report", "rwe_report")
    try:
        settings = build_report_settings(
            weights=option_text(config, "--rwe-weights", "rwe_weights"),
            normalize_max=option_text(config, "--rwe-normalize-max", "rwe_normalize_max"),
            minimums=option_text(config, "--rwe-min", "rwe_min"),
            directory=directory,
            bt_time_weight=option_text(config, "--rwe-bt-time-weight", "rwe_bt_time_weight"),
        )
    except SettingsError as exc:
        raise pytest.UsageError(str(exc)) from None
    from pytest_rwe.plugin.plan import read_prices

    return dataclasses.replace(settings, prices=read_prices(config))


class ReportPlugin:
    """Builds the report from the run's records at session end (controller only)."""

    def __init__(self, config: pytest.Config, settings: ReportSettings | None = None) -> None:
        self.config = config
        self._settings = settings
        self.records: list[dict[str, Any]] = []
        self.report: dict[str, Any] | None = None
        self.written: list[Path] = []
        self.write_error: str | None = None
        self.no_study: str | None = None  # an xdist worker's placeholder test found no study

    @property
    def settings(self) -> ReportSettings:
        """The report options, read on first use unless given (see :func:`register`)."""
        if self._settings is None:
            self._settings = read_report_settings(self.config)
        return self._settings

    @pytest.hookimpl
    def pytest_rwe_record(self, config: pytest.Config, record: Mapping[str, Any]) -> None:
        self.records.append(dict(record))

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for name, value in report.user_properties:
            if name == NO_STUDY_PROPERTY and isinstance(value, str):
                self.no_study = value

    def _gated(self) -> bool:
        """Whether a gate (--rwe-min, --rwe-max-drop) must judge this run, records or not."""
        return bool(option_text(self.config, "--rwe-min", "rwe_min")) or bool(
            option_text(self.config, "--rwe-max-drop", "rwe_max_drop"))

    @staticmethod
    def _add_sections(report: dict[str, Any], sections: Mapping[str, Any]) -> None:
        for key, value in sections.items():
            if key in report:
                raise pytest.UsageError(
                    f"pytest-rwe: a pytest_rwe_report_sections or pytest_rwe_report_gate hook "
                    f"returned the report section {key!r}, which the report already has; "
                    "give your section a key of its own")
            report[key] = redact_deep(value)

    # first: under xdist, the workers exit while the report is computed, rather than before
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.records and not self._gated():
            return
        from pytest_rwe.report.report_json import build_report, git_commit, write_report

        rwe = get_session(self.config)
        # no evidence, no pass: a gated model without any record fails the gate, with a cause
        no_study = self.no_study
        if no_study is None and not self.records:
            no_study = no_study_problem(self.config)
        root = self.config.rootpath
        try:
            # paths relative to the rootdir: a committed report.json names no local folder
            prompts: dict[str, Any] | None = rwe.prompts.to_dict(root)
            if prompts is not None and rwe.variant_prompts:
                prompts["variants"] = {name: p.to_dict(root)
                                       for name, p in rwe.variant_prompts.items()}
        except pytest.UsageError:  # already reported where the prompts were needed
            prompts = None
        rules = jury_rules(self.config)
        variants = [v.name for v in rwe.settings.engine.variants]
        arms: list[str | None] = list(variants) or [None]
        self.report = build_report(
            self.records, dataclasses.replace(self.settings, repeat_rule=rules.repeat_rule),
            # as shown and stored: a model's URL loses its credentials; with prompt
            # variants, every model+variant is an entry of its own
            models=[arm_name(display_name(m), v) for m in rwe.settings.models
                    for v in arms],
            variants=variants,
            jury=[display_name(j) for j in rwe.settings.engine.jury],
            thresholds={str(k): v for k, v in rwe.settings.thresholds.items()},
            prompts=prompts,
            meta={"git_commit": git_commit(self.config.rootpath)},
            no_study=no_study,
            run=self._run_section(rwe.engine),
            **self._study_sections(),
        )
        self.report["quorum"] = rules.quorum
        self.report["exclude_self"] = rules.exclude_self
        failed = not self.report["gate"]["passed"]
        # every contributor adds its sections and gates first: the files are written once
        report, hook = self.report, self.config.hook
        for sections in hook.pytest_rwe_report_sections(config=self.config, report=report):
            self._add_sections(report, sections or {})
        for gate in hook.pytest_rwe_report_gate(config=self.config, report=report,
                                                records=list(self.records), no_study=no_study):
            if gate is not None:
                key, section, passed = gate
                self._add_sections(report, {key: section})
                failed = failed or not passed
        if self.settings.directory is not None:
            try:
                self.written = write_report(self.settings.directory, self.report)
            except OSError as exc:
                self.write_error = (f"pytest-rwe: cannot write the report to "
                                    f"{self.settings.directory}: {exc}; check --rwe-report")
                failed = True
        if failed and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _study_sections(self) -> dict[str, Any]:
        """The tags and the plausibility warnings of the studies the records evaluated, and
        the ``--rwe-select`` selection: computed here, on the controller, once per run (the
        studies are loaded in this process too), never per worker or per test."""
        from pytest_rwe.plugin import selection
        from pytest_rwe.report.study_notes import study_warnings
        from pytest_rwe.study.selection import study_tags

        try:
            loads = get_session(self.config).loads
        except pytest.UsageError:  # no cases folder: already the no-study cause
            return {}
        by_id = {load.id: load.study for load in loads if load.study is not None}
        evaluated = [study for study_id in sorted({str(r["study"]) for r in self.records})
                     if (study := by_id.get(study_id)) is not None]
        return {"study_tags": {study.id: study_tags(study) for study in evaluated},
                "study_warnings": study_warnings(evaluated, self.config.rootpath),
                "selection": selection.selection_section(self.config, loads)}

    def _run_section(self, engine: Engine | None) -> dict[str, Any] | None:
        """Calls, retries, 429s and each endpoint's concurrency, over every process."""
        progress = getattr(self.config.pluginmanager.get_plugin("rwe-records"), "progress",
                           None)
        if not isinstance(progress, Progress):
            return None
        if engine is not None:  # a plain run: its counters as they are at the end
            progress.update(engine.progress_snapshot() | {"process": "main"})
        return progress.run_section()

    @pytest.hookimpl(trylast=True)
    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.report is None:
            return
        from pytest_rwe.report.terminal import render_summary

        terminalreporter.section("pytest-rwe report", sep="=")
        for line in render_summary(self.report):
            _write(terminalreporter, line)
        if self.written:
            names = ", ".join(p.name for p in self.written)
            terminalreporter.write_line(f"report: {names} in {self.settings.directory}")

    @pytest.hookimpl(tryfirst=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        # The gate's verdict comes last, after pytest's own "N passed" line, so whoever
        # reads the end of the log learns why a run whose tests all passed exits 1.
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None or self.report is None:
            return
        from pytest_rwe.report.terminal import render_gate

        lines: list[Line] = render_gate(self.report)
        if self.write_error:
            lines.append([(self.write_error, "red")])
        if self.no_study is not None:
            lines.append([(f"ERROR: {self.no_study}", "red")])
        for line in lines:
            _write(reporter, line)


def _write(reporter: pytest.TerminalReporter, line: Line) -> None:
    reporter.ensure_newline()
    for text, colour in line:
        markup = {colour: True} if colour else {}
        # names, ids and errors came from models, files and servers: no control sequences
        reporter.write(escape.terminal(text).replace("\n", " "), **markup)
    reporter.line("")


class _NoStudyExit:
    """Ends an xdist run whose workers found no study with exit status 4, the usage error a
    plain run raises at collection (see plugin/studies.py)."""

    def __init__(self, plugin: ReportPlugin) -> None:
        self.plugin = plugin

    # a wrapper: after every other plugin (syrupy ORs its own status into the exit status)
    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, None, None]:
        yield
        if self.plugin.no_study is not None:
            session.exitstatus = pytest.ExitCode.USAGE_ERROR


def register(config: pytest.Config) -> None:
    """Register the report plugin (call on the controller or a plain run only)."""
    given = (any(option_text(config, option, ini) for option, ini in _RUBRIC_OPTIONS)
             or config.getoption("--rwe-prices") or config.getini("rwe_prices"))
    plugin = ReportPlugin(config, read_report_settings(config) if given else None)
    config.pluginmanager.register(plugin, "rwe-report")
    config.pluginmanager.register(_NoStudyExit(plugin), "rwe-no-study-exit")
