"""The SDK preloader: one background thread importing each needed vendor SDK once, slowest
first; a live call's own import waits for it, and a broken SDK never stops the others."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from pytest_rwe.providers import preload
from pytest_rwe.providers.base import Provider
from pytest_rwe.providers.registry import create_provider


class _Recorder:
    """Stands in for create_provider: records which provider's SDK is loaded, in order."""

    def __init__(self) -> None:
        self.loaded: list[str] = []
        self.broken: set[str] = set()
        self.gate: dict[str, threading.Event] = {}
        self.started = threading.Event()

    def __call__(self, name: str) -> Provider:
        provider = create_provider(name)
        vendor = name.partition("/")[0]
        recorder = self

        def load_sdk() -> None:
            recorder.started.set()
            gate = recorder.gate.get(vendor)
            if gate is not None:
                assert gate.wait(30)
            if vendor in recorder.broken:
                raise ImportError(f"{vendor} SDK is broken")
            recorder.loaded.append(vendor)

        provider.load_sdk = load_sdk  # type: ignore[method-assign]
        return provider


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Recorder]:
    fake = _Recorder()
    monkeypatch.setattr(preload, "create_provider", fake)
    yield fake
    assert preload._PRELOAD_IDLE.is_set()  # no test leaves later imports waiting


def test_each_vendor_once_slowest_first(recorder: _Recorder) -> None:
    loader = preload.SdkPreloader([
        "openai/gpt-4.1-mini", "google/gemini-2.5-flash", "openai/o4-mini",
        "anthropic/claude-sonnet-4-20250514", "builtin/rules", "nosuchvendor/x",
    ])
    loader.start()
    loader.join()
    assert recorder.loaded == ["anthropic", "google", "openai", "builtin"]


def test_a_broken_sdk_does_not_stop_the_others(recorder: _Recorder) -> None:
    recorder.broken.add("anthropic")
    loader = preload.SdkPreloader(["anthropic/claude-sonnet-4-20250514", "openai/o4-mini"])
    loader.start()
    loader.join()
    # the broken import is left for the live call that needs it, which reports it
    assert recorder.loaded == ["openai"]


def test_a_live_calls_import_waits_for_the_running_preload(recorder: _Recorder) -> None:
    recorder.gate["anthropic"] = release = threading.Event()
    loader = preload.SdkPreloader(["anthropic/claude-sonnet-4-20250514"])
    loader.start()
    assert recorder.started.wait(30)
    own = recorder("openai/o4-mini")
    done = threading.Event()

    def live_call_import() -> None:
        preload.load_sdk(own)
        done.set()

    threading.Thread(target=live_call_import, daemon=True).start()
    # ordered by the preload's lock, not by this wait: a wrong order fails here
    assert not done.wait(0.3)
    release.set()
    assert done.wait(30)
    loader.join()
    assert recorder.loaded == ["anthropic", "openai"]


def test_nothing_to_preload_starts_no_thread() -> None:
    loader = preload.SdkPreloader(["nosuchvendor/x"])
    loader.start()
    assert loader._thread is None and preload._PRELOAD_IDLE.is_set()


def test_a_process_that_imported_an_sdk_exits_without_walking_its_heap() -> None:
    # The check runs in an atexit handler registered first, so it runs after the plugin's
    # (atexit runs handlers last registered first); it sees the freeze of the exit, which is
    # more than the freeze of the import left.
    script = """
import atexit, gc
from pytest_rwe.providers import preload

counts = {}
atexit.register(lambda: print("at exit", gc.get_freeze_count() > counts["after import"]))
preload._freeze_imported()
gc.unfreeze()  # what the run creates from here on is not frozen by the import's freeze
junk = [[] for _ in range(1000)]
counts["after import"] = gc.get_freeze_count()
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.strip() == "at exit True", done.stdout + done.stderr
