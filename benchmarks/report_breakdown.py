"""What the report's breakdown by design, source and area costs, beside the aggregates.

Builds one record per (model, study) for every study of the public suite, with each
criterion's jury scores drawn at random (seeded, so no cell is constant and every bootstrap
resamples), and times :func:`pytest_rwe.report.aggregate.aggregate` and
:func:`pytest_rwe.report.breakdown.breakdown` with the report's default settings (2,000
resamples). Medians over ``--runs``; the machine's load average is printed beside them,
because the machine is shared and the figures are noisy.

    python benchmarks/report_breakdown.py --models 3 --runs 5   # the figure of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from pytest_rwe.report import ReportSettings
from pytest_rwe.report.aggregate import aggregate
from pytest_rwe.report.breakdown import breakdown
from pytest_rwe.study import load_folder
from pytest_rwe.study.selection import study_tags
from pytest_rwe.verdict import CRITERIA

SUITE = Path(__file__).resolve().parent.parent / "cases" / "studies"
JURY = ("judge/a", "judge/b", "judge/c")


def _record(model: str, study: str, rng: random.Random) -> dict[str, Any]:
    verdict = {}
    for criterion in CRITERIA:
        scores = [rng.randint(0, 1) for _ in JURY]
        verdict[criterion] = {"mean": sum(scores) / len(scores), "abstentions": 0,
                              "jurors": [{"juror": j, "score": s, "explanation": ""}
                                         for j, s in zip(JURY, scores, strict=True)]}
    return {"version": 1, "model": model, "study": study, "repeat": 0, "error": None,
            "summary": {"text": "", "latency_s": 1.0}, "verdict": verdict, "badge": "green",
            "thresholds": dict.fromkeys(CRITERIA, 0.5)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--models", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    studies = [load.study for load in load_folder(SUITE) if load.study is not None]
    tags = {study.id: study_tags(study) for study in studies}
    rng = random.Random(0)
    records = [_record(f"model/{m}", study.id, rng)
               for m in range(args.models) for study in studies]
    settings = ReportSettings()
    times: dict[str, list[float]] = {"aggregate": [], "breakdown": []}
    for _ in range(args.runs):
        start = time.perf_counter()
        aggregate(records, settings)
        middle = time.perf_counter()
        breakdown(records, tags, settings)
        times["aggregate"].append(middle - start)
        times["breakdown"].append(time.perf_counter() - middle)
    cells = sum(len(set(v for t in tags.values() for v in t[d])) for d in ("design", "source",
                                                                           "area"))
    print(f"{len(studies)} studies x {args.models} models, {cells} cells per model, "
          f"{settings.resamples} resamples; load average {os.getloadavg()[0]:.1f}")
    for name, values in times.items():
        print(f"  {name:<10} median {statistics.median(values):.2f} s over {args.runs} runs")


if __name__ == "__main__":
    main()
