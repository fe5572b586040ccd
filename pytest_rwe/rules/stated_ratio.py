"""A ratio whose comparison is written out before its value: "the relative risk of stroke
with A versus B was 0.60 (95% CI 0.47-0.77)", "the HR for A vs B, 1.42 (1.10-1.83)".

The group named first is the ratio's numerator, the one after "versus", "vs" or "compared
with" its reference; a ratio above 1 is then higher for the first. Read only when both are
the study's two sides and its interval is written and excludes 1 (which is then its test).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["stated_ratio"]

_RATIO_WORDS = words("ratio ratios hr hrs or ors rr rrs irr ahr aor arr")
_RELATIVE = words("relative")
_RISK = words("risk risks rate rates")
_VERSUS = words("versus vs v")
_TO_VALUE = words("was were is of : = , ;")
_INTERVAL = re.compile(r"\s*[(\[,;]?\s*(?:95\s*%\s*(?:CI|confidence\s+interval)?[\s,:=]*)?"
                       r"(?P<lo>\d*\.?\d+)\s*(?:-|\u2013|\u2212|to|,)\s*(?P<hi>\d*\.?\d+)",
                       re.IGNORECASE)


def _ratio_word(tokens: Sequence[Token], pos: int) -> bool:
    word = tokens[pos].text.lower()
    if word in _RATIO_WORDS:
        return word != "or" or tokens[pos].text == "OR"
    return word in _RISK and pos > 0 and tokens[pos - 1].text.lower() in _RELATIVE


def _compared(tokens: Sequence[Token], pos: int) -> int | None:
    """The token after "versus", "vs.", "compared with/to" or "relative to" at ``pos``."""
    word = tokens[pos].text.lower()
    if word in _VERSUS:
        return pos + 2 if pos + 1 < len(tokens) and tokens[pos + 1].text == "." else pos + 1
    if word in ("compared", "relative") and pos + 1 < len(tokens) and \
            tokens[pos + 1].text.lower() in ("with", "to"):
        return pos + 2
    return None


def stated_ratio(text: str, tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int,
                 hi: int) -> tuple[str, int, int] | None:
    """("higher" or "lower" for the intervention, first token, last token) of a ratio stated
    with its comparison in the clause ``lo``-``hi``, or None."""
    by_start = {r.position: r for r in refs}
    for pos in range(lo, hi):
        if not _ratio_word(tokens, pos):
            continue
        for at in range(pos + 1, min(hi, pos + 10)):
            first = by_start.get(at)
            if first is None or first.group not in ("intervention", "control"):
                continue
            after = first.last + 1
            while after < hi and tokens[after].text.lower() in ("group", "arm", "users"):
                after += 1
            nxt = _compared(tokens, after) if after < hi else None
            while nxt is not None and nxt < hi and tokens[nxt].text.lower() == "the":
                nxt += 1
            second = by_start.get(nxt) if nxt is not None else None
            if second is None or {first.group, second.group} != {"intervention", "control"}:
                return None
            value_at = second.last + 1
            while value_at < hi and (tokens[value_at].text.lower() in _TO_VALUE or
                                     tokens[value_at].text.lower() in ("group", "arm")):
                value_at += 1
            if value_at >= hi or not tokens[value_at].is_number:
                return None
            value = float(tokens[value_at].text)
            interval = _INTERVAL.match(text, tokens[value_at].end)
            if value <= 0 or value == 1 or interval is None or float(
                    interval.group("lo")) <= 1 <= float(interval.group("hi")):
                return None  # no interval, or one that holds 1: no direction shown
            above = value > 1
            higher = above if first.group == "intervention" else not above
            return ("higher" if higher else "lower"), pos, value_at
        return None
    return None
