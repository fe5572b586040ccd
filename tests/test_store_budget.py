"""One budget per provider endpoint for the processes sharing a store (pytest_rwe.store.budget).

Other processes are real ones (children of this test), so that the registry's liveness
checks see live pids; their registry files are written by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from pytest_rwe.store.budget import Demand, Peer, StoreBudget, Use, budget_for, entry_name
from pytest_rwe.store.lock_files import LockInfo, ProcessId, me, process_start

KEY = "openai@https://api.openai.com/v1"


def peer(pid: int, *uses: tuple[str, Use], start: int | None = 0) -> Peer:
    return Peer(ProcessId(pid, "host", start), "run", 0.0, dict(uses))


def test_alone_the_whole_ceiling() -> None:
    assert budget_for(KEY, 16, ("host", 10, 0), []) == 16
    # a peer without work for this endpoint takes nothing from it
    assert budget_for(KEY, 16, ("host", 10, 0), [peer(11, ("anthropic@x", Use(16, 16, 16)))]) == 16


def test_shares_add_up_to_the_smallest_ceiling() -> None:
    ceilings = {10: 16, 11: 16, 12: 10}  # one run was given --rwe-concurrency 10
    everyone = {pid: peer(pid, (KEY, Use(c, 0, 0))) for pid, c in ceilings.items()}
    shares = [budget_for(KEY, ceilings[pid], ("host", pid, 0),
                         [p for other, p in everyone.items() if other != pid])
              for pid in ceilings]
    assert sorted(shares) == [3, 3, 4] and sum(shares) == 10


def test_a_newcomer_waits_until_the_others_made_room() -> None:
    mine = ("host", 20, 0)
    # the incumbent still may send 16, then has lowered its limit but has 12 in flight
    assert budget_for(KEY, 16, mine, [peer(10, (KEY, Use(16, 16, 16)))]) == 0
    assert budget_for(KEY, 16, mine, [peer(10, (KEY, Use(16, 8, 12)))]) == 4
    assert budget_for(KEY, 16, mine, [peer(10, (KEY, Use(16, 8, 8)))]) == 8


def test_more_processes_than_calls_each_get_one() -> None:
    peers = [peer(pid, (KEY, Use(2, 0, 0))) for pid in (11, 12, 13)]
    assert budget_for(KEY, 2, ("host", 10, 0), peers) == 1


@pytest.fixture
def other(tmp_path: Path) -> Iterator[ProcessId]:
    """Another live process (it only sleeps), whose registry entry the test writes."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        yield ProcessId(child.pid, me().host, process_start(child.pid))
    finally:
        child.kill()
        child.wait()


def register(root: Path, process: ProcessId, uses: dict[str, list[int]],
             beat_age_s: float = 0.0) -> Path:
    folder = root / ".locks" / "procs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / entry_name(process)
    path.write_text(json.dumps({"pid": process.pid, "host": process.host,
                                "start": process.start, "run_id": "other",
                                "beat": time.time() - beat_age_s, "uses": uses}))
    return path


def test_a_beat_publishes_this_process_and_reads_the_others(
        tmp_path: Path, other: ProcessId) -> None:
    register(tmp_path, other, {KEY: [16, 6, 6]})
    budget = StoreBudget(tmp_path, "mine")
    given = budget.beat({KEY: Demand(ceiling=16, wanted=16, in_flight=0)})
    assert given == {KEY: 8}  # its share; the other leaves room for it
    data = json.loads(budget.path.read_text())
    assert data["pid"] == os.getpid() and data["uses"] == {KEY: [16, 8, 0]}
    assert [p.process.pid for p in budget.peers] == [other.pid]
    budget.leave()
    assert not budget.path.exists()


def test_a_new_endpoint_is_claimed_whole_before_the_others_are_read(
        tmp_path: Path, other: ProcessId) -> None:
    budget = StoreBudget(tmp_path, "mine")
    seen: list[dict[str, list[int]]] = []
    original = budget.read_peers

    def read_after_claim() -> list[Peer]:
        seen.append(json.loads(budget.path.read_text())["uses"])
        return original()

    budget.read_peers = read_after_claim  # type: ignore[method-assign]
    budget.beat({KEY: Demand(16, 16, 0)})
    # written before reading: a process starting at the same moment sees the claim
    assert seen == [{KEY: [16, 16, 0]}]
    budget.beat({KEY: Demand(16, 16, 3)})
    assert seen[-1] == {KEY: [16, 16, 0]}  # an endpoint already published is not re-claimed


def test_dead_and_hung_peers_do_not_count_and_are_removed(
        tmp_path: Path, other: ProcessId) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    gone = register(tmp_path, ProcessId(dead.pid, me().host, None), {KEY: [16, 16, 16]})
    hung = register(tmp_path, other, {KEY: [16, 16, 16]}, beat_age_s=60)
    budget = StoreBudget(tmp_path, "mine", stale_after_s=10)
    assert budget.beat({KEY: Demand(16, 16, 0)}) == {KEY: 16}
    assert not gone.exists() and not hung.exists()


