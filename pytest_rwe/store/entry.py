"""One stored call (an *entry*) as JSON: what was asked, what came back; the store's errors.

A record is pretty-printed with sorted keys and a trailing newline so that a pull-request
diff shows exactly which outputs changed. It holds the call (what it is for), the request
(the key and what went into it: provider, model, settings, server, the prompt's hash and
the templates it was rendered from, or the messages themselves for a free-form call) and the
response (text, latency and every token count the vendor reported). Every string in it goes
through :func:`pytest_rwe.redact.redact`, and a value under a secret-sounding name
(``api_key``, ``headers``...) is dropped, so no API key reaches the disk.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pytest_rwe import escape
from pytest_rwe.providers.base import GenerationResult, Usage
from pytest_rwe.redact import key_environ, redact
from pytest_rwe.store.keys import KEY_VERSION, canonical
from pytest_rwe.store.layout import CallKind, CallLabel, check_key, slug

__all__ = [
    "FORMAT_VERSION",
    "CallKind",
    "CallLabel",
    "RequestInfo",
    "StoreMissError",
    "StoreStats",
    "StoreWarning",
    "StoredResponse",
    "check_key",
    "decode_entry",
    "encode_entry",
    "slug",
]

FORMAT_VERSION = 2

_SECRET_NAME = re.compile(r"(?i)(api[_-]?key|authorization|secret|password|headers?$)")


class StoreMissError(Exception):
    """Replay-only mode found no usable stored response for a call."""

    def __init__(self, call: CallLabel, key: str, path: Path, message: str) -> None:
        self.call = call
        self.key = key
        self.path = path
        super().__init__(message)


@dataclass(frozen=True)
class RequestInfo:
    """What went into a call's key, as stored beside its response (and compared on replay).

    ``server`` holds the provider's key extras (its base URL, credentials removed);
    ``prompt`` the reference to the templates the messages were rendered from (see
    :func:`pytest_rwe.prompts.prompt_reference`); without one (a free-form call) the
    ``messages`` themselves are stored.
    """

    provider: str
    model: str
    settings: Mapping[str, Any]
    prompt_sha256: str
    repeat: int = 0
    server: Mapping[str, Any] = field(default_factory=dict)
    prompt: Mapping[str, Any] | None = None
    messages: tuple[Mapping[str, str], ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "key_version": KEY_VERSION,
            "provider": self.provider,
            "model": self.model,
            "settings": canonical(self.settings, "settings"),
            "repeat": self.repeat,
            "prompt_sha256": self.prompt_sha256,
        }
        if self.server:
            record["server"] = canonical(self.server, "server")  # credentials: keys.key_extras
        if self.prompt is not None:
            record["prompt"] = canonical(self.prompt, "prompt")
        elif self.messages is not None:
            record["messages"] = [dict(m) for m in self.messages]
        return record


def usage_dict(usage: Usage) -> dict[str, Any]:
    """Every token count of ``usage`` (all of :class:`Usage`'s fields, None when unknown)."""
    return {f.name: getattr(usage, f.name) for f in dataclasses.fields(usage)}


def encode_entry(
    call: CallLabel,
    key: str,
    result: GenerationResult,
    request: RequestInfo,
    *,
    run_id: str,
    now: datetime | None = None,
) -> str:
    """The file text of one stored response (redacted, sorted keys, trailing newline)."""
    check_key(key)
    recorded_at = now or datetime.now(timezone.utc)
    record = {
        "format": FORMAT_VERSION,
        "call": call.to_dict(),
        "key": key,
        "request": request.to_dict(),
        "response": {
            "text": result.text,
            # 0.1 ms is far below network jitter; fewer digits keep diffs quiet.
            "latency_s": round(result.latency_s, 4),
            **usage_dict(result.usage),
        },
        "run_id": run_id,
        "recorded_at": recorded_at.isoformat(timespec="seconds"),
    }
    return dump_entry(record)


def dump_entry(record: Mapping[str, Any]) -> str:
    """A record as file text: redacted, pretty-printed, sorted keys, trailing newline; C1
    controls and DEL as ``\\u`` escapes (``cat`` of a stored reply cannot drive a terminal),
    every other character as written."""
    # the key variables are read once per record, not once per string
    environ = key_environ()
    return escape.json_text(json.dumps(_redacted(record, environ), indent=2, sort_keys=True,
                                       ensure_ascii=False)) + "\n"


@dataclass(frozen=True)
class StoredResponse:
    """A decoded record: the replayable result, what identifies it, and the raw data."""

    key: str
    run_id: str | None
    result: GenerationResult
    data: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def format(self) -> int:
        value = self.data.get("format", 1)
        return value if isinstance(value, int) else 1

    def request(self) -> Mapping[str, Any]:
        """What went into the stored key (format 2), or the old layout's top-level fields."""
        request = self.data.get("request")
        if isinstance(request, Mapping):
            return request
        return {k: self.data[k] for k in ("provider", "model", "settings", "repeat",
                                          "prompt_sha256") if k in self.data}


def decode_entry(text: str) -> StoredResponse:
    """Parse a stored file (this format or the old one); ValueError (naming the field) when
    it is torn or malformed."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise TypeError("the file is not a JSON object")
        response = _typed(data["response"], dict, "response")
        counts = {
            f.name: _optional_int(response.get(f.name), f"response.{f.name}")
            for f in dataclasses.fields(Usage)
        }
        result = GenerationResult(
            text=_typed(response["text"], str, "response.text"),
            latency_s=float(_typed(response["latency_s"], (int, float), "response.latency_s")),
            usage=Usage(**counts),
            replayed=True,
        )
        run_id = data.get("run_id")
        return StoredResponse(
            key=_typed(data["key"], str, "key"),
            run_id=run_id if isinstance(run_id, str) else None,
            result=result,
            data=data,
        )
    except KeyError as exc:
        raise ValueError(f"field {exc} is missing") from None
    except (TypeError, json.JSONDecodeError) as exc:
        raise ValueError(str(exc)) from None


def _typed(value: Any, kind: type | tuple[type, ...], name: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        raise TypeError(f"field {name} is a {type(value).__name__}")
    return value


def _optional_int(value: Any, name: str) -> int | None:
    return None if value is None else int(_typed(value, int, name))


def _redacted(value: Any, environ: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return redact(value, environ)
    if isinstance(value, dict):
        # A secret under a telling name (api_key, headers...) goes, whatever its shape.
        return {
            k: "<redacted>" if _SECRET_NAME.search(k) else _redacted(v, environ)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_redacted(v, environ) for v in value]
    return value


class StoreWarning(UserWarning):
    """A stored file that could not be used (torn or edited by hand); it counts as a miss."""


@dataclass(frozen=True)
class StoreStats:
    """Counters of one store object (one process)."""

    hits: int = 0  # answered from the store (including entries another worker just wrote)
    misses: int = 0  # calls this process had to make
    writes: int = 0
    waits: int = 0  # reservations that waited for another worker's call
    wait_timeouts: int = 0  # waits that gave up and called anyway
    broken_locks: int = 0  # stale locks removed
    corrupt: int = 0  # unreadable files, treated as misses
