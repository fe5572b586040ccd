"""Size words around a direction cue that state no direction of their own: a bound of the
population after a quantity ("40 kg/m2 or more") and the size of an excess ("a smaller but
still significant excess risk")."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["BIGGER", "NUMBER_WORDS", "SHAPES", "SMALLER", "quantity_before", "sized_excesses"]

SHAPES = words("steep steeper rapid rapidly sharp sharper pronounced marked substantial large "
               "big small fast faster slow slower annual yearly overall mean average")
NUMBER_WORDS = words("one two three four five six seven eight nine ten twelve twenty")
BIGGER = words("greater larger bigger more steeper marked")
SMALLER = words("smaller less lesser lower fewer")

_EXCESS = words("excess excesses")
_EXCESS_BRIDGE = words("but still yet significant statistically nonetheless also though "
                       "relative absolute")


def sized_excesses(tokens: Sequence[Token], lo: int, hi: int, in_names: set[int],
                   changes: dict[int, str], absorbed: set[int]) -> None:
    """"a smaller but still significant excess risk", "smaller excesses for X": an excess is
    the amount over the group compared against, so it states higher; the size word before it
    compares two excesses (of other groups or outcomes) and states nothing of its own."""
    for pos in range(lo, hi):
        word = tokens[pos].text.lower()
        if pos in in_names:
            continue
        if word in _EXCESS:
            changes[pos] = "higher"
        elif word in SMALLER | BIGGER:
            # the excess may stand past the clause's end: "a smaller but still significant
            # excess risk" is cut at "but"
            ahead = pos + 1
            while ahead < min(len(tokens), pos + 6) and (
                    tokens[ahead].text.lower() in _EXCESS_BRIDGE
                    or tokens[ahead].text.lower() in SHAPES):
                ahead += 1
            if ahead < len(tokens) and tokens[ahead].text.lower() in _EXCESS:
                absorbed.add(pos)


def quantity_before(tokens: Sequence[Token], lo: int, pos: int) -> bool:
    """A number, over its unit ("40 kg/m2", "65 years", "30%"), ends right before ``pos``:
    "40 kg/m2 or more" is a bound, not a comparison."""
    for back in range(pos - 1, max(lo - 1, pos - 5), -1):
        token = tokens[back]
        if token.is_number or token.text.lower() in NUMBER_WORDS:
            return True
        if not (token.text in ("/", "%", "\u00b2") or (
                token.text[:1].isalpha() and len(token.text) <= 5 and token.text.lower()
                not in _NOT_UNITS) or token.text.lower() in _LONG_UNITS):
            return False
    return False


# short words that are no unit: "40 mg or more" has one, "the dose or more" has none
_NOT_UNITS = words("the a an of and or in on at to for with by than who was were is are "
                   "had has")
_LONG_UNITS = words("years months weeks days hours minutes points units")
