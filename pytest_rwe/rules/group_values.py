"""Each group's own value written in a clause: "13.6% in the control arm and 6.6% in the
intervention arm", "A vs C: 4.3% vs 5.1%", "3.5 and 5.1 for A and C, respectively".

Two values that the clause ties one to each group say which group is higher, with no
direction word. The pairing must be unambiguous (one primary value per group, of the same
kind); secondary numbers (SDs, ranges, counts in parentheses, p-values, intervals,
timepoints) are not values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pytest_rwe.rules.groups import Group, GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.text import Token, outside_brackets
from pytest_rwe.rules.units import compound_unit

_NOT_AFTER = words("± sd se sem = p p-value ci hr or rr irr iqr range / at after week weeks "
                   "day days month months year years visit wk")
_SIZE_NOUNS = words("patients participants subjects users people individuals persons "
                    "initiators respondents adults children women men infants cases controls")
_UNITS = words("% d s h min mins mg kg g mm cm ml l dl mmhg days hours months years points "
               "mg/dl mmol/l iu/l pg/ml ng/ml sd")
_TIME_VALUE_UNITS = words("h hours hour min minutes days day weeks s seconds sec")
_MORE_UNITS = words("minutes seconds sec mm/hg cm2 μg/l ug/l mmol/mol g/dl bpm ms") | {
    "\u20ac", "$", "\u00a3", "\u00a5"}  # "6,277.28 \u20ac and 7,863.29 \u20ac for the controls"
_RANGE = words("to - \u2013 \u2212")
_BEFORE_REF = words("% in of for among with the patients participants subjects eyes cases "
                    "women men children infants mm min h hours days months years kg points "
                    "units cm ml mg score scores group arm ( ) , was were treated receiving "
                    "received given taking allocated randomized randomised assigned who s those")
_AFTER_REF = words("group groups arm arms : = was were had showed is are of with ( patients "
                   "participants subjects and the mean median value values at rate")
_BETWEEN = words("vs vs. versus and compared with to , / or against than")


@dataclass(frozen=True)
class _Value:
    position: int
    value: float
    percent: bool
    depth: int  # 0 outside parentheses


_STATISTICS = words("ci iqr range sd se sem q1 q1-q3 95 95% mean± median min max")


def _parenthesis_starts(tokens: Sequence[Token], lo: int, hi: int) -> dict[int, bool]:
    """For each "(" position: True when the parenthesis holds statistics, not values
    ("(95% CI 1.1 to 2.3)", "(SD 5.1)", "(range, 4-8)") or qualifies a number ("12.4%
    (6/51)")."""
    out = {}
    for pos in range(lo, hi):
        if tokens[pos].text not in "([":
            continue
        prev = tokens[pos - 1] if pos > lo else None
        after_number = prev is not None and (prev.is_number or prev.text == "%")
        head = " ".join(t.text.lower() for t in tokens[pos + 1:min(hi, pos + 4)])
        statistics = any(word in _STATISTICS for word in head.replace(",", " ").split()) or \
            head.startswith(("p ", "p=", "p<"))
        out[pos] = after_number or statistics
    return out


def _p_context(tokens: Sequence[Token], lo: int, pos: int) -> bool:
    """A p-value or a test statistic: "p = 0.02", "P-value of .03", "t = 2.45", "F(2,58) = 5"."""
    for back in range(pos - 1, max(lo - 1, pos - 4), -1):
        word = tokens[back].text.lower()
        if word in ("p", "p-value", "pvalue", "p-values"):
            return True
        if word in ("t", "f", "χ2", "z", "r", "df", "β") and back + 1 < pos and \
                tokens[back + 1].text in ("=", "(", "<", ">"):
            return True
        if word not in ("=", "<", ">", "≤", "≥", "of", "was", "value", ":", "-", "values"):
            return False
    return False


def _primary(tokens: Sequence[Token], lo: int, hi: int, times: bool = False,
             excluded: frozenset[float] = frozenset()) -> list[_Value]:
    """The clause's primary numbers: each group's value, not its SD, range, count or p.
    A count "24/73" is read as its share."""
    out: list[_Value] = []
    skipped = _parenthesis_starts(tokens, lo, hi)
    stack: list[bool] = []
    pos = lo
    while pos < hi:
        tok = tokens[pos]
        if tok.text in "([":
            stack.append(skipped.get(pos, False))
            pos += 1
            continue
        if tok.text in ")]":
            if stack:
                stack.pop()
            pos += 1
            continue
        if not tok.is_number or any(stack) or _p_context(tokens, lo, pos):
            pos += 1
            continue
        prev = tokens[pos - 1].text.lower() if pos > lo else ""
        nxt = tokens[pos + 1].text.lower() if pos + 1 < hi else ""
        after = tokens[pos + 2] if pos + 2 < hi else None
        try:
            value = float(tok.norm)
        except ValueError:
            pos += 1
            continue
        if nxt == "/" and after is not None and after.is_number:
            total = float(after.norm)
            if total > 0 and prev not in _NOT_AFTER:
                out.append(_Value(pos, 100.0 * value / total, True, len(stack)))
            pos += 3
            continue
        # "at 17.5 h" of a time outcome, "after 19 (25%) doses": a value, not a time point
        at_time = prev in ("at", "after") and ((times and nxt in _TIME_VALUE_UNITS)
                                               or _with_share(tokens, pos))
        if (prev in _NOT_AFTER and not at_time) or (nxt == "%" and after is not None
                                  and after.text.lower() in ("ci", "confidence")):
            pos += 1
            continue
        if prev in ("<", ">", "≤", "≥", "table", "figure", "fig", "n", "least", "most",
                    "than") or nxt in _SIZE_NOUNS or value in excluded \
                or (prev == "=" and pos - 2 >= lo and tokens[pos - 2].text.lower() in ("n", "p")):
            pos += 1
            continue  # a bound, a table number or a group size, not a group's value
        if prev in _RANGE and pos - 2 >= lo and (tokens[pos - 2].is_number
                                                 or tokens[pos - 2].text == "%"):
            pos += 1
            continue  # the upper end of a range "12-18", "1.1 to 2.3"
        if nxt == "out" and pos + 3 < hi and tokens[pos + 2].text.lower() == "of" and \
                tokens[pos + 3].is_number and float(tokens[pos + 3].norm) > 0:
            # "19 out of 70 patients": a share, like "19/70"
            out.append(_Value(pos, 100.0 * value / float(tokens[pos + 3].norm), True, len(stack)))
            pos += 4
            continue
        if (value.is_integer() and 1900 <= value <= 2100) or (
                prev in ("for", "at", "after", "within", "over", "during", "until", "by")
                and not (times and nxt in _TIME_VALUE_UNITS) and not _with_share(tokens, pos)
                and not _share_of(tokens, pos, hi)):
            pos += 1
            continue  # a year, or a time point "at 12 weeks", "for 3 days"
        if _with_share(tokens, pos) and tokens[pos + 2].norm and pos + 4 < hi and \
                tokens[pos + 4].text == ")":
            # "12 (37.7%) in A": the share, as groups differ in size
            out.append(_Value(pos, float(tokens[pos + 2].norm), True, len(stack)))
            pos += 1
            continue
        negative = pos > lo and tokens[pos - 1].text in ("-", "\u2212") and (
            pos - 1 == lo or not tokens[pos - 2].is_number)
        out.append(_Value(pos, -value if negative else value, nxt == "%", len(stack)))
        pos += 1
    return out


def _share_of(tokens: Sequence[Token], pos: int, hi: int) -> bool:
    """"was exhibited by 80.0% (40/50) of patients receiving A": a share of the people
    after it, not a time point "by 12 weeks" or a change "fell by 30%"."""
    if pos + 1 >= hi or tokens[pos + 1].text != "%":
        return False
    after = next(outside_brackets(tokens, pos + 2, hi), None)
    return after is not None and tokens[after].text.lower() == "of"


def _with_share(tokens: Sequence[Token], pos: int) -> bool:
    """"after 19 (25%) administrations": a count with its share, not a time point."""
    return pos + 3 < len(tokens) and tokens[pos + 1].text == "(" and \
        tokens[pos + 2].is_number and tokens[pos + 3].text == "%"


def primary_values(tokens: Sequence[Token], lo: int, hi: int,
                   excluded: frozenset[float] = frozenset()) -> list[tuple[int, float, bool]]:
    """The clause's primary numbers outside brackets, as (position, value, is a percentage):
    each group's value, not its SD, range, count or p-value."""
    return [(v.position, v.value, v.percent) for v in _primary(tokens, lo, hi, False, excluded)
            if not v.depth]


def gap_ok(tokens: Sequence[Token], start: int, end: int, allowed: frozenset[str],
           limit: int) -> bool:
    """Only ``allowed`` words, units, SDs and bracketed words from ``start`` to ``end``."""
    return _gap_ok(tokens, start, end, allowed, limit)


def _gap_ok(tokens: Sequence[Token], start: int, end: int, allowed: frozenset[str],
            limit: int, others: int = 0) -> bool:
    """Only ``allowed`` words (and whatever stands in parentheses) between two positions,
    and at most ``others`` other plain words ("74.7% were responders in the ELAD group")."""
    depth, count, unknown = 0, 0, 0
    for pos in range(start, end):
        text = tokens[pos].text.lower()
        if text in "([":
            depth += 1
        elif text in ")]":
            depth = max(0, depth - 1)
        elif not depth:
            if tokens[pos].is_number and pos + 1 < end and \
                    tokens[pos + 1].text.lower() in _SIZE_NOUNS:
                continue  # "40.9 years in the 1,066 patients with MS": a group's size
            if text == "±" or text in _UNITS or text in _MORE_UNITS or \
                    compound_unit(tokens, pos) or (
                    tokens[pos].is_number and pos > start and tokens[pos - 1].text == "±"):
                continue  # "24.25 ± 3.41 minutes in the TOS group": the value's SD and unit
            count += 1
            if text not in allowed:
                unknown += 1
                if unknown > others or not text.isalpha():
                    return False
            if count > limit + others:
                return False
    return True


@dataclass(frozen=True)
class GroupValues:
    """The two groups' values and the token range holding them."""

    intervention: float
    control: float
    start: int
    end: int
    intervention_at: int = -1  # token index of the intervention's value
    control_at: int = -1

    @property
    def direction(self) -> str:
        return "higher" if self.intervention > self.control else "lower"


def group_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                 times: bool = False, excluded: frozenset[float] = frozenset()
                 ) -> GroupValues | None:
    """The intervention's and the control's value written in the clause, or None.

    A group the study does not name, beside one it names, is the other one ("75% of the
    surgery group vs 27.3% of the NSM group", NSM being the control). With ``times`` (the
    outcome is a time), a number "at 17.5 h" is a value, not a time point. Numbers of the
    groups' own descriptions (``excluded``: the doses of "apremilast 20 mg or 30 mg") are not
    values."""
    # asked once per claim of a clause, and again for the whole sentence: read each once
    key = (tuple(refs), lo, hi, times, excluded)
    return _GROUP_VALUES.get(tokens, key, lambda: _group_values(tokens, refs, lo, hi, times,
                                                                  excluded))


