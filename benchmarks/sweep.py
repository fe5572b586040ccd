"""Sweep benchmark: the suite on three vendor models judged by three vendor jurors.

Starts the fake server (250 ms per call, 16 concurrent calls per provider, 429 with
Retry-After above that), runs ``pytest cases`` with one model and one juror per vendor, and
prints the calls made, wall seconds, the lower bound (the busiest provider's calls x 0.25 s /
16, plus the two-call dependency chain), their ratio, the 429s seen and peak memory; then
the same sweep replayed from the store; then a synthetic 1,000-study x 3-model replay.

    python benchmarks/sweep.py                 # single process and -n 4
    python benchmarks/sweep.py --workers 0     # one configuration
    python benchmarks/sweep.py --synthetic 0   # skip the synthetic replay

Numbers are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from pytest_rwe.testing.fake_server import FakeServer

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("openai/gpt-4.1-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-flash")
JURY = ("openai/o4-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-pro")
FAKE_KEYS = {"OPENAI_API_KEY": "sk-bench-0123456789abcdef",
             "ANTHROPIC_API_KEY": "sk-ant-bench-0123456789abcdef",
             "GEMINI_API_KEY": "AIzaBench0123456789abcdefghijklmnopqrstu"}
TEST_FILE = ROOT / "cases" / "test_summaries.py"
NOTHING = "rwe_benchmark_selects_no_test"


def run_pytest(args: list[str], env: dict[str, str]) -> tuple[float, float | None, str, int]:
    """Run pytest; return wall seconds, pytest's own duration, output, peak RSS in MB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) // 1024
    match = re.search(r" in ([0-9.]+)s", proc.stdout.splitlines()[-1] if proc.stdout else "")
    return wall, float(match.group(1)) if match else None, proc.stdout + proc.stderr, peak


def sdk_import_seconds() -> float:
    """How long importing the three vendor SDKs takes in a fresh interpreter (median of 3)."""
    code = ("import time; t = time.perf_counter(); import openai, anthropic, google.genai; "
            "print(time.perf_counter() - t)")
    runs = sorted(float(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True).stdout) for _ in range(3))
    return runs[1]


def outcome_line(output: str) -> str:
    lines = [line for line in output.splitlines() if re.search(r"\d+ (passed|failed|error)", line)]
    return lines[-1].strip("= ") if lines else output[-400:]


def summaries_by_model(cases: Path) -> Callable[[str, str, str], str | None]:
    """A fake-server responder: each model's own summary of the study in the prompt.

    Distinct summaries per model make distinct judge requests, as real models would (the
    server's default summary is one text for every study and model).
    """
    from pytest_rwe.study import load_folder
    from pytest_rwe.summarizer import summarize

    by_question = {load.study.question: summarize(load.study)
                   for load in load_folder(cases) if load.study is not None}

    def respond(provider: str, model: str, prompt: str) -> str | None:
        if "<<<SUMMARY" in prompt:
            return None  # a judge prompt: the server's passing verdict
        for question, summary in by_question.items():
            if question in prompt:
                return f"{summary} (Written by the {provider} model.)"
        return None

    return respond


