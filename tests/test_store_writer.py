"""The store writes live calls' entries on its writer thread, and hands a result on only once
its entry is on disk (an interrupted run loses no finished result)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from store_testkit import MESSAGES, SETTINGS, SUMMARY, key_of, result, until

from pytest_rwe.providers.base import GenerationResult
from pytest_rwe.store import ResponseStore, prompt_sha256
from pytest_rwe.store import response_store as store_module
from pytest_rwe.store.files import atomic_write_text


class HeldWrite:
    """Stands in for the store's atomic write and holds it until released (bounded)."""

    def __init__(self, store: ResponseStore, key: str) -> None:
        self.store, self.key = store, key
        self.started = threading.Event()
        self.go = threading.Event()
        self.held_lock_while_writing: bool | None = None
        self.thread: str | None = None

    def __call__(self, path: Path, text: str, *, fsync: bool = False) -> None:
        self.thread = threading.current_thread().name
        self.held_lock_while_writing = self.store.locks.held([self.key]) == {self.key}
        self.started.set()
        self.go.wait(timeout=10)  # the old code blocks the loop here, and the test fails
        atomic_write_text(path, text, fsync=fsync)


def _get_or_call(store: ResponseStore, key: str) -> asyncio.Future[GenerationResult]:
    async def call_model() -> GenerationResult:
        return result()

    return asyncio.ensure_future(store.get_or_call(
        SUMMARY, key, call_model, provider="openai", model="gpt-4.1", settings=SETTINGS,
        prompt_sha256=prompt_sha256(MESSAGES)))


def test_the_loop_runs_on_while_an_entry_is_written(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    store = ResponseStore(tmp_path, "new")
    key = key_of()
    held = HeldWrite(store, key)
    monkeypatch.setattr(store_module, "atomic_write_text", held)
    path = store.path_for(SUMMARY, key)

    async def scenario() -> None:
        call = _get_or_call(store, key)
        await until(held.started.is_set, "the write to start")
        # the loop is free: this coroutine runs while the entry is being written, and the
        # result is not handed on before the entry is on disk
        await asyncio.sleep(0)
        assert not call.done() and not path.exists()
        held.go.set()
        got = await call
        assert got.text == result().text
        assert path.exists(), "the result was handed on before its entry was written"

    asyncio.run(scenario())
    assert held.thread is not None and held.thread.startswith("rwe-store-writer")
    # the key stays locked until its entry is written: no other process calls it again
    assert held.held_lock_while_writing is True
    assert store.locks.held([key]) == set()
    assert store.lookup(SUMMARY, key) is not None
    store.close()


def test_a_cancelled_call_still_writes_its_entry_and_frees_the_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = ResponseStore(tmp_path, "new")
    key = key_of()
    held = HeldWrite(store, key)
    monkeypatch.setattr(store_module, "atomic_write_text", held)

    async def scenario() -> None:
        call = _get_or_call(store, key)
        await until(held.started.is_set, "the write to start")
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        # cancelled while its answer was being written: the key stays locked until then
        assert store.locks.held([key]) == {key}
        held.go.set()

    asyncio.run(scenario())
    store.close()  # finishes the queued write
    assert store.locks.held([key]) == set()
    assert store.lookup(SUMMARY, key) is not None


def test_a_failed_write_raises_and_frees_the_key(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    store = ResponseStore(tmp_path, "new")
    key = key_of()

    def full(path: Path, text: str, *, fsync: bool = False) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store_module, "atomic_write_text", full)

    async def scenario() -> None:
        with pytest.raises(OSError, match="No space left"):
            await _get_or_call(store, key)

    asyncio.run(scenario())
    assert store.locks.held([key]) == set()
    assert store.lookup(SUMMARY, key) is None
    store.close()
