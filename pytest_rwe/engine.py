"""The evaluation engine: summaries and judge calls for many (model, study) pairs at once.

It owns one asyncio event loop on a background thread, so synchronous pytest tests can
block on their own result while the work of every other selected test keeps running
(bounded per provider). Calls go through the response store.

A juror is never silently left out: one whose reply cannot be read after one repair
*abstains*; one that could not be asked (a call that failed for good: rate-limit deadline
passed, 5xx or timeouts after their retries, a refused request) is an *error*, with the
redacted cause. Both are counted apart. An exception other than ProviderError raised by
provider code is a bug, not a failed call: it is an error too, and the evaluation keeps
its redacted traceback (:attr:`Evaluation.bugs`) so the pair's tests show where it came
from instead of swallowing it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import threading
import traceback
from collections.abc import Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pytest_rwe.caller import Caller, CallLabel, RunSharing, build_caller
from pytest_rwe.pair_calls import (
    EngineConfig,
    engine_config,
    judge_label,
    judge_requests,
    summary_call,
)
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    ProviderError,
    Usage,
)
from pytest_rwe.providers.builtin import PROCESS_LANE_OUTCOMES
from pytest_rwe.providers.preload import SdkPreloader
from pytest_rwe.redact import redact
from pytest_rwe.replies import ReplyError, parse_judge_reply, repair_request
from pytest_rwe.settings import EngineSettings
from pytest_rwe.store import CallKind, Deferral, StoreMissError
from pytest_rwe.store.leader import Leader
from pytest_rwe.study import Study
from pytest_rwe.verdict import CRITERIA, Criterion, JurorScore, Verdict

# the pair's calls live in pytest_rwe.pair_calls (shared with the planner); re-exported here,
# where callers have always found them
__all__ = ["CallUsage", "Engine", "EngineConfig", "Evaluation", "build_engine",
           "engine_config", "judge_label", "judge_requests", "summary_call"]

T = TypeVar("T")
#: how often a follower checks whether the run's leader is lost
LEADER_CHECK_S = 0.5


@dataclass(frozen=True)
class CallUsage:
    """One call an evaluation made or replayed: the called model, what for, its tokens."""

    model: str
    kind: CallKind
    usage: Usage
    replayed: bool = False

    @classmethod
    def of(cls, model: str, kind: CallKind, result: GenerationResult) -> CallUsage:
        return cls(model, kind, result.usage, result.replayed)


@dataclass(frozen=True)
class Evaluation:
    """One summary of one study by one model, and the jury's verdict on it."""

    model: str
    study_id: str
    repeat: int
    summary: GenerationResult | None
    verdict: Verdict | None
    error: str | None = None  # why no summary could be had (already redacted)
    #: redacted tracebacks of exceptions raised by provider code (bugs, never swallowed)
    bugs: tuple[str, ...] = ()
    #: the summary's claim diagnostics (:mod:`pytest_rwe.rules.diagnostics`), when computed
    claims: Mapping[str, Any] | None = None
    #: the rules juror's findings per criterion, when read apart with a big study's claims
    rules_findings: Mapping[str, list[dict[str, Any]]] | None = None
    #: every call that answered: the summary, then the judge calls and repairs (failed
    #: calls are not billed and not listed)
    calls: tuple[CallUsage, ...] = ()

    @property
    def juror_errors(self) -> tuple[JurorScore, ...]:
        """The jurors that could not be asked, over every criterion."""
        if self.verdict is None:
            return ()
        return tuple(s for v in self.verdict.criteria.values() for s in v.scores if s.errored)


