"""Each group's own value written in a clause: "13.6% in the control arm and 6.6% in the
intervention arm", "A vs C: 4.3% vs 5.1%", "3.5 and 5.1 for A and C, respectively".

Two values that the clause ties one to each group say which group is higher, with no
direction word. The pairing must be unambiguous (one primary value per group, of the same
kind); secondary numbers (SDs, ranges, counts in parentheses, p-values, intervals,
timepoints) are not values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

_NOT_AFTER = words("± sd se sem = p p-value ci hr or rr irr iqr range / at after week weeks "
                   "day days month months year years visit wk")
_SIZE_NOUNS = words("patients participants subjects users people individuals persons "
                    "initiators respondents adults children women men infants cases controls")
_RANGE = words("to - \u2013 \u2212")
_BEFORE_REF = words("% in of for among with the patients participants subjects eyes cases "
                    "women men children infants mm min h hours days months years kg points "
                    "units cm ml mg score scores group arm ( ) , was were")
_AFTER_REF = words("group groups arm arms : = was were had showed is are of with ( patients "
                   "participants subjects and the mean median value values at rate")
_BETWEEN = words("vs vs. versus and compared with to , / or against than")


@dataclass(frozen=True)
class _Value:
    position: int
    value: float
    percent: bool


def _primary(tokens: Sequence[Token], lo: int, hi: int) -> list[_Value]:
    """The clause's primary numbers: each group's value, not its SD, range, count or p."""
    out: list[_Value] = []
    depth = 0
    opened_after_number = False
    for pos in range(lo, hi):
        tok = tokens[pos]
        if tok.text in "([":
            opened_after_number = (pos > lo and tokens[pos - 1].is_number) or (
                pos > lo + 1 and tokens[pos - 1].text == "%" and tokens[pos - 2].is_number)
            depth += 1
            continue
        if tok.text in ")]":
            depth = max(0, depth - 1)
            opened_after_number = False if depth == 0 else opened_after_number
            continue
        if not tok.is_number or (depth and opened_after_number):
            continue
        prev = tokens[pos - 1].text.lower() if pos > lo else ""
        nxt = tokens[pos + 1].text.lower() if pos + 1 < hi else ""
        after = tokens[pos + 2].text.lower() if pos + 2 < hi else ""
        if prev in _NOT_AFTER or nxt in ("/",) or (nxt == "%" and after in ("ci", "confidence")):
            continue
        if prev in ("<", ">", "≤", "≥", "table", "figure", "fig", "n") or nxt in _SIZE_NOUNS \
                or (prev == "=" and pos - 2 >= lo and tokens[pos - 2].text.lower() in ("n", "p")):
            continue  # a bound, a table number or a group size, not a group's value
        if prev in _RANGE and pos - 2 >= lo and (tokens[pos - 2].is_number
                                                 or tokens[pos - 2].text == "%"):
            continue  # the upper end of a range "12-18", "1.1 to 2.3"
        try:
            value = float(tok.norm)
        except ValueError:
            continue
        if value.is_integer() and 1900 <= value <= 2100:
            continue  # a year
        negative = pos > lo and tokens[pos - 1].text in ("-", "\u2212") and (
            pos - 1 == lo or not tokens[pos - 2].is_number)
        out.append(_Value(pos, -value if negative else value, nxt == "%"))
    return out


def _gap_ok(tokens: Sequence[Token], start: int, end: int, allowed: frozenset[str],
            limit: int) -> bool:
    """Only ``allowed`` words (and whatever stands in parentheses) between two positions."""
    depth, count = 0, 0
    for pos in range(start, end):
        text = tokens[pos].text.lower()
        if text in "([":
            depth += 1
        elif text in ")]":
            depth = max(0, depth - 1)
        elif not depth:
            count += 1
            if text not in allowed or count > limit:
                return False
    return True


@dataclass(frozen=True)
class GroupValues:
    """The two groups' values and the token range holding them."""

    intervention: float
    control: float
    start: int
    end: int

    @property
    def direction(self) -> str:
        return "higher" if self.intervention > self.control else "lower"


