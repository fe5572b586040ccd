"""Two values set against each other by a comparison word: "the A group had a 3.3% rate of X
compared with 13.3% in the B group", "X was 20.5% in A compared to 44.5% in B", "A had a
mean cost of 35.41 per patient compared with 51.12 for B".

The value before the comparison word belongs to the group the clause names before it (its
subject side), the value right after it to the group compared against. Read only when each
side names one group, the two groups differ, and the two values are of one kind; else None,
and the clause's other readings stand. A complement to
:func:`pytest_rwe.rules.group_values.group_values`, which pairs values with the group named
beside each.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.group_values import GroupValues
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["compared_values"]

_MARKERS = words("compared versus vs vs. against")
# words after which a number is not a group's value: a p-value, a statistic, a bound, a size
_NOT_A_VALUE_AFTER = words("p = < > ≤ ≥ n or hr rr irr ci ratio ratios sd se sem iqr range "
                           "table figure fig day days week weeks month months year years at "
                           "by within after before")
_UNIT_OR_GLUE = words("% mg kg g ml l dl mm cm cm2 s min mins h hours days weeks months years "
                      "points units mmhg mmol/l mg/dl μg/l ug/l per patient patients ± the a an "
                      "of in for with among")


def _value(tokens: Sequence[Token], pos: int) -> tuple[float, bool] | None:
    """The number at ``pos`` as (value, is a percentage), or None for a number that is no
    group's value ("p = 0.02", "OR 2.1", "n = 40", a year)."""
    token = tokens[pos]
    if not token.is_number:
        return None
    prev = tokens[pos - 1].text.lower() if pos else ""
    if prev in _NOT_A_VALUE_AFTER or prev in ("(", "["):
        return None
    try:
        value = float(token.norm)
    except ValueError:
        return None
    if value.is_integer() and 1900 <= value <= 2100:
        return None
    nxt = tokens[pos + 1].text if pos + 1 < len(tokens) else ""
    if nxt == "/" and pos + 2 < len(tokens) and tokens[pos + 2].is_number:
        total = float(tokens[pos + 2].norm or 0) if tokens[pos + 2].norm else 0.0
        return (100.0 * value / total, True) if total > 0 else None
    if prev in ("-", "\u2212") and pos >= 2 and not tokens[pos - 2].is_number:
        value = -value
    return value, nxt == "%"


def _before(tokens: Sequence[Token], marker: int, lo: int, skip: set[int]) -> int | None:
    """The value just before the comparison word, over units, glue words, parentheses and
    the words of names (``skip``)."""
    depth = 0
    for pos in range(marker - 1, max(lo - 1, marker - 12), -1):
        if pos in skip:
            continue
        text = tokens[pos].text.lower()
        if text in ")]":
            depth += 1
        elif text in "([":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif tokens[pos].is_number:
            return pos if _value(tokens, pos) is not None else None
        elif text not in _UNIT_OR_GLUE and text not in lexicon.ARGUMENT_LEAD and text != ",":
            return None
    return None


def _after(tokens: Sequence[Token], marker: int, hi: int) -> int | None:
    """The value just after the comparison word ("compared with 13.3%", "vs. 51.12")."""
    for pos in range(marker + 1, min(hi, marker + 4)):
        text = tokens[pos].text.lower()
        if tokens[pos].is_number:
            return pos if _value(tokens, pos) is not None else None
        if text not in ("with", "to", ".", "£", "$", "€", "-", "\u2212", "a", "an", "only"):
            return None
    return None


def compared_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                    names: set[int]) -> GroupValues | None:
    """The intervention's and the control's values set against each other in the clause
    ``lo``-``hi``, or None (see the module's docstring). ``names``: the tokens of outcome
    names, which may stand between a value and the comparison word."""
    markers = [p for p in range(lo, hi) if tokens[p].text.lower() in _MARKERS]
    if len(markers) != 1:
        return None  # one comparison only: "A vs B vs C" lists, not a pair
    marker = markers[0]
    left_at, right_at = _before(tokens, marker, lo, names), _after(tokens, marker, hi)
    if left_at is None or right_at is None:
        return None
    subject = {r.group for r in refs if r.position < left_at and not r.comparison
               and not r.between}
    compared = {r.group for r in refs if r.position > marker and (r.comparison or r.position
                                                                   > right_at)}
    if len(subject) != 1 or len(compared) != 1 or subject == compared or \
            not subject | compared <= {"intervention", "control"}:
        return None
    if any(left_at < r.position < marker and r.group not in subject for r in refs):
        return None  # "3.3% in A compared with ...": the value is before its group's name
    left, right = _value(tokens, left_at), _value(tokens, right_at)
    if left is None or right is None or left[1] != right[1] or left[0] == right[0]:
        return None
    if subject == {"intervention"}:
        i_value, c_value, i_at, c_at = left[0], right[0], left_at, right_at
    else:
        i_value, c_value, i_at, c_at = right[0], left[0], right_at, left_at
    return GroupValues(i_value, c_value, left_at, right_at, i_at, c_at)
