"""The progress line: latest counters per process, summed, shown at most every interval."""

from __future__ import annotations

from pytest_rwe.report.progress import Progress


def test_sums_the_latest_snapshot_of_each_process() -> None:
    progress = Progress(interval_s=10.0, started_at=100.0)
    progress.update({"process": "gw0", "total": 138, "calls": 10, "store_hits": 1,
                     "retries": 0, "rate_limited": 0, "errors": 0})
    progress.update({"process": "gw0", "total": 138, "calls": 25, "store_hits": 3,
                     "retries": 2, "rate_limited": 2, "errors": 0})  # replaces gw0's first
    progress.update({"process": "gw1", "total": 138, "calls": 20, "store_hits": 0,
                     "retries": 0, "rate_limited": 0, "errors": 1})
    assert progress.line(12) == (
        "rwe: 12/138 evaluations done; 45 calls, 3 store hits, 2 retries (2 rate-limited), "
        "1 errors")


def test_shown_only_on_long_runs_and_then_every_interval() -> None:
    progress = Progress(interval_s=10.0, started_at=100.0)
    assert not progress.due(105.0)  # a short run never shows it
    assert progress.due(110.5)
    assert not progress.due(115.0)
    assert progress.due(121.0)
