"""Sweep benchmark: the suite under real provider limits, pytest-rwe against the floor.

The workload: ``cases/test_summaries.py`` on the 46 public studies with three vendor models
(``openai/gpt-4.1-mini``, ``anthropic/claude-sonnet-4-20250514``, ``google/gemini-2.5-flash``)
judged by three vendor jurors (``openai/o4-mini``, ``anthropic/claude-sonnet-4-20250514``,
``google/gemini-2.5-pro``): 138 summaries, then 9 judge calls each, 1,380 calls. The fake
server (``pytest_rwe.testing.fake_server``) speaks the three wire formats to the real SDKs;
it answers each (model, study) with a summary of its own, so no two pairs share a text and
the store cannot hide judge calls. Above its cap per provider it answers 429 + Retry-After.

Scenarios (``--scenario``, repeatable; default: all):

- ``cap16``: 250 ms per call, 16 at once per provider; pytest-rwe with its defaults against
  the floor (``benchmarks/floor.py``: the three SDKs in a bare asyncio engine, a semaphore
  of 16 per vendor, no store), interleaved, ``--runs`` times each. Target: pytest-rwe's
  (wall - start-up) within 15 % of the floor's wall, CPU per call within 1.5 ms.
- ``cap4`` and ``cap2``: 100 ms per call, 4 (2) at once; pytest-rwe with default options
  (told nothing about the cap: ``--rwe-concurrency`` stays 16) against the floor with its
  semaphore set to the true cap. Target: every call made once, nothing failed, no juror
  error or abstention, (wall - start-up) within 25 % of the floor.
- ``xdist``: ``cap16`` under ``-n 2`` and ``-n 4`` (pytest-rwe only).
- ``two-runs``: two pytest runs on one store, started together (cap 16, 250 ms). Target:
  both green, the distinct calls paid once (at most 1 % extra), no 429.
- ``killed-leader``: ``-n 2``; the worker that makes the calls is killed with SIGKILL once
  300 calls are answered. Target: the run finishes by itself, only the killed worker's
  in-flight tests fail, nothing stored is called again.
- ``rules``: the rules juror's seconds per summary at 50 to 800 outcomes (in process), and
  a cap-16 sweep with ``builtin/rules`` as a fourth juror and an 800-outcome study added:
  when do the other pairs' calls finish, with and without the big study.
- ``replay``: the cap16 store replayed (``--rwe-record none``), one process and ``-n 4``.
- ``synthetic``: 1,000 generated studies x 3 models replayed from a prefilled store.
- ``components`` (only when asked for): the cap16 run with its CPU split by pytest-rwe's
  parts (store writes, claim diagnostics, the report...; ``benchmarks/cpu_components.py``).

Stores and studies go in a temporary folder under ``.rwe-bench/`` in the checkout (``--tmp``
to change it), where a user's ``.rwe_cache`` would be: the store writes a file per call, and
on this machine creating a file in ``/tmp`` costs two to three times what it costs in the
checkout's filesystem, which would be charged to pytest-rwe (the floor has no store).

"Start-up" is the same pytest command, with the same workers, selecting no test and calling
nothing (``--rwe-record none -k <no test>``); its wall and CPU are subtracted. CPU is the
user + system time of pytest and its workers (``RUSAGE_CHILDREN``), per call made.
The machine's load (``/proc/loadavg``) is printed with every run.

    python benchmarks/sweep.py                              # everything, 3 runs each
    python benchmarks/sweep.py --scenario cap4 --runs 5     # one scenario
    python benchmarks/sweep.py --json out.json              # also keep the raw results

Figures and their commands are in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script

from benchmarks import runs as running
from benchmarks.runs import (
    FAKE_KEYS,
    JURY,
    MODELS,
    ROOT,
    counted,
    expected_calls,
    floor_run,
    load,
    outcome_line,
    pytest_args,
    run_pytest,
    rwe_run,
    server_counts,
    spread,
    summaries_by_model,
    sweep_cases,
    verdicts,
)
from pytest_rwe.store.lock_files import pid_alive
from pytest_rwe.testing.fake_server import FakeServer

SCENARIOS = ("cap16", "cap4", "cap2", "xdist", "two-runs", "killed-leader", "rules", "replay",
             "synthetic", "components")


# -- scenarios ------------------------------------------------------------------------------
def components(runs: int, cases: Path) -> dict[str, Any]:
    """The cap16 run with its CPU split by pytest-rwe's parts (a diagnostic: not in the
    default scenarios, and not the run the cap16 targets are read from)."""
    results = [rwe_run(cases, 0.25, 16, components=True) for _ in range(runs)]
    per_call: dict[str, list[float]] = {}
    for result in results:
        calls = max(1, result["calls"])
        for part, figures in (result.get("cpu_s_by_component") or {}).items():
            per_call.setdefault(part, []).append(1000 * figures["cpu_s"] / calls)
    return {"runs": results, "summary": {
        "what": "cap16 (250 ms, 16 at once), CPU ms per call spent in each part",
        "rwe_cpu_ms_per_call": spread([r["cpu_ms_per_call"] for r in results]),
        "ms_per_call_by_part": {part: spread(values) for part, values in per_call.items()}}}


def against_floor(name: str, latency: float, cap: int, runs: int, cases: Path,
                  ratio_target: float) -> dict[str, Any]:
    """pytest-rwe (defaults: told nothing about the cap) and the floor (semaphore = cap),
    interleaved, ``runs`` times each."""
    rwe, floor = [], []
    for i in range(runs):
        order = ("rwe", "floor") if i % 2 == 0 else ("floor", "rwe")
        for which in order:
            if which == "rwe":
                rwe.append(rwe_run(cases, latency, cap))
                print(json.dumps({name: {"pytest-rwe": rwe[-1]}}), flush=True)
            else:
                floor.append(floor_run(cases, latency, cap, cap))
                print(json.dumps({name: {"floor": floor[-1]}}), flush=True)
    ratios = [r["wall_minus_startup_s"] / f["wall_s"] for r, f in zip(rwe, floor, strict=True)]
    cpu_gap = [r["cpu_ms_per_call"] - f["cpu_ms_per_call"]
               for r, f in zip(rwe, floor, strict=True)]
    clean = all(r["calls"] == expected_calls(cases) and r["duplicates"] == 0 and r["failed"] == 0
                and r["errors"] == 0 and r.get("abstentions") == 0
                and r.get("juror_errors") == 0 for r in rwe)
    summary = {
        "what": f"fake server {latency * 1000:.0f} ms per call, at most {cap} at once per "
                f"provider; pytest-rwe with default options, floor with a semaphore of {cap}",
        "rwe_wall_minus_startup_s": spread([r["wall_minus_startup_s"] for r in rwe]),
        "floor_wall_s": spread([f["wall_s"] for f in floor]),
        "ratio_rwe_to_floor": spread(ratios), "ratio_target": ratio_target,
        "rwe_cpu_ms_per_call": spread([r["cpu_ms_per_call"] for r in rwe]),
        "floor_cpu_ms_per_call": spread([f["cpu_ms_per_call"] for f in floor]),
        "cpu_ms_per_call_over_floor": spread(cpu_gap),
        "rwe_429s": spread([r["rate_limited_429"] for r in rwe]),
        # where pytest-rwe's wall time goes: before the first request, the calls, and after
        # the last answer (split by benchmarks/runs.py: tail_split)
        "rwe_calls_span_s": spread([r["calls_span_s"] for r in rwe]),
        "rwe_after_last_answer_s": spread([r["after_last_answer_s"] for r in rwe]),
        "rwe_after_last_answer_split_s": [r.get("after_last_answer_split_s") for r in rwe],
        "every_call_once_and_clean": clean,
        "rwe_outcomes": [r["outcome"] for r in rwe],
        "rwe_abstentions": [r.get("abstentions") for r in rwe],
        "rwe_juror_errors": [r.get("juror_errors") for r in rwe],
        "rwe_duplicates": [r["duplicates"] for r in rwe],
        "rwe_concurrency": [r.get("concurrency") for r in rwe],
        "loads": [r["load_before"] for r in rwe] + [f["load_before"] for f in floor],
    }
    return {"runs": {"pytest-rwe": rwe, "floor": floor}, "summary": summary}


def xdist(runs: int, cases: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for workers in (2, 4):
        results = [rwe_run(cases, 0.25, 16, workers=workers) for _ in range(runs)]
        for result in results:
            print(json.dumps({f"xdist-n{workers}": result}), flush=True)
        out[f"n{workers}"] = {"runs": results, "summary": {
            "wall_minus_startup_s": spread([r["wall_minus_startup_s"] for r in results]),
            "cpu_ms_per_call": spread([r["cpu_ms_per_call"] for r in results]),
            "calls": [r["calls"] for r in results], "outcomes": [r["outcome"] for r in results]}}
    return out


def two_runs(runs: int, cases: Path) -> dict[str, Any]:
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(dir=running.TMP) as tmp, FakeServer(
                latency_s=0.25, concurrency_cap=16, retry_after_s=1.0, keep_bodies=False,
                responder=summaries_by_model(cases)) as server:
            env = {**os.environ, **FAKE_KEYS, **server.env()}
            args = [sys.executable, "-m", "pytest", *pytest_args(Path(tmp) / "store",
                                                                  cases=cases)]
            before, start = load(), time.perf_counter()
            procs = [subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True) for _ in range(2)]
            outputs = [p.communicate()[0] for p in procs]
            wall = time.perf_counter() - start
            counts = server_counts(server)
        result = {"load_before": before, "wall_s": round(wall, 2), **counts,
                  "extra_calls_pct": round(100 * (counts["calls"] - expected_calls(cases))
                                           / expected_calls(cases), 2),
                  "outcomes": [outcome_line(o) for o in outputs],
                  "both_green": all(p.returncode == 0 for p in procs)}
        print(json.dumps({"two-runs": result}), flush=True)
        results.append(result)
    return {"runs": results, "summary": {
        "what": "two pytest runs of the sweep on one store, started together; cap 16, 250 ms",
        "both_green": all(r["both_green"] for r in results),
        "extra_calls_pct": spread([r["extra_calls_pct"] for r in results]),
        "rate_limited_429": [r["rate_limited_429"] for r in results],
        "duplicates": [r["duplicates"] for r in results]}}


def killed_leader(runs: int, cases: Path) -> dict[str, Any]:
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(dir=running.TMP) as tmp, FakeServer(
                latency_s=0.25, concurrency_cap=16, retry_after_s=1.0, keep_bodies=False,
                responder=summaries_by_model(cases)) as server:
            store = Path(tmp) / "store"
            env = {**os.environ, **FAKE_KEYS, **server.env()}
            args = [sys.executable, "-m", "pytest", *pytest_args(store, workers=2, cases=cases)]
            before, start = load(), time.perf_counter()
            proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
            killed, leader_connections, stored = None, set(), 0
            while proc.poll() is None and killed is None:
                time.sleep(0.05)
                if sum(1 for r in server.requests if r.status == 200) >= 300:
                    killed = _kill_leader(store)
            if killed is not None:
                while pid_alive(killed):  # dead or a zombie: its locks are released
                    time.sleep(0.01)
                # its connections (only it called until then), and what it had stored
                leader_connections = server.clients()
                stored = len([p for p in store.glob("*/*/*.json") if ".locks" not in p.parts])
            try:
                output = proc.communicate(timeout=600)[0]
                finished = True
            except subprocess.TimeoutExpired:
                proc.kill()
                output, finished = proc.communicate()[0], False
            wall = time.perf_counter() - start
            counts = server_counts(server)
        # what it asked for but had not stored: answered (or in flight) when it died
        lost = len([r for r in server.requests
                    if r.status == 200 and r.client in leader_connections]) - stored
        result = {"load_before": before, "killed_pid": killed, "finished_by_itself": finished,
                  "wall_s": round(wall, 2), **counts,
                  "lost_at_kill": lost, "stored_at_kill": stored,
                  "called_again_beyond_lost": max(0, counts["duplicates"] - lost),
                  "outcome": outcome_line(output),
                  "failed": counted(output, "failed"), "errors": counted(output, "error"),
                  "crash_lines": [line for line in output.splitlines()
                                  if "crashed" in line or "replacing crashed" in line][:6]}
        print(json.dumps({"killed-leader": result}), flush=True)
        results.append(result)
    return {"runs": results, "summary": {
        "what": "-n 2, SIGKILL of the worker that makes the calls after 300 answered calls",
        "finished_by_itself": all(r["finished_by_itself"] for r in results),
        "failed_tests": [r["failed"] for r in results],
        "errors": [r["errors"] for r in results],
        "duplicates": [r["duplicates"] for r in results],
        "lost_at_kill": [r["lost_at_kill"] for r in results],
        "stored_called_again": [r["called_again_beyond_lost"] for r in results]}}


def _kill_leader(store: Path) -> int | None:
    for note in (store / ".locks").glob("run-*.leader"):
        try:
            pid = int(json.loads(note.read_text())["pid"])
        except (OSError, ValueError, KeyError):
            continue
        os.kill(pid, signal.SIGKILL)
        return pid
    return None


def rules_scale(cases: Path) -> dict[str, Any]:
    """The rules juror's seconds per summary by outcome count, then its effect on a sweep."""
    from pytest_rwe.rules import judge
    from pytest_rwe.rules.summarizer import summarize
    from pytest_rwe.study import parse_study
    from pytest_rwe.testing.studies import big_study_raw
    from pytest_rwe.verdict import CRITERIA

    scale = {}
    for n in (50, 100, 200, 400, 800):
        study = parse_study(big_study_raw(n), Path(f"big_{n}.json"))
        text = summarize(study)
        start = time.perf_counter()
        for criterion in CRITERIA:
            judge(study, text, criterion)
        scale[n] = round(time.perf_counter() - start, 3)
        print(json.dumps({"rules_seconds_per_summary": {n: scale[n]}}), flush=True)
    flows = {}
    with tempfile.TemporaryDirectory(dir=running.TMP) as tmp:
        big = Path(tmp) / "studies"
        big.mkdir()
        for path in cases.glob("*.json"):
            (big / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        (big / "big_800.json").write_text(json.dumps(big_study_raw(800)), encoding="utf-8")
        for name, folder in (("46 studies", cases), ("46 studies + 800 outcomes", big)):
            flows[name] = _flow(folder, Path(tmp) / f"store-{len(flows)}")
            print(json.dumps({"rules_flow": {name: flows[name]}}), flush=True)
    return {"seconds_per_summary_by_outcomes": scale, "flow": flows, "summary": {
        "what": "rules juror, 3 criteria of the template summary, in process; then the cap-16 "
                "sweep with builtin/rules as a 4th juror, with and without an 800-outcome study",
        "seconds_at_800": scale[800]}}


def _flow(cases: Path, store: Path) -> dict[str, Any]:
    with FakeServer(latency_s=0.25, concurrency_cap=16, retry_after_s=1.0, keep_bodies=False,
                    responder=summaries_by_model(cases)) as server:
        env = {**os.environ, **FAKE_KEYS, **server.env()}
        started = time.monotonic()
        result = run_pytest(pytest_args(store, cases=cases, jury=(*JURY, "builtin/rules")), env)
        times = sorted(r.at - started for r in server.requests)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    return {"wall_s": round(result["wall_s"], 2), "calls": len(times),
            "last_vendor_answer_s": round(times[-1], 2) if times else None,
            "longest_gap_between_answers_s": round(max(gaps), 2) if gaps else None,
            "outcome": outcome_line(result["output"])}


def replay(cases: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=running.TMP) as tmp, FakeServer(
            latency_s=0.25, concurrency_cap=16, keep_bodies=False,
            responder=summaries_by_model(cases)) as server:
        store = Path(tmp) / "store"
        env = {**os.environ, **FAKE_KEYS, **server.env()}
        run_pytest(pytest_args(store, cases=cases), env)
        server.reset()
        out = {}
        for workers in (0, 4):
            result = run_pytest([*pytest_args(store, workers=workers, cases=cases),
                                 "--rwe-record", "none"], env)
            match = re.search(r" in ([0-9.]+)s", outcome_line(result["output"]))
            out[f"n{workers}"] = {"wall_s": round(result["wall_s"], 2),
                                  "test_s": float(match.group(1)) if match else None,
                                  "calls": len(server.requests),
                                  "outcome": outcome_line(result["output"])}
            print(json.dumps({"replay": out}), flush=True)
    return out


def synthetic_replay(count: int) -> dict[str, Any]:
    """Prefill a store for ``count`` generated studies x 3 models, then replay the suite."""
    from benchmarks.prefill import prefill_store, write_studies

    with tempfile.TemporaryDirectory(dir=running.TMP) as tmp:
        cases, store = Path(tmp) / "studies", Path(tmp) / "store"
        studies = write_studies(cases, count, random.Random(1000))
        start = time.perf_counter()
        written = prefill_store(studies, MODELS, JURY, store)
        prefill_s = time.perf_counter() - start
        env = {**os.environ, **FAKE_KEYS, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
               "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
               "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9"}  # nothing listens: replay only
        result = run_pytest([*pytest_args(store, cases=cases), "--rwe-record", "none"], env)
    match = re.search(r" in ([0-9.]+)s", outcome_line(result["output"]))
    return {"studies": count, "stored_responses": written, "prefill_s": round(prefill_s, 1),
            "wall_s": round(result["wall_s"], 2),
            "test_s": float(match.group(1)) if match else None,
            "peak_rss_mb": result["peak_rss_mb"], "outcome": outcome_line(result["output"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", action="append", choices=SCENARIOS,
                        help="repeatable; default: every scenario but components")
    parser.add_argument("--runs", type=int, default=3, help="runs per measured configuration")
    parser.add_argument("--cases", type=Path, default=None,
                        help="study folder (default: the 46 studies of benchmarks/"
                             "sweep_studies.txt, copied from cases/studies)")
    parser.add_argument("--synthetic", type=int, default=1000, help="studies (synthetic)")
    parser.add_argument("--json", type=Path, help="write every result to this file")
    parser.add_argument("--tmp", type=Path, default=ROOT / ".rwe-bench",
                        help="folder for the temporary stores (default: .rwe-bench/)")
    parser.add_argument("--cold-bytecode", action="store_true",
                        help="measure with the bytecode caches as found (default: warm them "
                             "first, as a second run on any machine has them)")
    args = parser.parse_args(argv)
    running.TMP = args.tmp
    running.TMP.mkdir(parents=True, exist_ok=True)
    if args.cases is None:
        args.cases = sweep_cases(running.TMP / "sweep-studies")
    wanted = args.scenario or [s for s in SCENARIOS if s != "components"]
    results: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "load_at_start": load()}}
    if args.cold_bytecode:
        results["machine"]["bytecode"] = "as found (--cold-bytecode)"
    else:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            filter(None, [str(running.ROOT), os.environ.get("PYTHONPATH")]))}
        results["machine"]["bytecode"] = {"warmed": running.warm_bytecode(env)}
    for name in wanted:
        if name in ("cap16", "cap4", "cap2"):
            latency, cap = (0.25, 16) if name == "cap16" else (0.1, int(name[3:]))
            results[name] = against_floor(name, latency, cap, args.runs, args.cases,
                                          1.15 if name == "cap16" else 1.25)
        elif name == "xdist":
            results[name] = xdist(args.runs, args.cases)
        elif name == "two-runs":
            results[name] = two_runs(args.runs, args.cases)
        elif name == "killed-leader":
            results[name] = killed_leader(args.runs, args.cases)
        elif name == "rules":
            results[name] = rules_scale(args.cases)
        elif name == "components":
            results[name] = components(args.runs, args.cases)
        elif name == "replay":
            results[name] = replay(args.cases)
        else:
            results[name] = synthetic_replay(args.synthetic)
        print(json.dumps({name: results[name].get("summary", results[name])}, indent=2),
              flush=True)
    results["machine"]["load_at_end"] = load()
    print("\n== targets (issue 11), load at start " + results["machine"]["load_at_start"]
          + ", at end " + results["machine"]["load_at_end"])
    for line in verdicts(results):
        print(line)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
