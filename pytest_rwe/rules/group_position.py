"""Where a group reference stands: the compared-against side ("than B", "compared with B",
"versus B") or one side of "between A and B".

Used by :mod:`pytest_rwe.rules.groups` for each reference it finds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.compared_side import equative_as, multiple_of
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["comparison_word", "position"]

_REFERENCE_BRIDGE = words("""
the those that in of with for among to patients group groups participants subjects by on
receiving treated given who were was users arm non - did undergoing taking using allocated
assigned randomized randomised fed exposed after during nights night days day women men
children infants eyes side sides cases individuals people persons values levels concentrations
scores rates
""")


def position(tokens: Sequence[Token], first: int) -> tuple[bool, bool]:
    """(compared-against side, "between" side) of a reference starting at ``first``.

    The reference is the compared-against side when "than", "compared with", "versus" ...
    stands within five words before it, over plain words ("than subjects who received
    placebo", "than those sedated with ketamine", "than in the A group and the B group"),
    not over punctuation, numbers or a claim word; "than baseline" compares times, not
    groups."""
    if first >= 2 and tokens[first - 1].text.lower() == "not" and \
            tokens[first - 2].text.lower() == "but":
        return True, False  # "Telmisartan, but not losartan, reduced X": the contrasted side
    pos = first - 1
    steps = 0
    while pos >= 0 and steps < 6:
        word = tokens[pos].text.lower()
        if comparison_word(tokens, pos) or equative_as(tokens, pos) or \
                multiple_of(tokens, pos) or (
                word in ("to", "with") and pos > 0 and tokens[
                pos - 1].text.lower() in ("compared", "comparison", "relative", "contrast")) or (
                word == "to" and _preferred_before(tokens, pos)) or (
                word == "from" and _different_before(tokens, pos)):
            after = tokens[pos + 1].text.lower() if pos + 1 < len(tokens) else ""
            return after not in _TIMES, False
        if word == "between":
            return False, True
        if word == "and" and _between_before(tokens, pos):
            return False, True
        # "than their 3,198 matched controls", "vs. the English group"
        if not (word in _REFERENCE_BRIDGE or (word.isalpha() and word not in _CLAIM_WORDS)
                or tokens[pos].is_number or (word == "%" and pos > 0 and tokens[pos - 1].is_number)
                or (word == "." and pos > 0
                                             and tokens[pos - 1].text.lower() in ("vs", "v"))):
            break
        pos -= 1
        steps += 1
    return False, False


# "preferred A to B", "superior to B": the word after "to" is the compared-against side
# "a similar 30-day mortality to B", "comparable to B": B is the compared side as well
_PREFERRED = re.compile(r"^(?:preferred|prefer|prefers|superior|inferior|similar|comparable|"
                        r"equivalent|identical)$", re.IGNORECASE)


def _preferred_before(tokens: Sequence[Token], pos: int) -> bool:
    return any(_PREFERRED.match(t.text) for t in tokens[max(0, pos - 6):pos])


# "a decrease in A was significantly different from B": B is the compared-against side
_DIFFERENT = frozenset(["different", "differed", "differs", "differ", "distinct"])


def _different_before(tokens: Sequence[Token], pos: int) -> bool:
    """"different from B", "differed significantly from B"."""
    before = [t.text.lower() for t in tokens[max(0, pos - 2):pos]]
    return bool(before) and (before[-1] in _DIFFERENT or (
        len(before) == 2 and before[0] in _DIFFERENT and before[1].endswith("ly")))


_TIMES = frozenset(["baseline", "before", "pre", "pretreatment", "preintervention", "entry",
                    "admission", "prior"])
_CLAIM_WORDS = lexicon.UP | lexicon.DOWN | lexicon.VALENCE | frozenset(
    ["significantly", "significant", "was", "were", "is", "are", "not", "no", "whereas",
     "while", "but", "although", "however"])


def comparison_word(tokens: Sequence[Token], pos: int) -> bool:
    """"than", "versus", "vs", "compared" ...; "v" only standing alone ("A v B", not the
    "V" of "S/V")."""
    word = tokens[pos].text.lower()
    if word not in lexicon.COMPARISON:
        return False
    if word in ("compared", "comparison", "comparisons", "contrast", "contrasted", "relative"):
        # "compared with B": B is the reference; "compared 28,563 A users with B": A is not
        nxt = tokens[pos + 1].text.lower() if pos + 1 < len(tokens) else ""
        return nxt in ("with", "to", "against", "")
    if word != "v":
        return True
    glued = (pos > 0 and tokens[pos - 1].end == tokens[pos].start) or (
        pos + 1 < len(tokens) and tokens[pos + 1].start == tokens[pos].end
        and tokens[pos + 1].text != ".")
    return not glued


def _between_before(tokens: Sequence[Token], pos: int) -> bool:
    """An "and" that closes "between A and B"."""
    for back in range(pos - 1, max(-1, pos - 9), -1):
        word = tokens[back].text.lower()
        if word == "between":
            return True
        if word in (",", ";", "than", "compared"):
            return False
    return False