def group_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                 ) -> GroupValues | None:
    """The intervention's and the control's value written in the clause, or None."""
    known = [r for r in refs if r.group in ("intervention", "control") and not r.between]
    if not known or any(r.group == "unknown" for r in refs):
        return None
    values = _primary(tokens, lo, hi)
    if len(values) < 2:
        return None
    for pair in (_respectively(tokens, known, values, lo, hi), _beside(tokens, known, values),
                 _declared_order(tokens, known, values)):
        if pair is not None:
            i_value, c_value = pair
            if i_value.percent == c_value.percent and i_value.value != c_value.value:
                first, last = sorted((i_value.position, c_value.position))
                return GroupValues(i_value.value, c_value.value, first, last)
    return None


def _by_group(pairs: list[tuple[GroupRef, _Value]]) -> tuple[_Value, _Value] | None:
    found: dict[str, set[_Value]] = {}
    for ref, value in pairs:
        found.setdefault(ref.group, set()).add(value)
    if set(found) != {"intervention", "control"}:
        return None
    if any(len(v) != 1 for v in found.values()):
        return None
    i_value, c_value = found["intervention"].pop(), found["control"].pop()
    return (i_value, c_value) if i_value != c_value else None


def _beside(tokens: Sequence[Token], refs: Sequence[GroupRef], values: Sequence[_Value]
            ) -> tuple[_Value, _Value] | None:
    """"12.4% in the cefixime group and 3.4% in the gatifloxacin group" (value first), or
    "group A was 0.98 mm and group B was 0.26 mm" (group first)."""
    for value_first in (True, False):
        pairs = []
        for ref in refs:
            end = max(ref.end, ref.position)
            if value_first:
                # "12.4% in the X group"; a number right before the name ("216,113
                # hydrochlorothiazide initiators") is the group's size
                before = [v for v in values if v.position < ref.position - 1
                          and _gap_ok(tokens, v.position + 1, ref.position, _BEFORE_REF, 6)]
                if before:
                    pairs.append((ref, before[-1]))
            else:
                after = [v for v in values if v.position > end
                         and _gap_ok(tokens, end + 1, v.position, _AFTER_REF, 4)]
                if after:
                    pairs.append((ref, after[0]))
        result = _by_group(pairs)
        if result is not None and len(pairs) == len(refs):
            return result
    return None


def _respectively(tokens: Sequence[Token], refs: Sequence[GroupRef], values: Sequence[_Value],
                  lo: int, hi: int) -> tuple[_Value, _Value] | None:
    """"3.5 and 5.1 for the experimental and control groups, respectively"."""
    if not any(tokens[p].text.lower() == "respectively" for p in range(lo, hi)):
        return None
    groups = [r for r in refs if not r.comparison] or list(refs)
    if len(values) != 2 or len(groups) != 2 or groups[0].group == groups[1].group:
        return None
    first, second = values
    if not _gap_ok(tokens, first.position + 1, second.position, _BETWEEN | words("%"), 3):
        return None
    return _by_group([(groups[0], first), (groups[1], second)])


def _declared_order(tokens: Sequence[Token], refs: Sequence[GroupRef], values: Sequence[_Value]
                    ) -> tuple[_Value, _Value] | None:
    """"A had higher X than B (133.4 vs 131.3)": two values side by side, after both groups,
    in the order the groups were named."""
    if len(refs) != 2 or refs[0].group == refs[1].group:
        return None
    after = [v for v in values if v.position > max(r.end for r in refs)]
    if len(after) != 2:
        return None
    first, second = after
    if not _gap_ok(tokens, first.position + 1, second.position, _BETWEEN | words("% ( )"), 6):
        return None
    return _by_group([(refs[0], first), (refs[1], second)])
