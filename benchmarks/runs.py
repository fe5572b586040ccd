"""Running the sweep's pieces: pytest-rwe and the floor against a fresh fake server.

Shared by the scenarios of ``benchmarks/sweep.py`` (see its docstring for what is measured),
with the target table it prints at the end (``verdicts``).
"""

from __future__ import annotations

import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_rwe.testing.fake_server import FakeServer

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases" / "studies"
PROMPTS = ROOT / "cases" / "prompts"
#: the workload issue 11 states its targets on: the 46 studies the suite had then
SWEEP_STUDIES = ROOT / "benchmarks" / "sweep_studies.txt"
MODELS = ("openai/gpt-4.1-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-flash")
JURY = ("openai/o4-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-pro")
FAKE_KEYS = {"OPENAI_API_KEY": "sk-bench-0123456789abcdef",
             "ANTHROPIC_API_KEY": "sk-ant-bench-0123456789abcdef",
             "GEMINI_API_KEY": "AIzaBench0123456789abcdefghijklmnopqrstu"}
TEST_FILE = ROOT / "cases" / "test_summaries.py"
NOTHING = "rwe_benchmark_selects_no_test"
TMP = ROOT / ".rwe-bench"  # --tmp


# -- running things -------------------------------------------------------------------------
def load() -> str:
    """The machine's load averages (1, 5, 15 min), as /proc/loadavg says."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_pytest(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run pytest; wall seconds, CPU seconds (it and its workers), output, peak RSS (MB)."""
    cpu, start = children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    return {"wall_s": wall, "cpu_s": children_cpu() - cpu, "output": proc.stdout + proc.stderr,
            "returncode": proc.returncode, "peak_rss_mb": peak}


WARM_IMPORTS = """\
import importlib, pkgutil

import pytest_rwe


def test_import_every_module():
    for found in pkgutil.walk_packages(pytest_rwe.__path__, "pytest_rwe."):
        try:
            importlib.import_module(found.name)
        except ImportError:
            pass  # an optional extra that is not installed
"""


def warm_bytecode(env: dict[str, str]) -> dict[str, Any]:
    """Cache the compiled bytecode of pytest-rwe, the suite and the SDKs, as a second run
    on any machine has it.

    pip compiles a package's bytecode when it installs it, and pytest caches the modules it
    rewrites (every module of a plugin's distribution) on their first import; an editable
    checkout on a machine that sets ``PYTHONDONTWRITEBYTECODE`` (this one does) never caches
    either, so every run would compile pytest-rwe's 170 modules again while the floor's SDKs
    load compiled. Returns what it did and what it cost.
    """
    start = time.perf_counter()
    warm = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pytest_rwe"),
                    str(ROOT / "cases"), str(ROOT / "benchmarks")],
                   env=warm, cwd=ROOT, capture_output=True, check=False)
    with tempfile.TemporaryDirectory(dir=TMP) as tmp:
        test = Path(tmp) / "test_warm_imports.py"
        test.write_text(WARM_IMPORTS, encoding="utf-8")
        imported = run_pytest(["-q", "-p", "no:cacheprovider", str(test)], warm)
        # the suite's own test file and conftest, as the measured runs collect them
        collected = run_pytest([*pytest_args(Path(tmp) / "store"), "--rwe-record", "none",
                                "-k", NOTHING], warm)
    return {"seconds": round(time.perf_counter() - start, 2),
            "imports": outcome_line(imported["output"]),
            "collection_exit_code": collected["returncode"]}


def outcome_line(output: str) -> str:
    lines = [line for line in output.splitlines()
             if re.search(r"\d+ (passed|failed|error)", line)]
    return lines[-1].strip("= ") if lines else output[-400:]


def counted(output: str, word: str) -> int:
    match = re.search(rf"(\d+) {word}", outcome_line(output))
    return int(match.group(1)) if match else 0


def summaries_by_model(cases: Path) -> Callable[[str, str, str], str | None]:
    """A fake-server responder: each model's own summary of the study in the prompt.

    The builtin summary of the study, signed by the model, so every (model, study) pair has
    a text of its own, as real models would (the server's default is one text for all).
    """
    from pytest_rwe.rules.summarizer import summarize
    from pytest_rwe.study import load_folder

    by_question = {load.study.question: summarize(load.study)
                   for load in load_folder(cases) if load.study is not None}

    def respond(provider: str, model: str, prompt: str) -> str | None:
        if "<<<SUMMARY" in prompt:
            return None  # a judge prompt: the server's passing verdict
        for question, summary in by_question.items():
            if question in prompt:
                return f"{summary} (Written by {provider}/{model}.)"
        return None

    return respond


