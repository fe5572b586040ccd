"""The floor: the sweep's work done by a bare asyncio engine over the three official SDKs.

What the fastest plain client on this machine needs for the sweep's 1,380 calls, measured
in the same sitting as pytest-rwe (``benchmarks/sweep.py`` runs both): one client and one
semaphore per vendor, no store, no retries policy of its own, no pytest; each (model,
study) gets its summary, then the nine judge calls on it at once. The prompts and the
generation settings are pytest-rwe's own (rendered before the clock starts, except the
judge prompts, which need the summary), so the requests are the same bytes.

The clock starts before the SDK imports and stops at the last answer. CPU is this
process's user + system time over the same span, divided by the calls.

    python benchmarks/floor.py --cap 16          # base URLs and keys from the environment
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("openai/gpt-4.1-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-flash")
JURY = ("openai/o4-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-pro")


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Floor:
    """One client and one semaphore per vendor; ``call`` returns the answer's text."""

    def __init__(self, cap: int) -> None:
        import anthropic
        import openai
        from google import genai

        self.openai = openai.AsyncOpenAI()
        self.anthropic = anthropic.AsyncAnthropic()
        self.google = genai.Client()  # kept: its .aio shares the Client's transport
        self.limits = {v: asyncio.Semaphore(cap) for v in ("openai", "anthropic", "google")}
        self.calls = 0

    async def call(self, model: str, prompt: str, settings: Mapping[str, Any]) -> str:
        vendor, _, name = model.partition("/")
        async with self.limits[vendor]:
            self.calls += 1
            messages: Any = [{"role": "user", "content": prompt}]
            if vendor == "openai":
                reply = await self.openai.chat.completions.create(
                    model=name, messages=messages, **settings)
                return reply.choices[0].message.content or ""
            if vendor == "anthropic":
                answer = await self.anthropic.messages.create(
                    model=name, messages=messages, **settings)
                return "".join(b.text for b in answer.content if b.type == "text")
            from google.genai import types

            result = await self.google.aio.models.generate_content(
                model=name, contents=prompt, config=types.GenerateContentConfig(**settings))
            return result.text or ""

    async def close(self) -> None:
        await self.openai.close()
        await self.anthropic.close()
        await self.google.aio.aclose()


async def sweep(cap: int, cases: Path) -> dict[str, Any]:
    from pytest_rwe.prompts import judge_request, load_prompts, render_summarize_prompt
    from pytest_rwe.providers.base import GenerationSettings
    from pytest_rwe.providers.registry import create_provider
    from pytest_rwe.study import load_folder
    from pytest_rwe.verdict import CRITERIA

    # data preparation, as any client would have it ready: studies, prompts, settings
    prompts = load_prompts(ROOT / "cases" / "prompts")
    studies = [load.study for load in load_folder(cases) if load.study is not None]
    shown = {s.id: render_summarize_prompt(s, prompts) for s in studies}
    settings = {name: dict(create_provider(name).effective_settings(GenerationSettings()))
                for name in (*MODELS, *JURY)}
    for name in ("openai", "anthropic", "google"):
        assert name not in sys.modules, f"{name} was imported before the clock started"
    cpu_before = cpu_s()
    clock = time.perf_counter()
    floor = Floor(cap)  # the SDK imports happen here, inside the timed span
    imported = time.perf_counter()

    async def pair(model: str, study: Any) -> None:
        summary = await floor.call(model, shown[study.id], settings[model])
        requests = [(juror, judge_request(study, summary, c, prompts, GenerationSettings(),
                                          shown[study.id]).messages[-1].content)
                    for juror in JURY for c in CRITERIA]
        await asyncio.gather(*(floor.call(j, text, settings[j]) for j, text in requests))

    await asyncio.gather(*(pair(m, s) for m in MODELS for s in studies))
    wall = time.perf_counter() - clock
    cpu = cpu_s() - cpu_before
    await floor.close()
    return {"calls": floor.calls, "wall_s": round(wall, 3),
            "sdk_import_s": round(imported - clock, 3), "cpu_s": round(cpu, 3),
            "cpu_ms_per_call": round(1000 * cpu / max(1, floor.calls), 3), "cap": cap}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=int, default=16, help="the semaphore per vendor")
    parser.add_argument("--cases", type=Path, default=ROOT / "cases" / "studies")
    args = parser.parse_args(argv)
    result = asyncio.run(sweep(args.cap, args.cases))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
