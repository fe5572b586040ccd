"""Generated studies for tests and benchmarks.

``big_study_raw(n)`` is a valid study file (the on-disk mapping) with ``n`` outcomes: hazard
ratios with intervals and p-values, about a third of them significant, in the shape of the
LEGEND-HTN cases. It is what the rules juror's scale benchmark and the tests of its worker
process judge.
"""

from __future__ import annotations

import random
from typing import Any

_CONDITIONS = ("stroke", "myocardial infarction", "heart failure", "kidney injury", "angioedema",
               "hypotension", "syncope", "gout", "hyperkalemia", "cough", "edema", "anemia",
               "fracture", "delirium", "pneumonia", "sepsis", "diabetes", "dementia")


def big_study_raw(outcomes: int, seed: int = 800) -> dict[str, Any]:
    """A valid cohort study in the on-disk format with ``outcomes`` outcomes."""
    rng = random.Random(seed)
    results: dict[str, str] = {}
    for i in range(outcomes):
        name = f"{_CONDITIONS[i % len(_CONDITIONS)]}.{i // len(_CONDITIONS) + 1}"
        stem = f"outcome_3yrs.{name.replace(' ', '.')}_bin"
        hr = round(rng.uniform(0.6, 1.5), 2)
        low, high = round(hr * rng.uniform(0.7, 0.95), 2), round(hr * rng.uniform(1.05, 1.4), 2)
        results[f"{stem}!HR"] = f"{hr} ({low}, {high})"
        results[f"{stem}!pvalue"] = rng.choice(("<0.001", "0.003", "0.02", "0.04", "0.12",
                                                "0.28", "0.45", "0.61", "0.9"))
    return {
        "id": f"big_cohort_{outcomes}_outcomes",
        "design": "cohort",
        "question": f"Is drug A, compared with drug B, associated with {outcomes} outcomes?",
        "picot": {"population": "Adults with hypertension; propensity-score matched",
                  "intervention": "Drug A", "control": "Drug B",
                  "outcome": "Cardiovascular and safety outcomes", "timeframe": "3 years"},
        "results": {"intervention_size": 41230, "control_size": 40987,
                    "baseline_differences": {"age_mean": "control 61.2 vs intervention 62.0"},
                    "outcomes": results},
        "source": {"title": "synthetic study for the rules juror's scale benchmark"},
    }
