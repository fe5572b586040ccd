"""Build evaluation records (the shape of pytest_rwe.records) for report unit tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.report import ReportSettings
from pytest_rwe.verdict import CRITERIA

THRESHOLDS = dict.fromkeys(CRITERIA, 0.5)
JURY = ("judge/a", "judge/b", "judge/c")
# few resamples keep unit tests fast; the plugin uses the defaults (2,000 and 1,000)
FAST = ReportSettings(resamples=200, bt_resamples=100)


def record(model: str, study: str, scores: Mapping[str, Sequence[int | None]] | None = None,
           *, latency: float = 1.0, repeat: int = 0, text: str = "A summary.",
           explanation: str = "ok", error: str | None = None,
           jury: Sequence[str] = JURY) -> dict[str, Any]:
    """One record; ``scores`` maps a criterion to each juror's score (default: all 1)."""
    scores = scores or {}
    if error is not None:
        return {"version": 1, "model": model, "study": study, "repeat": repeat,
                "error": error, "summary": None, "verdict": None, "badge": "red",
                "thresholds": THRESHOLDS}
    verdict = {}
    for criterion in CRITERIA:
        answers = list(scores.get(criterion, [1] * len(jury)))
        answered = [s for s in answers if s is not None]
        verdict[criterion] = {
            "mean": sum(answered) / len(answered) if answered else None,
            "abstentions": len(answers) - len(answered),
            "jurors": [{"juror": j, "score": s,
                        "explanation": explanation if s is not None else "abstained: unreadable"}
                       for j, s in zip(jury, answers, strict=True)],
        }
    means = [v["mean"] for v in verdict.values()]
    passes = all(m is not None and m >= 0.5 for m in means)
    unanimous = all(len({j["score"] for j in v["jurors"]}) == 1 for v in verdict.values())
    badge = "red" if not passes else "green" if unanimous else "yellow"
    return {"version": 1, "model": model, "study": study, "repeat": repeat, "error": None,
            "summary": {"text": text, "latency_s": latency, "input_tokens": 100,
                        "output_tokens": 40, "replayed": False},
            "verdict": verdict, "badge": badge, "thresholds": THRESHOLDS}


def two_model_run(studies: int = 6) -> list[dict[str, Any]]:
    """Model "good" is right everywhere and fast; "weak" misses completeness on odd studies."""
    records = []
    for i in range(studies):
        study = f"study_{i:02d}"
        records.append(record("m/good", study, latency=1.0))
        weak = {"completeness": [0, 0, 1] if i % 2 else [1, 1, 1],
                "direction_of_effect": [1, 1, 0] if i == 0 else [1, 1, 1]}
        records.append(record("m/weak", study, weak, latency=2.0))
    return records
