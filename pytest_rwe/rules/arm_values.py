"""The values of three or more arms, each written just before the arm it belongs to: "34.3%
with lidocaine (P = 0.001), 40% with ketorolac (P = 0.004) and 8.6% with both, compared with
74.3% with placebo".

Read when every arm the clause names after its first value has such a value, of one
kind, and every value of the intervention's arms lies on one side of every value of the
control's: the intervention is then higher or lower. Two arms are left to the layouts of
:mod:`pytest_rwe.rules.group_values`, which pair one value with each group.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.compared_values import group_value
from pytest_rwe.rules.group_values import GroupValues
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["arm_values"]

# the words between a value and its arm: "34.3% with lidocaine", "40% in the K group"
_TO_ARM = words("% with in for among on the group arm patients receiving given")


def _value_before(tokens: Sequence[Token], ref: GroupRef, floor: int) -> int | None:
    """The value just before ``ref``, over the words of ``_TO_ARM``, not before ``floor``."""
    for pos in range(ref.position - 1, max(floor, ref.position - 5) - 1, -1):
        if tokens[pos].is_number:
            if pos >= 2 and tokens[pos - 1].text == "/" and tokens[pos - 2].is_number:
                return pos - 2  # "5/27 IG": the share, not its denominator
            return pos
        if tokens[pos].text.lower() not in _TO_ARM:
            return None
    return None


def arm_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
               ) -> GroupValues | None:
    """The intervention's and the control's values in tokens ``lo:hi`` when three or more
    arms each have one (see the module's docstring), or None."""
    named = [r for r in refs if lo <= r.position < hi and not r.between]
    if len(named) < 3 or any(r.group not in ("intervention", "control") for r in named):
        return None
    read: list[tuple[str, float, bool, int]] = []
    floor = lo
    for ref in named:
        at = _value_before(tokens, ref, floor)
        value = group_value(tokens, at) if at is not None else None
        if (at is None or value is None) and not read:
            continue  # "X after rocuronium was 34.3% with A": the subject, before any value
        if at is None or value is None:
            return None
        read.append((ref.group, value[0], value[1], at))
        floor = ref.last + 1
    if len(read) < 3 or len({percent for _, _, percent, _ in read}) != 1:
        return None
    arms = [(v, at) for group, v, _, at in read if group == "intervention"]
    controls = [(v, at) for group, v, _, at in read if group == "control"]
    if not arms or not controls:
        return None
    if min(arms)[0] > max(controls)[0]:
        i_value, i_at = max(arms)
        c_value, c_at = min(controls)
    elif max(arms)[0] < min(controls)[0]:
        i_value, i_at = min(arms)
        c_value, c_at = max(controls)
    else:
        return None
    return GroupValues(i_value, c_value, read[0][3], read[-1][3], i_at, c_at)