_GROUP_VALUES: Memo[tuple[tuple[GroupRef, ...], int, int, bool, frozenset[float]],
                    GroupValues | None] = Memo()


def _group_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                  times: bool, excluded: frozenset[float]) -> GroupValues | None:
    refs = _other_side(refs)
    known = [r for r in refs if r.group in ("intervention", "control") and not r.between]
    if not known or any(r.group == "unknown" for r in refs):
        return None
    values = _primary(tokens, lo, hi, times, excluded)
    outside = [v for v in values if not v.depth]
    if len(outside) >= 2:
        values = outside  # "(a reduction of at least 25%) ... was 90% ... it was 60%"
    if len(values) < 2:
        return None
    # "between the A group and the B group (83.7% versus 64.3%)": the order declared
    ordered = [r for r in refs if r.group in ("intervention", "control")]
    for pair in (_respectively(tokens, known, values, lo, hi), _beside(tokens, known, values),
                 _declared_order(tokens, known, values) or _declared_order(tokens, ordered,
                                                                           values)):
        if pair is not None:
            i_value, c_value = pair
            if i_value.percent == c_value.percent and i_value.value != c_value.value:
                first = min(_signed_start(tokens, i_value), _signed_start(tokens, c_value))
                last = max(i_value.position, c_value.position)
                return GroupValues(i_value.value, c_value.value, first, last, i_value.position,
                                   c_value.position)
    return None


