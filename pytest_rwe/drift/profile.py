"""The verdict profile: what a drift snapshot keeps of one (model, study) evaluation (pure).

Not the summary's text, which a rewording changes without changing what it says, but the
facts read from it deterministically and the jury's answers:

- ``numbers``: every number the summary cites, normalized (value x scale, the operator
  written before it, ``%`` when it is a percentage), sorted and without repeats, so
  "0.870" and "0.87" or a number moved to another sentence are the same profile;
- ``outcomes``: each study outcome the summary mentions, with the direction and the
  significance it claims for it (from the rules juror's claim extraction);
- ``unreported_significant``: the outcomes with p <= 0.05 the summary leaves out;
- ``jury``: each criterion's juror scores (None for an abstention), and the ``badge``.

The jurors' explanations ride along (to say why something changed) but are not compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_rwe.rules.diagnostics import claim_diagnostics
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in
from pytest_rwe.rules.text import sentences
from pytest_rwe.study import Study
from pytest_rwe.verdict import Criterion, Verdict

PROFILE_VERSION = 1
#: characters of the summary shown on each side of a number that changed
CONTEXT_CHARS = 40

Facts = dict[str, Any]


@dataclass(frozen=True)
class JurorNote:
    """What one juror answered on one criterion (shown when a profile drifts)."""

    juror: str
    score: int | None
    explanation: str


@dataclass(frozen=True)
class VerdictProfile:
    """The compared ``facts`` of one evaluation, plus what helps explain a change."""

    facts: Facts
    summary: str = ""
    notes: Mapping[str, tuple[JurorNote, ...]] = field(default_factory=dict)
    number_context: Mapping[str, str] = field(default_factory=dict)

    @property
    def model(self) -> str:
        return str(self.facts["model"])

    @property
    def study(self) -> str:
        return str(self.facts["study"])

    def __repr__(self) -> str:
        return f"VerdictProfile(model={self.model!r}, study={self.study!r})"


def normalize_number(number: NumberMention) -> str:
    """``number`` as written-precision-free text: "<0.001", "12.5%", "18500000", "-0.12"."""
    value = number.value * number.scale
    text = f"{value:.12g}"
    if text in ("-0", "+0"):
        text = "0"
    return f"{number.operator}{text}{'%' if number.is_percent else ''}"


def _number_sort_key(text: str) -> tuple[float, str]:
    core = text.lstrip("<>=").rstrip("%")
    try:
        return float(core), text
    except ValueError:  # pragma: no cover - normalize_number always writes a float
        return float("inf"), text


def _context(summary: str, start: int, end: int) -> str:
    """The sentence around a number, cut to CONTEXT_CHARS on each side."""
    lo, hi = 0, len(summary)
    for span in sentences(summary):
        if span.start <= start < span.end:
            lo, hi = span.start, span.end
            break
    left = max(lo, start - CONTEXT_CHARS)
    right = min(hi, end + CONTEXT_CHARS)
    text = " ".join(summary[left:right].split())
    return ("…" if left > lo else "") + text + ("…" if right < hi else "")


def cited_numbers(summary: str) -> tuple[list[str], dict[str, str]]:
    """The normalized numbers of ``summary`` (sorted, unique) and where each first appears."""
    where: dict[str, str] = {}
    for number in numbers_in(summary):
        text = normalize_number(number)
        where.setdefault(text, _context(summary, number.span.start, number.span.end))
    return sorted(where, key=_number_sort_key), where


def claimed_outcomes(study: Study, summary: str) -> tuple[dict[str, Any], list[str]]:
    """Per mentioned outcome its claimed direction and significance; unreported p <= 0.05."""
    diagnostics = claim_diagnostics(study, summary)
    outcomes = {
        str(row["outcome"]): {
            "name": str(row["name"]),
            "direction": row["claimed_direction"],
            "significant": bool(row["claimed_significant"]),
        }
        for row in diagnostics["outcomes"]
    }
    return outcomes, sorted(str(key) for key in diagnostics["unmentioned_significant"])


def verdict_profile(
    study: Study,
    summary: str,
    verdict: Verdict,
    thresholds: Mapping[Criterion, float],
    *,
    model: str,
    repeat: int = 0,
) -> VerdictProfile:
    """The profile of ``model``'s ``summary`` of ``study`` and the jury's ``verdict`` on it."""
    numbers, where = cited_numbers(summary)
    outcomes, unreported = claimed_outcomes(study, summary)
    jury: dict[str, dict[str, int | None]] = {}
    notes: dict[str, tuple[JurorNote, ...]] = {}
    for criterion, result in verdict.criteria.items():
        jury[criterion] = {s.juror: s.score for s in result.scores}
        notes[criterion] = tuple(JurorNote(s.juror, s.score, s.explanation)
                                 for s in result.scores)
    facts: Facts = {
        "profile_version": PROFILE_VERSION,
        "model": model,
        "study": study.id,
        "badge": verdict.badge(thresholds),
        "jury": jury,
        "numbers": numbers,
        "outcomes": outcomes,
        "unreported_significant": unreported,
    }
    if repeat:
        facts["repeat"] = repeat
    return VerdictProfile(facts, summary, notes, where)
