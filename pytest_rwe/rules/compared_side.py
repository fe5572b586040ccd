"""Words that make the group after them the compared-against side without a comparison word
of their own: the second "as" of a multiple ("five times as likely to have X as B") and the
"of" after one ("twice the mortality of B")."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.text import Token

__all__ = ["equative_as", "multiple_of", "starts_clause", "times_as"]

_MULTIPLES = frozenset(["times", "twice", "thrice", "half", "again", "fold"])


def equative_as(tokens: Sequence[Token], pos: int) -> bool:
    """The second "as" of "five times as likely to have X as B", "twice as often as B": B is
    the compared-against side. Only after a multiple, so "as high as 40%" or "such as B"
    name no side."""
    if tokens[pos].text.lower() != "as":
        return False
    depth, steps = 0, 0
    for back in range(pos - 1, max(-1, pos - 30), -1):
        word = tokens[back].text.lower()
        if back == pos - 1 and word != ")":
            continue  # the word before the second "as" is never a stop ("... X, as B")
        # "as likely to use X (odds ratios 2.12 to 2.77) as B": over the bracketed estimate
        if word == ")":
            depth += 1
            continue
        if word == "(" and depth:
            depth -= 1
            continue
        if depth:
            continue
        steps += 1
        if steps > 13 or word in (",", ";", ".", "(", ")", "than"):
            return False
        if word == "as":
            return back > 0 and (tokens[back - 1].text.lower() in _MULTIPLES
                                 or tokens[back - 1].text.lower().endswith("fold"))
    return False


def multiple_of(tokens: Sequence[Token], pos: int) -> bool:
    """The "of" of "more than twice the mortality of B", "three times the odds of B": B is
    the compared-against side."""
    if tokens[pos].text.lower() != "of":
        return False
    for back in range(pos - 2, max(-1, pos - 8), -1):
        word = tokens[back].text.lower()
        if word in (",", ";", ".", "(", ")", "than", "of"):
            return False
        if word == "the" and back > 0:
            before = tokens[back - 1].text.lower()
            return before in _MULTIPLES or before in ("double", "triple") or \
                before.endswith("fold")
    return False


_NUMBER_WORDS = {"one": 1.0, "two": 2.0, "three": 3.0, "four": 4.0, "five": 5.0, "six": 6.0,
                 "seven": 7.0, "eight": 8.0, "nine": 9.0, "ten": 10.0}


def times_as(tokens: Sequence[Token], pos: int) -> str | None:
    """"three times as likely", "2.5 times the odds": a multiple states a direction of its
    own, "higher" above one and "lower" below ("0.4 times as likely"); None for any other
    token, and for "three times a day" (a frequency, not a multiple)."""
    if tokens[pos].text.lower() != "times" or pos == 0 or pos + 1 >= len(tokens) or \
            tokens[pos + 1].text.lower() not in ("as", "the"):
        return None
    before = tokens[pos - 1].text.lower()
    value = _NUMBER_WORDS.get(before)
    if value is None and tokens[pos - 1].is_number:
        try:
            value = float(before)
        except ValueError:
            return None
    if value is None or value == 1:
        return None
    return "higher" if value > 1 else "lower"


_OWN_VERBS = frozenset(["had", "has", "have", "were", "was", "showed", "experienced",
                        "developed", "saw", "reported"])


def starts_clause(tokens: Sequence[Token], last: int) -> bool:
    """"than those on B, and B users, in turn, had the lower risk of X": a group after "and"
    with a verb of its own (past a comma-set-off "in turn") is the subject of a new clause,
    not one more group of the compared list."""
    pos = last + 1
    if pos < len(tokens) and tokens[pos].text == ",":
        close = next((p for p in range(pos + 1, min(len(tokens), pos + 5))
                      if tokens[p].text == ","), None)
        if close is None:
            return False
        pos = close + 1
    return pos < len(tokens) and tokens[pos].text.lower() in _OWN_VERBS
