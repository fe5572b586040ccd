"""How the rules juror's time grows with the number of outcomes and the summary's length.

Builds cohort studies with N outcomes (distinct two- and three-word clinical names, a mix of
hazard ratios, odds ratios and mean differences, about a third significant), writes the
builtin template summary of each (it names every outcome, so the summary grows with N), and
times ``judge_all`` (the three criteria, one analysis) per summary, fresh each time.

    python benchmarks/rules_scaling.py                    # N = 50, 200, 800, 1600
    python benchmarks/rules_scaling.py --outcomes 800 --repeats 5

The target (issue 11, item 5): 800 outcomes judged in under 1 s per summary. Figures are
recorded in docs/benchmarks.md; on a shared machine give the load average with them.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import time
from typing import Any

from pytest_rwe.rules import judge_all
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.study import Study, parse_study

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


def time_judge(study: Study, summary: str, repeats: int) -> list[float]:
    """Seconds per ``judge_all`` call; a fresh study object defeats the analysis cache."""
    times = []
    for _ in range(repeats):
        fresh = parse_study(dict(study.raw))
        started = time.perf_counter()
        judge_all(fresh, summary)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--outcomes", type=int, action="append",
                        help="outcome counts (repeatable; default 50, 200, 800, 1600)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per count")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'outcomes':>8} {'words':>7} {'median s':>9} {'min s':>7} {'scores':>8}")
    for count in args.outcomes or (50, 200, 800, 1600):
        study = build_study(count)
        summary = summarize(study)
        times = time_judge(study, summary, args.repeats)
        scores = "".join(str(v.score) for v in judge_all(study, summary).values())
        print(f"{count:>8} {len(summary.split()):>7} {statistics.median(times):>9.3f} "
              f"{min(times):>7.3f} {scores:>8}")


if __name__ == "__main__":
    main()
