"""Words that ask rather than state: a question ("Are men more likely than women to have
diabetes?") and what a study set out to learn ("to assess whether higher activity is linked
to disease") claim no direction, so their direction words are not claims."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["asked_from"]

_WHETHER = words("whether")
# "regardless of whether", "irrespective of whether": the words after it are still stated
_STATED_ANYWAY = words("regardless irrespective")


def asked_from(text: str, tokens: Sequence[Token], lo: int, hi: int,
               sentence_end: int) -> int:
    """The first token of the clause ``lo``-``hi`` from which its words ask instead of state
    (``hi`` when they all state): every token when the sentence ending at character
    ``sentence_end`` is a question, else the tokens after an inquiring "whether"."""
    end = sentence_end
    while end > 0 and text[end - 1].isspace():  # not text[:end].rstrip(): no copy per clause
        end -= 1
    if end > 0 and text[end - 1] == "?":
        return lo
    for pos in range(lo, hi):
        if tokens[pos].text.lower() not in _WHETHER:
            continue
        before = [t.text.lower() for t in tokens[max(lo, pos - 2):pos]]
        if not _STATED_ANYWAY & set(before):
            return pos
    return hi
