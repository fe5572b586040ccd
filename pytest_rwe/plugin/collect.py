"""The controller's (or a plain run's) collector of per-test records and progress.

Light: its module imports only the stdlib, pytest, the pure progress counters and the record
names, because it is registered in every run that could receive records.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from pytest_rwe.plugin.records import PROGRESS_PROPERTY, RECORD_PROPERTY, record_key
from pytest_rwe.report.progress import Progress


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
