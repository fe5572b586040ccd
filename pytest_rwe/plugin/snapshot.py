"""Drift snapshots: :class:`RweSnapshot`, the golden verdict profile of one (model, study),
compared as ``assert rwe_verdict_profile == rwe_snapshot`` (pytest glue over
:mod:`pytest_rwe.drift`; the fixtures are in :mod:`pytest_rwe.plugin.fixtures`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from pytest_rwe import escape
from pytest_rwe.drift.diff import drift_message
from pytest_rwe.drift.profile import VerdictProfile
from pytest_rwe.plugin.options import relative
from pytest_rwe.redact import redact


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


def assertrepr(op: str, left: object, right: object) -> list[str] | None:
    """``assert profile == rwe_snapshot`` explains the drift instead of dumping two objects."""
    if op != "==":
        return None
    for side in (left, right):
        if isinstance(side, RweSnapshot):
            return escape.terminal(redact(side.explain())).splitlines()
    return None
