"""How long the builtin template summarizer and the rules juror take on generated studies.

The same workload as ``tests/test_summarizer.py::test_generated_studies_pass_every_rule``
(200 random valid studies, seed 20250101): each is summarized by ``builtin/template`` and the
summary judged on the three criteria. Speed is measured here, never asserted by a test.

    python benchmarks/summarizer.py                 # 200 studies, 5 rounds
    python benchmarks/summarizer.py --studies 1000 --rounds 3

Figures are recorded in docs/benchmarks.md; on a shared machine give the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from pytest_rwe.rules import judge_all
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.rules.synthetic import random_study

SEED = 20250101


def one_round(count: int) -> tuple[float, float, int]:
    """Seconds spent summarizing, seconds spent judging, and summaries failing a rule."""
    rng = random.Random(SEED)
    writing = judging = 0.0
    failing = 0
    for index in range(count):
        study = random_study(rng, index)
        started = time.perf_counter()
        text = summarize(study)
        written = time.perf_counter()
        verdicts = judge_all(study, text)
        judging += time.perf_counter() - written
        writing += written - started
        failing += any(v.score == 0 for v in verdicts.values())
    return writing, judging, failing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rounds = [one_round(args.studies) for _ in range(args.rounds)]
    write = statistics.median(r[0] for r in rounds)
    judge = statistics.median(r[1] for r in rounds)
    print(f"{args.studies} generated studies, median of {args.rounds} rounds "
          f"(load average {os.getloadavg()[0]:.2f}):")
    print(f"  summarize: {write:.3f} s ({write / args.studies * 1000:.2f} ms per study)")
    print(f"  judge_all: {judge:.3f} s ({judge / args.studies * 1000:.2f} ms per study)")
    print(f"  summaries failing a rule: {rounds[0][2]}")


if __name__ == "__main__":
    main()
