""""the time to the plasma insulin peak", "time until relapse": the time until an event is a
measure of its own, not the event's level or rate.

A name the summary writes right after "time to" or "time until" is not a mention of that
outcome, unless the outcome is itself a time ("time to peak", "duration of ..."), in which
case the name is its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.text import Token

__all__ = ["without_times_to"]

_SKIPPED = frozenset(["the", "a", "an", "first", "its", "their"])


def _after_time_to(tokens: Sequence[Token], first: int) -> bool:
    """"time to (the) X": the words before the name, over at most two words of its phrase
    ("the time to the plasma insulin peak"), are "time to" or "time until"."""
    pos, words_over = first - 1, 0
    while pos >= 0 and (tokens[pos].text.lower() in _SKIPPED or (
            words_over < 2 and tokens[pos].text.isalpha() and
            tokens[pos].text.lower() not in ("to", "until", "till"))):
        words_over += tokens[pos].text.lower() not in _SKIPPED
        pos -= 1
    return pos >= 1 and tokens[pos].text.lower() in ("to", "until", "till") and \
        tokens[pos - 1].text.lower() in ("time", "times")


def without_times_to(tokens: Sequence[Token], mentions: list[Mention]) -> list[Mention]:
    """``mentions`` without the names written as the end point of a time."""
    return [m for m in mentions if lexicon.TIME_NAME.search(m.outcome.name)
            or not _after_time_to(tokens, m.positions[0])]
