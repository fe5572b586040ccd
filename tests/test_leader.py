"""The run leader's note: who makes an xdist run's calls, and when followers stop waiting."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_rwe.store.leader import RunLeader
from pytest_rwe.store.lock_files import LockInfo, process_start


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def follower(root: Path, clock: Clock, **kwargs: float) -> RunLeader:
    return RunLeader(root, "run-1", clock=clock, recheck_s=0.0, **kwargs)


def test_a_working_leader_is_waited_for_and_a_done_one_is_not(tmp_path: Path) -> None:
    clock = Clock()
    leader, reader = RunLeader(tmp_path, "run-1"), follower(tmp_path, clock)
    leader.announce("working")
    assert reader.is_working()
    leader.announce("done")
    assert not reader.is_working()
    assert json.loads(leader.path.read_text())["state"] == "done"
    leader.remove()
    assert not leader.path.exists()
    leader.remove()  # twice is fine (the controller may find it gone)


def test_a_leader_that_died_is_not_waited_for(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    path = RunLeader(tmp_path, "run-1").path
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"state": "working", "pid": int(dead.stdout),
                                "host": socket.gethostname()}))
    assert not follower(tmp_path, Clock()).is_working()


def test_a_leader_on_another_host_cannot_be_checked_and_is_trusted(tmp_path: Path) -> None:
    path = RunLeader(tmp_path, "run-1").path
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"state": "working", "pid": 1, "host": "elsewhere.invalid"}))
    assert follower(tmp_path, Clock()).is_working()


def test_a_leader_that_has_not_started_is_waited_for_only_a_while(tmp_path: Path) -> None:
    clock = Clock()
    reader = follower(tmp_path, clock, start_grace_s=10.0)
    clock.now = 100.0
    assert reader.is_working()  # the grace starts with the first question
    clock.now = 109.0
    assert reader.is_working()
    clock.now = 110.5
    assert not reader.is_working()


def test_an_unreadable_note_is_not_waited_on(tmp_path: Path) -> None:
    path = RunLeader(tmp_path, "run-1").path
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert not follower(tmp_path, Clock()).is_working()


def test_a_followers_view_is_cached_between_rechecks(tmp_path: Path) -> None:
    clock = Clock()
    leader = RunLeader(tmp_path, "run-1")
    reader = RunLeader(tmp_path, "run-1", clock=clock, recheck_s=0.5)
    leader.announce("working")
    assert reader.is_working()
    leader.announce("done")
    clock.now = 0.4
    assert reader.is_working()  # not read again yet
    clock.now = 0.5
    assert not reader.is_working()


def test_failures_are_noted_redacted_and_removed_with_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdefghij")
    leader, other = RunLeader(tmp_path, "run-1"), RunLeader(tmp_path, "run-2")
    leader.announce("working")
    other.announce("working")
    assert leader.failure("k1") is None
    leader.note_failure("k1", "openai/o4-mini: 401 for key sk-test-0123456789abcdefghij")
    assert leader.failure("k1") == "openai/o4-mini: 401 for key <OPENAI_API_KEY redacted>"
    assert other.failure("k1") is None
    leader.remove()
    assert leader.failure("k1") is None and not leader.path.exists()
    assert other.path.exists()  # another run's notes are left alone


def test_a_leader_that_cannot_say_done_removes_its_note(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    leader = RunLeader(tmp_path, "run-1")
    leader.announce("working")
    clock = Clock()
    reader = follower(tmp_path, clock, start_grace_s=10.0)
    assert reader.is_working()

    def disk_full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("pytest_rwe.store.leader.atomic_write_text", disk_full)
    leader.note_failure("k1", "openai/o4-mini: 500")  # not noted, and no error either
    leader.finish()
    assert not leader.path.exists()
    clock.now = 1.0
    assert reader.is_working()  # gone: the grace starts now
    clock.now = 11.5  # then followers stop waiting and call themselves
    assert not reader.is_working()


def test_each_run_has_its_own_note(tmp_path: Path) -> None:
    RunLeader(tmp_path, "run-1").announce("done")
    RunLeader(tmp_path, "run-2").announce("working")
    assert not follower(tmp_path, Clock()).is_working()


def test_the_first_worker_to_take_the_lead_leads(tmp_path: Path) -> None:
    first, second = RunLeader(tmp_path, "run-1"), RunLeader(tmp_path, "run-1")
    assert first.take_lead()
    assert not second.take_lead()
    assert follower(tmp_path, Clock()).is_working()


def test_a_killed_leader_not_yet_reaped_is_not_waited_for(tmp_path: Path) -> None:
    # xdist leaves a killed worker a zombie until it reaps it: kill(pid, 0) still succeeds
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        path = RunLeader(tmp_path, "run-1").path
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"state": "working", "pid": child.pid,
                                    "host": socket.gethostname(),
                                    "start": process_start(child.pid)}))
        assert follower(tmp_path, Clock()).is_working()
        child.kill()
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # dead, left unreaped
        os.kill(child.pid, 0)
        assert not follower(tmp_path, Clock()).is_working()
    finally:
        child.wait()


def test_a_note_whose_pid_now_belongs_to_another_process_is_not_waited_for(
        tmp_path: Path) -> None:
    path = RunLeader(tmp_path, "run-1").path
    path.parent.mkdir(parents=True)
    mine = process_start()
    path.write_text(json.dumps({"state": "working", "pid": os.getpid(),
                                "host": socket.gethostname(),
                                "start": None if mine is None else mine + 1}))
    assert follower(tmp_path, Clock()).is_working() is (mine is None)


def test_a_live_leader_whose_heartbeat_stopped_is_not_waited_for(tmp_path: Path) -> None:
    leader = RunLeader(tmp_path, "run-1")
    leader.announce("working")
    hung: list[LockInfo] = []

    def stopped(owner: LockInfo) -> bool:
        hung.append(owner)
        return True

    reader = RunLeader(tmp_path, "run-1", clock=Clock(), recheck_s=0.0, hung=stopped)
    assert not reader.is_working()
    assert hung and hung[0].pid == os.getpid() and hung[0].start == process_start()


def test_a_follower_tells_a_lost_leader_from_one_that_is_done(tmp_path: Path) -> None:
    clock = Clock()
    leader, reader = RunLeader(tmp_path, "run-1"), follower(tmp_path, clock, start_grace_s=10)
    clock.now = 1.0
    assert not reader.lost()  # not started yet: within the grace
    clock.now = 12.0
    assert reader.lost()  # never came
    leader.announce("working")
    assert not reader.lost() and reader.is_working()
    leader.announce("done")
    assert not reader.lost() and not reader.is_working()  # done: nothing to take over
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    leader.path.write_text(json.dumps({"state": "working", "pid": int(dead.stdout),
                                       "host": socket.gethostname()}))
    assert reader.lost()  # died while working: its work is to be taken over
