"""A worker that stops while its call is in flight must not make another worker repeat it."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from pytest_rwe.caller import Caller
from pytest_rwe.engine import Engine, EngineConfig
from pytest_rwe.prompts import load_prompts
from pytest_rwe.providers.base import GenerationRequest, GenerationResult, Provider
from pytest_rwe.providers.registry import register_provider
from pytest_rwe.providers.retry import RetryPolicy
from pytest_rwe.store import ResponseStore
from pytest_rwe.study import load_study

SUITE = Path(__file__).resolve().parent.parent / "cases" / "studies"
CALLS: list[str] = []
LOCK = threading.Lock()


class SlowModel(Provider):
    """Summarizes slowly and judges instantly; counts every summary call it receives."""

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
        await asyncio.sleep(0.5)
        return GenerationResult("A summary.", 0.5)


register_provider("slowtest", SlowModel)


def engine(store: Path) -> Engine:
    caller = Caller(store=ResponseStore(store, "new", run_id="run", poll_interval=0.02),
                    policy=RetryPolicy(max_attempts=1), concurrency=4)
    return Engine(EngineConfig(jury=("slowtest/judge",), prompts=load_prompts(None)), caller)


def test_a_worker_finishing_its_share_spares_the_other_a_second_call(tmp_path: Path) -> None:
    study = load_study(SUITE / "hospital_shift_work_metabolic_syndrome.json")
    CALLS.clear()
    first, second = engine(tmp_path), engine(tmp_path)
    first.submit("slowtest/model", study)  # worker 1 owns the pair and starts calling
    time.sleep(0.1)
    waiting = second.submit("slowtest/model", study)  # worker 2's test needs the same pair
    first.close(finish=True)  # worker 1 is done with its own tests
    evaluation = waiting.result(timeout=10)
    second.close()
    assert evaluation.summary is not None and evaluation.summary.text == "A summary."
    assert CALLS == ["model"]  # one summary call in all: worker 2 replayed worker 1's answer
