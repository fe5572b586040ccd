"""What the three vendor providers share: options, keys, Retry-After and error mapping.

No SDK import here: the vendor modules hand over status codes, headers and bodies.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import re
import time
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pytest_rwe.providers.base import ProviderConfigError, ProviderError
from pytest_rwe.redact import redact
from pytest_rwe.settings import DEFAULT_TIMEOUT_S

_KNOWN_OPTIONS = frozenset({"base_url", "api_key_env", "timeout_s"})


@dataclass(frozen=True)
class VendorOptions:
    """Per-model options common to the vendor providers (see each module's docstring)."""

    base_url: str | None  # None: the SDK reads its own base-URL variable
    api_key: str | None
    key_variable: str  # where the key came from (or should come from), for messages
    timeout_s: float


def int_option(full_name: str, options: Mapping[str, Any], name: str,
               minimum: int) -> int | None:
    """An optional whole-number option of at least ``minimum``; the error names the fix."""
    value = options.get(name)
    if value is not None and (not isinstance(value, int) or value < minimum):
        raise ProviderConfigError(
            f"{full_name}: option {name} must be an integer >= {minimum}, got {value!r}"
        )
    return value


def vendor_options(
    full_name: str,
    options: Mapping[str, Any],
    key_variables: tuple[str, ...],
    *,
    extra_options: frozenset[str] = frozenset(),
    environ: Mapping[str, str] | None = None,
) -> VendorOptions:
    """Read ``base_url``, ``api_key_env`` and ``timeout_s``; reject unknown option names."""
    env = os.environ if environ is None else environ
    unknown = set(options) - _KNOWN_OPTIONS - extra_options
    if unknown:
        known = ", ".join(sorted(_KNOWN_OPTIONS | extra_options))
        raise ProviderConfigError(
            f"{full_name}: unknown option(s) {', '.join(sorted(unknown))}; known: {known}"
        )
    base_url = options.get("base_url")
    if base_url is not None and not (isinstance(base_url, str) and base_url.startswith("http")):
        raise ProviderConfigError(
            f"{full_name}: option base_url must be an http(s) URL, got {base_url!r}"
        )
    key_env = options.get("api_key_env")
    variables = (str(key_env),) if key_env else key_variables
    api_key = next((env[v] for v in variables if env.get(v)), None)
    timeout = options.get("timeout_s", DEFAULT_TIMEOUT_S)
    try:
        timeout_s = float(timeout)
    except (TypeError, ValueError):
        timeout_s = -1.0
    if timeout_s <= 0:
        raise ProviderConfigError(
            f"{full_name}: option timeout_s must be a positive number of seconds, got {timeout!r}"
        )
    return VendorOptions(base_url, api_key, " or ".join(variables), timeout_s)


def budget_key(provider: str, options: VendorOptions, variable: str, default: str,
               environ: Mapping[str, str] | None = None) -> str:
    """``provider@server``: calls to one server share a budget (``user:pass@`` left out)."""
    env = os.environ if environ is None else environ
    url = options.base_url or env.get(variable) or default
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    return f"{provider}@{parts.scheme}://{host}{parts.path.rstrip('/')}"


def require_key(full_name: str, options: VendorOptions) -> str:
    """The key for a live call; a missing one fails that call (a replay needs none)."""
    if options.api_key is None:
        raise ProviderError(full_name, str(missing_key_error(full_name, options.key_variable)))
    return options.api_key


def missing_key_error(full_name: str, variable: str) -> ProviderConfigError:
    return ProviderConfigError(
        f"{full_name}: no API key; set {variable} (or give the model an api_key_env option "
        "naming the variable that holds its key)"
    )


def parse_retry_after(
    headers: Mapping[str, str] | None, *, now: float | None = None
) -> float | None:
    """Seconds to wait from ``retry-after-ms``, or ``Retry-After`` (seconds or an HTTP date)."""
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)s\s*$")


def google_retry_delay(body: Any) -> float | None:
    """Gemini states the wait in ``error.details[].retryDelay`` ("37s"), not in a header."""
    error = body.get("error", body) if isinstance(body, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else ():
        if isinstance(detail, dict) and str(detail.get("@type", "")).endswith("RetryInfo"):
            match = _DURATION.match(str(detail.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None


def is_retryable_status(status: int) -> bool:
    # 408 (request timeout) and 409 (conflict, a lock) are transient too, as the SDKs treat them
    return status in (408, 409, 429) or status >= 500


def status_error(
    model: str,
    status: int,
    message: str,
    *,
    headers: Mapping[str, str] | None = None,
    retry_after: float | None = None,
) -> ProviderError:
    """A ProviderError for an HTTP error answer, retryable for 408/409/429/5xx."""
    wait = parse_retry_after(headers)
    if wait is None:
        wait = retry_after
    hint = ""
    if status in (401, 403):
        hint = " (check the API key and that this key may use this model)"
    elif status == 404:
        hint = " (check the model name and the base URL)"
    return ProviderError(
        model,
        redact(f"HTTP {status}: {message}{hint}"),
        retryable=is_retryable_status(status),
        retry_after=wait,
        status=status,
    )


def transport_error(model: str, exc: BaseException, timeout_s: float) -> ProviderError:
    """A retryable ProviderError for a timeout or a connection failure."""
    if is_timeout(exc):
        text = (f"no answer within {timeout_s:g} s; raise --rwe-timeout (ini rwe_timeout) "
                "if the model needs longer")
    else:
        text = f"connection failed ({type(exc).__name__}: {exc})"
    return ProviderError(model, redact(text), retryable=True)


def is_timeout(exc: BaseException) -> bool:
    return isinstance(exc, (TimeoutError, asyncio.TimeoutError)) or "Timeout" in type(exc).__name__


def is_transport_error(exc: BaseException) -> bool:
    """httpx/httpx2/aiohttp transport failures, which some SDKs let through unwrapped."""
    module = type(exc).__module__.split(".")[0]
    names = {cls.__name__ for cls in type(exc).__mro__}
    return is_timeout(exc) or (
        module in ("httpx", "httpx2", "httpcore", "aiohttp")
        and bool(names & {"TransportError", "ClientError", "NetworkError", "ClientConnectionError"})
    )


def malformed_error(model: str, exc: BaseException) -> ProviderError:
    return ProviderError(
        model,
        redact(
            f"the response body is not valid JSON ({type(exc).__name__}: {exc}); "
            "is the base URL pointing at the right server?"
        ),
    )


def empty_error(model: str, what: str) -> ProviderError:
    """A non-retryable error for a well-formed answer that lacks what we need."""
    return ProviderError(model, redact(f"the response has no usable answer: {what}"))


def error_message(body: Any, fallback: str) -> str:
    """The vendor's own error message from an error body ({"error": {"message": ...}})."""
    if isinstance(body, (bytes, str)):
        try:
            body = json.loads(body)
        except ValueError:
            return fallback
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        if isinstance(error, str):
            return error
    return fallback
