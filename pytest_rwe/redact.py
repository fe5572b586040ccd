"""Keep API keys and credentials out of messages, reports, snapshots and the response store.

Three layers: the key variables' values (``OPENAI_API_KEY``...), anything shaped like a
vendor key, and credentials inside URLs (``http://user:PASSWORD@host/v1``, ``?token=...``),
which a model name may carry after its ``@`` (see :func:`display_name`). Passwords of the
configured models' URLs are also remembered (:func:`remember_url_secrets`) and replaced
wherever they appear on their own, e.g. quoted back in an SDK's error message.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_rwe.providers.vendors import all_key_variables

# Shapes of vendor keys, caught even when the key did not come from the environment.
_KEY_PATTERNS = re.compile(
    r"(sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}|AIza[0-9A-Za-z_\-]{30,}|"
    r"(?i:bearer)\s+[A-Za-z0-9_\-\.]{16,}|(?i:x-goog-api-key|x-api-key|api[_-]?key)[\"'=:\s]+[A-Za-z0-9_\-]{12,})"
)
# Every match of _KEY_PATTERNS holds one of these literally ("sk-", "AIza") or, ignoring
# case, one of the others; a text with none of them is left as it is without running the
# pattern, which costs about 50 ns a character (a judge's answer is kilobytes long).
_CASED_ANCHORS = ("sk-", "AIza")
_UNCASED_ANCHORS = ("bearer", "api-key", "api_key", "apikey")
_UNCASED_ANCHOR_BYTES = tuple(anchor.encode("ascii") for anchor in _UNCASED_ANCHORS)
# The only characters beyond ASCII that the pattern's case-insensitive parts match as ASCII
# letters (or whose lower case holds one): a text with any of them takes the pattern's path.
_FOLDS_TO_ASCII = "\u0130\u0131\u017f\u212a"
#: what replaces a credential inside a URL
HIDDEN = "***"
# scheme://userinfo@ : everything between "//" and the last "@" before the host's path
_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s?#]*@")
# a secret in a URL's query string (?token=..., &api_key=..., &key=...)
_URL_QUERY_SECRET = re.compile(
    r"(?i)([?&](?:api[_-]?key|key|token|access[_-]?token|auth|password|passwd|pwd|secret|"
    r"client[_-]?secret|signature|sig)=)[^&#\s\"'<>]+")
#: remembered secrets shorter than this are not replaced on their own (too likely to be
#: ordinary text); inside a URL they are always hidden
MIN_REMEMBERED = 6
_remembered: set[str] = set()


def strip_url_credentials(text: str) -> str:
    """``text`` with the user, password and query-string secrets of every URL hidden."""
    if "://" not in text:
        return text
    text = _URL_USERINFO.sub(lambda m: f"{m.group(1)}{HIDDEN}@", text)
    return _URL_QUERY_SECRET.sub(lambda m: f"{m.group(1)}{HIDDEN}", text)


def key_environ() -> dict[str, str]:
    """The key variables set now, with their values (read once for many strings)."""
    return {name: os.environ[name] for name in all_key_variables() if name in os.environ}


def redact(text: str, environ: Mapping[str, str] | None = None) -> str:
    """Replace every API key value from the environment, anything shaped like one, and the
    credentials of any URL (and every remembered URL password)."""
    env = os.environ if environ is None else environ
    for variable in all_key_variables():  # the vendor table's, registered providers' too
        value = env.get(variable)
        if value and len(value) >= 8:
            text = text.replace(value, f"<{variable} redacted>")
    for secret in _remembered:
        if secret in text:
            text = text.replace(secret, HIDDEN)
    text = strip_url_credentials(text)
    return _KEY_PATTERNS.sub("<key redacted>", text) if _may_hold_key(text) else text


def _may_hold_key(text: str) -> bool:
    """False only when ``_KEY_PATTERNS`` cannot match ``text`` (see ``_CASED_ANCHORS``)."""
    if any(anchor in text for anchor in _CASED_ANCHORS):
        return True
    if text.isascii():
        lowered = text.lower()
        return any(anchor in lowered for anchor in _UNCASED_ANCHORS)
    if any(odd in text for odd in _FOLDS_TO_ASCII):
        return True
    # Only the four characters above lower-case onto ASCII letters, so the anchors can only
    # be made of the text's ASCII characters: dropping the others (which may join two runs,
    # a harmless "maybe") and lowering bytes is a quarter of the cost of str.lower() on a
    # text with one character beyond Latin-1 (every judge prompt with a "≥" in it).
    ascii_lowered = text.encode("ascii", "ignore").lower()
    return any(anchor in ascii_lowered for anchor in _UNCASED_ANCHOR_BYTES)


def url_secrets(name: str) -> list[str]:
    """The user, password and query-string secrets of the URL in a ``model@URL`` name."""
    _, at, url = name.partition("@")
    if not at or "://" not in url:
        return []
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return []
    found = [s for s in (parts.username, parts.password) if s]
    found += [urllib.parse.unquote(s) for s in found if "%" in s]
    found += [m.group(0).split("=", 1)[1] for m in _URL_QUERY_SECRET.finditer(url)]
    return found


def remember_url_secrets(names: Iterable[str]) -> None:
    """Remember the passwords and tokens in these model names, to redact them everywhere."""
    for name in names:
        _remembered.update(s for s in url_secrets(name) if len(s) >= MIN_REMEMBERED)


def display_name(model: str) -> str:
    """A model name as it may be shown and stored: the credentials of its URL hidden.

    ``openai/gpt-x@http://user:PASSWORD@host:8080/v1`` -> ``openai/gpt-x@http://***@host:8080/v1``.
    """
    return strip_url_credentials(model)


def path_name(model: str) -> str:
    """A model name for folder and file names: its server by host and port only.

    ``openai/gpt-x@http://user:PASSWORD@host:8080/v1`` -> ``openai/gpt-x@host-8080``: no
    credential, no path, so a committed store or golden folder never holds a secret.
    """
    name, at, url = model.partition("@")
    if not at:
        return model
    try:
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if not host:
        return f"{name}@server"
    return f"{name}@{host}" + (f"-{port}" if port else "")


def redact_deep(value: Any, environ: Mapping[str, str] | None = None) -> Any:
    """``value`` (JSON-like data) with every string, mapping keys included, redacted."""
    if environ is None:  # read once: a report has tens of thousands of strings
        environ = key_environ()
    # The same keys and names recur all through a record or a report: each distinct string
    # is redacted once per call (redact depends only on the text while the call runs).
    done: dict[str, str] = {}

    def text(s: str) -> str:
        out = done.get(s)
        if out is None:
            out = done[s] = redact(s, environ)
        return out

    def deep(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, Mapping):
            return {text(str(k)): deep(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [deep(v) for v in value]
        return value

    return deep(value)
