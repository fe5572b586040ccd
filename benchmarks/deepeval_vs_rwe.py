"""The same jury work through deepeval and through pytest-rwe, against the fake vendor server.

Judges N builtin summaries of suite studies x 3 jurors (openai, anthropic, google) x 3
criteria, three ways, each with a fresh temporary response store (nothing replays):

- ``deepeval+rwe-metrics``: ``deepeval.evaluate`` with DirectionOfEffect, NumbersAccurate
  and Completeness (the RWE jury as deepeval metrics);
- ``deepeval+geval``: ``deepeval.evaluate`` with nine ``GEval`` metrics per summary (one
  per juror and criterion) whose model is ``RweDeepEvalLLM`` - the jury built from
  deepeval's own metric;
- ``pytest-rwe``: ``Engine.judge`` for every summary at once (threads), as the plugin does.

Run (needs the deepeval extra)::

    DEEPEVAL_TELEMETRY_OPT_OUT=1 DEEPEVAL_DISABLE_DOTENV=1 \
        python benchmarks/deepeval_vs_rwe.py --studies 20 --repeats 3

It prints wall time and the calls the server answered for each way, and their ratios.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
STUDIES = ROOT / "cases" / "studies"
JURORS = ("openai/o4-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-pro")
FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-fake-benchmark",
    "ANTHROPIC_API_KEY": "sk-ant-fake-benchmark",
    "GEMINI_API_KEY": "fake-benchmark",
}
GEVAL_REPLY = json.dumps({"reason": "Every claim matches the study results.", "score": 10})


@dataclass(frozen=True)
class Run:
    way: str
    wall_s: float
    calls: int  # requests the server received (a 429 counts: it is a call made)
    rate_limited: int
    max_in_flight: int


def responder(provider: str, model: str, prompt: str) -> str | None:
    """RWE judge prompts get the server's default verdict; any other prompt is GEval's."""
    from pytest_rwe.testing.fake_wire import judge_criterion

    return None if judge_criterion(prompt) is not None else GEVAL_REPLY


def load_cases(count: int) -> list[tuple[Any, str]]:
    from pytest_rwe.rules.summarizer import summarize
    from pytest_rwe.study import load_study

    paths = sorted(STUDIES.glob("*.json"))[:count]
    if len(paths) < count:
        sys.exit(f"only {len(paths)} studies in {STUDIES}; use --studies {len(paths)} or fewer")
    studies = [load_study(p) for p in paths]
    return [(s, summarize(s)) for s in studies]


def measure(way: str, server: Any, work: Callable[[Path], None], *, replay: bool = False) -> Run:
    """One timed run on a fresh store; ``replay`` times a second run on the filled store."""
    with tempfile.TemporaryDirectory(prefix="rwe-bench-") as store:
        # deepeval prints a results banner per evaluate(); keep the table readable
        with contextlib.redirect_stdout(io.StringIO()):
            if replay:
                work(Path(store))
            server.reset()
            started = time.perf_counter()
            work(Path(store))
            wall = time.perf_counter() - started
        stats = server.stats()
    return Run(way, wall, stats["requests"], sum(stats["rate_limited"].values()),
               max(stats["max_in_flight"].values(), default=0))


def deepeval_rwe_metrics(cases: Sequence[tuple[Any, str]], concurrency: int) -> Callable[
        [Path], None]:
    def work(store: Path) -> None:
        from deepeval import evaluate
        from deepeval.evaluate.configs import AsyncConfig, DisplayConfig

        from pytest_rwe.integrations.deepeval import (
            METRICS,
            close_shared_engines,
            rwe_test_case,
        )

        options: dict[str, Any] = {"jurors": JURORS, "store": store, "concurrency": concurrency}
        metrics = [metric(**options) for metric in METRICS]  # one per criterion
        test_cases = [rwe_test_case(study, summary) for study, summary in cases]
        try:
            result = evaluate(test_cases, metrics, async_config=AsyncConfig(),
                              display_config=DisplayConfig(print_results=False,
                                                           show_indicator=False))
            check_scored(result, len(METRICS) * len(cases))
        finally:
            close_shared_engines()

    return work


def deepeval_geval(cases: Sequence[tuple[Any, str]], concurrency: int) -> Callable[
        [Path], None]:
    def work(store: Path) -> None:
        from deepeval import evaluate
        from deepeval.evaluate.configs import AsyncConfig, DisplayConfig
        from deepeval.metrics import GEval
        from deepeval.test_case import SingleTurnParams

        from pytest_rwe.criteria import CRITERIA
        from pytest_rwe.integrations.deepeval import (
            RweDeepEvalLLM,
            close_shared_engines,
            rwe_test_case,
        )
        from pytest_rwe.prompts import load_prompts

        prompts = load_prompts()
        metrics = []
        for juror in JURORS:
            model = RweDeepEvalLLM(juror, store=store, concurrency=concurrency)
            for criterion in CRITERIA:
                steps = [line for line in prompts.judge(criterion).text.splitlines()
                         if line.strip() and "$" not in line][:3]
                metrics.append(GEval(
                    name=f"{criterion} [{juror}]", evaluation_steps=steps, model=model,
                    evaluation_params=[SingleTurnParams.INPUT, SingleTurnParams.ACTUAL_OUTPUT],
                ))
        test_cases = [rwe_test_case(study, summary) for study, summary in cases]
        try:
            result = evaluate(test_cases, metrics, async_config=AsyncConfig(),
                              display_config=DisplayConfig(print_results=False,
                                                           show_indicator=False))
            check_scored(result, len(metrics) * len(cases))
        finally:
            close_shared_engines()

    return work


def check_scored(result: Any, expected: int) -> None:
    """Fail loudly if any metric errored: a fast benchmark of failures would mislead."""
    scored = [m for t in result.test_results for m in (t.metrics_data or [])
              if m.error is None and m.score is not None]
    if len(scored) != expected:
        errors = {m.error for t in result.test_results for m in (t.metrics_data or []) if m.error}
        sys.exit(f"only {len(scored)} of {expected} metrics scored; errors: {errors}")


def pytest_rwe_engine(cases: Sequence[tuple[Any, str]], concurrency: int) -> Callable[
        [Path], None]:
    def work(store: Path) -> None:
        from pytest_rwe.criteria import CRITERIA
        from pytest_rwe.engine import build_engine
        from pytest_rwe.settings import engine_settings

        engine = build_engine(engine_settings(jury=JURORS, store=store, concurrency=concurrency))
        try:
            # one thread per summary, as tests calling the rwe_jury fixture would
            with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
                verdicts = list(pool.map(lambda c: engine.judge(*c), cases))
        finally:
            engine.close()
        scored = sum(1 for v in verdicts for c in v.criteria.values() for s in c.answered)
        expected = len(JURORS) * len(CRITERIA) * len(cases)
        if scored != expected:
            sys.exit(f"only {scored} of {expected} juror scores came back")

    return work


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--studies", type=int, default=20, help="summaries to judge")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each way")
    parser.add_argument("--latency", type=float, default=0.25, help="server seconds per call")
    parser.add_argument("--cap", type=int, default=16, help="server concurrency cap per vendor")
    parser.add_argument("--concurrency", type=int, default=16,
                        help="pytest-rwe calls in flight per provider")
    parser.add_argument("--warmups", type=int, default=1,
                        help="untimed runs of each way first (imports, SDK clients)")
    parser.add_argument("--no-geval", action="store_true", help="skip the GEval way")
    args = parser.parse_args(argv)

    for name in ("DEEPEVAL_TELEMETRY_OPT_OUT", "DEEPEVAL_DISABLE_DOTENV"):
        os.environ.setdefault(name, "1")
    from pytest_rwe.testing import FakeServer

    cases = load_cases(args.studies)
    # deepeval.evaluate writes its run cache to ./.deepeval: keep it out of the checkout
    scratch = tempfile.TemporaryDirectory(prefix="rwe-bench-cwd-")
    os.chdir(scratch.name)
    ways = {"deepeval+rwe-metrics": deepeval_rwe_metrics(cases, args.concurrency),
            "pytest-rwe": pytest_rwe_engine(cases, args.concurrency)}
    if not args.no_geval:
        ways["deepeval+geval"] = deepeval_geval(cases, args.concurrency)
    runs: dict[str, list[Run]] = {way: [] for way in ways}
    if args.repeats < 1:
        parser.error("--repeats must be 1 or more")
    with FakeServer(latency_s=args.latency, concurrency_cap=args.cap, responder=responder,
                    keep_bodies=False) as server:
        os.environ.update(server.env())
        os.environ.update(FAKE_KEYS)
        for _ in range(args.warmups):
            for work in ways.values():
                measure("warm-up", server, work)
        for _ in range(args.repeats):
            for way, work in ways.items():  # interleaved, so drift hits every way alike
                runs[way].append(measure(way, server, work))
        for way, work in ways.items():
            runs[f"{way} (replay)"] = [measure(way, server, work, replay=True)]

    print(f"{args.studies} summaries x {len(JURORS)} jurors x 3 criteria; server latency "
          f"{args.latency}s, cap {args.cap}/vendor; pytest-rwe concurrency {args.concurrency}"
          f"/provider; {args.repeats} runs each (median wall time)")
    print(f"{'way':<31}{'median s':>9}  {'runs (s)':<36}{'calls':>6}{'429s':>6}{'in flight':>10}")
    base = statistics.median(r.wall_s for r in runs["pytest-rwe"])
    base_calls = runs["pytest-rwe"][-1].calls
    for way, done in runs.items():
        wall = statistics.median(r.wall_s for r in done)
        every = ", ".join(f"{r.wall_s:.2f}" for r in done)
        last = done[-1]
        print(f"{way:<31}{wall:>9.2f}  {every:<36}{last.calls:>6}{last.rate_limited:>6}"
              f"{last.max_in_flight:>10}")
    for way, done in runs.items():
        if way in ways and way != "pytest-rwe":
            wall = statistics.median(r.wall_s for r in done)
            print(f"ratio {way} / pytest-rwe: wall {wall / base:.2f}x, "
                  f"calls {done[-1].calls / base_calls:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
