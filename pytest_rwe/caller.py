"""One way to call a model: the provider, the response store, retries and concurrency.

Every call of a session goes through :meth:`Caller.call`: identical requests in flight in
this process are made once, the store replays or records them (and makes them once across
processes sharing it), and live calls are retried and bounded per provider endpoint by an
:class:`~pytest_rwe.providers.limiter.AdaptiveLimit`, itself within the endpoint's share of
the store's budget (:mod:`pytest_rwe.store.budget`) when other processes call too.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import threading
import warnings
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    Provider,
    ProviderError,
)
from pytest_rwe.providers.limiter import AdaptiveLimit
from pytest_rwe.providers.preload import load_sdk
from pytest_rwe.providers.registry import canonical_name, create_provider
from pytest_rwe.providers.retry import CallStats, RetryPolicy, call_with_retries
from pytest_rwe.store import (
    CallLabel,
    Deferral,
    DeferredCallFailed,
    ResponseStore,
    StoreWarning,
)
from pytest_rwe.store.budget import Demand, StoreBudget
from pytest_rwe.store.keys import key_extras, request_hashes

if TYPE_CHECKING:
    from pytest_rwe.settings import EngineSettings
    from pytest_rwe.store.leader import RunLeader

__all__ = ["CallLabel", "Caller", "RunSharing", "build_caller"]

#: an endpoint stays in the shared budget this long after its last call, so a pause between
#: two waves of calls does not hand its share away and back
LINGER_S = 2.0


def filed_label(label: CallLabel) -> CallLabel:
    """``label`` with both model names spelled canonically (one store folder per model,
    whatever alias was typed); a subject that names no model (your own summary) is dropped,
    which makes the call free-form (see :mod:`pytest_rwe.store.layout`)."""
    model = canonical_name(label.model) or label.model
    subject = canonical_name(label.subject) if label.subject is not None else None
    if model == label.model and subject == label.subject:
        return label
    return dataclasses.replace(label, model=model, subject=subject)


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
        budget: StoreBudget | None = None,
    ) -> None:
        self.store = store
        # an xdist leader tells its followers which calls failed for good (key, message)
        self._note_failure = note_failure
        self.policy = policy
        self.concurrency = concurrency
        self.stats = CallStats()
        self.budget = budget
        self._provider_options = dict(provider_options or {})
        self._providers: dict[str, Provider] = {}
        self._providers_lock = threading.Lock()
        self._limits: dict[str, AdaptiveLimit] = {}  # remote endpoints (reported)
        self._local: dict[str, AdaptiveLimit] = {}  # the builtin models' (not reported)
        self._active: dict[str, int] = {}  # endpoint -> live calls queued or in flight
        self._last_active: dict[str, float] = {}
        self._beats: asyncio.Task[None] | None = None
        self._beat_wanted: asyncio.Event | None = None
        # The heartbeat's own thread: on the loop's default executor a beat would queue
        # behind the jurors' diagnostics and the SDK imports, and on a busy machine other
        # processes would take this live run for a hung one and call its work again.
        self._beat_thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._in_flight: dict[str, asyncio.Future[GenerationResult]] = {}
        self._sdk_loaded: dict[str, asyncio.Future[None]] = {}

    def provider(self, model: str) -> Provider:
        """The provider instance serving ``model`` (one per model name per session)."""
        with self._providers_lock:
            provider = self._providers.get(model)
            if provider is None:
                options = dict(self._provider_options.get(model) or {})
                provider = create_provider(model, options, timeout_s=self.policy.timeout_s)
                self._providers[model] = provider
            return provider

    def limit(self, key: str) -> AdaptiveLimit:
        """The adaptive limit of one endpoint (see :meth:`Provider.budget_key`)."""
        limit = self._limits.get(key)
        if limit is None:
            limit = self._limits[key] = AdaptiveLimit(self.concurrency)
            if self.budget is not None:
                limit.set_budget(0)  # nothing until the budget says how much is ours
        return limit

    def snapshot(self) -> dict[str, dict[str, int | float]]:
        """Per endpoint: its limit now, peak, 429s, cuts, waits (JSON-able)."""
        return {key: limit.snapshot() for key, limit in sorted(list(self._limits.items()))}

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
        if self.budget is not None and self._beats is None and self.store.mode != "none":
            # registered (and beating) before the first lock is taken: other processes
            # waiting on our locks can then tell that we are working on them
            self._start_beats(wanted=False)
        label = filed_label(label)
        key, prompt_hash = request_hashes(provider, request, label.key_repeat)
        store = self.store
        pending = self._in_flight.get(key)
        if pending is not None:
            # the same request is already running for another test: share its answer, and
            # file it under this call's name too (a replay looks for it there)
            result = await asyncio.shield(pending)
            store.file_as(label, key)
            return result
        origin = request.origin
        future = asyncio.ensure_future(self._stored(store.get_or_call(
            label, key, lambda: self._live(provider, request, key),
            provider=provider.name, model=provider.model,
            settings=provider.effective_settings(request.settings),
            prompt_sha256=prompt_hash, defer=defer, server=key_extras(provider),
            # a rendered prompt is referenced by its templates; a free-form one is kept
            prompt=origin.to_dict() if origin is not None else None,
            messages=None if origin is not None else tuple(
                {"role": m.role, "content": m.content} for m in request.messages),
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
        endpoint = provider.budget_key()
        shared = self.budget is not None and provider.uses_store
        if not provider.uses_store:  # a builtin (local) model: nothing to share or report
            limit = self._local.get(endpoint) or self._local.setdefault(
                endpoint, AdaptiveLimit(self.concurrency))
        else:
            limit = self.limit(endpoint)
        self._active[endpoint] = self._active.get(endpoint, 0) + 1
        if shared:
            self._start_beats(wanted=limit.budget == 0)
        try:
            return await call_with_retries(
                provider, request, policy=self.policy, limit=limit, stats=self.stats,
            )
        except ProviderError as exc:
            if self._note_failure is not None and key is not None:
                self._note_failure(key, str(exc))
            raise
        finally:
            self._active[endpoint] -= 1
            self._last_active[endpoint] = asyncio.get_running_loop().time()

    # -- the store's shared budget ---------------------------------------------------------
    def _start_beats(self, *, wanted: bool) -> None:
        if self._beats is None:
            self._beat_wanted = asyncio.Event()
            self._beats = asyncio.ensure_future(self._beat_loop())
        if wanted and self._beat_wanted is not None:
            self._beat_wanted.set()  # a new endpoint: its budget is needed now

    async def _beat_loop(self) -> None:
        assert self.budget is not None and self._beat_wanted is not None
        budget, wanted = self.budget, self._beat_wanted
        loop = asyncio.get_running_loop()
        if self._beat_thread is None:
            self._beat_thread = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="rwe-heartbeat")
        beats = self._beat_thread
        while True:
            wanted.clear()
            try:
                given = await loop.run_in_executor(beats, budget.beat, self._demand())
            except Exception as exc:
                # A store we cannot write to (or a registry we cannot read) shares nothing;
                # calls must not stay held back by a budget that will never come.
                warnings.warn(StoreWarning(
                    f"{budget.folder}: cannot register this run to share the providers' "
                    f"budget with other runs on the store ({type(exc).__name__}: {exc}); "
                    "calls go on with the whole --rwe-concurrency"), stacklevel=1)
                for limit in self._limits.values():
                    limit.set_budget(None)
                self.budget = None
                return
            for endpoint, share in given.items():
                self._limits[endpoint].set_budget(share)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(wanted.wait(), budget.beat_s)

    def _demand(self) -> dict[str, Demand]:
        now = asyncio.get_running_loop().time()
        demand = {}
        for endpoint, limit in self._limits.items():
            last = self._last_active.get(endpoint)
            if self._active.get(endpoint, 0) or (last is not None and now - last < LINGER_S):
                demand[endpoint] = Demand(self.concurrency, max(1, int(limit.limit)),
                                          limit.in_flight)
            elif limit.budget != 0:
                limit.set_budget(0)  # given back: ask again before the next call
                self._last_active.pop(endpoint, None)
        return demand

    async def aclose(self) -> None:
        """Close every provider's client, leave the shared budget, release store locks."""
        if self._beats is not None:
            self._beats.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._beats
            self._beats = None
        if self._beat_thread is not None:
            self._beat_thread.shutdown(wait=False)  # leave() wins over a beat in progress
            self._beat_thread = None
        if self.budget is not None:
            self.budget.leave()
        for provider in list(self._providers.values()):
            # closing must not mask the run's result
            with contextlib.suppress(Exception):
                await provider.aclose()
        if self.store is not None:
            self.store.close()


