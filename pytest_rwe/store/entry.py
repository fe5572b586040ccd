"""Stored-response files: call labels, file names, and the JSON record (encode, decode, redact).

A record is pretty-printed with sorted keys and a trailing newline so that a pull-request
diff shows exactly which outputs changed. Every string in it goes through
:func:`pytest_rwe.redact.redact`, and a value under a secret-sounding name (``api_key``,
``headers``...) is dropped, so no API key reaches the disk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pytest_rwe.providers.base import GenerationResult, Usage
from pytest_rwe.redact import key_environ, path_name, redact
from pytest_rwe.store.keys import canonical

CallKind = Literal["summary", "judge", "repair"]
FORMAT_VERSION = 1

_KEY_RE = re.compile(r"^[0-9a-f]{64}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SECRET_NAME = re.compile(r"(?i)(api[_-]?key|authorization|secret|password|headers?$)")


def slug(name: str) -> str:
    """``name`` as one safe path component: "/" becomes "__", other odd characters "-"."""
    text = _UNSAFE.sub("-", name.replace("/", "__")).strip(".-")
    return text or "_"


def check_key(key: str) -> None:
    """Raise ValueError unless ``key`` looks like a store key (it becomes part of a path)."""
    if not isinstance(key, str) or not _KEY_RE.match(key):
        raise ValueError(f"store key {key!r} is not 64 lowercase hex digits; use store_key()")


class StoreMissError(Exception):
    """Replay-only mode found no usable stored response for a call."""

    def __init__(self, call: CallLabel, key: str, path: Path, message: str) -> None:
        self.call = call
        self.key = key
        self.path = path
        super().__init__(message)


@dataclass(frozen=True)
class CallLabel:
    """What a call is for; it names the stored file but is not part of the key.

    ``model`` is the called model's display name (``provider/model``); ``repeat`` is the
    sample index (also in the key); ``subject`` optionally names the model whose summary a
    judge or repair call is about (in messages and the stored label, not in the path);
    ``variant`` the prompt variant the call was made under (None: the run's only prompts;
    in messages and the stored label: the prompt itself, in the key, tells variants apart).
    """

    kind: CallKind
    study_id: str
    criterion: str | None
    model: str
    repeat: int = 0
    subject: str | None = None
    variant: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("summary", "judge", "repair"):
            raise ValueError(f"CallLabel.kind is {self.kind!r}; use summary, judge or repair")
        if self.kind == "summary" and self.criterion is not None:
            raise ValueError("CallLabel.criterion must be None for a summary call")
        if self.kind != "summary" and not self.criterion:
            raise ValueError(f"CallLabel.criterion is required for a {self.kind} call")
        if isinstance(self.repeat, bool) or not isinstance(self.repeat, int) or self.repeat < 0:
            raise ValueError(f"CallLabel.repeat is {self.repeat!r}; use an integer >= 0")

    def describe(self) -> str:
        """The call in words, for messages: "summary", "judge call 'completeness'", ..."""
        if self.kind == "summary":
            text = "summary"
        elif self.kind == "judge":
            text = f"judge call '{self.criterion}'"
        else:
            text = f"repair of the judge reply '{self.criterion}'"
        if self.subject:
            text += f" on the summary by {self.subject}"
        if self.repeat:
            text += f" (repeat {self.repeat})"
        if self.variant:
            text += f" (prompt variant {self.variant})"
        return text

    def stem(self) -> str:
        """The file name without ``-<key12>.json``; the repeat index only where it matters."""
        if self.kind == "summary":
            return f"summary-r{self.repeat}"
        # The subject is left out of the path: two models that wrote the same summary make
        # the same judge request (one key), and a replay must find it whichever asks first.
        parts = [self.kind, slug(self.criterion or "")]
        if self.repeat:
            parts.append(f"r{self.repeat}")
        return "-".join(parts)

    def relative_path(self, key: str) -> Path:
        """``<study>/<provider>__<model>/<stem>-<key12>.json`` (a model@URL by its server's
        host and port only: a committed store never holds the URL's credentials)."""
        check_key(key)
        return Path(slug(self.study_id), slug(path_name(self.model)),
                    f"{self.stem()}-{key[:12]}.json")

    def file_pattern(self) -> re.Pattern[str]:
        """Matches the file names of this call under any key."""
        return re.compile(rf"^{re.escape(self.stem())}-[0-9a-f]{{12}}\.json$")

    def to_record(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "study": self.study_id,
            "criterion": self.criterion,
            "model": self.model,
            "subject": self.subject,
            # only in a variant run: the stored files of other runs stay byte for byte
            **({"variant": self.variant} if self.variant else {}),
        }


def miss_message(call: CallLabel, path: Path, root: Path) -> str:
    """Why replay-only mode has nothing for ``call`` at ``path``, and how to record it."""
    head = (
        f"no recorded response for the {call.describe()} of model {call.model} on study "
        f"{call.study_id} (replay-only: --rwe-record none)."
    )
    pattern = call.file_pattern()
    try:
        others = sorted(p.name for p in path.parent.iterdir() if pattern.match(p.name))
    except OSError:
        others = []
    others = [name for name in others if name != path.name]
    if path.exists():
        why = f" The stored file {path} is damaged or incomplete."
    elif others:
        why = (
            f" {path.parent} holds {', '.join(others[:3])} for this call under another key:"
            " the prompt or generation settings changed since it was recorded."
        )
    else:
        why = (
            f" Nothing is stored at {path}: either the prompt or generation settings"
            " changed since recording, or this call was never recorded."
        )
    how = (
        " Record it with --rwe-record new (needs the model's API key) and commit the new"
        f" files under {root}."
    )
    return head + why + how


def encode_record(
    call: CallLabel,
    key: str,
    result: GenerationResult,
    *,
    provider: str,
    model: str,
    settings: Mapping[str, Any],
    prompt_sha256: str,
    run_id: str,
    now: datetime | None = None,
) -> str:
    """The file text of one stored response (redacted, sorted keys, trailing newline)."""
    recorded_at = now or datetime.now(timezone.utc)
    record = {
        "format": FORMAT_VERSION,
        "key": key,
        "provider": provider,
        "model": model,
        "settings": canonical(settings, "settings"),
        "repeat": call.repeat,
        "label": call.to_record(),
        "prompt_sha256": prompt_sha256,
        "response": {
            "text": result.text,
            # 0.1 ms is far below network jitter; fewer digits keep diffs quiet.
            "latency_s": round(result.latency_s, 4),
            "input_tokens": result.usage.input_tokens,
            "output_tokens": result.usage.output_tokens,
            # only what the vendor reported apart: an older file without them reads as unknown
            **{name: count for name, count in (
                ("reasoning_tokens", result.usage.reasoning_tokens),
                ("cached_tokens", result.usage.cached_tokens)) if count is not None},
        },
        "run_id": run_id,
        "recorded_at": recorded_at.isoformat(timespec="seconds"),
    }
    # the key variables are read once per record, not once per string
    environ = key_environ()
    return json.dumps(_redacted(record, environ), indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class StoredResponse:
    """A decoded record: the replayable result and what identifies it."""

    key: str
    run_id: str | None
    result: GenerationResult


def decode_record(text: str) -> StoredResponse:
    """Parse a stored file; ValueError (naming the field) when it is torn or malformed."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise TypeError("the file is not a JSON object")
        response = _typed(data["response"], dict, "response")
        result = GenerationResult(
            text=_typed(response["text"], str, "response.text"),
            latency_s=float(_typed(response["latency_s"], (int, float), "response.latency_s")),
            usage=Usage(*(_optional_int(response.get(name), f"response.{name}") for name in (
                "input_tokens", "output_tokens", "reasoning_tokens", "cached_tokens"))),
            replayed=True,
        )
        run_id = data.get("run_id")
        return StoredResponse(
            key=_typed(data["key"], str, "key"),
            run_id=run_id if isinstance(run_id, str) else None,
            result=result,
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
    waits: int = 0  # claims that waited for another worker's call
    wait_timeouts: int = 0  # waits that gave up and called anyway
    broken_locks: int = 0  # stale locks removed
    corrupt: int = 0  # unreadable files, treated as misses
