"""Record locks on store keys across processes: a dead owner holds nothing, a live one is
waited for while it works, a hung one is not (see pytest_rwe.store.locks)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from store_testkit import SUMMARY, key_of, result, save, until

from pytest_rwe.store import ResponseStore, StoreWarning
from pytest_rwe.store.budget import StoreBudget, entry_name
from pytest_rwe.store.lock_files import ProcessId, process_start
from pytest_rwe.store.locks import RangeLocks

# probed where the tests' stores live (tmp_path), never in the checkout
pytestmark = pytest.mark.skipif(not RangeLocks.usable(Path(tempfile.mkdtemp())),
                                reason="no POSIX record locks on this filesystem")

HOLDER = """
import sys, time
from pathlib import Path
from pytest_rwe.store.locks import RangeLocks
locks = RangeLocks(Path(sys.argv[1]))
assert locks.acquire(sys.argv[2], "other-run") is not None
print("locked", flush=True)
sys.stdin.readline()  # hold it until told (or killed)
"""


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock of key_of() in tmp_path's store."""
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path), key_of()],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "locked"
    yield child
    child.kill()
    child.wait()


def register(root: Path, child: subprocess.Popen[str], beat_age_s: float) -> None:
    """Write ``child``'s registry entry with a heartbeat ``beat_age_s`` seconds old."""
    process = ProcessId(child.pid, os.uname().nodename, process_start(child.pid))
    folder = root / ".locks" / "procs"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / entry_name(process)).write_text(json.dumps({
        "pid": process.pid, "host": process.host, "start": process.start, "run_id": "other",
        "beat": time.time() - beat_age_s, "uses": {}}))


def test_another_process_holds_the_key_and_its_pid_is_known(
        tmp_path: Path, holder: subprocess.Popen[str]) -> None:
    locks = RangeLocks(tmp_path)
    assert locks.held([key_of(), key_of(repeat=1)]) == {key_of()}
    assert locks.acquire(key_of(), "run") is None
    owner = locks.holder(key_of())
    assert owner is not None
    if sys.platform == "linux":
        assert owner.pid == holder.pid and owner.start == process_start(holder.pid)


def test_a_killed_owner_holds_no_key_even_before_it_is_reaped(
        tmp_path: Path, holder: subprocess.Popen[str]) -> None:
    holder.kill()
    os.waitid(os.P_PID, holder.pid, os.WEXITED | os.WNOWAIT)  # a zombie, as xdist leaves one
    os.kill(holder.pid, 0)  # which still answers kill(pid, 0)
    store = ResponseStore(tmp_path, "new", wait_timeout=60)
    reservation = store.reserve_blocking(SUMMARY, key_of())
    assert reservation.must_call and reservation.locked and store.stats.waits == 0
    reservation.release()


def test_two_store_objects_of_one_process_exclude_each_other(tmp_path: Path) -> None:
    first, second = ResponseStore(tmp_path, "new"), ResponseStore(tmp_path, "new")
    reservation = first.reserve_blocking(SUMMARY, key_of())
    assert reservation.locked
    assert second.locks.acquire(key_of(), "run") is None
    save(first, SUMMARY, key_of(), result())  # saving releases
    replay = second.reserve_blocking(SUMMARY, key_of())
    assert replay.result is not None and replay.result.replayed


def test_a_working_owner_is_waited_for_past_the_timeout(
        tmp_path: Path, holder: subprocess.Popen[str]) -> None:
    register(tmp_path, holder, beat_age_s=0.0)  # alive and beating
    registry = StoreBudget(tmp_path, "mine")
    store = ResponseStore(tmp_path, "new", wait_timeout=0.05, poll_interval=0.01,
                          registry=registry)
    checks: list[str] = []  # the store's questions about the owner, at most 4 a second
    owner_state = registry.owner_state

    def counted(owner: Any) -> Any:
        checks.append(state := owner_state(owner))
        return state

    registry.owner_state = counted  # type: ignore[method-assign]

    async def scenario() -> None:
        waiting = asyncio.ensure_future(store.reserve(SUMMARY, key_of()))
        # three checks span at least 0.5 s on the store's own clock, ten times the timeout,
        # however slow the machine: still waiting for its owner
        await until(lambda: len(checks) >= 3, "three checks of the owner")
        assert not waiting.done() and set(checks) == {"working"}
        save(ResponseStore(tmp_path, "new"), SUMMARY, key_of(), result())  # it answers
        reservation = await asyncio.wait_for(waiting, 10)
        assert reservation.result is not None and reservation.result.replayed

    asyncio.run(scenario())
    assert store.stats.wait_timeouts == 0 and store.stats.hits == 1


def test_a_hung_owner_is_not_waited_for(tmp_path: Path, holder: subprocess.Popen[str]) -> None:
    register(tmp_path, holder, beat_age_s=60.0)  # alive, but its heartbeat stopped
    store = ResponseStore(tmp_path, "new", wait_timeout=600,
                          registry=StoreBudget(tmp_path, "mine"))
    with pytest.warns(StoreWarning, match=r"has stopped working \(no heartbeat for 10 s\)"):
        reservation = asyncio.run(asyncio.wait_for(store.reserve(SUMMARY, key_of()), 30))
    # it cannot take the lock: it calls anyway
    assert reservation.must_call and not reservation.locked