def pytest_args(store: Path, *, workers: int = 0, jury: tuple[str, ...] = JURY,
                cases: Path = CASES, extra: tuple[str, ...] = ()) -> list[str]:
    args = ["-q", "-p", "no:cacheprovider", str(TEST_FILE), "--rwe-cases", str(cases),
            "--rwe-prompts", str(PROMPTS),
            "--rwe-jury", ",".join(jury), "--rwe-store", str(store), *extra]
    args += [arg for model in MODELS for arg in ("--rwe-model", model)]
    return args + (["-n", str(workers)] if workers else [])


def server_counts(server: FakeServer) -> dict[str, Any]:
    answered = Counter(r.provider for r in server.requests if r.status == 200)
    return {"calls": sum(answered.values()), "per_provider": dict(answered),
            "rate_limited_429": server.rate_limited(),
            "duplicates": len(server.duplicate_requests()),
            "max_in_flight": server.stats()["max_in_flight"]}


def report_counts(folder: Path) -> dict[str, Any]:
    """Abstentions, juror errors and the run section of a run's report.json."""
    try:
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    run = report.get("run") or {}
    return {"abstentions": report["abstentions"]["total"],
            "juror_errors": (report.get("juror_errors") or {}).get("total"),
            "concurrency": {k.partition("@")[0]: {"peak": v["peak"], "final": v["final"],
                                                  "lowest": v["lowest"]}
                            for k, v in (run.get("endpoints") or {}).items()}}


def rwe_run(cases: Path, latency: float, cap: int, *, workers: int = 0,
            extra: tuple[str, ...] = (), components: bool = False) -> dict[str, Any]:
    """One live pytest-rwe run on a fresh store (start-up measured first); with
    ``components``, the CPU of pytest-rwe's own parts too (benchmarks/cpu_components.py)."""
    with tempfile.TemporaryDirectory(dir=TMP) as tmp, FakeServer(
            latency_s=latency, concurrency_cap=cap, retry_after_s=1.0, keep_bodies=False,
            responder=summaries_by_model(cases)) as server:
        store, reports = Path(tmp) / "store", Path(tmp) / "report"
        probe = Path(tmp) / "cpu.json"
        parts = Path(tmp) / "components.json"
        env = {**os.environ, **FAKE_KEYS, **server.env(), "RWE_CPU_PROBE": str(probe),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        args = pytest_args(store, workers=workers, cases=cases, extra=extra)
        startup = run_pytest([*args, "--rwe-record", "none", "-k", NOTHING], env)
        before = load()
        probes = ["-p", "benchmarks.cpu_probe"]
        if components:
            probes += ["-p", "benchmarks.cpu_components"]
            env["RWE_CPU_COMPONENTS"] = str(parts)
        live = run_pytest([*args, *probes, "--rwe-report", str(reports)], env)
        ended = time.monotonic()
        counts = server_counts(server)
        answers = [r.at for r in server.requests]
        first_ask = min(answers) - latency if answers else ended
        last_answer = max(answers) if answers else ended
        probed = json.loads(probe.read_text()) if probe.exists() else {}
        by_part = json.loads(parts.read_text()) if parts.exists() else None
        verdicts = report_counts(reports)  # read before the temporary folder goes
    calls = counts["calls"]
    return {
        "load_before": before, "wall_s": round(live["wall_s"], 2),
        "startup_s": round(startup["wall_s"], 2),
        "wall_minus_startup_s": round(live["wall_s"] - startup["wall_s"], 2),
        "cpu_s": round(live["cpu_s"], 2), "startup_cpu_s": round(startup["cpu_s"], 2),
        "cpu_ms_per_call": round(1000 * (live["cpu_s"] - startup["cpu_s"]) / max(1, calls), 2),
        **counts, **verdicts,
        "failed": counted(live["output"], "failed"), "errors": counted(live["output"], "error"),
        "outcome": outcome_line(live["output"]), "peak_rss_mb": live["peak_rss_mb"],
        # CPU seconds per thread of the calling process (see benchmarks/cpu_probe.py)
        "cpu_s_by_thread": probed.get("threads", {}),
        **({"cpu_s_by_component": by_part} if by_part is not None else {}),
        # when the calls happened: from the first request (its answer minus the latency) to
        # the last answer, and after it until pytest exited (the report, teardown, exit)
        "calls_span_s": round(last_answer - first_ask, 2),
        "after_last_answer_s": round(ended - last_answer, 2),
        "after_last_answer_split_s": tail_split(probed.get("marks", {}), last_answer, ended),
    }


def tail_split(marks: dict[str, float], last_answer: float, ended: float) -> dict[str, float]:
    """The time after the last answer, by what pytest did: the tests still to run, the time
    between the last test and the session's finish, the session's finish (the report), the
    rest of pytest's shutdown, and the interpreter's exit (``ended``: the process is gone)."""
    order = ["last_test_end", "sessionfinish_start", "sessionfinish_end", "unconfigure"]
    if any(name not in marks for name in order):
        return {}
    points = [last_answer, *(marks[name] for name in order), ended]
    names = ["tests", "to_finish", "finish", "unconfigure", "exit"]
    spans = zip(names, points[:-1], points[1:], strict=True)
    return {name: round(end - start, 3) for name, start, end in spans}


def floor_run(cases: Path, latency: float, cap: int, semaphore: int) -> dict[str, Any]:
    """One run of the floor engine against a fresh fake server."""
    with FakeServer(latency_s=latency, concurrency_cap=cap, retry_after_s=1.0,
                    keep_bodies=False, responder=summaries_by_model(cases)) as server:
        env = {**os.environ, **FAKE_KEYS, **server.env()}
        before = load()
        proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "floor.py"),
                               "--cap", str(semaphore), "--cases", str(cases)],
                              env=env, cwd=ROOT, capture_output=True, text=True, check=True)
        counts = server_counts(server)
    return {"load_before": before, **json.loads(proc.stdout.splitlines()[-1]), **counts}


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3)}


