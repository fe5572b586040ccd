"""The request handler of :class:`~pytest_rwe.testing.fake_server.FakeServer`."""

from __future__ import annotations

import contextlib
import json
import re
import socket
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pytest_rwe.redact import redact
from pytest_rwe.testing.fake_wire import (
    NOT_JSON_JUDGE_REPLY,
    Vendor,
    body_hash,
    error_body,
    prompt_text,
    success_body,
)

if TYPE_CHECKING:
    from pytest_rwe.testing.fake_server import FakeServer


_GEMINI_PATH = re.compile(r"^/(v1[a-z0-9]*)/models/([^/:]+):generateContent$")
_SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie"}
)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 512  # many clients connect at once; the default backlog of 5 drops SYNs
    fake: FakeServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDKs' connection pools expect
    # Headers and body go out in two writes; with Nagle's algorithm the body waits for the
    # client's delayed ACK of the headers, adding about 40 ms to every call.
    disable_nagle_algorithm = True
    server: Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet: tests read records
        pass

    def do_POST(self) -> None:
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path = urlsplit(self.path).path
        vendor, model = _route(path)
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = None
        if vendor is None or not isinstance(body, dict):
            problem = {"error": {"message": f"cannot handle POST {path}"}}
            self._send(404 if vendor is None else 400, problem)
            return
        model = model or str(body.get("model", ""))
        record: dict[str, Any] = {
            "provider": vendor,
            "model": model,
            "path": path,
            "body_hash": body_hash(raw),
            "headers": _safe_headers(self.headers.items()),
            "body": body if fake.keep_bodies else None,
            "client": ":".join(str(part) for part in self.client_address[:2]),
        }
        if not fake._admit(vendor, record["client"]):
            wait, status = fake.retry_after_s, fake.overload_status
            fake._record(record, status=status, fault="cap")
            message = (f"Rate limit reached: more than {fake._caps[vendor]} concurrent requests."
                       if status == 429 else "The server is overloaded; try again later.")
            self._send(status, error_body(vendor, status, message, retry_after_s=wait),
                       retry_after=wait)
            return
        try:
            answer = self._answer(fake, vendor, model, body, record)
        finally:
            # Released (and recorded) before the answer goes out: a client that sends its
            # next request as soon as it reads this one must not find the slot still taken.
            fake._release(vendor)
        if answer is None:  # a timeout or a drop: close the connection without an answer
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
        else:
            self._send_raw(*answer)

    def _answer(
        self, fake: FakeServer, vendor: Vendor, model: str, body: dict[str, Any], record: Any
    ) -> tuple[int, bytes, dict[str, str]] | None:
        """Wait the latency, record the request, and return (status, body, headers)."""
        prompt = prompt_text(vendor, body)
        fault = fake._take_fault(vendor, model, prompt)
        kind = fault.kind if fault else None
        if kind == "drop":
            fake._record(record, status=0, fault=kind)
            return None
        if fault is None or kind != "rate_limit":
            fake._wait_hold(vendor)  # a test's barrier: held until enough are in flight
            fake._pause(fake.latency_s)
        status, headers = 200, {}
        if fault is None or kind in ("reply", "not_json", "empty"):
            text = fake._reply_text(vendor, model, prompt)
            if fault is not None and kind != "empty":
                text = fault.text if kind == "reply" else NOT_JSON_JUDGE_REPLY
            data = _json(success_body(vendor, model, text, prompt, empty=kind == "empty",
                                      reasoning_tokens=fake.reasoning_tokens,
                                      cached_tokens=fake.cached_tokens))
        elif fault.kind == "rate_limit":
            status, wait = 429, fault.retry_after_s
            data = _json(error_body(vendor, 429, "Rate limit exceeded.", retry_after_s=wait))
            headers = _retry_headers(wait)
        elif fault.kind == "status":
            status = fault.status
            wait = fault.retry_after_s
            data = _json(error_body(vendor, status, fault.text or f"Scripted error {status}.",
                                    retry_after_s=wait))
            headers = _retry_headers(wait)
        elif fault.kind == "malformed":
            data = b'{"id": "broken", "choices": [{"index": 0, "message": {"ro'
        else:  # timeout or hang: recorded now, then hold the connection (and the slot)
            fake._record(record, status=0, fault=kind)
            fake._pause(fault.hang_s)
            return None
        fake._record(record, status=status, fault=kind)
        return status, data, headers

    def _send(self, status: int, payload: Any, *, retry_after: float | None = None) -> None:
        headers = _retry_headers(retry_after) if retry_after is not None else {}
        self._send_raw(status, _json(payload), headers)

    def _send_raw(self, status: int, data: bytes, headers: Mapping[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (its timeout); nothing to do


def _json(payload: Any) -> bytes:
    return json.dumps(payload).encode()


def _retry_headers(seconds: float | None) -> dict[str, str]:
    # Retry-After is whole seconds by the HTTP spec; fractions are for fast tests, and
    # retry-after-ms (which OpenAI sends) carries the precise value.
    if seconds is None:
        return {}
    shown = int(seconds) if float(seconds).is_integer() else seconds
    return {"Retry-After": str(shown), "retry-after-ms": str(int(seconds * 1000))}


def _route(path: str) -> tuple[Vendor | None, str]:
    if path.endswith("/chat/completions"):
        return "openai", ""
    if path.endswith("/v1/messages"):
        return "anthropic", ""
    match = _GEMINI_PATH.match(path)
    if match:
        return "google", match.group(2)
    return None, ""


def _safe_headers(items: Any) -> dict[str, str]:
    return {
        name.lower(): "<redacted>" if name.lower() in _SECRET_HEADERS else redact(value)
        for name, value in items
    }