def _other_side(refs: Sequence[GroupRef]) -> list[GroupRef]:
    """Two references, one to a group the study names and one to a group it does not: the
    unknown one is the other group."""
    named = {r.group for r in refs if r.group in ("intervention", "control")}
    unknown = [r for r in refs if r.group == "unknown"]
    if len(named) != 1 or len(unknown) != 1 or len(refs) != 2:
        return list(refs)
    other: Group = "control" if named == {"intervention"} else "intervention"
    return [replace(r, group=other) if r.group == "unknown" else r for r in refs]


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
    ordered = sorted(refs, key=lambda r: r.position)
    for plan in ("before", "after", "mixed"):
        pairs = []
        for i, ref in enumerate(ordered):
            side = plan if plan != "mixed" else ("after" if i == 0 else "before")
            value = _value_before(tokens, ref, values) if side == "before" else \
                _value_after(tokens, ref, values)
            if value is not None:
                pairs.append((ref, value))
        result = _by_group(pairs)
        if result is not None and len(pairs) == len(refs):
            return result
    return None


def _value_before(tokens: Sequence[Token], ref: GroupRef, values: Sequence[_Value]
                  ) -> _Value | None:
    """"12.4% in the X group", "74.7% were responders in the X group"; a number right
    before the name ("216,113 hydrochlorothiazide initiators") is the group's size."""
    before = [v for v in values if v.position < ref.position - 1
              and _gap_ok(tokens, v.position + 1, ref.position, _BEFORE_REF, 6, others=2)]
    return before[-1] if before else None


