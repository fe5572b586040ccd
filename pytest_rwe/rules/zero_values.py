"""A group in which nothing happened, set against a value in the other: "no patient on A had
X, compared with 20% on B", "X developed in none of the A group and in 20% of the B group".

"no", "none" and "zero" state the value 0 for the group they quantify; the other group's
value is the first number after the next comparison word ("compared", "versus", "vs",
"whereas", "while", "but", "and"), named with that group within a few words.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.group_values import GroupValues
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["zero_values"]

_ZERO = words("no none zero")
_BRIDGE = words("of the patient patients participant participants subject subjects one in on "
                "receiving given treated with among")
_NEXT = words("compared versus vs whereas while but and against")


def _quantified(tokens: Sequence[Token], zero: int, refs: Sequence[GroupRef], hi: int
                ) -> GroupRef | None:
    """The group "no"/"none" at ``zero`` quantifies: "none of the A patients", "no patient
    on A", over plain bridging words only."""
    for pos in range(zero + 1, min(hi, zero + 5)):
        ref = next((r for r in refs if r.position == pos), None)
        if ref is not None:
            return ref if ref.group in ("intervention", "control") and not ref.comparison \
                else None
        if tokens[pos].text.lower() not in _BRIDGE:
            return None
    return None


def zero_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                ) -> GroupValues | None:
    """0 for the group "no"/"none" quantifies and the other group's value, or None."""
    for zero in range(lo, hi):
        if tokens[zero].text.lower() not in _ZERO:
            continue
        group = _quantified(tokens, zero, refs, hi)
        if group is None:
            continue
        after = group.last + 1
        join = next((p for p in range(after, hi) if tokens[p].text.lower() in _NEXT), None)
        if join is None:
            return None
        number = next((p for p in range(join + 1, min(hi, join + 4)) if tokens[p].is_number),
                      None)
        other = next((r for r in refs if r.group not in (group.group, "unknown")
                      and number is not None and abs(r.position - number) <= 6), None)
        if number is None or other is None or other.group not in ("intervention", "control"):
            return None
        try:
            value = float(tokens[number].text.replace(",", ""))
        except ValueError:
            return None
        if value <= 0:
            return None
        if group.group == "intervention":
            return GroupValues(0.0, value, zero, max(number, other.end), zero, number)
        return GroupValues(value, 0.0, zero, max(number, other.end), number, zero)
    return None
