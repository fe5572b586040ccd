"""The baseline gate: the run compared with a saved report.json, gated on real drops
(``--rwe-baseline FILE``, ``--rwe-max-drop criterion=value,...``; ini ``rwe_baseline``,
``rwe_max_drop``). Pytest glue over :mod:`pytest_rwe.report.baseline`, registered on the
controller or a plain run only."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pytest_rwe.plugin.options import option_text, relative
from pytest_rwe.settings import SettingsError


class BaselineGate:
    """Compares the session report with the baseline and gates on drops (controller only)."""

    def __init__(self, config: pytest.Config, source: str,
                 baseline: dict[str, Any] | None, max_drop: dict[str, float]) -> None:
        self.config = config
        self.source = source
        self.baseline = baseline
        self.max_drop = max_drop

    @pytest.hookimpl(trylast=True)  # after the report plugin has built (and written) the report
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        plugin = self.config.pluginmanager.get_plugin("rwe-report")
        report = getattr(plugin, "report", None)
        if report is None:
            return
        from pytest_rwe.redact import redact_deep
        from pytest_rwe.report.baseline import compare_reports, gate_section, missing_responses
        from pytest_rwe.report.report_json import write_report

        comparison = (compare_reports(report, self.baseline, source=self.source)
                      if self.baseline is not None else None)
        missing = missing_responses(report)
        if comparison is None and not missing:
            return
        causes = self._causes(plugin, comparison) if comparison is not None else {}
        report["gating"] = redact_deep(gate_section(comparison, self.max_drop, missing, causes))
        directory = getattr(getattr(plugin, "settings", None), "directory", None)
        if directory is not None and getattr(plugin, "written", None):
            try:  # again, now with the comparison in report.json and report.md
                plugin.written = write_report(directory, report)  # type: ignore[union-attr]
            except OSError as exc:
                plugin.write_error = (  # type: ignore[union-attr]
                    f"pytest-rwe: cannot write the report to {directory}: {exc}; "
                    "check --rwe-report")
        if not report["gating"]["passed"] and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


    def _causes(self, plugin: object, comparison: Mapping[str, Any]) -> dict[str, str]:
        """Why each gated model without a comparison has no evaluation in this run."""
        from pytest_rwe.plugin.studies import no_study_problem
        from pytest_rwe.report.evidence import no_evaluation_cause

        records = list(getattr(plugin, "records", None) or [])
        no_study = getattr(plugin, "no_study", None)
        if no_study is None and not records:
            no_study = no_study_problem(self.config)
        without = [m for m, cells in comparison["models"].items()
                   if not any(cells.values())]
        return {model: no_evaluation_cause(model, records, no_study=no_study)
                for model in [*comparison.get("models_only_baseline", []), *without]}


def read_gate(config: pytest.Config) -> BaselineGate:
    """The gate's options; a bad value is a usage error that names the fix."""
    max_drop: dict[str, float] = {}
    drop_text = option_text(config, "--rwe-max-drop", "rwe_max_drop")
    if drop_text:  # the comparison's modules load only for a run that asks for it
        from pytest_rwe.report.baseline import parse_max_drop

        try:
            max_drop = parse_max_drop(drop_text)
        except SettingsError as exc:
            raise pytest.UsageError(str(exc)) from None
    if config.getoption("--rwe-baseline"):
        path: Path | None = config.invocation_params.dir / str(config.getoption("--rwe-baseline"))
    elif config.getini("rwe_baseline"):
        path = config.rootpath / str(config.getini("rwe_baseline"))
    else:
        path = None
    if path is None:
        if max_drop:
            raise pytest.UsageError("--rwe-max-drop needs a baseline to compare with: add "
                                    "--rwe-baseline cases/golden/baseline/report.json (or ini "
                                    "rwe_baseline)")
        return BaselineGate(config, "", None, {})
    from pytest_rwe.report.baseline import load_baseline

    try:
        baseline = load_baseline(path.resolve())
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    return BaselineGate(config, relative(path.resolve(), config.rootpath), baseline, max_drop)
