"""The response store across processes: single flight, stale locks, concurrent writers."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from store_testkit import MESSAGES, SETTINGS, SUMMARY, key_of, result, save, until

from pytest_rwe.providers.base import GenerationResult, Usage
from pytest_rwe.store import (
    CallLabel,
    DeferredCallFailed,
    ResponseStore,
    StoreWarning,
    prompt_sha256,
)
from pytest_rwe.store.lock_files import process_start
from pytest_rwe.store.locks import FileLocks, RangeLocks

# -- single flight ----------------------------------------------------------------------------


def test_waiter_replays_what_the_owner_saves(tmp_path: Path) -> None:
    owner = ResponseStore(tmp_path, "new", poll_interval=0.01)
    waiter = ResponseStore(tmp_path, "new", poll_interval=0.01)
    key = key_of()

    async def scenario() -> GenerationResult | None:
        reservation = await owner.reserve(SUMMARY, key)
        assert reservation.must_call
        waiting = asyncio.create_task(waiter.reserve(SUMMARY, key))
        await until(lambda: waiter.waiting() == 1, "the waiter to wait for the owner's lock")
        assert not waiting.done()
        save(owner, SUMMARY, key, result())
        return (await waiting).result

    got = asyncio.run(scenario())
    assert got is not None and got.replayed
    assert waiter.stats.waits == 1 and waiter.stats.hits == 1


def test_a_failed_call_is_not_stored_and_frees_the_key(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new")
    key = key_of()

    async def fails() -> GenerationResult:
        raise RuntimeError("HTTP 500 from the provider")

    with pytest.raises(RuntimeError, match="500"):
        asyncio.run(
            store.get_or_call(
                SUMMARY,
                key,
                fails,
                provider="openai",
                model="gpt-4.1",
                settings=SETTINGS,
                prompt_sha256="0" * 64,
            )
        )
    assert store.locks.held([key]) == set()
    assert store.lookup(SUMMARY, key) is None
    assert store.reserve_blocking(SUMMARY, key).must_call


def _write_lock(path: Path, pid: int, created: float, host: str | None = None,
                start: int | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    info = {"pid": pid, "host": host or socket.gethostname(), "created": created, "start": start}
    path.write_text(json.dumps({**info, "token": "t", "run_id": "r"}))


def _zombie() -> subprocess.Popen[bytes]:
    """A child killed but not reaped: kill(pid, 0) still finds it (as xdist leaves a worker)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    child.kill()
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # exited, left unreaped
    os.kill(child.pid, 0)  # the pid still answers
    return child


