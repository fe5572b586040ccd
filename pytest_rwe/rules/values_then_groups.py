"""Two values set against each other, then the two groups they belong to, in the same order:
"X was 2.1 vs 3.4 for A vs B", "2.1 ± 0.4 versus 3.4 ± 0.6 in the A and B groups".

The mirror of :func:`pytest_rwe.rules.compared_values.ordered_values` (groups first, then
values). English pairs two such lists by their order; the reading is taken only when the two
lists stand next to each other ("for", "in", "with" or "among" between them), each of two
items joined by "vs", "versus" or "and", and the groups are the study's two sides.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.group_values import GroupValues
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["values_then_groups"]

_JOINS = words("vs versus and")
_LEADS = words("for in with among")
_SKIPPED = words("the a an")
_VALUE_TAIL = words("% mg kg g ml l min h s days weeks months years points mmhg")


def _value_end(tokens: Sequence[Token], pos: int, hi: int) -> int:
    """The last token of the value starting at ``pos``: the number, its "± SD" and unit."""
    end = pos
    if end + 2 < hi and tokens[end + 1].text == "±" and tokens[end + 2].is_number:
        end += 2
    if end + 1 < hi and tokens[end + 1].text.lower() in _VALUE_TAIL:
        end += 1
    return end


def _number(token: Token) -> float | None:
    try:
        return float(token.text.replace(",", ""))
    except ValueError:
        return None


def _ref_at(refs: Sequence[GroupRef], pos: int) -> GroupRef | None:
    return next((r for r in refs if r.position == pos), None)


def values_then_groups(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                       ) -> GroupValues | None:
    """The groups' values of "2.1 vs 3.4 for A vs B" in the clause ``lo``-``hi``, or None."""
    for first in range(lo, hi - 1):
        if not tokens[first].is_number or (first > lo and tokens[first - 1].text in "±-("):
            continue
        join = _value_end(tokens, first, hi) + 1
        if join + 1 >= hi or tokens[join].text.lower() not in _JOINS or \
                not tokens[join + 1].is_number:
            continue
        lead = _value_end(tokens, join + 1, hi) + 1
        if lead >= hi or tokens[lead].text.lower() not in _LEADS:
            continue
        pos = lead + 1
        while pos < hi and tokens[pos].text.lower() in _SKIPPED:
            pos += 1
        one = _ref_at(refs, pos)
        if one is None:
            return None
        pos = one.last + 1
        if pos >= hi or tokens[pos].text.lower() not in _JOINS:
            return None
        pos += 1
        while pos < hi and tokens[pos].text.lower() in _SKIPPED:
            pos += 1
        two = _ref_at(refs, pos)
        if two is None or {one.group, two.group} != {"intervention", "control"}:
            return None
        a, b = _number(tokens[first]), _number(tokens[join + 1])
        if a is None or b is None or a == b:
            return None
        mine, theirs = (a, b) if one.group == "intervention" else (b, a)
        at_mine, at_theirs = (first, join + 1) if one.group == "intervention" else (
            join + 1, first)
        return GroupValues(mine, theirs, first, two.last, at_mine, at_theirs)
    return None
