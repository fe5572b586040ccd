"""Hooks pytest-rwe offers to other plugins and conftest files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest


def pytest_rwe_record(config: pytest.Config, record: Mapping[str, Any]) -> None:
    """Called on the controller once per (model, study, repeat) record as it arrives."""
