"""Multi-arm value lists: "+0.02% for placebo compared with -0.48%, -0.58% and -0.78% for
drug 5 and 10 mg, respectively", "68.5, 41.4 and 56.8, 26.2% in groups A and B, respectively".

A list of values stands for several arms (doses) of one group, or for several time points of
each group. A side is read only when every reading of the list gives the same one: each value
of the intervention's arms on one side of each value of the control's. Anything else (a
group the list does not tie to its values, values of different kinds) is left unread.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from pytest_rwe.rules.compared_values import listed_values
from pytest_rwe.rules.group_values import GroupValues, gap_ok, primary_values
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import WITHIN_GROUP, words
from pytest_rwe.rules.text import Token

__all__ = ["paired_lists", "respective_values", "value_runs", "within_group"]

_LIST = words(", and or %")
_TO_GROUP = words("% for in with among of the patients participants subjects group groups "
                  "arm arms receiving treated given taking")
_Read = tuple[int, float, bool]


def respective_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                      excluded: frozenset[float] = frozenset()) -> GroupValues | None:
    """The groups' values of a "respectively" list of three or more values, or None."""
    if not any(tokens[p].text.lower() == "respectively" for p in range(lo, hi)):
        return None
    return listed_values(tokens, refs, lo, hi) or paired_lists(
        tokens, refs, lo, hi, excluded) or value_runs(tokens, refs, lo, hi, excluded)


def _two_groups(refs: Sequence[GroupRef]) -> list[GroupRef] | None:
    named = [r for r in refs if not r.between]
    if len(named) != 2 or {r.group for r in named} != {"intervention", "control"}:
        return None
    return named


def _signed(tokens: Sequence[Token], pos: int) -> int:
    """A value's first token: its minus sign, when it has one."""
    return pos - 1 if pos and tokens[pos - 1].text in ("-", "\u2212", "+") else pos


def _listed(tokens: Sequence[Token], values: Sequence[_Read]) -> bool:
    """Values written one after the other as a list ("4.3, 5.1 and 6.2%")."""
    return all(gap_ok(tokens, a[0] + 1, _signed(tokens, b[0]), _LIST, 3)
               for a, b in pairwise(values))


def _trailing_list(tokens: Sequence[Token], values: Sequence[_Read]) -> list[_Read]:
    """The list the values end with ("The 2- and 5-year rates were 68.5, 41.4 and 56.8,
    26.2%": not the 2 and 5 of the name); a unit written once at its end ("%") is every
    value's."""
    start = len(values) - 1
    while start > 0 and _listed(tokens, values[start - 1:start + 1]):
        start -= 1
    found = list(values[start:])
    if found and found[-1][2]:
        found = [(pos, value, True) for pos, value, _ in found]
    return found


def _side(arms: Sequence[_Read], controls: Sequence[_Read], start: int, end: int
          ) -> GroupValues | None:
    """The two groups' values when every arm's value lies on one side of every control's."""
    if not arms or not controls or len({v[2] for v in [*arms, *controls]}) != 1:
        return None
    if min(a[1] for a in arms) > max(c[1] for c in controls):
        i_value, c_value = max(a[1] for a in arms), min(c[1] for c in controls)
    elif max(a[1] for a in arms) < min(c[1] for c in controls):
        i_value, c_value = min(a[1] for a in arms), max(c[1] for c in controls)
    else:
        return None
    return GroupValues(i_value, c_value, start, end)


def paired_lists(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                 excluded: frozenset[float] = frozenset()) -> GroupValues | None:
    """"68.5, 41.4 and 56.8, 26.2% in groups A and B, respectively": 2k values, then the two
    groups. Read in blocks (A's k values, then B's) and interleaved (A, B, A, B): only when
    both readings set the groups the same way round."""
    groups = _two_groups(refs)
    if groups is None or groups[0].comparison or groups[1].comparison:
        return None
    values = _trailing_list(tokens, [v for v in primary_values(tokens, lo, hi, excluded)
                                     if v[0] < groups[0].position])
    if len(values) < 4 or len(values) % 2 or not gap_ok(
            tokens, values[-1][0] + 1, groups[0].position, _TO_GROUP, 4):
        return None
    half = len(values) // 2
    readings = [(values[:half], values[half:]), (values[0::2], values[1::2])]
    sides = []
    for first, second in readings:
        arms, controls = (first, second) if groups[0].group == "intervention" else (second,
                                                                                    first)
        # each time point on its own: the arm's value against the control's at the same place
        pairs = [_side([a], [c], 0, 0) for a, c in zip(arms, controls, strict=True)]
        if any(p is None for p in pairs) or len({p.direction for p in pairs if p}) != 1:
            return None
        sides.append(pairs[0])
    if sides[0] is None or sides[1] is None or sides[0].direction != sides[1].direction:
        return None
    return GroupValues(sides[0].intervention, sides[0].control, _signed(tokens, values[0][0]),
                       values[-1][0])


def value_runs(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
               excluded: frozenset[float] = frozenset()) -> GroupValues | None:
    """"+0.02% for placebo compared with -0.48%, -0.58% and -0.78% for dapagliflozin 2.5, 5
    and 10 mg, respectively": each group named after a run of values, its arms' values."""
    groups = _two_groups(refs)
    if groups is None:
        return None
    values = primary_values(tokens, lo, hi, excluded)
    if any(v[0] > groups[1].last for v in values):
        return None  # a value after the last group: not a run ended by each group
    runs: list[list[_Read]] = [[], []]
    for value in values:
        runs[0 if value[0] < groups[0].position else 1].append(value)
    if not runs[0] or not runs[1] or max(len(r) for r in runs) < 2:
        return None
    runs = [_trailing_list(tokens, run) for run in runs]
    for run, group in zip(runs, groups, strict=True):
        if not gap_ok(tokens, run[-1][0] + 1, group.position,
                                                 _TO_GROUP, 4):
            return None
    arms, controls = runs if groups[0].group == "intervention" else runs[::-1]
    return _side(arms, controls, _signed(tokens, runs[0][0][0]), runs[1][-1][0])


# "mean changes from baseline were -0.48% with A and +0.02% with B": the name of a measure
# compared between the groups, not a change within one group
_CHANGE_FROM_BASELINE = re.compile(r"\bchanges?\s+(?:in\s+\S+\s+)?from\s+(?:the\s+)?baseline\b",
                                   re.IGNORECASE)


def within_group(text: str) -> bool:
    """``text`` speaks of a change within one group ("rose from 5 to 7 in A"), "change from
    baseline" as the name of what is compared left aside."""
    # the plain search first: most clauses speak of no change at all
    return WITHIN_GROUP.search(text) is not None and WITHIN_GROUP.search(
        _CHANGE_FROM_BASELINE.sub(" ", text)) is not None
