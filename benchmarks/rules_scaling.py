"""How the rules juror's time grows with the number of outcomes and the summary's length.

Builds cohort studies with N outcomes (distinct two- and three-word clinical names, a mix of
hazard ratios, odds ratios and mean differences, about a third significant), writes the
builtin template summary of each (it names every outcome, so the summary grows with N), and
times ``judge_all`` (the three criteria, one analysis) per summary, fresh each time.

    python benchmarks/rules_scaling.py                    # N = 50, 200, 800, 1600
    python benchmarks/rules_scaling.py --outcomes 800 --repeats 5
    python benchmarks/rules_scaling.py --names subgroups  # the sweep's big_study_raw
    python benchmarks/rules_scaling.py --findings out.json  # every finding, to compare

``--names subgroups`` times the sweep's study instead (``pytest_rwe.testing.studies.
big_study_raw``: 16 condition names repeated, so each name has N / 16 subgroup-like keys).
``--findings`` writes each summary's verdicts (score, explanation, findings) as JSON, so a
change meant only for speed can be shown to leave them byte-identical.

The target (issue 11, item 5): 800 outcomes judged in under 1 s per summary. Figures are
recorded in docs/benchmarks.md; on a shared machine give the load average with them (the
CPU seconds of this process are shown too: they suffer less from other processes' load).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from pytest_rwe.rules import judge_all
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.study import Study, parse_study
from pytest_rwe.testing.studies import big_study_raw

_SITES = ("renal", "hepatic", "cardiac", "pulmonary", "cerebral", "gastric", "retinal", "skin",
          "bone", "joint", "muscle", "nerve", "thyroid", "pancreatic", "biliary", "colonic",
          "bladder", "prostate", "ovarian", "breast", "spinal", "venous", "arterial", "aortic")
_KINDS = ("failure", "bleeding", "infection", "cancer", "injury", "fibrosis", "stenosis",
          "ischemia", "inflammation", "edema", "pain", "dysfunction", "thrombosis", "ulcer",
          "necrosis", "atrophy", "insufficiency", "lesion", "cyst", "abscess")
_QUALIFIERS = ("acute", "chronic", "severe", "recurrent", "early", "late")


def outcome_names(count: int) -> list[str]:
    """``count`` distinct outcome names: "renal failure", then "acute renal failure", ..."""
    pairs = [f"{s} {k}" for s, k in itertools.product(_SITES, _KINDS)]
    triples = [f"{q} {p}" for q, p in itertools.product(_QUALIFIERS, pairs)]
    names = pairs + triples
    if count > len(names):
        raise SystemExit(f"at most {len(names)} outcomes")
    return names[:count]


def build_study(count: int, seed: int = 0) -> Study:
    """A cohort study with ``count`` outcomes, deterministic for a seed."""
    rng = random.Random(seed)
    outcomes: dict[str, Any] = {}
    for name in outcome_names(count):
        key = "outcome." + name.replace(" ", ".")
        measure = rng.choice(("HR", "OR", "MD"))
        if measure == "MD":
            value = round(rng.uniform(-3, 3), 2) or 0.5
            text = f"{value} ({value - 1.1:.2f}, {value + 1.1:.2f})"
            key += "_cont"
        else:
            value = round(rng.uniform(0.5, 1.8), 2)
            text = f"{value} ({value * 0.8:.2f}, {value * 1.2:.2f})"
            key += "_bin"
        outcomes[f"{key}!{measure}"] = text
        outcomes[f"{key}!pvalue"] = rng.choice(("<0.001", "0.012", "0.03", "0.21", "0.48",
                                                "0.77"))
    return parse_study({
        "id": f"scaling_{count}", "design": "cohort",
        "question": "Does drug A change the risk of many outcomes compared with drug B?",
        "picot": {"population": "Adults starting treatment", "intervention": "Drug A",
                  "control": "Drug B", "outcome": "Many outcomes", "timeframe": "3 years"},
        "results": {"intervention_size": 12000, "control_size": 11500,
                    "baseline_differences": {"age_mean": "control 61.2 vs intervention 62.0"},
                    "outcomes": outcomes},
    })


def time_judge(study: Study, summary: str, repeats: int) -> list[tuple[float, float]]:
    """(wall, CPU) seconds per ``judge_all`` call; a fresh study object defeats the analysis
    cache."""
    times = []
    for _ in range(repeats):
        fresh = parse_study(dict(study.raw), study.path or "<memory>")
        started, cpu = time.perf_counter(), time.process_time()
        judge_all(fresh, summary)
        times.append((time.perf_counter() - started, time.process_time() - cpu))
    return times


def verdicts(study: Study, summary: str) -> dict[str, Any]:
    """Each criterion's score, explanation and findings, as JSON-ready values."""
    return {criterion: {"score": v.score, "explanation": v.explanation,
                        "findings": [[f.quote, f.start, f.end, f.field, f.message]
                                     for f in v.findings]}
            for criterion, v in judge_all(study, summary).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--outcomes", type=int, action="append",
                        help="outcome counts (repeatable; default 50, 200, 800, 1600)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per count")
    parser.add_argument("--names", choices=("distinct", "subgroups"), default="distinct",
                        help="distinct outcome names (default), or the sweep's study whose "
                             "16 names each have N / 16 subgroup-like keys")
    parser.add_argument("--findings", type=Path, metavar="FILE",
                        help="also write every summary's verdicts to FILE (JSON)")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'outcomes':>8} {'words':>7} {'median s':>9} {'min s':>7} {'cpu s':>7} {'scores':>8}")
    found: dict[str, Any] = {}
    for count in args.outcomes or (50, 200, 800, 1600):
        study = (build_study(count) if args.names == "distinct"
                 else parse_study(big_study_raw(count), f"big_{count}.json"))
        summary = summarize(study)
        times = time_judge(study, summary, args.repeats)
        result = verdicts(study, summary)
        found[str(count)] = result
        scores = "".join(str(v["score"]) for v in result.values())
        wall, cpu = [t for t, _ in times], [c for _, c in times]
        print(f"{count:>8} {len(summary.split()):>7} {statistics.median(wall):>9.3f} "
              f"{min(wall):>7.3f} {statistics.median(cpu):>7.3f} {scores:>8}", flush=True)
    if args.findings is not None:
        args.findings.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n",
                                 encoding="utf-8")


if __name__ == "__main__":
    main()
