"""Changes written in headline style: "body weight up 5 kg", "HbA1c down 1.2 points".

Notes and abstracts drop the verb: the outcome's name, then "up" or "down", then the amount.
"up" and "down" are no direction words on their own ("follow-up", "up to 12 weeks", "broken
down by age"); only between a name and a number do they state a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pytest_rwe.rules.text import Token

if TYPE_CHECKING:  # cues reads headline changes, so only the types are imported here
    from pytest_rwe.rules.cues import Cue
    from pytest_rwe.rules.outcomes import Mention

__all__ = ["headline_change", "headline_cues"]

_SIDES = {"up": "higher", "down": "lower"}


def headline_change(tokens: Sequence[Token], pos: int, hi: int, names: set[int]) -> str | None:
    """"higher" or "lower" when the token at ``pos`` is "up" or "down" right after an outcome
    name's last word (``names``: token positions of outcome names) and right before a
    number ("up 5 kg", "down by 3.3 points"); else None."""
    side = _SIDES.get(tokens[pos].text.lower())
    if side is None or pos - 1 not in names or tokens[pos - 1].text == "-":
        return None
    nxt = pos + 1
    if nxt < hi and tokens[nxt].text.lower() == "by":
        nxt += 1
    if nxt < hi and tokens[nxt].text in ("+", "-", "\u2212"):
        nxt += 1
    return side if nxt < hi and tokens[nxt].is_number else None


def headline_cues(tokens: Sequence[Token], mentions: Sequence[Mention], cues: Sequence[Cue],
                  hi: int) -> dict[int, Cue]:
    """Each mention's headline change ("body weight up 5 kg"), by the mention's first token:
    the "up" may sit inside the mention's span when the unit after the number was read as
    part of the name, so the usual attachment, which looks outside the name, misses it."""
    out: dict[int, Cue] = {}
    for mention in mentions:
        for cue in cues:
            if cue.start - 1 in mention.positions and headline_change(
                    tokens, cue.start, hi, set(mention.positions)) is not None:
                out[mention.positions[0]] = cue
    return out
