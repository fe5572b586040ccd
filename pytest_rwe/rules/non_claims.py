"""Words of direction or valence that state no claim where they stand: "visual impairment"
names a condition; "those without X did worse than those given it" names no outcome."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["share_of", "states_no_claim"]

_CONDITION_NOUNS = words("impairment deterioration")
_ADJECTIVE_ENDINGS = ("al", "ive", "ic", "ory")
_DID = words("did do does doing done fared fare fares faring")
_ON_WHAT = words("on in for regarding with at")


def states_no_claim(tokens: Sequence[Token], pos: int, lo: int, hi: int) -> bool:
    """The word at ``pos`` (in the clause ``lo``-``hi``) is no claim: "impairment" after an
    adjective ("visual impairment", "cognitive impairment") is a condition's name; "worse"
    or "better" after "did"/"fared" with no "on X" after it is a verdict on no outcome."""
    word = tokens[pos].text.lower()
    before = tokens[pos - 1].text.lower() if pos > lo else ""
    if word in _CONDITION_NOUNS and before.endswith(_ADJECTIVE_ENDINGS):
        return True
    return word in ("worse", "better") and before in _DID and (
        pos + 1 >= hi or tokens[pos + 1].text.lower() not in _ON_WHAT)


def share_of(tokens: Sequence[Token], pos: int) -> bool:
    """"nearly half of adults with X had Y": a share of the people, not a halving ("half
    the risk", "cut by half")."""
    return pos + 1 < len(tokens) and tokens[pos + 1].text.lower() == "of"
