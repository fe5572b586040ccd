"""Processes that share a store, end to end: two runs at once, and a calling worker killed.

Each run is a real pytest process (``python -m pytest`` in the pytester folder) talking to
the fake server of this test through the SDKs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_kit import (
    FAKE_KEYS,
    STUDIES,
    VENDOR_JURY,
    VENDOR_MODEL,
    make_suite,
    summarizing_responder,
)

from pytest_rwe.store.lock_files import pid_alive
from pytest_rwe.testing.fake_server import FakeServer

CALLS = len(STUDIES) * 10  # a summary and nine judge calls per study


@pytest.fixture
def server(pytester: pytest.Pytester) -> Iterator[FakeServer]:
    folder = make_suite(pytester, models=VENDOR_MODEL, jury=VENDOR_JURY)
    with FakeServer(latency_s=0.1, responder=summarizing_responder(folder)) as fake:
        yield fake


def start(pytester: pytest.Pytester, server: FakeServer, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, **FAKE_KEYS, **server.env()}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                            cwd=pytester.path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def finish(run: subprocess.Popen[str]) -> str:
    try:
        return run.communicate(timeout=240)[0]
    except subprocess.TimeoutExpired:
        run.kill()
        raise AssertionError("the run hung: " + run.communicate()[0][-3000:]) from None


@pytest.mark.parametrize("workers", [0, 2])
def test_two_runs_on_one_store_of_one_suite_pay_each_call_once(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    args = [*(["-n", str(workers)] if workers else [])]
    runs = [start(pytester, server, *args) for _ in range(2)]
    outputs = [finish(run) for run in runs]
    for run, output in zip(runs, outputs, strict=True):
        assert run.returncode == 0, output[-3000:]
        assert f"{len(STUDIES) * 3} passed" in output
    answered = [r for r in server.requests if r.status == 200]
    assert len(answered) == CALLS and server.duplicate_requests() == []  # paid once


@pytest.mark.parametrize("workers", [0, 2])
def test_two_runs_on_one_store_share_one_budget_per_provider(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    # Different models: no call in common, so both runs call at once. The provider admits 4
    # calls at once and each run may send 4: together they must not send more.
    for vendor in ("openai", "anthropic", "google"):
        server.set_cap(vendor, 4)
    own_summaries(server)  # so the two runs' judge calls differ too
    args = ["--rwe-concurrency", "4", *(["-n", str(workers)] if workers else [])]
    runs = [start(pytester, server, *args, "--rwe-model", model)
            for model in ("openai/gpt-4.1-mini", "openai/gpt-4.1")]
    outputs = [finish(run) for run in runs]
    for run, output in zip(runs, outputs, strict=True):
        assert run.returncode == 0, output[-3000:]
    assert len([r for r in server.requests if r.status == 200]) == 2 * CALLS
    assert server.rate_limited() == 0  # one budget of 4 per provider, not two
    assert max(server.stats()["max_in_flight"].values()) <= 4


KILL_THE_LEADER = """
import os, signal


def pytest_runtest_call(item):
    # the worker that makes the calls dies in its first test, its calls in flight
    # (its replacement is gw2: xdist gives a restarted worker a new id)
    if getattr(item.config, "workerinput", {}).get("workerid") == "gw0":
        os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_calling_worker_costs_its_test_and_nothing_else(
        pytester: pytest.Pytester, server: FakeServer) -> None:
    pytester.makeconftest(KILL_THE_LEADER)
    server.latency_s = 0.3  # the leader is killed with calls in flight
    output = finish(start(pytester, server, "-n", "2"))
    # xdist reports the test that was running on the killed worker; the run goes on
    assert "crashed" in output, output[-3000:]
    assert f"1 failed, {len(STUDIES) * 3 - 1} passed" in output, output[-3000:]
    # the other worker (and the replacement) made the missing calls themselves, and nothing
    # answered before the kill was called again
    assert server.duplicate_requests() == []
    assert len([r for r in server.requests if r.status == 200]) >= CALLS


