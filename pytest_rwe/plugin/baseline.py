"""The baseline gate: the run compared with a saved report.json, gated on real drops
(``--rwe-baseline FILE``, ``--rwe-max-drop criterion=value,...``; ini ``rwe_baseline``,
``rwe_max_drop``). Pytest glue over :mod:`pytest_rwe.report.baseline`, registered on the
controller or a plain run only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from pytest_rwe.plugin.options import option_path, option_text, relative
from pytest_rwe.settings import SettingsError


class BaselineGate:
    """Compares the session report with the baseline and gates on drops (controller only)."""

    def __init__(self, config: pytest.Config, source: str,
                 baseline: dict[str, Any] | None, max_drop: dict[str, float]) -> None:
        self.config = config
        self.source = source
        self.baseline = baseline
        self.max_drop = max_drop

    def pytest_rwe_report_gate(self, report: Mapping[str, Any],
                               records: Sequence[Mapping[str, Any]], no_study: str | None
                               ) -> tuple[str, Mapping[str, Any], bool] | None:
        """The comparison with the baseline and its drop gate, as the report's ``gating``."""
        from pytest_rwe.report.baseline import compare_reports, gate_section, missing_responses

        comparison = (compare_reports(report, self.baseline, source=self.source)
                      if self.baseline is not None else None)
        missing = missing_responses(report)
        if comparison is None and not missing:
            return None
        causes = (self._causes(records, no_study, comparison)
                  if comparison is not None else {})
        section = gate_section(comparison, self.max_drop, missing, causes)
        return "gating", section, bool(section["passed"])

    def _causes(self, records: Sequence[Mapping[str, Any]], no_study: str | None,
                comparison: Mapping[str, Any]) -> dict[str, str]:
        """Why each gated model without a comparison has no evaluation in this run."""
        from pytest_rwe.report.evidence import no_evaluation_cause

        without = [m for m, cells in comparison["models"].items()
                   if not any(cells.values())]
        return {model: no_evaluation_cause(model, list(records), no_study=no_study)
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
    path = option_path(config, "--rwe-baseline", "rwe_baseline")
    if path is None:
        if max_drop:
            raise pytest.UsageError("--rwe-max-drop needs a baseline to compare with: add "
                                    "--rwe-baseline cases/golden/baseline/report.json (or ini "
                                    "rwe_baseline)")
        return BaselineGate(config, "", None, {})
    from pytest_rwe.report.baseline import load_baseline

    try:
        baseline = load_baseline(path)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    return BaselineGate(config, relative(path, config.rootpath), baseline, max_drop)