@dataclass(frozen=True)
class RunSharing:
    """What a process calling along with others shares with them (xdist workers of one
    run, or separate runs on one store): the run's id, whether the store's locks are shared,
    the store's registry dividing each provider's budget, and the run's leader when this
    process leads (it tells the followers which calls failed for good)."""

    run_id: str | None = None
    shared: bool = True
    budget: StoreBudget | None = None
    leader: RunLeader | None = None


def build_caller(settings: EngineSettings, sharing: RunSharing | None = None) -> Caller:
    """The caller of ``settings``: its response store (none when ``settings.store`` is
    None), retry policy and per-provider ceiling; ``sharing`` joins it to the other
    processes of a run (None: a process alone, as ``rwe calibrate`` and the integrations)."""
    store = None
    if settings.store is not None:
        store = (ResponseStore(settings.store, settings.store_mode) if sharing is None else
                 ResponseStore(settings.store, settings.store_mode, run_id=sharing.run_id,
                               shared=sharing.shared, registry=sharing.budget))
    leader = sharing.leader if sharing is not None else None
    return Caller(
        store=store,
        note_failure=leader.note_failure if leader is not None else None,
        policy=RetryPolicy(max_attempts=settings.max_attempts,
                           retry_after_cap_s=settings.retry_cap_s,
                           deadline_s=settings.deadline_s,
                           timeout_s=settings.timeout_s),
        # the ceiling per provider for the whole run: processes that call at the same time
        # divide it between them through the store's registry
        concurrency=settings.concurrency,
        budget=sharing.budget if sharing is not None else None,
    )
