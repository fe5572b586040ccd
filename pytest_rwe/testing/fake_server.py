"""A local HTTP server speaking the OpenAI, Anthropic and Gemini wire formats.

For provider tests and benchmarks: the real SDKs talk to it unchanged through their
base-URL variables (:meth:`FakeServer.env`). It answers ``POST /v1/chat/completions``
(OpenAI), ``POST /v1/messages`` (Anthropic) and ``POST /<version>/models/<model>:generateContent``
(Gemini) after ``latency_s``, caps concurrent requests per provider like a real account's
limit (above the cap: 429 with Retry-After and the vendor's error JSON, Gemini's
RESOURCE_EXHAUSTED with its RetryInfo; or an overload code of your choice: 503, Anthropic's
529), plays scripted faults (errors, rate limits with or without Retry-After, hangs, dropped
connections, bad bodies), and records every request (keys redacted) for assertions::

    with FakeServer(latency_s=0.25, concurrency_cap=16) as server:
        server.base_urls  # {"openai": ..., "anthropic": ..., "google": ...}
        server.add_fault("status", provider="openai", status=500)
        server.add_fault("rate_limit", provider="google", times=30)  # a stretch of 429s

Run ``python -m pytest_rwe.testing.fake_server --port 8765`` to use it by hand.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal

from pytest_rwe.providers.vendors import known_vendor
from pytest_rwe.testing.fake_handler import Handler, Server
from pytest_rwe.testing.fake_wire import VENDORS, Responder, default_reply

FaultKind = Literal["status", "rate_limit", "timeout", "hang", "drop", "malformed", "empty",
                    "not_json", "reply"]


@dataclass
class Fault:
    """A scripted misbehaviour, applied to the next ``times`` matching requests.

    Kinds: ``status`` (answer ``status`` with the vendor's error JSON, Retry-After
    ``retry_after_s`` when it is set), ``rate_limit`` (429 with Retry-After ``retry_after_s``;
    None sends none), ``timeout`` and ``hang`` (hold the connection ``hang_s``, or until the
    server stops, then drop it), ``drop`` (close the connection at once, unanswered),
    ``malformed`` (truncated JSON), ``empty`` (no choices/content/candidates), ``not_json``
    (a judge reply that is not JSON), ``reply`` (answer ``text``); ``text`` is also the error
    message of a ``status`` fault.
    Unset matchers (``provider``, ``model``, ``contains`` in the prompt) match anything;
    ``times=-1`` applies forever.
    """

    kind: FaultKind
    provider: str | None = None
    model: str | None = None
    contains: str | None = None
    times: int = 1
    status: int = 500
    retry_after_s: float | None = None  # add_fault gives a rate_limit 0.1 s unless told
    hang_s: float = 10.0
    text: str = ""
    used: int = 0

    def matches(self, vendor: str, model: str, prompt: str) -> bool:
        return (
            self.times != 0
            and self.provider in (None, vendor)
            and self.model in (None, model)
            and (self.contains is None or self.contains in prompt)
        )


@dataclass(frozen=True)
class RecordedRequest:
    """One request as received; secret headers are replaced by ``<redacted>``."""

    provider: str
    model: str
    path: str
    body_hash: str
    headers: Mapping[str, str]
    body: Mapping[str, Any] | None
    status: int
    fault: str | None = None
    at: float = 0.0  # when it was answered (time.monotonic())
    client: str = ""  # the client's address and port: one per connection


@dataclass
class Hold:
    """A barrier: a provider's requests get no answer until ``in_flight`` of them are in
    flight at once and ``refused`` were turned away by its cap, or ``timeout_s`` passes
    (then they are answered anyway, ``timed_out`` is set, and the counts the test asserts
    show the shortfall). Once open, it stays open."""

    in_flight: int
    refused: int
    deadline: float
    opened: threading.Event = field(default_factory=threading.Event)
    timed_out: bool = False


@dataclass
class _State:
    in_flight: Counter[str] = field(default_factory=Counter)
    max_in_flight: Counter[str] = field(default_factory=Counter)
    rate_limited: Counter[str] = field(default_factory=Counter)
    requests: list[RecordedRequest] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    clients: set[str] = field(default_factory=set)  # every connection a request came on
    holds: dict[str, Hold] = field(default_factory=dict)


class FakeServer:
    """The fake vendor server; start it with ``with`` (or :meth:`start` / :meth:`stop`).

    ``concurrency_cap`` bounds in-flight requests per provider (an int for each, or a mapping
    by provider); a request over the cap gets ``overload_status`` (429 by default; 503 or
    529 to play an overloaded server) with ``Retry-After: retry_after_s`` (None: no header).
    ``responder(provider, model, prompt_text)`` may return the reply text (None: default).
    ``reasoning_tokens`` and ``cached_tokens`` (0: not reported) are added to every answer's
    usage block the way each vendor reports them (:func:`fake_wire.success_body`).
    """

    reasoning_tokens: int = 0
    cached_tokens: int = 0

    def __init__(
        self,
        *,
        latency_s: float = 0.0,
        concurrency_cap: int | Mapping[str, int] | None = None,
        retry_after_s: float | None = 1.0,
        overload_status: int = 429,
        responder: Responder | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        keep_bodies: bool = True,
    ) -> None:
        self.latency_s = latency_s
        self.retry_after_s = retry_after_s
        self.overload_status = overload_status
        self.responder = responder
        self.keep_bodies = keep_bodies
        if concurrency_cap is None or isinstance(concurrency_cap, int):
            self._caps: dict[str, int | None] = {v: concurrency_cap for v in VENDORS}
        else:
            self._caps = {v: concurrency_cap.get(v) for v in VENDORS}
        self._host, self._port = host, port
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._state = _State()
        self._httpd: Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> FakeServer:
        httpd = Server((self._host, self._port), Handler)
        httpd.fake = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping through latency or a hang
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- addresses -------------------------------------------------------------------------
    @property
    def url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("FakeServer is not running; use it as `with FakeServer() as s:`")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def base_urls(self) -> dict[str, str]:
        """Base URLs as each SDK expects them (OpenAI's includes ``/v1``)."""
        return {"openai": f"{self.url}/v1", "anthropic": self.url, "google": self.url}

    def env(self) -> dict[str, str]:
        """The SDKs' own base-URL variables pointing here."""
        urls = self.base_urls
        return {known_vendor(prefix).base_url_variable or "": url for prefix, url in urls.items()}

    # -- scripting and inspection ----------------------------------------------------------
    def add_fault(self, kind: FaultKind, **match: Any) -> Fault:
        """Queue a :class:`Fault`; faults are tried in the order they were added."""
        if kind == "rate_limit":
            match.setdefault("retry_after_s", 0.1)
        fault = Fault(kind, **match)
        with self._lock:
            self._state.faults.append(fault)
        return fault

    def hold(self, provider: str, *, until_in_flight: int = 1, until_refused: int = 0,
             timeout_s: float = 30.0) -> Hold:
        """Answer ``provider``'s requests only once ``until_in_flight`` of them are in flight
        together and ``until_refused`` were refused by its cap (see :class:`Hold`).

        A test of concurrency orders events on this instead of on a latency long enough for
        the requests to overlap, which a busy machine does not honour.
        """
        barrier = Hold(until_in_flight, until_refused, time.monotonic() + timeout_s)
        with self._lock:
            self._state.holds[provider] = barrier
            self._check_hold(provider)
        return barrier

    def set_cap(self, provider: str, cap: int | None) -> None:
        with self._lock:
            self._caps[provider] = cap

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._state.requests)

    def requests_for(self, provider: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.provider == provider]

    def duplicate_requests(self) -> list[str]:
        """Body hashes answered successfully more than once (a retry after 429 is not one)."""
        counts = Counter(r.body_hash for r in self.requests if r.status == 200 and not r.fault)
        return sorted(h for h, n in counts.items() if n > 1)

    def clients(self) -> set[str]:
        """Every client connection (address:port) that has sent a request so far, answered
        or not yet."""
        with self._lock:
            return set(self._state.clients)

    def max_in_flight(self, provider: str) -> int:
        with self._lock:
            return self._state.max_in_flight[provider]

    def rate_limited(self, provider: str | None = None) -> int:
        """How many 429s were sent (to ``provider``, or in all)."""
        with self._lock:
            counts = self._state.rate_limited
            return counts[provider] if provider else sum(counts.values())

    def stats(self) -> dict[str, Any]:
        """Counts at one instant: requests answered, 429s, in flight now and at most."""
        with self._lock:
            return {
                "requests": len(self._state.requests),
                "answered": sum(1 for r in self._state.requests if r.status == 200),
                "rate_limited": dict(self._state.rate_limited),
                "in_flight": dict(self._state.in_flight),
                "max_in_flight": dict(self._state.max_in_flight),
            }

    def reset(self) -> None:
        """Forget recorded requests, counters and pending faults."""
        with self._lock:
            in_flight = self._state.in_flight
            self._state = _State(in_flight=in_flight)

    # -- used by the handler ---------------------------------------------------------------
    def _admit(self, vendor: str, client: str = "") -> bool:
        with self._lock:
            self._state.clients.add(client)
            cap = self._caps.get(vendor)
            if cap is not None and self._state.in_flight[vendor] >= cap:
                self._state.rate_limited[vendor] += 1
                self._check_hold(vendor)
                return False
            self._state.in_flight[vendor] += 1
            now = self._state.in_flight[vendor]
            self._state.max_in_flight[vendor] = max(self._state.max_in_flight[vendor], now)
            self._check_hold(vendor)
            return True

    def _check_hold(self, vendor: str) -> None:
        """Open ``vendor``'s barrier when its counts are reached (caller holds the lock)."""
        barrier = self._state.holds.get(vendor)
        if (barrier is not None and self._state.in_flight[vendor] >= barrier.in_flight
                and self._state.rate_limited[vendor] >= barrier.refused):
            barrier.opened.set()

    def _wait_hold(self, vendor: str) -> None:
        """Hold an admitted request of ``vendor`` until its barrier opens (if it has one)."""
        with self._lock:
            barrier = self._state.holds.get(vendor)
        if barrier is None or barrier.opened.is_set():
            return
        while not barrier.opened.wait(0.05):
            if self._stopping.is_set() or time.monotonic() >= barrier.deadline:
                barrier.timed_out = not self._stopping.is_set()
                barrier.opened.set()

    def _release(self, vendor: str) -> None:
        with self._lock:
            self._state.in_flight[vendor] -= 1

    def _take_fault(self, vendor: str, model: str, prompt: str) -> Fault | None:
        with self._lock:
            for fault in self._state.faults:
                if fault.matches(vendor, model, prompt):
                    fault.times -= 1 if fault.times > 0 else 0
                    fault.used += 1
                    if fault.kind == "rate_limit":
                        self._state.rate_limited[vendor] += 1
                    return fault
        return None

    def _record(self, fields: Mapping[str, Any], *, status: int, fault: str | None) -> None:
        request = RecordedRequest(**fields, status=status, fault=fault, at=time.monotonic())
        with self._lock:
            self._state.requests.append(request)

    def _reply_text(self, vendor: str, model: str, prompt: str) -> str:
        if self.responder is not None:
            text = self.responder(vendor, model, prompt)
            if text is not None:
                return text
        return default_reply(prompt)

    def _pause(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


def main(argv: list[str] | None = None) -> None:
    """Serve until interrupted; prints the variables that point the SDKs here."""
    parser = argparse.ArgumentParser(prog="python -m pytest_rwe.testing.fake_server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.25, help="seconds per call")
    parser.add_argument("--cap", type=int, default=None, help="concurrent calls per provider")
    parser.add_argument("--retry-after", type=float, default=1.0,
                        help="seconds, on 429 (negative: send no Retry-After)")
    parser.add_argument("--overload-status", type=int, default=429, choices=(429, 503, 529),
                        help="what a request over the cap gets")
    args = parser.parse_args(argv)
    server = FakeServer(
        latency_s=args.latency,
        concurrency_cap=args.cap,
        retry_after_s=args.retry_after if args.retry_after >= 0 else None,
        overload_status=args.overload_status,
        host=args.host,
        port=args.port,
        keep_bodies=False,
    )
    with server:
        for name, value in server.env().items():
            print(f"export {name}={value}")
        print("# any key works, e.g. export OPENAI_API_KEY=fake; Ctrl-C to stop", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
