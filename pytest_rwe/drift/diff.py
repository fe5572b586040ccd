"""What changed between a golden verdict profile and this run's, in words (pure).

Each line names the thing that changed: a number cited or dropped, an outcome whose claimed
direction or significance flipped, an outcome no longer mentioned, a juror's score, the
badge. :func:`drift_message` adds what the jurors say now and the summary, for a failing test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.drift.profile import VerdictProfile

#: a juror's explanation is cut to this many characters in a drift message
EXPLANATION_LIMIT = 400
# compared key by key below; any other key is compared as a whole
_DETAILED = frozenset({"badge", "jury", "numbers", "outcomes", "unreported_significant"})


def _claim(cell: Mapping[str, Any]) -> str:
    direction = cell.get("direction")
    said = {"higher": "higher", "lower": "lower", "null": "no difference",
            "mixed": "contradictory directions"}.get(str(direction), "no direction")
    return f"{said}, {'significant' if cell.get('significant') else 'not called significant'}"


def _outcome_lines(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        name = (after or before or {}).get("name") or key
        label = f"outcome '{name}' [{key}]"
        if after is None:
            lines.append(f"{label}: no longer mentioned (was: {_claim(before or {})})")
        elif before is None:
            lines.append(f"{label}: newly mentioned ({_claim(after)})")
        else:
            if before.get("direction") != after.get("direction"):
                lines.append(f"{label}: claimed direction {before.get('direction')} -> "
                             f"{after.get('direction')}")
            if bool(before.get("significant")) != bool(after.get("significant")):
                lines.append(f"{label}: called significant {bool(before.get('significant'))}"
                             f" -> {bool(after.get('significant'))}")
    return lines


def _jury_lines(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for criterion in sorted(set(old) | set(new)):
        before, after = old.get(criterion) or {}, new.get(criterion) or {}
        for juror in sorted(set(before) | set(after)):
            if juror not in after:
                lines.append(f"jury {criterion}: juror {juror} no longer on the jury")
            elif juror not in before:
                lines.append(f"jury {criterion}: juror {juror} joined, score {after[juror]}")
            elif before[juror] != after[juror]:
                score = {None: "abstained"}
                lines.append(f"jury {criterion}: {juror} score "
                             f"{score.get(before[juror], before[juror])} -> "
                             f"{score.get(after[juror], after[juror])}")
    return lines


def profile_changes(old: Mapping[str, Any], new: Mapping[str, Any],
                    context: Mapping[str, str] | None = None) -> list[str]:
    """One line per difference from the golden ``old`` facts to the ``new`` ones."""
    context = context or {}
    lines: list[str] = []
    if old.get("badge") != new.get("badge"):
        lines.append(f"badge {old.get('badge')} -> {new.get('badge')}")
    old_numbers = [str(n) for n in old.get("numbers") or []]
    new_numbers = [str(n) for n in new.get("numbers") or []]
    for number in old_numbers:
        if number not in new_numbers:
            lines.append(f"number {number} is no longer cited")
    for number in new_numbers:
        if number not in old_numbers:
            where = context.get(number)
            lines.append(f"number {number} is newly cited" + (f': "{where}"' if where else ""))
    lines += _outcome_lines(old.get("outcomes") or {}, new.get("outcomes") or {})
    old_missing = set(old.get("unreported_significant") or [])
    new_missing = set(new.get("unreported_significant") or [])
    lines += [f"significant outcome {key} is now left out" for key in sorted(new_missing -
                                                                              old_missing)]
    lines += [f"significant outcome {key} is now reported" for key in sorted(old_missing -
                                                                             new_missing)]
    lines += _jury_lines(old.get("jury") or {}, new.get("jury") or {})
    for key in sorted((set(old) | set(new)) - _DETAILED):
        if old.get(key) != new.get(key):
            lines.append(f"{key}: {old.get(key)!r} -> {new.get(key)!r}")
    return lines


def changed_criteria(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """Criteria whose juror scores differ between the two profiles."""
    before, after = old.get("jury") or {}, new.get("jury") or {}
    return [c for c in sorted(set(before) | set(after)) if before.get(c) != after.get(c)]


def _explanations(profile: VerdictProfile, criteria: Sequence[str]) -> list[str]:
    lines: list[str] = []
    for criterion in criteria:
        for note in profile.notes.get(criterion, ()):
            score = "abstained" if note.score is None else f"score {note.score}"
            said = " ".join(note.explanation.split())
            if len(said) > EXPLANATION_LIMIT:
                said = said[:EXPLANATION_LIMIT] + "…"
            lines.append(f"  {criterion}, {note.juror} ({score}): {said}")
    return lines


def drift_message(profile: VerdictProfile, golden: Mapping[str, Any] | None, location: str,
                  *, update_hint: str = "--snapshot-update") -> str:
    """The failure message of a drift check: what changed, what the jurors say, how to accept."""
    who = f"{profile.model} on study {profile.study}"
    if golden is None:
        return (f"no golden verdict profile for {who}: {location} does not exist.\n"
                f"Create it with `pytest {update_hint}` and commit it.")
    changes = profile_changes(golden, profile.facts, profile.number_context)
    lines = [f"verdict profile of {who} drifted from {location}:"]
    lines += [f"  - {line}" for line in changes] or ["  - (the stored profile is not in the "
                                                     "current format)"]
    # What the jurors say: about the criteria whose scores moved, else any criterion that
    # failed; when nothing in the jury moved, every criterion (their view of the new text).
    criteria = changed_criteria(golden, profile.facts)
    if not criteria:
        criteria = [c for c, notes in profile.notes.items()
                    if any(n.score != 1 for n in notes)] or list(profile.notes)
    explained = _explanations(profile, criteria)
    if explained:
        lines.append("what the jurors say now:")
        lines += explained
    if profile.summary:
        lines.append("summary now: " + " ".join(profile.summary.split()))
    lines.append(f"If this change is intended, accept it with `pytest {update_hint}` and "
                 f"commit {location}.")
    return "\n".join(lines)
