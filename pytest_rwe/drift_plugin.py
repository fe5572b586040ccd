"""Drift snapshots and the baseline gate: pytest glue over :mod:`pytest_rwe.drift`.

- fixtures ``rwe_verdict_profile`` (this test's profile) and ``rwe_snapshot`` (its golden
  file, through syrupy), used as ``assert rwe_verdict_profile == rwe_snapshot``;
- ``--rwe-baseline FILE`` and ``--rwe-max-drop criterion=value,...`` (ini ``rwe_baseline``,
  ``rwe_max_drop``): the run compared with a saved report.json, gated on real drops.

Registered by ``plugin.py`` in every process (fixtures and the assertion message are needed
where tests run, xdist workers included); the gate only on the controller or a plain run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from pytest_rwe import escape
from pytest_rwe.drift.diff import drift_message
from pytest_rwe.drift.extension import DriftSnapshotExtension, snapshot_stem
from pytest_rwe.drift.profile import VerdictProfile, verdict_profile
from pytest_rwe.fixtures import Summary
from pytest_rwe.redact import display_name, path_name, redact, redact_deep
from pytest_rwe.report import write_report
from pytest_rwe.report.baseline import (
    compare_reports,
    gate_section,
    load_baseline,
    missing_responses,
    parse_max_drop,
)
from pytest_rwe.report.evidence import no_evaluation_cause
from pytest_rwe.session import RweCase, get_session, relative
from pytest_rwe.settings import SettingsError
from pytest_rwe.store.entry import slug
from pytest_rwe.study import Study
from pytest_rwe.study_check import no_study_problem
from pytest_rwe.verdict import Criterion, Verdict


def add_options(parser: pytest.Parser) -> None:
    """Register ``--rwe-baseline`` and ``--rwe-max-drop`` with their ini keys."""
    group = parser.getgroup("rwe")
    group.addoption("--rwe-baseline", metavar="FILE",
                    help="compare this run per model and criterion with a saved report.json "
                         "(paired bootstrap over shared studies; ini rwe_baseline)")
    group.addoption("--rwe-max-drop", metavar="CRITERION=DROP,...",
                    help="baseline gate: exit non-zero when a criterion's difference from the "
                         "baseline lies entirely below -DROP, e.g. direction_of_effect=0.05 "
                         "(ini rwe_max_drop)")
    parser.addini("rwe_baseline", "saved report.json to compare with, relative to the rootdir",
                  default="")
    parser.addini("rwe_max_drop", "baseline gate, e.g. direction_of_effect=0.05", default="")


# -- drift snapshots -------------------------------------------------------------------------

class RweSnapshot:
    """The golden verdict profile of one (model, study): compare with ``==`` or assert_match."""

    def __init__(self, assertion: SnapshotAssertion, root: Path, test_file: Path) -> None:
        self._assertion = assertion
        self._root = root
        self._test_file = test_file
        self._profile: VerdictProfile | None = None
        self._matched: bool | None = None

    @property
    def path(self) -> Path:
        """The golden file of this test."""
        return Path(self._assertion.extension.get_location(
            test_location=self._assertion.test_location, index=0))

    def matches(self, profile: VerdictProfile) -> bool:
        """Compare ``profile`` with the golden file (under --snapshot-update: write it)."""
        if not isinstance(profile, VerdictProfile):
            raise TypeError(f"rwe_snapshot compares a VerdictProfile (the rwe_verdict_profile "
                            f"fixture), not {type(profile).__name__}")
        self._profile = profile
        self._matched = bool(self._assertion == profile)
        return self._matched

    def assert_match(self, profile: VerdictProfile) -> None:
        """Fail the test with a readable account of what drifted."""
        if not self.matches(profile):
            pytest.fail(escape.terminal(redact(self.explain())), pytrace=False)

    def explain(self) -> str:
        """What changed in the last comparison, what the jurors say, and how to accept it."""
        if self._profile is None:
            return "rwe_snapshot: nothing compared yet"
        where = relative(self.path, self._root)
        hint = f"{relative(self._test_file, self._root)} --snapshot-update"
        executions = self._assertion.executions
        result = executions[max(executions)] if executions else None
        recalled = result.recalled_data if result is not None else None
        golden: Mapping[str, Any] | None = None
        if recalled is not None:
            try:
                golden = json.loads(str(recalled))
            except ValueError as exc:
                return (f"golden file {where} is not valid JSON ({exc}); regenerate it with "
                        f"`pytest {hint}`")
        return drift_message(self._profile, golden, where, update_hint=hint)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, VerdictProfile):
            return self.matches(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared by content, like syrupy's

    def __repr__(self) -> str:
        return f"rwe_snapshot({relative(self.path, self._root)})"


@pytest.hookimpl(tryfirst=True)
def pytest_assertrepr_compare(config: pytest.Config, op: str, left: object,
                              right: object) -> list[str] | None:
    """``assert profile == rwe_snapshot`` explains the drift instead of dumping two objects."""
    if op != "==":
        return None
    for side in (left, right):
        if isinstance(side, RweSnapshot):
            return escape.terminal(redact(side.explain())).splitlines()
    return None


@pytest.fixture
def rwe_verdict_profile(rwe_case: RweCase, rwe_study: Study, rwe_summary: Summary,
                        rwe_verdict: Verdict,
                        rwe_thresholds: Mapping[Criterion, float]) -> VerdictProfile:
    """This test's verdict profile: juror scores, badge, cited numbers, claimed outcomes."""
    return verdict_profile(rwe_study, rwe_summary.text, rwe_verdict, rwe_thresholds,
                           model=display_name(rwe_case.arm), repeat=rwe_case.repeat)


@pytest.fixture
def rwe_snapshot(request: pytest.FixtureRequest, snapshot: SnapshotAssertion,
                 rwe_case: RweCase) -> RweSnapshot:
    """The golden verdict profile of this (model, study), a syrupy snapshot under
    ``golden/<test file stem>/<provider>__<model>/<study>.json`` beside the test file."""
    if DriftSnapshotExtension.live is None:
        # only files of studies that left the suite may count as unused (see the extension)
        DriftSnapshotExtension.live = frozenset(
            (slug(path_name(case.arm)), snapshot_stem(case.load.id, case.repeat))
            for case in get_session(request.config).cases())
    return RweSnapshot(snapshot.use_extension(DriftSnapshotExtension),
                       request.config.rootpath, Path(str(request.node.path)))


# -- the baseline gate ----------------------------------------------------------------------

def _text(config: pytest.Config, option: str, ini: str) -> str | None:
    value = config.getoption(option)
    if value:
        return str(value)
    return str(config.getini(ini) or "") or None


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
    try:
        max_drop = parse_max_drop(_text(config, "--rwe-max-drop", "rwe_max_drop"))
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
    try:
        baseline = load_baseline(path.resolve())
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    return BaselineGate(config, relative(path.resolve(), config.rootpath), baseline, max_drop)


def register(config: pytest.Config) -> None:
    """Register the fixtures everywhere and, on the controller or a plain run, the gate."""
    DriftSnapshotExtension.live = None  # per session (pytester runs sessions in one process)
    config.pluginmanager.register(sys.modules[__name__], "rwe-drift")
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(read_gate(config), "rwe-baseline-gate")
