"""One way to call a model: the provider, the response store, retries and concurrency.

Every call of a session goes through :meth:`Caller.call`: identical requests in flight in
this process are made once, the store replays or records them (and makes them once across
xdist workers), and live calls are retried and bounded per provider.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    Provider,
    ProviderError,
)
from pytest_rwe.providers.calls import CallStats, ProviderGate, RetryPolicy, call_with_retries
from pytest_rwe.providers.preload import load_sdk
from pytest_rwe.providers.registry import create_provider
from pytest_rwe.store import (
    CallLabel,
    Deferral,
    DeferredCallFailed,
    ResponseStore,
    prompt_sha256,
    request_key,
)

__all__ = ["CallLabel", "Caller"]


class Caller:
    """Calls models for one session (one process), on one event loop."""

    def __init__(
        self,
        *,
        store: ResponseStore | None,
        policy: RetryPolicy,
        concurrency: int,
        provider_options: Mapping[str, Mapping[str, Any]] | None = None,
        note_failure: Callable[[str, str], None] | None = None,
    ) -> None:
        self.store = store
        # an xdist leader tells its followers which calls failed for good (key, message)
        self._note_failure = note_failure
        self.policy = policy
        self.concurrency = concurrency
        self.stats = CallStats()
        self._provider_options = dict(provider_options or {})
        self._providers: dict[str, Provider] = {}
        self._providers_lock = threading.Lock()
        self._gates: dict[str, ProviderGate] = {}
        self._in_flight: dict[str, asyncio.Future[GenerationResult]] = {}
        self._sdk_loaded: dict[str, asyncio.Future[None]] = {}

    def provider(self, model: str) -> Provider:
        """The provider instance serving ``model`` (one per model name per session)."""
        with self._providers_lock:
            provider = self._providers.get(model)
            if provider is None:
                provider = create_provider(model, self._provider_options.get(model))
                self._providers[model] = provider
            return provider

    def gate(self, prefix: str) -> ProviderGate:
        """The concurrency gate shared by every model of one provider."""
        gate = self._gates.get(prefix)
        if gate is None:
            gate = self._gates[prefix] = ProviderGate(self.concurrency)
        return gate

    async def call(
        self, model: str, request: GenerationRequest, label: CallLabel, *,
        defer: Deferral | None = None,
    ) -> GenerationResult:
        """Replay or make one call; raise ProviderError (or StoreMissError) when it fails.

        While ``defer.is_working()`` another process makes this call: wait for its answer.
        """
        provider = self.provider(model)
        if not provider.uses_store or self.store is None:
            return await self._live(provider, request)
        key = request_key(provider, request, label.repeat)
        pending = self._in_flight.get(key)
        if pending is not None:
            # the same request is already running for another test: share its answer
            return await asyncio.shield(pending)
        store = self.store
        future = asyncio.ensure_future(self._stored(store.get_or_call(
            label, key, lambda: self._live(provider, request, key),
            provider=provider.name, model=provider.model,
            settings=provider.effective_settings(request.settings),
            prompt_sha256=prompt_sha256(request.messages), defer=defer,
        ), provider.full_name))
        self._in_flight[key] = future
        future.add_done_callback(lambda _: self._in_flight.pop(key, None))
        return await asyncio.shield(future)

    @staticmethod
    async def _stored(call: Awaitable[GenerationResult], model: str) -> GenerationResult:
        try:
            return await call
        except DeferredCallFailed as failed:
            # the leader's error, word for word: the test fails as it would have there
            raise ProviderError(model, str(failed).removeprefix(f"{model}: ")) from None

    async def _live(self, provider: Provider, request: GenerationRequest,
                    key: str | None = None) -> GenerationResult:
        # Importing an SDK takes seconds; on the loop thread it would stall every other call.
        loaded = self._sdk_loaded.get(provider.name)
        if loaded is None:
            loaded = asyncio.ensure_future(asyncio.to_thread(load_sdk, provider))
            self._sdk_loaded[provider.name] = loaded
        await asyncio.shield(loaded)
        try:
            return await call_with_retries(
                provider, request, policy=self.policy, gate=self.gate(provider.name),
                stats=self.stats,
            )
        except ProviderError as exc:
            if self._note_failure is not None and key is not None:
                self._note_failure(key, str(exc))
            raise

    async def aclose(self) -> None:
        """Close every provider's client and release store locks."""
        for provider in list(self._providers.values()):
            # closing must not mask the run's result
            with contextlib.suppress(Exception):
                await provider.aclose()
        if self.store is not None:
            self.store.close()