def test_stale_lock_files_are_broken(tmp_path: Path) -> None:
    # lock files: the fallback where record locks do not work
    store = ResponseStore(tmp_path, "new", stale_lock_after=60, wait_timeout=5,
                          locks=FileLocks(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    zombie = _zombie()
    mine = process_start()
    cases = [
        (dead.pid, 0.0, None, None),  # owner died
        (zombie.pid, 0.0, None, None),  # owner killed, not yet reaped
        (os.getpid(), 0.0, None, (mine or 0) + 1),  # the pid now belongs to another process
        (os.getpid(), 3600.0, None, mine),  # alive but far older than the timeout
        (os.getpid(), 3600.0, "another-host", None),  # cannot see the owner: the age decides
    ]
    try:
        for i, (pid, age, host, start) in enumerate(cases):
            key = key_of(repeat=i)
            _write_lock(tmp_path / ".locks" / f"{key}.lock", pid, time.time() - age, host, start)
            reservation = store.reserve_blocking(SUMMARY, key)
            assert reservation.must_call and reservation.locked, cases[i]
            reservation.release()
    finally:
        zombie.wait()
    assert store.stats.waits == 0  # each was broken at the first attempt, not waited out
    # a lock file left empty by a process killed right after creating it
    key = key_of(repeat=9)
    torn = tmp_path / ".locks" / f"{key}.lock"
    torn.write_text("")
    os.utime(torn, (time.time() - 60, time.time() - 60))
    assert store.reserve_blocking(SUMMARY, key).locked
    assert store.stats.broken_locks == len(cases) + 1


def test_a_live_lock_that_cannot_be_checked_is_waited_for_then_the_waiter_proceeds(
        tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new", wait_timeout=0.3, poll_interval=0.02,
                          locks=FileLocks(tmp_path))
    key = key_of()
    # another host's fresh lock: its owner's liveness cannot be read from here
    _write_lock(tmp_path / ".locks" / f"{key}.lock", 1, time.time(), "another-host")
    with pytest.warns(StoreWarning, match=r"waited 0.3 s for process 1 on another-host"):
        reservation = asyncio.run(store.reserve(SUMMARY, key))
    assert reservation.must_call and not reservation.locked
    assert store.stats.wait_timeouts == 1 and store.stats.waits == 1
    # the other owner's lock is left alone
    save(store, SUMMARY, key, result())
    assert (tmp_path / ".locks" / f"{key}.lock").exists()


class Leader:
    """A stand-in for the run leader as a follower's store sees it."""

    def __init__(self, working: bool = True) -> None:
        self.working = working
        self.failures: dict[str, str] = {}
        self.asked = 0

    def is_working(self) -> bool:
        self.asked += 1
        return self.working

    def failure(self, key: str) -> str | None:
        return self.failures.get(key)


def test_a_deferred_claim_waits_for_the_leaders_answer_past_the_wait_timeout(
        tmp_path: Path) -> None:
    # the leader may reach this key long after the lock-wait timeout: no limit while it works
    leader = ResponseStore(tmp_path, "new")
    follower = ResponseStore(tmp_path, "new", wait_timeout=0.05, poll_interval=0.01)
    key = key_of()

    async def scenario() -> GenerationResult | None:
        working = Leader()
        waiting = asyncio.create_task(follower.reserve(SUMMARY, key, defer=working))
        # ten polls of the working leader, 0.01 s apart: past the 0.05 s wait timeout on the
        # store's own clock, whatever the machine's speed
        await until(lambda: working.asked >= 10, "ten polls of the leader")
        assert not waiting.done()
        assert follower.locks.held([key]) == set()  # the follower never locks
        save(leader, SUMMARY, key, result())
        return (await asyncio.wait_for(waiting, 2)).result

    got = asyncio.run(scenario())
    assert got is not None and got.replayed
    assert follower.stats.hits == 1 and follower.stats.waits == 1
    assert follower.stats.wait_timeouts == 0


def test_once_the_leader_stops_working_the_follower_calls_itself(tmp_path: Path) -> None:
    follower = ResponseStore(tmp_path, "new", poll_interval=0.01)
    leader = Leader()
    key = key_of()

    async def scenario() -> bool:
        waiting = asyncio.create_task(follower.reserve(SUMMARY, key, defer=leader))
        await until(lambda: leader.asked >= 1, "the follower asking the leader")
        assert not waiting.done()
        leader.working = False  # done, or died, without this answer
        reservation = await asyncio.wait_for(waiting, 2)
        with reservation:
            return reservation.must_call and reservation.locked

    assert asyncio.run(scenario())


def test_a_stored_answer_is_used_without_asking_the_leader(tmp_path: Path) -> None:
    save(ResponseStore(tmp_path, "new"), SUMMARY, key_of(), result())
    leader = Leader()
    store = ResponseStore(tmp_path, "new")
    reservation = asyncio.run(store.reserve(SUMMARY, key_of(), defer=leader))
    assert reservation.result is not None and not reservation.must_call
    assert leader.asked == 0


def test_a_call_the_leader_gave_up_on_fails_the_follower_with_its_message(
        tmp_path: Path) -> None:
    follower = ResponseStore(tmp_path, "new", poll_interval=0.01)
    leader = Leader()
    key = key_of()

    async def scenario() -> None:
        waiting = asyncio.create_task(follower.reserve(SUMMARY, key, defer=leader))
        await until(lambda: leader.asked >= 1, "the follower asking the leader")
        leader.failures[key] = "openai/gpt-4.1: the prompt is too long"
        await asyncio.wait_for(waiting, 2)

    with pytest.raises(DeferredCallFailed, match="the prompt is too long"):
        asyncio.run(scenario())
    assert follower.locks.held([key]) == set()  # and never took the key


def _claiming_worker(root: str, mode: str, calls_file: str, barrier: Any, out: Any) -> None:
    store = ResponseStore(Path(root), mode, run_id="shared-run", poll_interval=0.01)  # type: ignore[arg-type]
    key = key_of()

    async def call_model() -> GenerationResult:
        with open(calls_file, "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
        # simulated latency, not an ordering: whichever process reservations first calls, the
        # other waits or replays, and the assertions hold for any interleaving
        await asyncio.sleep(0.3)
        return GenerationResult(f"answer from {os.getpid()}", 0.3, Usage(10, 5))

    barrier.wait()
    got = asyncio.run(
        store.get_or_call(
            SUMMARY,
            key,
            call_model,
            provider="openai",
            model="gpt-4.1",
            settings=SETTINGS,
            prompt_sha256=prompt_sha256(MESSAGES),
        )
    )
    out.put((got.text, got.replayed))


@pytest.mark.parametrize("mode", ["new", "all"])
def test_two_processes_claiming_one_key_call_once(tmp_path: Path, mode: str) -> None:
    if mode == "all":  # an entry from an earlier run must be called again, once
        save(ResponseStore(tmp_path, "new", run_id="earlier"), SUMMARY, key_of(), result())
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(2), ctx.Queue()
    calls = tmp_path / "calls.txt"
    args = (str(tmp_path), mode, str(calls), barrier, out)
    procs = [ctx.Process(target=_claiming_worker, args=args) for _ in range(2)]
    for proc in procs:
        proc.start()
    results = [out.get(timeout=30) for _ in procs]
    for proc in procs:
        proc.join(timeout=30)
        assert proc.exitcode == 0
    assert len(calls.read_text().splitlines()) == 1
    texts = {text for text, _ in results}
    assert len(texts) == 1
    assert sorted(replayed for _, replayed in results) == [False, True]
    stored = ResponseStore(tmp_path, "new").lookup(SUMMARY, key_of())
    assert stored is not None and stored.text == texts.pop()
    assert not list((tmp_path / ".locks").glob("*.lock"))
    assert RangeLocks(tmp_path).held([key_of()]) == set()  # and no key is still locked


def _sweeping_worker(root: str, calls_file: str, barrier: Any, seed: int) -> None:
    store = ResponseStore(Path(root), "new", run_id="shared-run", poll_interval=0.01)
    repeats = list(range(20))
    random.Random(seed).shuffle(repeats)

    async def one(repeat: int) -> None:
        call = CallLabel("summary", "demo_cohort", None, "openai/gpt-4.1", repeat=repeat)

        async def call_model() -> GenerationResult:
            with open(calls_file, "a", encoding="utf-8") as handle:
                handle.write(f"{repeat}\n")
            await asyncio.sleep(0.05)  # simulated latency; any interleaving is valid
            return GenerationResult(f"sample {repeat}", 0.05)

        got = await store.get_or_call(
            call,
            key_of(repeat=repeat),
            call_model,
            provider="openai",
            model="gpt-4.1",
            settings=SETTINGS,
            prompt_sha256=prompt_sha256(MESSAGES),
        )
        assert got.text == f"sample {repeat}"

    async def all_of_them() -> None:
        await asyncio.gather(*(one(r) for r in repeats))

    barrier.wait()
    asyncio.run(all_of_them())


def test_four_processes_sharing_twenty_keys_call_each_once(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(4)
    calls = tmp_path / "calls.txt"
    procs = [
        ctx.Process(target=_sweeping_worker, args=(str(tmp_path), str(calls), barrier, seed))
        for seed in range(4)
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    assert sorted(int(line) for line in calls.read_text().splitlines()) == list(range(20))
    entries = sorted((tmp_path / "openai__gpt-4.1" / "demo_cohort").iterdir())
    assert len(entries) == 20  # no temp file left behind
    for entry in entries:
        json.loads(entry.read_text())


def test_stats_are_thread_safe(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path)
    key = key_of()
    save(store, SUMMARY, key, result())

    def look() -> None:
        for _ in range(100):
            store.lookup(SUMMARY, key)

    threads = [threading.Thread(target=look) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.stats.hits == 800
