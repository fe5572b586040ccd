"""The response-store key: a canonical SHA-256 of everything that determines a model's answer.

Key recipe (version 1). The key is ``sha256(canonical_json(payload))`` in lowercase hex, with::

    payload = {
        "v": 1,                                   # the recipe version; bumped when it changes
        "provider": "openai",                     # provider prefix
        "model": "gpt-4.1",                       # model id as sent to the provider
        "messages": [{"role": ..., "content": ...}, ...],   # the full conversation, in order
        "settings": {...},                        # Provider.effective_settings(...): as sent
        "repeat": 0,                              # sample index, so --rwe-repeat N gives N keys
    }

``canonical_json`` sorts mapping keys at every level, uses ``(",", ":")`` separators and
``ensure_ascii=False`` and is encoded as UTF-8. Numbers are normalised so that equal values
hash alike: a float with an integral value is written as an integer (``0.0`` -> ``0``), other
floats by their shortest round-trip form; NaN and infinities are refused. Tuples are lists.

A change to any part changes the key; the order of keys in a settings mapping does not. The
task (which study, which criterion) is *not* part of the key: it only labels the stored file.
A provider's key extras (its server's base URL) join the settings with every URL's user,
password and query secrets hidden: a key never depends on a credential, so rotating a
password keeps the store, and nothing secret is hashed into a committed file.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.providers.base import GenerationRequest, Message, Provider
from pytest_rwe.redact import strip_url_credentials

KEY_VERSION = 1

MessageLike = Message | Mapping[str, Any]


def canonical(value: Any, where: str = "value") -> Any:
    """``value`` as plain JSON data with numbers normalised; TypeError/ValueError name ``where``."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)  # int subclasses (IntEnum) hash like the plain number
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where} is {value!r}; a store key needs finite numbers")
        return int(value) if value.is_integer() else value
    if isinstance(value, Message):
        return {"role": value.role, "content": value.content}
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where} has key {k!r}; keys must be strings")
            out[k] = canonical(v, f"{where}.{k}")
        return out
    if isinstance(value, (list, tuple)):
        return [canonical(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise TypeError(
        f"{where} is a {type(value).__name__} ({value!r}); a store key takes only JSON data "
        "(str, number, bool, None, lists and string-keyed mappings)"
    )


def canonical_json(value: Any) -> str:
    """The canonical JSON text of ``value`` (see the module docstring)."""
    return json.dumps(
        canonical(value),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )


def _messages(messages: Sequence[MessageLike]) -> list[dict[str, str]]:
    out = []
    for i, message in enumerate(messages):
        role: Any
        content: Any
        if isinstance(message, Message):
            role, content = message.role, message.content
        else:
            role, content = message.get("role"), message.get("content")
        if not isinstance(role, str) or not isinstance(content, str):
            raise TypeError(f"messages[{i}] needs string 'role' and 'content', got {message!r}")
        out.append({"role": role, "content": content})
    return out


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prompt_sha256(messages: Sequence[MessageLike]) -> str:
    """SHA-256 of the canonical JSON of the messages (role and content only, in order)."""
    return _sha256(canonical_json(_messages(messages)))


def store_key(
    *,
    provider: str,
    model: str,
    messages: Sequence[MessageLike],
    settings: Mapping[str, Any],
    repeat: int = 0,
) -> str:
    """The store key of one call (64 hex digits); the recipe is in the module docstring."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 0:
        raise ValueError(f"repeat is {repeat!r}; it must be an integer >= 0")
    payload = {
        "v": KEY_VERSION,
        "provider": provider,
        "model": model,
        "messages": _messages(messages),
        "settings": canonical(settings, "settings"),
        "repeat": repeat,
    }
    return _sha256(canonical_json(payload))


def key_extras(provider: Provider) -> dict[str, Any]:
    """``provider.key_extras()`` as plain data with the credentials of every URL hidden."""
    return dict(_without_credentials(canonical(provider.key_extras(), "key_extras")))


def _without_credentials(value: Any) -> Any:
    if isinstance(value, str):
        return strip_url_credentials(value)
    if isinstance(value, dict):
        return {k: _without_credentials(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_credentials(v) for v in value]
    return value


def request_key(provider: Provider, request: GenerationRequest, repeat: int = 0) -> str:
    """The store key of ``request`` sent to ``provider``, with the settings it really sends."""
    return store_key(
        provider=provider.name,
        model=provider.model,
        messages=request.messages,
        settings={**provider.effective_settings(request.settings), **key_extras(provider)},
        repeat=repeat,
    )


def request_hashes(provider: Provider, request: GenerationRequest,
                   repeat: int = 0) -> tuple[str, str]:
    """``(request_key(...), prompt_sha256(request.messages))``, the messages encoded once.

    A judge prompt is over ten kilobytes and each call needs both hashes: the key's payload
    is assembled around the messages' canonical text, which is exactly where
    :func:`canonical_json` of the whole payload puts it (its keys sort as written here).
    """
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 0:
        raise ValueError(f"repeat is {repeat!r}; it must be an integer >= 0")
    messages = canonical_json(_messages(request.messages))
    settings = {**provider.effective_settings(request.settings), **key_extras(provider)}
    payload = (f'{{"messages":{messages},"model":{canonical_json(provider.model)},'
               f'"provider":{canonical_json(provider.name)},"repeat":{repeat},'
               f'"settings":{canonical_json(settings)},"v":{KEY_VERSION}}}')
    return _sha256(payload), _sha256(messages)