def own_summaries(server: FakeServer) -> None:
    """Give each model a summary of its own, so no judge request is shared by two models."""
    summaries = server.responder
    assert summaries is not None

    def signed(provider: str, model: str, prompt: str) -> str | None:
        text = summaries(provider, model, prompt)
        return text if text is None or "<<<SUMMARY" in prompt else f"{text} ({model})"

    server.responder = signed


def stored_requests(store: Path) -> set[str]:
    """The distinct requests the store holds: a judge request that two models share (this
    suite's server gives every model one summary) is one call filed under both names."""
    keys = set()
    for path in store.rglob("*.json"):
        if ".locks" not in path.parts:
            keys.add(str(json.loads(path.read_text(encoding="utf-8"))["key"]))
    return keys


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="tells a zombie by /proc")
def test_a_calling_worker_killed_from_outside_is_taken_over_and_the_run_ends(
        pytester: pytest.Pytester, server: FakeServer) -> None:
    # As a user's kill -9 (or the OOM killer) would: the worker dies while its engine makes
    # the run's calls. xdist leaves it a zombie for a while, which kill(pid, 0) calls alive.
    server.latency_s = 0.3
    # One summary for all models would make every judge request one call filed under three
    # names, and a name the killed worker had not filed yet is called again by design (one
    # file per logical call): the bound below is exact only when no request is shared.
    own_summaries(server)
    run = start(pytester, server, "-n", "2")
    notes = pytester.path / "store" / ".locks"
    deadline = time.monotonic() + 120
    leader = None
    while leader is None and time.monotonic() < deadline and run.poll() is None:
        answered = len([r for r in server.requests if r.status == 200])
        for note in notes.glob("run-*.leader") if answered >= 8 else ():
            leader = int(json.loads(note.read_text())["pid"])
        time.sleep(0.05)
    assert leader is not None, "the leader never started calling"
    # The requests it had stored, counted before the kill: once it is dead the worker that takes
    # over starts storing too (a file the leader stores between this count and the kill
    # only makes the bound below looser)
    stored = len(stored_requests(pytester.path / "store"))
    killed_at = time.monotonic()
    os.kill(leader, signal.SIGKILL)
    while pid_alive(leader):  # until dead or a zombie (bounded by the deadline above)
        assert time.monotonic() < deadline
        time.sleep(0.01)
    # the leader's connections (only it called until then; one the taker-over opened already
    # only makes the bound looser), and what had been answered when it died
    leader_connections = server.clients()
    at_death = len(server.requests)
    output = finish(run)  # it ends by itself, within the bound of finish()
    assert run.returncode in (0, 1), output[-3000:]
    summary = output.strip().splitlines()[-1]
    # at most the test the killed worker was running fails; every other test passes
    assert "passed" in summary and "error" not in summary, output[-3000:]
    # The calls it asked for but had not stored (answered, or still in flight, when it died)
    # are made again, and nothing it had stored: of the requests answered before its death,
    # at most those it had not stored are answered again after it.
    lost = len([r for r in server.requests
                if r.status == 200 and r.client in leader_connections]) - stored
    before = {r.body_hash for r in server.requests[:at_death] if r.status == 200 and not r.fault}
    again = {r.body_hash for r in server.requests[at_death:]
             if r.status == 200 and not r.fault and r.body_hash in before}
    assert len(again) <= lost, _timeline(server, again, killed_at, leader_connections, stored)


def _timeline(server: FakeServer, again: set[str], killed_at: float, leader: set[str],
              stored: int) -> str:
    """What a failure of the bound needs to be understood: every answer of each request that
    was answered again, when (seconds after the kill) and on which connection."""
    lines = [f"{len(again)} requests answered before the kill were answered again; "
             f"{stored} were stored before it; answers on the leader's connections: "
             f"{sum(1 for r in server.requests if r.status == 200 and r.client in leader)}"]
    for digest in sorted(again):
        answers = [f"{r.at - killed_at:+.3f} s {r.provider} {r.client}"
                   f"{' (leader)' if r.client in leader else ''}"
                   for r in server.requests if r.body_hash == digest and r.status == 200]
        lines.append(f"{digest[:12]}: " + "; ".join(answers))
    return "\n".join(lines)
