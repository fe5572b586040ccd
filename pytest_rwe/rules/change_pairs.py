"""Each group's change over time, given for both groups: "in group A, X decreased from 47.2 to
36.1 ... in group B, X decreased only slightly from 41.8 to 37.7".

Two "from a to b" changes, one tied to each group, set the groups against each other. A side
is read only when the groups' final values and their changes point the same way (A ends lower
and fell more); a range ("varied from 51 to 52"), a third change, or a change that cannot be
tied to one group leaves the claim unread.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe.rules.analysis import Analysis, Claim
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.text import Span, Token

__all__ = ["changes_claim", "compared_changes"]

_RANGE_WORDS = words("ranged ranging range ranges varied varying varies vary spanned between")
_SIGNS = ("-", "\u2212")
_TO_GROUP = words("in with to for among")


@dataclass(frozen=True)
class _Change:
    start: int  # the "from"
    end: int  # the final value's token
    before: float
    after: float
    paired: bool = False  # "a and b before and after (treatment with A)": ``end`` at "after"


def _number(tokens: Sequence[Token], pos: int) -> float | None:
    if pos >= len(tokens) or not tokens[pos].is_number:
        return None
    try:
        value = float(tokens[pos].norm)
    except ValueError:
        return None
    signed = pos > 0 and tokens[pos - 1].text in _SIGNS and tokens[pos - 1].end == \
        tokens[pos].start
    return -value if signed else value


def _first_number(tokens: Sequence[Token], pos: int) -> int | None:
    """The number at ``pos`` or right after its sign."""
    if pos < len(tokens) and tokens[pos].text in _SIGNS:
        pos += 1
    return pos if _number(tokens, pos) is not None else None


def _changes(tokens: Sequence[Token], lo: int, hi: int, named: set[int]) -> list[_Change]:
    """Every "from a (± sd) (unit) (at baseline) to b" from ``lo`` to ``hi``."""
    out: list[_Change] = []
    for pos in range(lo, hi - 3):
        if tokens[pos].text.lower() != "from":
            continue
        if any(tokens[p].text.lower() in _RANGE_WORDS for p in range(max(lo, pos - 2), pos)):
            return []  # a range of values, not a change: read nothing rather than guess
        first = _first_number(tokens, pos + 1)
        if first is None:
            continue
        to = next((p for p in range(first + 1, min(hi, first + 9))
                   if tokens[p].text.lower() in ("to", "from") or p in named), None)
        if to is None or tokens[to].text.lower() != "to":
            continue
        last = _first_number(tokens, to + 1)
        before = _number(tokens, first)
        after = _number(tokens, last) if last is not None else None
        if last is None or before is None or after is None:
            continue
        out.append(_Change(pos, last, before, after))
    return out + _before_after(tokens, lo, hi)


def _value_ending(tokens: Sequence[Token], pos: int, lo: int) -> int | None:
    """The value whose written form (with its SD, "4.3 \u00b1 1.2") ends at ``pos``."""
    if pos - 2 >= lo and tokens[pos - 1].text == "\u00b1" and tokens[pos].is_number:
        pos -= 2
    return pos if pos >= lo and _number(tokens, pos) is not None else None


def _before_after(tokens: Sequence[Token], lo: int, hi: int) -> list[_Change]:
    """Every "a (\u00b1 sd) and b (\u00b1 sd) before and after ..." from ``lo`` to ``hi``."""
    out: list[_Change] = []
    for pos in range(lo + 3, hi - 2):
        if tokens[pos].text.lower() != "before" or [
                t.text.lower() for t in tokens[pos + 1:pos + 3]] != ["and", "after"]:
            continue
        second = _value_ending(tokens, pos - 1, lo)
        if second is None:
            continue
        joint = second - 1 - (tokens[second - 1].text in _SIGNS)
        first = _value_ending(tokens, joint - 1, lo) if tokens[joint].text.lower() == "and" \
            else None
        if first is None:
            continue
        before, after = _number(tokens, first), _number(tokens, second)
        if before is not None and after is not None:
            out.append(_Change(first, pos + 2, before, after, paired=True))
    return out


def _owner(tokens: Sequence[Token], change: _Change, refs: Sequence[GroupRef], lo: int
           ) -> str | None:
    """The group a change belongs to: one named right after it ("... 500 m to controls", "...
    to 36.1 in group A"), else the last named before it in its sentence."""
    if change.paired:  # "before and after treatment by A": the group named just after
        named = [r for r in refs if change.end < r.position <= change.end + 5]
        return named[0].group if named else None
    pos = change.end + 1
    if pos + 1 < len(tokens) and tokens[pos].text == "\u00b1" and tokens[pos + 1].is_number:
        pos += 2  # its SD
    units = 0
    while pos < len(tokens) and units < 2 and tokens[pos].text.lower() not in _TO_GROUP and (
            tokens[pos].text == "%" or (tokens[pos].text[:1].isalpha()
                                        and len(tokens[pos].text) <= 10)):
        pos, units = pos + 1, units + 1  # its unit: "meters", "g/h/m2"
    if pos + 1 < len(tokens) and tokens[pos].text.lower() in _TO_GROUP:
        start = pos + 1 + (tokens[pos + 1].text.lower() == "the")
        after = [r for r in refs if r.position == start]
        if after:
            return after[0].group
    before = [r for r in refs if lo <= r.position < change.start]
    return before[-1].group if before else None


def changes_claim(analysis: Analysis, mention: Mention, clause: Span, baseline: bool
                  ) -> Claim | None:
    """The claim on ``mention`` that both groups' changes make, quoting them, or None. Their
    values state a side with no test of the difference: judged only against a significant
    result (the p-values of such sentences are each group's own)."""
    found = compared_changes(analysis, clause.start)
    if found is None:
        return None
    direction, first, last = found
    tokens, text = analysis.tokens, analysis.text
    start, end = tokens[first].start, tokens[last].end
    return Claim(mention.outcome, mention, clause, direction, Span(start, end, text[start:end]),
                 None, False, baseline, hedged=True, untested=True)


def compared_changes(analysis: Analysis, char: int) -> tuple[str, int, int] | None:
    """("higher" or "lower" for the intervention, first token, last token), read from both
    groups' changes over time in the sentence holding ``char`` and the sentences on either
    side of it; or None."""
    s_lo, s_hi = analysis.sentence_of(char)
    if s_hi <= s_lo:
        return None
    # asked once per claim: read once per sentence, with bisections, or the juror is quadratic
    return _CHANGES.get(analysis.tokens, (s_lo, s_hi), lambda: _compared(analysis, s_lo, s_hi))


_CHANGES: Memo[tuple[int, int], tuple[str, int, int] | None] = Memo()


def _compared(analysis: Analysis, s_lo: int, s_hi: int) -> tuple[str, int, int] | None:
    tokens = analysis.tokens
    window = [(s_lo, s_hi)]
    if s_lo > 0:
        window.insert(0, analysis.sentence_of(tokens[s_lo - 1].start))
    if s_hi < len(tokens):
        window.append(analysis.sentence_of(tokens[s_hi].start))
    window = [s for s in window if s[1] > s[0]]
    groups = analysis.groups
    lo_at = bisect.bisect_left(groups, window[0][0], key=lambda r: r.position)
    hi_at = bisect.bisect_left(groups, window[-1][1], key=lambda r: r.position)
    refs = [r for r in groups[lo_at:hi_at] if r.group in ("intervention", "control")
            and not r.between]
    named = {p for r in refs for p in range(r.position, r.last + 1)}
    owned: dict[str, _Change] = {}
    for lo, hi in window:
        for change in _changes(tokens, lo, hi, named):
            owner = _owner(tokens, change, [r for r in refs if lo <= r.position < hi], lo)
            if owner is None or owner in owned:
                return None  # a change of no group, or a second change of one group
            owned[owner] = change
    if set(owned) != {"intervention", "control"}:
        return None
    arm, control = owned["intervention"], owned["control"]
    final = arm.after - control.after
    moved = (arm.after - arm.before) - (control.after - control.before)
    if final == 0 or moved == 0 or (final > 0) != (moved > 0):
        return None
    first, last = sorted((arm, control), key=lambda c: c.start)
    return ("higher" if final > 0 else "lower"), first.start, last.end