def sweep(cases: Path, workers: int, latency: float, cap: int, store: Path) -> dict[str, object]:
    base = ["-q", "-p", "no:cacheprovider", str(TEST_FILE), "--rwe-cases", str(cases),
            "--rwe-jury", ",".join(JURY), "--rwe-store", str(store), "--rwe-concurrency", str(cap)]
    base += [arg for model in MODELS for arg in ("--rwe-model", model)]
    if workers:
        base += ["-n", str(workers)]
    with FakeServer(latency_s=latency, concurrency_cap=cap, retry_after_s=1.0,
                    keep_bodies=False, responder=summaries_by_model(cases)) as server:
        env = {**os.environ, **FAKE_KEYS, **server.env()}
        # pytest start-up: the same command (same workers) with no test to run and nothing
        # to call; --collect-only would not do, since xdist does not start workers for it
        startup, _, _, _ = run_pytest([*base, "--rwe-record", "none", "-k", NOTHING], env)
        sdk = sdk_import_seconds()
        wall, _, output, peak = run_pytest(base, env)
        requests = server.requests
        per_provider = Counter(r.provider for r in requests if r.status == 200)
        calls = sum(per_provider.values())
        busiest = max(per_provider.values()) if per_provider else 0
        lower = busiest * latency / cap + 2 * latency
        live = {
            "workers": workers, "calls": calls, "per_provider": dict(per_provider),
            "rate_limited_429": server.rate_limited(),
            "duplicates": len(server.duplicate_requests()),
            "wall_s": round(wall, 2), "startup_s": round(startup, 2),
            "lower_bound_s": round(lower, 2), "ratio": round(wall / lower, 2) if lower else None,
            "ratio_after_startup": round((wall - startup) / lower, 2) if lower else None,
            # a live run also imports the vendor SDKs once (the plugin starts that at
            # configure); collect-only does not, so it is measured on its own
            "sdk_import_s": round(sdk, 2),
            "ratio_after_startup_and_sdk_import": (
                round((wall - startup - sdk) / lower, 2) if lower else None),
            "peak_rss_mb": peak, "outcome": outcome_line(output),
        }
        server.reset()
        r_wall, r_test, r_output, r_peak = run_pytest([*base, "--rwe-record", "none"], env)
        replay = {"wall_s": round(r_wall, 2), "test_s": r_test, "calls": len(server.requests),
                  "peak_rss_mb": r_peak, "outcome": outcome_line(r_output)}
    return {"live": live, "replay": replay}


def synthetic_replay(count: int, workers: int) -> dict[str, object]:
    """Prefill a store for ``count`` generated studies x 3 models, then replay the suite."""
    from benchmarks.prefill import prefill_store, write_studies

    with tempfile.TemporaryDirectory() as tmp:
        cases, store = Path(tmp) / "studies", Path(tmp) / "store"
        studies = write_studies(cases, count, random.Random(1000))
        start = time.perf_counter()
        written = prefill_store(studies, MODELS, JURY, store)
        prefill_s = time.perf_counter() - start
        args = ["-q", "-p", "no:cacheprovider", str(TEST_FILE), "--rwe-cases", str(cases),
                "--rwe-jury", ",".join(JURY), "--rwe-store", str(store), "--rwe-record", "none"]
        args += [arg for model in MODELS for arg in ("--rwe-model", model)]
        if workers:
            args += ["-n", str(workers)]
        env = {**os.environ, **FAKE_KEYS, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
               "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
               "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9"}  # nothing listens: replay only
        wall, test_s, output, peak = run_pytest(args, env)
    return {"studies": count, "models": len(MODELS), "workers": workers,
            "stored_responses": written, "prefill_s": round(prefill_s, 1),
            "wall_s": round(wall, 2), "test_s": test_s, "peak_rss_mb": peak,
            "outcome": outcome_line(output)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, action="append",
                        help="xdist workers (0 = single process); repeatable (default 0 and 4)")
    parser.add_argument("--latency", type=float, default=0.25)
    parser.add_argument("--cap", type=int, default=16)
    parser.add_argument("--cases", type=Path, default=ROOT / "cases" / "studies")
    parser.add_argument("--synthetic", type=int, default=1000,
                        help="studies in the synthetic replay (0 to skip)")
    args = parser.parse_args(argv)
    results: dict[str, object] = {"machine": {"cpus": os.cpu_count()}}
    for workers in args.workers or [0, 4]:
        with tempfile.TemporaryDirectory() as store:
            result = sweep(args.cases, workers, args.latency, args.cap, Path(store))
        results[f"sweep_n{workers}"] = result
        print(json.dumps({f"sweep_n{workers}": result}, indent=2), flush=True)
    if args.synthetic:
        for workers in (0,):
            result = synthetic_replay(args.synthetic, workers)
            results[f"synthetic_replay_n{workers}"] = result
            print(json.dumps({f"synthetic_replay_n{workers}": result}, indent=2), flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
