"""Shared pytest-rwe engines for framework integrations (imports no framework).

A framework metric or model adapter is created many times (one per test, per criterion),
but an :class:`~pytest_rwe.engine.Engine` owns an event-loop thread, provider clients and
the response store. So integrations ask :func:`shared_engine` for the one engine of their
:class:`~pytest_rwe.settings.EngineSettings` (made by :func:`jury_settings` from their
keyword arguments, and built by :func:`pytest_rwe.engine.build_engine`, as the plugin's and
``rwe calibrate``'s are); every engine made that way is closed at interpreter exit (or
earlier by :func:`close_shared_engines`).
"""

from __future__ import annotations

import atexit
import threading
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pytest_rwe.engine import Engine, build_engine
from pytest_rwe.providers.base import ProviderConfigError
from pytest_rwe.providers.registry import missing_key, resolve_name
from pytest_rwe.settings import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_OFFLINE_JURY,
    DEFAULT_STORE,
    DEFAULT_TEMPERATURE,
    KEYWORDS,
    EngineSettings,
    engine_settings,
)

__all__ = [
    "DEFAULT_JURORS",
    "DEFAULT_STORE",
    "SUBJECT",
    "JuryConfig",
    "close_shared_engines",
    "jury_settings",
    "shared_engine",
]

#: the integrations' default jury (offline); one release under this name
DEFAULT_JURORS = DEFAULT_OFFLINE_JURY
#: how stored judge files name the summary's author when it is not a pytest-rwe model
SUBJECT = "deepeval"


def jury_settings(
    *,
    jurors: Iterable[str] | str = DEFAULT_OFFLINE_JURY,
    store: str | Path | None = DEFAULT_STORE,
    record: str = "new",
    concurrency: int = DEFAULT_CONCURRENCY,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    prompts: str | Path | None = None,
    temperature: float | None = DEFAULT_TEMPERATURE,
) -> EngineSettings:
    """The engine settings of an integration's keyword arguments, validated once: a
    :class:`~pytest_rwe.settings.SettingsError` (a ValueError) names the keyword
    (``concurrency=0 must be 1 or more``), a ProviderConfigError a juror name it cannot
    read. A relative store or prompts path is resolved against the working folder now."""
    settings = engine_settings(spelling=KEYWORDS, jury=jurors, store=store, store_mode=record,
                               concurrency=concurrency, max_attempts=max_attempts,
                               prompts=prompts, temperature=temperature)
    for name in settings.jury:
        resolve_name(name)  # ProviderConfigError teaches the provider/model form
    return settings


def JuryConfig(*args: Any, **keywords: Any) -> EngineSettings:  # the old class name
    """Deprecated, kept one release: :func:`jury_settings` (the same keywords) gives the
    :class:`~pytest_rwe.settings.EngineSettings` that every engine is made from."""
    warnings.warn("JuryConfig(...) is deprecated and returns EngineSettings; call "
                  "pytest_rwe.integrations.jury_engine.jury_settings(...) with the same "
                  "keywords", DeprecationWarning, stacklevel=2)
    # the old dataclass's fields, in order, for positional arguments
    names = ("jurors", "store", "record", "concurrency", "max_attempts", "prompts",
             "temperature")
    keywords.pop("check_keys", None)  # the old field's keys are always checked now
    return jury_settings(**dict(zip(names, args, strict=False)), **keywords)


def missing_keys(settings: EngineSettings, models: Iterable[str] = ()) -> list[str]:
    """A line per juror (or extra model) whose API key variable is unset."""
    if settings.store_mode == "none":
        return []  # replay-only needs no key
    problems = []
    for name in (*settings.jury, *models):
        variable = missing_key(name)
        if variable:
            problems.append(f"{name} needs an API key: set {variable}")
    return problems


def _checked_engine(settings: EngineSettings, extra_models: tuple[str, ...]) -> Engine:
    """A new engine for ``settings`` (the caller closes it); keys are checked first."""
    problems = missing_keys(settings, extra_models)
    if problems:
        raise ProviderConfigError(
            "pytest-rwe cannot call the models:\n  " + "\n  ".join(problems)
            + "\nSet the key, replay recorded answers with record='none', or judge "
            "offline with jurors=('builtin/rules',)."
        )
    return build_engine(settings, preload=extra_models)


_ENGINES: dict[tuple[EngineSettings, tuple[str, ...]], Engine] = {}
_LOCK = threading.Lock()
_ATEXIT_REGISTERED = False


def shared_engine(settings: EngineSettings, extra_models: Iterable[str] = ()) -> Engine:
    """The one engine of ``settings`` in this process, made on first use, closed at exit."""
    global _ATEXIT_REGISTERED
    key = (settings, tuple(extra_models))
    with _LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = _checked_engine(settings, key[1])
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