def test_a_lock_owner_is_working_gone_or_unknown(tmp_path: Path, other: ProcessId) -> None:
    budget = StoreBudget(tmp_path, "mine", stale_after_s=10)

    def info(process: ProcessId) -> LockInfo:
        return LockInfo(process.pid, process.host, 0.0, "", "", process.start)

    assert budget.owner_state(info(other)) == "unknown"  # alive, not registered
    register(tmp_path, other, {})
    assert budget.owner_state(info(other)) == "working"
    register(tmp_path, other, {}, beat_age_s=60)
    assert budget.owner_state(info(other)) == "gone" and budget.hung(info(other))
    reused = ProcessId(other.pid, other.host, (other.start or 0) + 1)  # its pid, reused
    assert budget.owner_state(info(reused)) == "gone"
    elsewhere = ProcessId(1, "another-host", None)
    register(tmp_path, elsewhere, {}, beat_age_s=60)
    assert budget.owner_state(info(elsewhere)) == "unknown"  # another host's clock


def test_a_registry_that_cannot_be_written_holds_no_call_back(tmp_path: Path) -> None:
    import asyncio

    from pytest_rwe.caller import Caller
    from pytest_rwe.providers.base import (
        GenerationRequest,
        GenerationResult,
        Message,
        Provider,
    )
    from pytest_rwe.providers.registry import register_provider
    from pytest_rwe.providers.retry import RetryPolicy
    from pytest_rwe.store import CallLabel, ResponseStore, StoreWarning

    class Remote(Provider):
        name = "budgettest"

        async def generate(self, request: GenerationRequest) -> GenerationResult:
            return GenerationResult("an answer", 0.0)

    register_provider("budgettest", Remote)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the registry's folder would go")
    caller = Caller(store=ResponseStore(tmp_path / "store", "new"), policy=RetryPolicy(),
                    concurrency=4, budget=StoreBudget(blocked, "run"))

    async def call() -> GenerationResult:
        try:
            return await asyncio.wait_for(caller.call(
                "budgettest/m", GenerationRequest(messages=(Message("user", "hi"),)),
                CallLabel("summary", "s", None, "budgettest/m")), 30)
        finally:
            await caller.aclose()

    with pytest.warns(StoreWarning, match="cannot register this run"):
        assert asyncio.run(call()).text == "an answer"


def test_a_beat_after_leaving_writes_nothing(tmp_path: Path) -> None:
    budget = StoreBudget(tmp_path, "mine")
    budget.beat({KEY: Demand(16, 16, 0)})
    budget.leave()
    # a beat already on its thread when the run closed must not bring the entry back
    assert budget.beat({KEY: Demand(16, 16, 0)}) == {KEY: 16}
    assert not budget.path.exists()


def test_the_heartbeat_does_not_queue_behind_the_loops_other_threads(tmp_path: Path) -> None:
    # On the loop's default executor a beat waited behind the jurors' diagnostics and the SDK
    # imports; on a busy machine its silence passed 10 s and another process took this live
    # run for a hung one and made its calls again.
    import asyncio
    import threading

    from pytest_rwe.caller import Caller
    from pytest_rwe.providers.base import (
        GenerationRequest,
        GenerationResult,
        Message,
        Provider,
    )
    from pytest_rwe.providers.registry import register_provider
    from pytest_rwe.providers.retry import RetryPolicy
    from pytest_rwe.store import CallLabel, ResponseStore

    class Remote(Provider):
        name = "beattest"

        async def generate(self, request: GenerationRequest) -> GenerationResult:
            return GenerationResult("an answer", 0.0)

    register_provider("beattest", Remote)
    budget = StoreBudget(tmp_path / "store", "run")
    caller = Caller(store=ResponseStore(tmp_path / "store", "new"), policy=RetryPolicy(),
                    concurrency=4, budget=budget)
    release = threading.Event()

    async def run() -> GenerationResult:
        loop = asyncio.get_running_loop()
        beaten = asyncio.Event()
        original = budget.beat

        def beat(demand: Mapping[str, Demand]) -> dict[str, int]:
            loop.call_soon_threadsafe(beaten.set)
            return original(demand)

        budget.beat = beat  # type: ignore[method-assign]
        # every thread of the default executor busy, as under a burst of diagnostics
        busy = [loop.run_in_executor(None, release.wait) for _ in range(64)]
        call = asyncio.ensure_future(caller.call(
            "beattest/m", GenerationRequest(messages=(Message("user", "hi"),)),
            CallLabel("summary", "s", None, "beattest/m")))
        try:
            await asyncio.wait_for(beaten.wait(), 30)  # fails (times out) on the old code
        finally:
            release.set()
            await asyncio.gather(*busy)
        try:
            return await asyncio.wait_for(call, 30)
        finally:
            await caller.aclose()

    assert asyncio.run(run()).text == "an answer"
