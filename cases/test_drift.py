"""Drift: each (model, study)'s verdict profile against its golden snapshot.

A profile keeps the juror scores, the badge, the numbers the summary cites and the direction
and significance it claims per outcome, not the wording. Golden files live in
``cases/golden/test_drift/<provider>__<model>/<study>.json``; accept an intended change with
``pytest cases/test_drift.py --snapshot-update`` and commit the files (docs/gating.md).
"""

from __future__ import annotations

from pytest_rwe import RweSnapshot, VerdictProfile


def test_drift(rwe_verdict_profile: VerdictProfile, rwe_snapshot: RweSnapshot) -> None:
    # `assert rwe_verdict_profile == rwe_snapshot` works too; assert_match's message is never
    # truncated by pytest, so it always shows every change and every juror's explanation
    rwe_snapshot.assert_match(rwe_verdict_profile)
