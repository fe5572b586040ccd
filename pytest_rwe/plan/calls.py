"""Every call a run would make, resolved against the response store, without calling a model.

The calls are those of :class:`pytest_rwe.engine.Engine`: per (model, study, repeat) one
summary, then per juror and criterion one judge call on that summary, and a repair when a
reply cannot be read. A summary found in the store gives its judge requests exactly, so they
are looked up too; a stored judge reply that cannot be read gives its repair request. The
judge calls on a summary not yet written cannot be looked up (their prompt holds it): they
are new. Identical requests are made once by a run (the caller shares them, the store
replays them), so calls are counted once per store key. Builtin models run locally, outside
the store: their summaries are written here (instantly, no vendor is asked) so the calls
that judge them are known exactly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pytest_rwe.caller import filed_label
from pytest_rwe.pair_calls import EngineConfig, judge_label, judge_requests, summary_call
from pytest_rwe.providers.base import GenerationRequest, GenerationResult, Provider, ProviderError
from pytest_rwe.replies import ReplyError, parse_judge_reply, repair_request
from pytest_rwe.store import CallKind, CallLabel, ResponseStore
from pytest_rwe.store.keys import request_key
from pytest_rwe.study import Study
from pytest_rwe.verdict import CRITERIA, Criterion


@dataclass(frozen=True)
class PlannedCall:
    """One call of the run: who is called, what for, and what the store holds for it."""

    model: str  # the called model, as configured
    provider: str  # its provider prefix
    endpoint: str  # its concurrency budget (provider and server)
    kind: CallKind
    prompt_chars: int  # length of the known part of the prompt
    stored: GenerationResult | None = None  # the stored answer, replayed by the run
    local: bool = False  # a builtin model: runs in-process, never stored, never billed
    #: a builtin model's summary, written while planning (instant and exact)
    answer: GenerationResult | None = None
    #: the prompt holds a summary that is not written yet (its length is estimated)
    awaits_summary: bool = False
    #: the summary's study, for estimates that read similar calls
    study: str = ""

    @property
    def new(self) -> bool:
        """Whether the run must make this call (not replayed from the store)."""
        return self.stored is None


def _chars(request: GenerationRequest) -> int:
    return sum(len(m.content) for m in request.messages)


class _Resolver:
    def __init__(self, config: EngineConfig, provider: Callable[[str], Provider],
                 store: ResponseStore | None) -> None:
        self.config = config
        self.provider = provider
        self.store = store
        self.calls: list[PlannedCall] = []
        self._keys: dict[str, PlannedCall] = {}
        #: judge calls on a summary not written yet, by (that summary's call, their request
        #: with the summary left out): two pairs asking for the very same summary (say two
        #: prompt variants sharing a template) get one answer and so one set of judge calls
        self._awaiting: set[tuple[int, str]] = set()
        self._loop = asyncio.new_event_loop()
        self._local_providers: dict[str, Provider] = {}

    def close(self) -> None:
        for provider in self._local_providers.values():
            self._loop.run_until_complete(provider.aclose())
        self._loop.close()

    def _planned(self, model: str, kind: CallKind, request: GenerationRequest,
                 label: CallLabel, study: str) -> PlannedCall:
        """The call, looked up once per store key; a call made twice is counted once."""
        provider = self.provider(model)
        chars = _chars(request)
        if not provider.uses_store:
            answer = self._local(provider, request) if kind == "summary" else None
            call = PlannedCall(model, provider.name, provider.budget_key(), kind, chars,
                               local=True, answer=answer, study=study)
            self.calls.append(call)
            return call
        label = filed_label(label)  # the names the caller files the call under
        key = request_key(provider, request, label.key_repeat)
        known = self._keys.get(key)
        if known is not None:
            return known
        stored = self.store.lookup(label, key) if self.store is not None else None
        call = PlannedCall(model, provider.name, provider.budget_key(), kind, chars,
                           stored=stored, study=study)
        self._keys[key] = call
        self.calls.append(call)
        return call

    def _local(self, provider: Provider, request: GenerationRequest) -> GenerationResult | None:
        # A builtin summary is instant and exact: writing it here tells which judge calls
        # the run will make on it. One that fails is simply not known.
        self._local_providers[provider.full_name] = provider
        try:
            return self._loop.run_until_complete(provider.generate(request))
        except ProviderError:
            return None

    def pair(self, model: str, study: Study, repeat: int) -> None:
        called, request, label = summary_call(self.config, model, study, repeat)
        summary = self._planned(called, "summary", request, label, study.id)
        written = summary.stored or summary.answer
        text = written.text if written is not None else None
        # a summary not written yet: its judge requests hold "" where it will be
        requests = judge_requests(self.config, study, text or "", CRITERIA, model=model)
        for juror in self.config.jury:
            for criterion in CRITERIA:
                self._judge(juror, study, criterion, requests[criterion], text is not None,
                            model, summary, repeat)

    def _judge(self, juror: str, study: Study, criterion: Criterion,
               request: GenerationRequest, known: bool, subject: str,
               summary: PlannedCall, repeat: int = 0) -> None:
        if not known:
            provider = self.provider(juror)
            if provider.uses_store and not summary.local:
                awaiting = (id(summary), request_key(provider, request, 0))
                if awaiting in self._awaiting:
                    return
                self._awaiting.add(awaiting)
            self.calls.append(PlannedCall(
                juror, provider.name, provider.budget_key(), "judge", _chars(request),
                local=not provider.uses_store, awaits_summary=True, study=study.id))
            return
        label = judge_label(self.config, "judge", juror, study, criterion, subject, repeat)
        judged = self._planned(juror, "judge", request, label, study.id)
        if judged.stored is None:
            return  # whether its reply will need a repair cannot be known before it comes
        try:
            parse_judge_reply(judged.stored.text, criterion)
        except ReplyError as error:
            repair = repair_request(request, judged.stored.text, error, criterion)
            repair_label = judge_label(self.config, "repair", juror, study, criterion, subject,
                                       repeat)
            self._planned(juror, "repair", repair, repair_label, study.id)


def resolve_calls(pairs: Iterable[tuple[str, Study, int]], config: EngineConfig, *,
                  provider: Callable[[str], Provider],
                  store: ResponseStore | None) -> list[PlannedCall]:
    """Every call the run of ``pairs`` with the engine ``config`` (its jury, prompts and
    settings) would make, each with what the store holds for it; the requests and labels are
    the engine's own (:func:`pytest_rwe.pair_calls.summary_call` and its neighbours).

    ``provider(model)`` gives the provider of a model name (not called, except builtin
    models writing their summaries); ``store`` is looked up only (None: nothing stored).
    """
    resolver = _Resolver(config, provider, store)
    try:
        for model, study, repeat in pairs:
            resolver.pair(model, study, repeat)
    finally:
        resolver.close()
    return resolver.calls


__all__ = ["PlannedCall", "resolve_calls"]