def sweep_cases(folder: Path) -> Path:
    """A folder holding the sweep's 46 studies (``benchmarks/sweep_studies.txt``), copied
    from ``cases/studies``: the suite grows, the benchmark's workload stays the one its
    targets were stated on."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in SWEEP_STUDIES.read_text(encoding="utf-8").split():
        (folder / f"{name}.json").write_bytes((CASES / f"{name}.json").read_bytes())
    return folder


def expected_calls(cases: Path) -> int:
    """One summary and nine judge calls per (model, study): 30 calls per study."""
    return 30 * len(list(cases.glob("*.json")))


# -- the summary ----------------------------------------------------------------------------
def verdicts(results: dict[str, Any]) -> list[str]:
    """One line per target: the figure, the target, met or not."""
    lines = []

    def mark(ok: bool) -> str:
        return "met" if ok else "NOT met"

    for name, target in (("cap16", 1.15), ("cap4", 1.25), ("cap2", 1.25)):
        if name not in results:
            continue
        s = results[name]["summary"]
        ratio = s["ratio_rwe_to_floor"]
        line = (f"{name}: (wall - start-up) / floor = {ratio['median']:.2f} "
                f"[{ratio['min']:.2f}-{ratio['max']:.2f}], target <= {target}: "
                f"{mark(ratio['median'] <= target)}")
        gap = s["cpu_ms_per_call_over_floor"]
        line += (f"; CPU per call {s['rwe_cpu_ms_per_call']['median']:.2f} ms vs floor "
                 f"{s['floor_cpu_ms_per_call']['median']:.2f} ms (+{gap['median']:.2f})")
        if name == "cap16":
            line += f", target <= +1.5 ms: {mark(gap['median'] <= 1.5)}"
        else:
            line += f"; every call once, 0 failed/errors/abstentions: " \
                    f"{mark(s['every_call_once_and_clean'])}"
        lines.append(line + f" (loads {', '.join(s['loads'])})")
    if "two-runs" in results:
        s = results["two-runs"]["summary"]
        ok = (s["both_green"] and s["extra_calls_pct"]["max"] <= 1.0
              and not any(s["rate_limited_429"]))
        lines.append(f"two-runs: both green {s['both_green']}, extra calls "
                     f"{s['extra_calls_pct']['max']:.2f}% (<= 1%), 429s {s['rate_limited_429']}"
                     f": {mark(ok)}")
    if "killed-leader" in results:
        s = results["killed-leader"]["summary"]
        ok = (s["finished_by_itself"] and not any(s["stored_called_again"])
              and all(n <= 1 for n in s["failed_tests"]) and not any(s["errors"]))
        lines.append(f"killed-leader: finished by itself {s['finished_by_itself']}, failed "
                     f"tests {s['failed_tests']}, calls lost with the worker (made again) "
                     f"{s['lost_at_kill']}, stored calls made again {s['stored_called_again']}"
                     f": {mark(ok)}")
    if "rules" in results:
        s = results["rules"]["summary"]
        lines.append(f"rules: {s['seconds_at_800']:.2f} s per summary at 800 outcomes "
                     f"(target <= 1 s: {mark(s['seconds_at_800'] <= 1.0)}; the juror's "
                     "algorithm is the jury workstream's)")
    return lines
