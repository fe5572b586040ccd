"""Import the vendor SDKs in the background while pytest starts up.

Importing the three SDKs takes over a second of CPU (anthropic alone about one). Done
lazily on the first live call, it delays every call to that provider; done here, one after
another on a background thread, it overlaps pytest's own start-up. A live call whose SDK is
still being imported simply waits on Python's import lock.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import threading
from collections.abc import Iterable

from pytest_rwe.providers.base import Provider, ProviderConfigError
from pytest_rwe.providers.registry import create_provider, resolve_name

# slowest import first: its provider is the one that would start late
_ORDER = {"anthropic": 0, "google": 1, "openai": 2}
# One SDK import at a time in the whole process, and no live call while one runs: two
# threads importing packages that share dependencies (httpx, which the SDKs also import
# lazily during a call) can see a partially initialized module and fail.
_IMPORT_LOCK = threading.Lock()
_PRELOAD_IDLE = threading.Event()
_PRELOAD_IDLE.set()


def load_sdk(provider: Provider) -> None:
    """Import ``provider``'s SDK once a running preload is over, one import at a time."""
    _PRELOAD_IDLE.wait(timeout=120)
    with _IMPORT_LOCK:
        provider.load_sdk()
        _freeze_imported()


def _freeze_imported() -> None:
    # The SDKs' modules, classes and pydantic schemas (hundreds of thousands of objects)
    # live as long as the process. Moving them to the collector's permanent generation
    # spares every later full collection from walking them, and the one at interpreter
    # exit too, which otherwise takes about half a second (measured with the three SDKs).
    gc.freeze()
    _freeze_at_exit()


_FROZEN_AT_EXIT = threading.Event()


def _freeze_at_exit() -> None:
    """Freeze again when the interpreter exits, once per process.

    What a live run creates after the imports (the SDKs' lazily imported submodules, every
    response, the records, pytest's reports) is walked by the collections of interpreter
    shutdown: in the sweep benchmark's cap-16 run (docs/benchmarks.md), pytest's exit took
    0.40-0.42 s after its last hook, 0.13-0.25 s frozen (loads 3-5). At exit nothing needs
    collecting: the operating system takes the memory back. An atexit handler, not a hook,
    so a pytest run inside a longer-lived process (``pytest.main``, pytester) never stops
    that process's collector.
    """
    if not _FROZEN_AT_EXIT.is_set():
        _FROZEN_AT_EXIT.set()
        atexit.register(gc.freeze)


class SdkPreloader:
    """One daemon thread importing each needed vendor SDK once, in order."""

    def __init__(self, names: Iterable[str]) -> None:
        prefixes: dict[str, str] = {}
        for name in names:
            try:
                resolved = resolve_name(name)
            except ProviderConfigError:
                continue  # reported where models are checked
            prefixes.setdefault(resolved.provider, name)
        self._names = sorted(prefixes.values(),
                             key=lambda n: _ORDER.get(resolve_name(n).provider, 9))
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._names and self._thread is None:
            _PRELOAD_IDLE.clear()
            self._thread = threading.Thread(target=self._run, name="rwe-sdk-preload",
                                            daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            # Frozen before each import as well as after: the full collections an import
            # triggers then walk only what it has created so far, not pytest's and the
            # previous SDKs' objects again (0.4 s of CPU in the sweep's run, against 0.1).
            _freeze_imported()
            for name in self._names:
                # a broken SDK is reported properly by the live call that needs it
                with _IMPORT_LOCK, contextlib.suppress(Exception):
                    create_provider(name).load_sdk()
                    _freeze_imported()
            _freeze_imported()
        finally:
            _PRELOAD_IDLE.set()

    def join(self, timeout: float = 30.0) -> None:
        """Wait for the imports (so the interpreter never exits in the middle of one)."""
        if self._thread is not None:
            self._thread.join(timeout)
