"""A group named right after the compared-against one, by a preposition, bears the direction:
"the time to X was longer versus placebo with drug A". The walk back from a group to "than"
or "versus" (``group_position.position``) passes over plain words, so both groups there read as
compared; the one after the preposition is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["bearers_after_compared"]

# what introduces the group a result is about ("with A", "using A"); not "in", which also
# qualifies the compared side itself ("compared with parents in the control group")
_BEARING = words("with using receiving")
# what may stand between that word and the group's name
_FILLER = words("the a an those patients participants subjects who were treated given taking")


def bearers_after_compared(tokens: Sequence[Token], refs: list[GroupRef]) -> list[GroupRef]:
    """``refs`` with a group named by a preposition right after a compared-against group of
    the other side read as the side that bears the direction."""
    out = list(refs)
    for i in range(1, len(out)):
        before, ref = out[i - 1], out[i]
        if not (before.comparison and ref.comparison) or ref.between or \
                {before.group, ref.group} != {"intervention", "control"}:
            continue
        gap = [tokens[p].text.lower() for p in range(before.last + 1, ref.position)]
        if gap and gap[0] in _BEARING and all(w in _FILLER for w in gap[1:]):
            out[i] = replace(ref, comparison=False)
    return out
