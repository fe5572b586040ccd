"""Shared pytest-rwe engines for framework integrations (imports no framework).

A framework metric or model adapter is created many times (one per test, per criterion),
but an :class:`~pytest_rwe.engine.Engine` owns an event-loop thread, provider clients and
the response store. So integrations ask :func:`shared_engine` for the one engine of their
configuration; every engine made that way is closed at interpreter exit (or earlier by
:func:`close_shared_engines`).
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pytest_rwe.caller import Caller
from pytest_rwe.engine import Engine, EngineConfig
from pytest_rwe.prompts import load_prompts
from pytest_rwe.providers.base import GenerationSettings, ProviderConfigError
from pytest_rwe.providers.registry import missing_key, resolve_name
from pytest_rwe.providers.retry import DEFAULT_CONCURRENCY, RetryPolicy
from pytest_rwe.store import RECORD_MODES, RecordMode, ResponseStore

__all__ = [
    "DEFAULT_JURORS",
    "DEFAULT_STORE",
    "SUBJECT",
    "JuryConfig",
    "close_shared_engines",
    "shared_engine",
]

DEFAULT_JURORS: tuple[str, ...] = ("builtin/rules",)
#: the plugin's default store folder, so both share recorded answers
DEFAULT_STORE = Path(".rwe_cache")
#: how stored judge files name the summary's author when it is not a pytest-rwe model
SUBJECT = "deepeval"


@dataclass(frozen=True)
class JuryConfig:
    """Everything that makes one engine: jurors, response store, record mode, limits.

    ``store=None`` calls the models without a response store. A relative store path is
    resolved against the working directory when the config is made.
    """

    jurors: tuple[str, ...] = DEFAULT_JURORS
    store: Path | None = DEFAULT_STORE
    record: RecordMode = "new"
    concurrency: int = DEFAULT_CONCURRENCY
    max_attempts: int = 6
    prompts: Path | None = None  # a folder overriding the packaged prompt templates
    temperature: float | None = 0.0
    check_keys: bool = field(default=True, compare=False)

    def __post_init__(self) -> None:
        jurors = (self.jurors,) if isinstance(self.jurors, str) else tuple(self.jurors)
        if not jurors:
            raise ValueError("jurors is empty; name at least one model, e.g. ('builtin/rules',)")
        for name in jurors:
            resolve_name(name)  # ProviderConfigError teaches the provider/model form
        if self.record not in RECORD_MODES:
            raise ValueError(f"record={self.record!r}; use one of {', '.join(RECORD_MODES)}")
        if self.concurrency < 1:
            raise ValueError(f"concurrency={self.concurrency}; use 1 or more")
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts={self.max_attempts}; use 1 or more")
        object.__setattr__(self, "jurors", jurors)
        if self.store is not None:
            object.__setattr__(self, "store", Path(os.path.abspath(self.store)))
        if self.prompts is not None:
            object.__setattr__(self, "prompts", Path(os.path.abspath(self.prompts)))

    def missing_keys(self, models: Iterable[str] = ()) -> list[str]:
        """A line per juror (or extra model) whose API key variable is unset."""
        if self.record == "none":
            return []  # replay-only needs no key
        problems = []
        for name in (*self.jurors, *models):
            variable = missing_key(name)
            if variable:
                problems.append(f"{name} needs an API key: set {variable}")
        return problems


def build_engine(config: JuryConfig, extra_models: Iterable[str] = ()) -> Engine:
    """A new engine for ``config`` (the caller closes it); keys are checked first."""
    extra_models = tuple(extra_models)  # read twice: the key check and the preload
    if config.check_keys:
        problems = config.missing_keys(extra_models)
        if problems:
            raise ProviderConfigError(
                "pytest-rwe cannot call the models:\n  " + "\n  ".join(problems)
                + "\nSet the key, replay recorded answers with record='none', or judge "
                "offline with jurors=('builtin/rules',)."
            )
    store = None if config.store is None else ResponseStore(config.store, config.record)
    caller = Caller(
        store=store,
        policy=RetryPolicy(max_attempts=config.max_attempts),
        concurrency=config.concurrency,
    )
    settings = GenerationSettings(temperature=config.temperature)
    engine_config = EngineConfig(
        jury=config.jurors,
        prompts=load_prompts(config.prompts),
        summarize_settings=settings,
        judge_settings=settings,
    )
    engine = Engine(engine_config, caller)
    engine.preload(extra_models)
    return engine


_ENGINES: dict[tuple[JuryConfig, tuple[str, ...]], Engine] = {}
_LOCK = threading.Lock()
_ATEXIT_REGISTERED = False


def shared_engine(config: JuryConfig, extra_models: Iterable[str] = ()) -> Engine:
    """The one engine of ``config`` in this process, made on first use, closed at exit."""
    global _ATEXIT_REGISTERED
    key = (config, tuple(extra_models))
    with _LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = build_engine(config, key[1])
            if not _ATEXIT_REGISTERED:
                atexit.register(close_shared_engines)
                _ATEXIT_REGISTERED = True
        return engine


def close_shared_engines() -> None:
    """Close every shared engine (loop threads, provider clients, store locks)."""
    with _LOCK:
        engines = list(_ENGINES.values())
        _ENGINES.clear()
    for engine in engines:
        engine.close()
