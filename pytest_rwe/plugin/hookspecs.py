"""Hooks pytest-rwe offers to other plugins and conftest files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest


def pytest_rwe_record(config: pytest.Config, record: Mapping[str, Any]) -> None:
    """Called on the controller once per (model, study, repeat) record as it arrives."""


def pytest_rwe_report_sections(config: pytest.Config,
                               report: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Return top-level sections ``{key: JSON-able value}`` to add to the session report.

    Called once, on the controller or a plain run, after the built-in sections are assembled
    (``report`` is read-only) and before anything is written: report.json, report.md and
    report.html are written once, with every contributor's sections in them. A key the report
    already has is a usage error.
    """


def pytest_rwe_report_gate(config: pytest.Config, report: Mapping[str, Any],
                           records: Sequence[Mapping[str, Any]],
                           no_study: str | None) -> tuple[str, Mapping[str, Any], bool] | None:
    """Judge the assembled report: return ``(key, section, passed)`` or None (nothing to
    judge). The section is added under ``key`` before the report is written (once); a gate
    that did not pass fails the session. ``records`` are the run's (model, study, repeat)
    records, ``no_study`` why no study was found, if none was.
    """
