"""A worker that stops while its call is in flight must not make another worker repeat it.

Ordered by events, never by sleeping: the model's summary call starts, the second engine's
claim is seen waiting for it, the first engine is seen waiting for its own work as it
closes, and only then is the model let go. So the test holds on a machine of any speed, and
fails if ``close`` does not finish the call in flight (the second engine would make it again).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pytest_rwe.caller import Caller
from pytest_rwe.engine import Engine, engine_config
from pytest_rwe.providers.base import GenerationRequest, GenerationResult, Provider
from pytest_rwe.providers.registry import register_provider
from pytest_rwe.providers.retry import RetryPolicy
from pytest_rwe.settings import engine_settings
from pytest_rwe.store import ResponseStore
from pytest_rwe.study import load_study

SUITE = Path(__file__).resolve().parent.parent / "cases" / "studies"
CALLS: list[str] = []
LOCK = threading.Lock()
STARTED = threading.Event()  # the summary call has reached the model
RELEASE = threading.Event()  # the model may answer
BOUND_S = 30.0  # a generous bound: a step that never happens fails the test, saying which


class SlowModel(Provider):
    """Summarizes when released and judges instantly; counts every summary call it receives."""

    name = "slowtest"

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        text = request.messages[-1].content
        if "<<<SUMMARY" in text:
            criterion = next(c for c in ("direction_of_effect", "numbers_accurate",
                                         "completeness") if f'{{"{c}"' in text)
            return GenerationResult(f'{{"{criterion}": {{"score": 1, "explanation": "ok"}}}}',
                                    0.0)
        with LOCK:
            CALLS.append(self.model)
        STARTED.set()
        await asyncio.to_thread(RELEASE.wait, BOUND_S)
        return GenerationResult("A summary.", 0.5)


register_provider("slowtest", SlowModel)


def engine(store: Path) -> Engine:
    caller = Caller(store=ResponseStore(store, "new", run_id="run", poll_interval=0.02),
                    policy=RetryPolicy(max_attempts=1), concurrency=4)
    # made by hand, not by build_engine: its store polls faster than a user's
    return Engine(engine_config(engine_settings(jury=("slowtest/judge",))), caller)


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (polling), failing after :data:`BOUND_S` with ``what``."""
    deadline = time.monotonic() + BOUND_S
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.01)


def test_a_worker_finishing_its_share_spares_the_other_a_second_call(tmp_path: Path) -> None:
    study = load_study(SUITE / "hospital_shift_work_metabolic_syndrome.json")
    CALLS.clear()
    STARTED.clear()
    RELEASE.clear()
    first, second = engine(tmp_path), engine(tmp_path)
    try:
        first.submit("slowtest/model", study)  # worker 1 owns the pair and starts calling
        assert STARTED.wait(BOUND_S), "the first engine never called the model"
        waiting = second.submit("slowtest/model", study)  # worker 2's test needs the same pair
        store = second.caller.store
        assert store is not None
        until(lambda: store.waiting() >= 1, "the second engine waiting for the first's call")
        closing = threading.Thread(target=first.close, kwargs={"finish": True})
        closing.start()  # worker 1 is done with its own tests
        assert first.finishing.wait(BOUND_S), "the first engine closed without finishing"
        # A close that does not wait would return now. The correct one cannot (the model has
        # not answered), so this holds at any speed; it is a chance for a bug to show.
        closing.join(0.2)
        assert closing.is_alive(), "close(finish=True) returned with its call in flight"
        RELEASE.set()  # the call in flight answers only now, while worker 1 is closing
        evaluation = waiting.result(timeout=BOUND_S)
        closing.join(BOUND_S)
    finally:
        RELEASE.set()
        first.close()
        second.close()
    assert evaluation.summary is not None and evaluation.summary.text == "A summary."
    assert CALLS == ["model"]  # one summary call in all: worker 2 replayed worker 1's answer