def _value_after(tokens: Sequence[Token], ref: GroupRef, values: Sequence[_Value]
                 ) -> _Value | None:
    """"group A was 0.98 mm", "in the SeG was 20.5%"."""
    end = ref.last
    after = [v for v in values if v.position > end
             and _gap_ok(tokens, end + 1, v.position, _AFTER_REF, 4)]
    return after[0] if after else None


def _respectively(tokens: Sequence[Token], refs: Sequence[GroupRef], values: Sequence[_Value],
                  lo: int, hi: int) -> tuple[_Value, _Value] | None:
    """"3.5 and 5.1 for the experimental and control groups, respectively"."""
    groups = [r for r in refs if not r.comparison] or list(refs)
    if not any(tokens[p].text.lower() == "respectively" for p in range(lo, hi)) and not (
            len(groups) == 2 and _coordinated(tokens, groups[0], groups[1])
            and values and values[-1].position < groups[0].position):
        return None
    if len(values) != 2 or len(groups) != 2 or groups[0].group == groups[1].group:
        return None
    first, second = values
    if not _gap_ok(tokens, first.position + 1, _signed_start(tokens, second), _BETWEEN
                   | words("%"), 3):
        return None
    return _by_group([(groups[0], first), (groups[1], second)])


def _signed_start(tokens: Sequence[Token], value: _Value) -> int:
    """Where a value's written form starts: at its minus sign ("-29.1% and -8.2%"), which
    belongs to the value, not to the words between two values (so does a plus sign)."""
    before = value.position - 1
    if before >= 0 and ((value.value < 0 and tokens[before].text in ("-", "\u2212"))
                        or tokens[before].text == "+"):
        return before
    return value.position


def _coordinated(tokens: Sequence[Token], first: GroupRef, second: GroupRef) -> bool:
    """"the SaphLITE and Clearglide groups": two names sharing one plural group noun."""
    between = [t.text.lower() for t in tokens[first.last + 1:second.position]]
    after = tokens[second.last].text.lower()
    nxt = tokens[second.last + 1].text.lower() if second.last + 1 < len(tokens) else ""
    return between in (["and"], ["vs"], ["versus"], ["or"]) and (
        after in ("groups", "arms") or nxt in ("groups", "arms"))


def _declared_order(tokens: Sequence[Token], refs: Sequence[GroupRef], values: Sequence[_Value]
                    ) -> tuple[_Value, _Value] | None:
    """"A had higher X than B (133.4 vs 131.3)": two values side by side, after both groups,
    in the order the groups were named."""
    if len(refs) != 2 or refs[0].group == refs[1].group:
        return None
    after = [v for v in values if v.position > max(r.end for r in refs)]
    if len(after) < 2:
        return None
    first, second = after[:2]  # the first pair: "82.31 vs 36.78 ... and 82.75 vs 18.50"
    outside = (tokens[p] for p in outside_brackets(tokens, first.position + 1,
                                                    _signed_start(tokens, second)))
    between = [t for t in outside if not t.is_number and t.text not in "±"]
    # "4.22 ± 1.01 vs 4.97", "1 (0; 3) cm vs -1": the first value's SD or interval, its unit
    # and "vs" may stand between the two values
    if len(between) > 4 or not all(t.text.lower() in _BETWEEN | _UNITS for t in between):
        return None
    return _by_group([(refs[0], first), (refs[1], second)])