class Engine:
    """Runs evaluations concurrently on a private event loop."""

    def __init__(self, config: EngineConfig, caller: Caller) -> None:
        self.config = config
        self.caller = caller
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="rwe-engine",
                                        daemon=True)
        self._thread.start()
        self._lock = threading.Lock()
        self._evaluations: dict[tuple[str, str, int], concurrent.futures.Future[Evaluation]] = {}
        self._preloader: SdkPreloader | None = None
        self._followed: set[tuple[str, str, int]] = set()
        self._leader: Leader | None = None
        self._takeover: concurrent.futures.Future[None] | None = None
        # a worker process reading the summaries of studies with hundreds of outcomes
        self._reader: concurrent.futures.ProcessPoolExecutor | None = None
        #: set when ``close(finish=True)`` starts waiting for the outstanding work (a test
        #: orders events on it instead of sleeping)
        self.finishing = threading.Event()

    def preload(self, models: Iterable[str] = ()) -> None:
        """Import the SDKs of ``models`` and the jurors now, in the background, unless the
        store only replays. Live calls wait for it: concurrent SDK imports are not safe."""
        store = self.caller.store
        if self._preloader is None and (store is None or store.mode != "none"):
            self._preloader = SdkPreloader((*models, *self.config.jury))
            self._preloader.start()

    # -- public, thread-safe ---------------------------------------------------------------
    def submit(self, model: str, study: Study, repeat: int = 0) -> concurrent.futures.Future[
            Evaluation]:
        """Start (or join) the evaluation of ``study`` by ``model``; idempotent per key."""
        key = (model, study.id, repeat)
        with self._lock:
            future = self._evaluations.get(key)
            if future is None:
                future = self._run(self._evaluate(model, study, repeat))
                self._evaluations[key] = future
            return future

    def submit_many(self, pairs: Iterable[tuple[str, Study, int]]) -> None:
        """Queue work ahead of the tests that will ask for it."""
        for model, study, repeat in pairs:
            self.submit(model, study, repeat)

    def follow(self, pairs: Iterable[tuple[str, Study, int]], leader: Leader) -> None:
        """Another process (the run's leader) computes these (model, study, repeat) pairs:
        while it works, wait for its answers instead of calling the models. If it is lost
        (died, hung), take its work over: queue every one of them, as a leader would (other
        followers do too; the store makes each call once and the budget stays shared)."""
        planned = list(pairs)
        self._followed.update((model, study.id, repeat) for model, study, repeat in planned)
        self._leader = leader
        if self._takeover is None:
            self._takeover = self._run(self._take_over_when_lost(leader, planned))

    async def _take_over_when_lost(self, leader: Leader,
                                   planned: list[tuple[str, Study, int]]) -> None:
        while not leader.lost():
            await asyncio.sleep(LEADER_CHECK_S)
        for model, study, repeat in planned:
            self.submit(model, study, repeat)

    def evaluate(self, model: str, study: Study, repeat: int = 0) -> Evaluation:
        """Block until the evaluation of ``study`` by ``model`` is done."""
        return self.submit(model, study, repeat).result()

    def judge(self, study: Study, summary: str,
              criteria: Iterable[Criterion] = CRITERIA) -> Verdict:
        """Judge any text as a summary of ``study`` (for the ``rwe_jury`` fixture)."""
        return self.submit_judge(study, summary, criteria).result()

    def submit_judge(
        self, study: Study, summary: str, criteria: Iterable[Criterion] = CRITERIA, *,
        subject: str = "(user summary)",
    ) -> concurrent.futures.Future[Verdict]:
        """Start judging ``summary`` on ``criteria`` (integrations await the future)."""
        wanted = tuple(criteria)
        return self._run(self._judge(study, summary, model=subject, criteria=wanted))

    def submit_call(
        self, model: str, request: GenerationRequest, label: CallLabel
    ) -> concurrent.futures.Future[GenerationResult]:
        """Start one call through the store, retries and the provider gate."""
        return self._run(self.caller.call(model, request, label))

    def progress_snapshot(self) -> dict[str, Any]:
        """This process's counters (calls made, store hits, retries, 429s, failed calls) and
        each provider endpoint's adaptive limit; JSON-able."""
        calls = self.caller.stats.snapshot()
        store = self.caller.store
        return {
            "calls": calls["calls"],
            "store_hits": store.stats.hits if store is not None else 0,
            "retries": calls["retries"],
            "rate_limited": calls["rate_limited"],
            "errors": calls["errors"],
            "endpoints": self.caller.snapshot(),
        }

    def status(self) -> str:
        """What the engine is doing now, in a few words (for a test that waits long)."""
        parts = []
        for key, s in self.caller.snapshot().items():
            name = key.partition("@")[0]
            part = f"{name} {s['in_flight']} in flight (limit {s['limit']})"
            if s["queued"]:
                part += f", {s['queued']} queued"
            parts.append(part)
        store = self.caller.store
        if store is not None and store.waiting():
            parts.append(f"{store.waiting()} call(s) waiting for another process using the "
                         f"store {store.root} to answer them")
        return "; ".join(parts) or "no call in flight"

    def close(self, *, finish: bool = False, timeout: float = 600.0) -> None:
        """Stop: finish (``finish=True``) or cancel outstanding work, close the clients.

        An xdist worker finishes its work before it stops: another worker's test may be
        waiting for that answer, and a call cancelled after it was sent would be made twice.
        """
        if not self._loop.is_running():
            return
        if self._takeover is not None:
            self._takeover.cancel()
        pending = list(self._evaluations.values())
        if finish:
            self.finishing.set()
            concurrent.futures.wait(pending, timeout=timeout)
        for future in pending:
            future.cancel()
        # a client that will not close must not hang the session
        with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
            self._run(self.caller.aclose()).result(timeout=10)
        if self._preloader is not None:
            self._preloader.join()
        if self._reader is not None:
            self._reader.shutdown(wait=False, cancel_futures=True)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._loop.is_running():
            self._loop.close()

    # -- internals -------------------------------------------------------------------------
    def _run(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    async def _evaluate(self, model: str, study: Study, repeat: int) -> Evaluation:
        called, request, label = summary_call(self.config, model, study, repeat)
        defer = self._leader if (model, study.id, repeat) in self._followed else None
        bugs: list[str] = []
        try:
            summary = await self.caller.call(called, request, label, defer=defer)
        except (ProviderError, StoreMissError) as exc:
            return Evaluation(model, study.id, repeat, None, None, error=redact(str(exc)))
        except Exception as exc:
            cause = _bug(exc, model, bugs)
            return Evaluation(model, study.id, repeat, None, None, error=cause,
                              bugs=tuple(bugs))
        # The claim diagnostics the report shows are read off the summary while the jury is
        # asked, not by the test once it has the verdict: pytest's one thread then has nothing
        # left to do when the last answers come in. On a thread for most studies; for a study
        # with hundreds of outcomes, whose reading takes seconds of CPU that would hold the
        # interpreter lock against every call, in a worker process, with the rules juror's
        # findings the test would otherwise read on pytest's thread.
        claims = asyncio.ensure_future(self._read(study, summary.text))
        calls = [CallUsage.of(called, "summary", summary)]
        try:
            verdict = await self._judge(study, summary.text, model=model, defer=defer,
                                        bugs=bugs, calls=calls, repeat=repeat)
        except StoreMissError as exc:
            # a replay-only run without the judge's answer: not a juror's abstention
            claims.cancel()
            return Evaluation(model, study.id, repeat, summary, None, error=str(exc),
                              calls=tuple(calls))
        read, findings = await _diagnosed(claims, bugs)
        return Evaluation(model, study.id, repeat, summary, verdict, bugs=tuple(bugs),
                          claims=read, rules_findings=findings, calls=tuple(calls))

    async def _read(self, study: Study, text: str) -> _Reading:
        if not self.config.claims:
            return None, None
        if len(study.outcomes) <= PROCESS_LANE_OUTCOMES:
            return await asyncio.to_thread(_claim_diagnostics, study, text), None
        # imported only when a big study needs it (see _claim_diagnostics)
        from pytest_rwe.rules.diagnostics import RULES_JUROR, summary_reading

        if self._reader is None:
            self._reader = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return await asyncio.get_running_loop().run_in_executor(
            self._reader, summary_reading, study, text, RULES_JUROR in self.config.jury)

    async def _judge(self, study: Study, summary: str, *, model: str,
                     criteria: tuple[Criterion, ...] = CRITERIA,
                     defer: Deferral | None = None, bugs: list[str] | None = None,
                     calls: list[CallUsage] | None = None, repeat: int = 0) -> Verdict:
        requests = judge_requests(self.config, study, summary, criteria, model=model)
        found = [] if bugs is None else bugs
        made = [] if calls is None else calls
        jobs = [
            self._judge_one(juror, study, requests[criterion], criterion, model, defer, found,
                            made, repeat)
            for juror in self.config.jury
            for criterion in criteria
        ]
        return Verdict.from_scores(await asyncio.gather(*jobs))

    async def _judge_one(
        self, juror: str, study: Study, request: GenerationRequest, criterion: Criterion,
        model: str, defer: Deferral | None, bugs: list[str], calls: list[CallUsage],
        repeat: int = 0,
    ) -> JurorScore:
        label = judge_label(self.config, "judge", juror, study, criterion, model, repeat)
        try:
            reply = await self.caller.call(juror, request, label, defer=defer)
            calls.append(CallUsage.of(juror, "judge", reply))
            try:
                parsed = parse_judge_reply(reply.text, criterion)
            except ReplyError as first:
                repair = repair_request(request, reply.text, first, criterion)
                repair_label = judge_label(self.config, "repair", juror, study, criterion, model,
                                           repeat)
                second = await self.caller.call(juror, repair, repair_label, defer=defer)
                calls.append(CallUsage.of(juror, "repair", second))
                try:
                    parsed = parse_judge_reply(second.text, criterion)
                except ReplyError as again:
                    return _abstain(juror, criterion,
                                    f"reply unreadable after one repair attempt: {again}")
        except StoreMissError:
            raise
        except ProviderError as exc:
            return _error(juror, criterion, redact(str(exc)))
        except Exception as exc:
            return _error(juror, criterion, _bug(exc, juror, bugs))
        return JurorScore(juror, criterion, parsed.score, parsed.explanation)


def build_engine(settings: EngineSettings, *, config: EngineConfig | None = None,
                 sharing: RunSharing | None = None,
                 preload: Iterable[str] | None = None) -> Engine:
    """The one way to make an engine (the plugin, ``rwe calibrate``, the integrations):
    its caller from ``settings`` (:func:`pytest_rwe.caller.build_caller`, joined to the run's
    other processes by ``sharing``), its jury and prompts from ``config`` (default:
    :func:`engine_config` of ``settings``). With ``preload``, the SDKs of those models and
    of the jurors start importing now. The caller of this closes the engine."""
    engine = Engine(config or engine_config(settings), build_caller(settings, sharing))
    if preload is not None:
        engine.preload(preload)
    return engine


def _claim_diagnostics(study: Study, text: str) -> dict[str, Any]:
    # Imported on the thread that reads the claims, while the first calls are in flight, not
    # with the engine: the rules reader is some 40 modules, and compiling them before the
    # first call delays every call.
    from pytest_rwe.rules.diagnostics import claim_diagnostics

    return claim_diagnostics(study, text)


#: a summary's claim diagnostics and the rules juror's findings, each when read
_Reading = tuple[Mapping[str, Any] | None, Mapping[str, list[dict[str, Any]]] | None]


async def _diagnosed(claims: asyncio.Future[_Reading], bugs: list[str]) -> _Reading:
    try:
        return await claims
    except Exception as exc:  # a bug in the claim reader must not cost the verdict
        _bug(exc, "the claim diagnostics", bugs)
        return None, None


def _abstain(juror: str, criterion: Criterion, why: str) -> JurorScore:
    return JurorScore(juror, criterion, None, f"abstained: {why}")


def _error(juror: str, criterion: Criterion, cause: str) -> JurorScore:
    return JurorScore(juror, criterion, None, f"could not be asked: {cause}", error=cause)


def _bug(exc: Exception, model: str, bugs: list[str]) -> str:
    """The redacted one-line cause of an exception other than a failed call (a bug in
    provider code, a store that cannot be written); its redacted traceback is added to
    ``bugs`` (once per distinct traceback)."""
    cause = redact(f"{type(exc).__name__}: {exc} (raised while calling {model}: not a "
                   "failed call but an exception in the code; see its traceback)")
    text = redact("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    if text not in bugs:
        bugs.append(text)
    return cause
