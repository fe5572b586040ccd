"""Two values set against each other by a comparison word: "the A group had a 3.3% rate of X
compared with 13.3% in the B group", "X was 20.5% in A compared to 44.5% in B", "A had a
mean cost of 35.41 per patient compared with 51.12 for B".

The value before the comparison word belongs to the group named between it and the word
("80% in the A group compared with 56% in the B group") or, failing that, to the group the
clause names before it (its subject side); the value right after it to the group compared
against. Read only when each side names one group, the two groups differ, and the two values
are of one kind; else None, and the clause's other readings stand. Two clauses set against
each other by "whereas" are read the same way (:func:`contrasted_values`). A complement to
:func:`pytest_rwe.rules.group_values.group_values`, which pairs values with the group named
beside each.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.group_values import GroupValues, group_values
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token, outside_brackets

__all__ = ["compared_values", "contrasted_values", "first_pair", "first_values", "group_value",
           "listed_values", "ordered_values", "parallel_values"]

_MARKERS = words("compared versus vs vs. against")
# words after which a number is not a group's value: a p-value, a statistic, a bound, a size
_NOT_A_VALUE_AFTER = words("p = < > ≤ ≥ n or hr rr irr ci ratio ratios sd se sem iqr range "
                           "table figure fig day days week weeks month months year years at "
                           "by within after before per")
_ACHIEVED = words("achieved reached attained exhibited experienced reported obtained shown "
                  "observed seen")
_UNIT_OR_GLUE = words("% mg kg g ml l dl mm cm cm2 s min mins h hours days weeks months years "
                      "points units mmhg mmol/l mg/dl μg/l ug/l per patient patients ± the a an "
                      "of in for with among")


def _value(tokens: Sequence[Token], pos: int, opening: bool = False
           ) -> tuple[float, bool] | None:
    """The number at ``pos`` as (value, is a percentage), or None for a number that is no
    group's value ("p = 0.02", "OR 2.1", "n = 40", a year). ``opening``: a number just
    inside a bracket is a value too ("(83.7% versus 64.3%)")."""
    token = tokens[pos]
    if not token.is_number:
        return None
    prev = tokens[pos - 1].text.lower() if pos else ""
    achieved = prev == "by" and pos >= 2 and tokens[pos - 2].text.lower() in _ACHIEVED
    if (prev in _NOT_A_VALUE_AFTER and not achieved) or (prev in ("(", "[") and not opening):
        return None  # "by day 28", "increased by 4.7": a time or a change; "achieved by 80%"
    try:
        value = float(token.norm)
    except ValueError:
        return None
    if value.is_integer() and 1900 <= value <= 2100:
        return None
    nxt = tokens[pos + 1].text if pos + 1 < len(tokens) else ""
    if nxt == "/" and pos + 2 < len(tokens) and tokens[pos + 2].is_number:
        total = float(tokens[pos + 2].norm or 0) if tokens[pos + 2].norm else 0.0
        return (100.0 * value / total, True) if total > 0 else None
    if nxt.lower() == "out" and pos + 3 < len(tokens) and tokens[pos + 2].text.lower() == "of" \
            and tokens[pos + 3].is_number and tokens[pos + 3].norm:
        total = float(tokens[pos + 3].norm)  # "19 out of 70": a share, like "19/70"
        return (100.0 * value / total, True) if total > 0 else None
    if prev in ("-", "\u2212") and pos >= 2 and not tokens[pos - 2].is_number:
        value = -value
    return value, nxt == "%"


def group_value(tokens: Sequence[Token], pos: int) -> tuple[float, bool] | None:
    """The number at ``pos`` as (value, is a percentage), or None when it is no group's
    value (a p-value, a statistic, a size, a year)."""
    return _value(tokens, pos)


def _before(tokens: Sequence[Token], marker: int, lo: int, skip: set[int]) -> int | None:
    """The value just before the comparison word, over units, glue words, parentheses and
    the words of names (``skip``)."""
    depth = 0
    for pos in range(marker - 1, max(lo - 1, marker - 12), -1):
        if pos in skip:
            continue
        text = tokens[pos].text.lower()
        if text in ")]":
            depth += 1
        elif text in "([":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif tokens[pos].is_number:
            # a bracket opening before it holds the comparison word too ("(24 patients in
            # the A group versus 48 in the B group)"): the number is a value, not an aside
            return pos if _value(tokens, pos, opening=True) is not None else None
        elif text not in _UNIT_OR_GLUE and text not in lexicon.ARGUMENT_LEAD and text != ",":
            return None
    return None


def _after(tokens: Sequence[Token], marker: int, hi: int) -> int | None:
    """The value just after the comparison word ("compared with 13.3%", "vs. 51.12")."""
    for pos in range(marker + 1, min(hi, marker + 4)):
        text = tokens[pos].text.lower()
        if tokens[pos].is_number:
            return pos if _value(tokens, pos) is not None else None
        if text not in ("with", "to", ".", "£", "$", "€", "-", "\u2212", "a", "an", "only"):
            return None
    return None


def compared_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                    names: set[int]) -> GroupValues | None:
    """The intervention's and the control's values set against each other in the clause
    ``lo``-``hi``, or None (see the module's docstring). ``names``: the tokens of outcome
    names, which may stand between a value and the comparison word."""
    markers = [p for p in range(lo, hi) if tokens[p].text.lower() in _MARKERS]
    if len(markers) != 1:
        return None  # one comparison only: "A vs B vs C" lists, not a pair
    marker = markers[0]
    in_refs = {p for r in refs for p in range(r.position, r.last + 1)}
    left_at = _before(tokens, marker, lo, names | in_refs)
    right_at = _after(tokens, marker, hi)
    if left_at is None or right_at is None:
        return None
    # "80.0% in the A group compared with ...": the group named after the value is its own;
    # "the A group had a 3.3% rate of X compared with ...": else the one named before it
    own = {r.group for r in refs if left_at < r.position < marker}
    subject = own or {r.group for r in refs if r.position < left_at and not r.comparison
                      and not r.between}
    compared = {r.group for r in refs if r.position > marker and (r.comparison or r.position
                                                                   > right_at)}
    if len(subject) != 1 or len(compared) != 1 or subject == compared or \
            not subject | compared <= {"intervention", "control"}:
        return None
    left, right = _value(tokens, left_at, opening=True), _value(tokens, right_at)
    if left is None or right is None or left[1] != right[1] or left[0] == right[0]:
        return None
    if subject == {"intervention"}:
        i_value, c_value, i_at, c_at = left[0], right[0], left_at, right_at
    else:
        i_value, c_value, i_at, c_at = right[0], left[0], right_at, left_at
    return GroupValues(i_value, c_value, left_at, right_at, i_at, c_at)


def _share_after(tokens: Sequence[Token], pos: int, end: int) -> int | None:
    """The percentage in the bracket after a count ("9 children (23.1 %)"), or None."""
    at = pos + 1
    if at < end and tokens[at].text.isalpha():
        at += 1  # the counted noun
    if at + 3 < end and tokens[at].text == "(" and tokens[at + 1].is_number and \
            tokens[at + 2].text == "%" and tokens[at + 3].text == ")":
        return at + 1  # not "5.4 (95% CI 4.5-6.3)"
    return None


def _half_value(tokens: Sequence[Token], start: int, end: int, skip: set[int]) -> int | None:
    """The first group value in ``start``-``end`` outside brackets, over the words of group
    names (``skip``) and SDs; a p-value or a statistic ends the search. A count's share in
    the bracket after it stands for the count ("9 children (23.1 %)": groups differ in
    size), and with no number outside brackets ("Two children (4.3 %)") the first share."""
    for pos in outside_brackets(tokens, start, end):
        if pos in skip:
            continue
        text = tokens[pos].text.lower()
        if text in ("p", "ci", "or", "hr", "rr"):
            return None
        if tokens[pos].is_number and (pos == 0 or tokens[pos - 1].text != "±") and \
                _value(tokens, pos) is not None:
            return _share_after(tokens, pos, end) or pos
    return next((p + 1 for p in range(start, end - 3) if tokens[p].text == "(" and
                 tokens[p + 1].is_number and tokens[p + 2].text == "%" and
                 tokens[p + 3].text == ")"), None)


def parallel_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                    names: set[int]) -> GroupValues | None:
    """Two halves of a clause set against each other by one comparison word, each naming one
    group and its value, in the same order: "19 out of 70 (27%) patients had X in the A group
    as compared to 1 out of 88 (1%) in the B group", "33% of patients had X at week 12 in the
    A group compared with 11% in the B group". The value of the half after the word stands
    before its group or after it; the half before the word is read the same way (its first
    value before its group, or its first value after it). A complement to
    :func:`compared_values`, which takes the value just before the word. Never when a half
    has values on both sides of its group, nor in a "respectively" list; ``names``: the tokens
    of outcome names, whose numbers are no values ("a 70% reduction in X")."""
    markers = [p for p in range(lo, hi) if tokens[p].text.lower() in _MARKERS]
    if len(markers) != 1 or any(tokens[p].text.lower() == "respectively" for p in range(lo, hi)):
        return None
    marker = markers[0]
    left = [r for r in refs if lo <= r.position < marker and not r.between]
    right = [r for r in refs if marker < r.position < hi and not r.between]
    if not left or not right or len({r.group for r in left}) != 1 or \
            left[0].group == right[0].group or \
            not {left[0].group, right[0].group} <= {"intervention", "control"}:
        return None
    skip = names | {p for r in refs for p in range(r.position, r.last + 1)}
    right_ref = right[0]
    right_end = right[1].position if len(right) > 1 else hi
    right_at = _half_value(tokens, marker + 1, right_end, skip)
    if right_at is None:
        return None
    left_end = max(r.last for r in left) + 1
    if right_at < right_ref.position:  # "... compared to 1 out of 88 in the B group"
        if any(tokens[p].is_number for p in outside_brackets(tokens, left_end, marker)):
            return None  # "X in the A group at 86.7%": which one is the group's is not said
        left_at = _half_value(tokens, lo, left[0].position, skip)
    else:  # "... versus the B group, 12%"
        left_at = _half_value(tokens, left_end, marker, skip)
    if left_at is None:
        return None
    first, second = _value(tokens, left_at, opening=True), _value(tokens, right_at, opening=True)
    if first is None or second is None or first[1] != second[1] or first[0] == second[0]:
        return None
    if left[0].group == "intervention":
        return GroupValues(first[0], second[0], left_at, right_at, left_at, right_at)
    return GroupValues(second[0], first[0], left_at, right_at, right_at, left_at)


def _pair_at(tokens: Sequence[Token], marker: int, hi: int) -> tuple[int, int] | None:
    """The values "a versus b" around ``marker``: the number just before it (over units) and
    the one just after it, brackets opening before the first allowed."""
    left = next((p for p in range(marker - 1, max(-1, marker - 4), -1) if tokens[p].is_number),
                None)
    if left is None or any(tokens[p].text.lower() not in _UNIT_OR_GLUE
                           for p in range(left + 1, marker)):
        return None
    if left >= 2 and tokens[left - 1].text in ("±", "+/-") and tokens[left - 2].is_number:
        left -= 2  # "702.91 ± 246.03 vs. 348.3": the mean, not its SD
    right = _after(tokens, marker, hi)
    if right is None and marker + 1 < hi and tokens[marker + 1].is_number:
        right = marker + 1
    return (left, right) if right is not None else None


def ordered_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                   ) -> GroupValues | None:
    """Two groups named in an order, and then two values set against each other in the same
    order: "X for A versus B were 4 versus 5.5", "X between the A group and the B group
    (83.7% versus 64.3%, p = 0.014)", "A outperformed B in X (median 24.5 vs. 10)". The
    groups are the two sides of the first comparison word, the two of "between ... and ...",
    or the only two named before the values, the first not a compared-against side ("compared
    with B, A ...": whose value comes first is not said); the values are the two sides of the
    next comparison word, and come after both groups."""
    markers = [p for p in range(lo, hi) if tokens[p].text.lower() in _MARKERS]
    between = [r for r in refs if r.between]
    named = [r for r in refs if r.position < (markers[0] if markers else lo)]
    if len(between) == 2 and len(markers) == 1:
        first, second = between
        values_at = markers[0]
    elif len(markers) == 1 and not between and len(named) == 2 and not named[0].comparison:
        first, second = named  # "A outperformed B ... (24.5 vs. 10)"
        values_at = markers[0]
    elif len(markers) == 2 and not between:
        before = [r for r in refs if r.position < markers[0]]
        after = [r for r in refs if markers[0] < r.position < markers[1]]
        if not before or len(after) != 1 or \
                max(before[-1].end, before[-1].position) < markers[0] - 2 or \
                after[0].position > markers[0] + 2:
            return None  # "A versus B": the groups stand right beside the word
        first, second = before[-1], after[0]
        values_at = markers[1]
    else:
        return None
    if first.group == second.group or not {first.group, second.group} <= {"intervention",
                                                                          "control"}:
        return None
    pair = _pair_at(tokens, values_at, hi)
    if pair is None or pair[0] <= second.last:
        return None
    a, b = _value(tokens, pair[0], opening=True), _value(tokens, pair[1], opening=True)
    if a is None or b is None or a[1] != b[1] or a[0] == b[0]:
        return None
    if first.group == "intervention":
        return GroupValues(a[0], b[0], pair[0], pair[1], pair[0], pair[1])
    return GroupValues(b[0], a[0], pair[0], pair[1], pair[1], pair[0])


_CONTRAST = words("whereas while")


def _first_value(tokens: Sequence[Token], start: int, end: int) -> int | None:
    """The first group value from ``start`` on, outside parentheses, before ``end``; the
    number after "±" is an SD, not a value."""
    for pos in outside_brackets(tokens, start, end):
        if tokens[pos].is_number and _value(tokens, pos) is not None and (
                pos == 0 or tokens[pos - 1].text != "±"):
            return pos
    return None


def contrasted_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                      ) -> GroupValues | None:
    """Two clauses set against each other by "whereas" or "while", each naming one group and
    then its value: "Heparin was discontinued in 24/73 of patients whereas citrate was
    discontinued in 5/66", "X with A was 50.3 s whereas with B it was 39.6 s". A half
    with no value after its group gives the one before it ("12 cases in the B group, while
    only 3 in the A group")."""
    splits = [p for p in range(lo, hi) if tokens[p].text.lower() in _CONTRAST]
    if len(splits) != 1:
        return None
    split = splits[0]
    halves = [(lo, split), (split + 1, hi)]
    found: list[tuple[str, int]] = []
    for start, end in halves:
        named = [r for r in refs if start <= r.position < end]
        if len({r.group for r in named}) != 1 or named[0].group not in ("intervention",
                                                                          "control"):
            return None
        # the value after the group's names; else after its first ("with B time taken was
        # 39.56 s in group B")
        at = _first_value(tokens, max(r.last for r in named) + 1, end)
        if at is None:
            at = _first_value(tokens, named[0].last + 1, end)
        if at is None:  # "There were 12 (37.7%) cases in the B group, while only 3 in A"
            at = _first_value(tokens, start, named[0].position)
        if at is None:
            return None
        found.append((named[0].group, at))
    (first_group, first_at), (second_group, second_at) = found
    first, second = _value(tokens, first_at), _value(tokens, second_at)
    if first_group == second_group or first is None or second is None or \
            first[1] != second[1] or first[0] == second[0]:
        return None
    if first_group == "intervention":
        return GroupValues(first[0], second[0], first_at, second_at, first_at, second_at)
    return GroupValues(second[0], first[0], first_at, second_at, second_at, first_at)


def first_pair(refs: Sequence[GroupRef]) -> list[GroupRef]:
    """The first reference to each group, in text order: "12% in the A group versus 5%
    receiving placebo (a difference in favour of A)" pairs its values with the first two."""
    out: list[GroupRef] = []
    for ref in refs:
        if ref.group in ("intervention", "control") and not ref.between and \
                ref.group not in {r.group for r in out}:
            out.append(ref)
    return out if len(out) == 2 else []


def listed_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                  ) -> GroupValues | None:
    """Three or more values and as many groups, "respectively": "53.9, 54.2 and 35.3 for
    belatacept MI, belatacept LI and cyclosporine, respectively". Read when every value of
    the intervention's arms lies on one side of every value of the control's."""
    at = next((p for p in range(lo, hi) if tokens[p].text.lower() == "respectively"), None)
    if at is None:
        return None
    values: list[int] = []
    pos = lo
    while pos < at:
        found = _first_value(tokens, pos, at)
        if found is None:
            break
        values.append(found)
        pos = found + 1
    named = [r for r in refs if lo <= r.position < at and not r.comparison and not r.between]
    if len(values) < 3 or len(named) != len(values) or named[0].position < values[0]:
        return None  # the groups after the values, one for each
    read = [(r.group, _value(tokens, v)) for r, v in zip(named, values, strict=True)]
    kinds = {v[1] for _, v in read if v is not None}
    if any(v is None for _, v in read) or len(kinds) != 1:
        return None
    arms = [v[0] for g, v in read if g == "intervention" and v is not None]
    controls = [v[0] for g, v in read if g == "control" and v is not None]
    if not arms or not controls or len(arms) + len(controls) != len(read):
        return None
    if min(arms) > max(controls):
        higher = True
    elif max(arms) < min(controls):
        higher = False
    else:
        return None
    i_value = max(arms) if higher else min(arms)
    c_value = max(controls) if not higher else min(controls)
    return GroupValues(i_value, c_value, values[0], values[-1])


def first_values(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int,
                 times: bool, excluded: frozenset[float]) -> GroupValues | None:
    """The values of the first two groups named, when the others come after them ("...
    versus 16.7% receiving placebo (a difference in favour of budesonide)")."""
    pair = first_pair(refs) if len(refs) > 2 else []
    values = group_values(tokens, pair, lo, hi, times, excluded) if pair else None
    if values is None or any(r.position < values.end for r in refs if r not in pair):
        return None
    return values
