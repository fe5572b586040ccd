"""A group in which nothing happened, set against a value in the other: "no patient on A had
X, compared with 20% on B", "X developed in none of the A group and in 20% of the B group".

"no", "none" and "zero" state the value 0 for the group they quantify; the other group's
value is the first number after the next comparison word ("compared", "versus", "vs",
"whereas", "while", "but", "and"), named with that group within a few words. When the zero
comes second ("32% of patients on A desaturated against none on B"), the other group's value
is the number named with that group before the comparison word.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.group_values import GroupValues
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token, outside_brackets

__all__ = ["zero_values"]

_ZERO = words("no none zero")
_BRIDGE = words("of the patient patients participant participants subject subjects one in on "
                "receiving given treated with among")
_NEXT = words("compared versus vs whereas while but and against")


def _quantified(tokens: Sequence[Token], zero: int, refs: Sequence[GroupRef], hi: int,
                compared: bool = False) -> GroupRef | None:
    """The group "no"/"none" at ``zero`` quantifies: "none of the A patients", "no patient
    on A", over plain bridging words only; the compared-against side only when ``compared``
    ("... against none in the B group")."""
    for pos in range(zero + 1, min(hi, zero + 5)):
        ref = next((r for r in refs if r.position == pos and r.group != "unknown"), None)
        if ref is not None:
            return ref if ref.group in ("intervention", "control") and (
                compared or not ref.comparison) else None
        # "none in Group NC": a label's word ("Group") bridges to the group's name
        if tokens[pos].text.lower() not in _BRIDGE and not any(r.position == pos for r in refs):
            return None
    return None


def _join_before(tokens: Sequence[Token], zero: int, lo: int) -> int | None:
    """The comparison word right before "none" ("against none", "compared with none")."""
    for pos in range(zero - 1, max(lo, zero - 3) - 1, -1):
        word = tokens[pos].text.lower()
        if word in _NEXT:
            return pos
        if word not in ("with", "to", ","):
            return None
    return None


def _value_first(tokens: Sequence[Token], refs: Sequence[GroupRef], group: GroupRef, lo: int,
                 join: int, zero: int) -> GroupValues | None:
    """"32% of patients on A desaturated against none on B": the number before ``join``
    nearest the other group's name (within a few words), set against 0 for ``group``."""
    others = [r for r in refs if lo <= r.position < join and not r.comparison
              and r.group in ("intervention", "control") and r.group != group.group]
    if len(others) != 1 or any(lo <= r.position < join and r.group == group.group for r in refs):
        return None  # one value-bearing group before the comparison, and only the other one
    other = others[0]
    numbers = [p for p in outside_brackets(tokens, lo, join) if tokens[p].is_number
               and abs(p - other.position) <= 8]
    if not numbers:
        return None
    number = min(numbers, key=lambda p: abs(p - other.position))
    return _against_zero(tokens, number, zero, group,
                         (min(number, other.position), max(zero, group.end)))


def _against_zero(tokens: Sequence[Token], number: int, zero: int, group: GroupRef,
                  span: tuple[int, int]) -> GroupValues | None:
    """The other group's positive value at ``number`` and 0 for ``group`` (the one "no" /
    "none" at ``zero`` quantifies), over the token range ``span``."""
    try:
        value = float(tokens[number].text.replace(",", ""))
    except ValueError:
        return None
    if value <= 0:
        return None
    if group.group == "intervention":
        return GroupValues(0.0, value, *span, zero, number)
    return GroupValues(value, 0.0, *span, number, zero)


def zero_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                ) -> GroupValues | None:
    """0 for the group "no"/"none" quantifies and the other group's value, or None."""
    for zero in range(lo, hi):
        if tokens[zero].text.lower() not in _ZERO:
            continue
        before = _join_before(tokens, zero, lo)
        group = _quantified(tokens, zero, refs, hi, compared=before is not None)
        if group is None:
            continue
        if before is not None:
            return _value_first(tokens, refs, group, lo, before, zero)
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
        return _against_zero(tokens, number, zero, group, (zero, max(number, other.end)))
    return None
