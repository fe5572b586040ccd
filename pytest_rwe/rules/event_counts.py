"""Counts of an event set side by side after the verb that reports it: "intact tubes were
detected in 3 cases in the A group and 18 cases in the B group", "X was observed in 12
patients with A and 4 patients with B", "X was reported in 19.7% of A eyes and no B eyes".

A count followed by "cases" or "patients" usually gives a group's size ("40 patients in the
A group"), so the pairing of group values leaves it out. After a verb of finding or
reporting followed by "in" ("detected in", "occurred in", "was seen among"), the counts are
the event's: each is the value of the group named right after it, and "no" or "none of" a
group is 0. Exactly one value per group, of one kind (counts or shares), else nothing is
read.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.group_values import GroupValues
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

__all__ = ["event_counts"]

_REPORTED = words("detected observed reported seen found noted occurred developed recorded "
                  "documented diagnosed identified present")
_COUNTED = words("case cases patient patients participant participants subject subjects "
                 "child children woman women man men eye eyes infant infants person persons "
                 "people individual individuals")
_TO_GROUP = words("in of the a an among with on receiving treated given who allocated "
                  "randomized randomised assigned to group arm")
_JOIN = words("and , versus vs vs. compared with to while whereas but")


def _count_value(tokens: Sequence[Token], pos: int, hi: int) -> tuple[float, int, str] | None:
    """The value at ``pos`` ("3 cases", "19.7% of", "no", "none of"), the position where its
    group's name may start and its kind ("count", "share", or "zero", which pairs with
    either), or None when ``pos`` is not such a value. A count with a share in brackets
    ("12 patients (30%)") is left to the pairing of group values, which reads the share."""
    word = tokens[pos].text.lower()
    if word in ("no", "none"):
        return 0.0, pos + 1, "zero"
    if not tokens[pos].is_number or pos + 1 >= hi:
        return None
    try:
        value = float(tokens[pos].norm)
    except ValueError:
        return None
    if tokens[pos + 1].text == "%" and pos + 2 < hi and tokens[pos + 2].text.lower() == "of":
        return value, pos + 2, "share"  # "19.7% of implanted eyes"
    if tokens[pos + 1].text.lower() not in _COUNTED:
        return None
    if pos + 2 < hi and tokens[pos + 2].text in "([":
        return None
    return value, pos + 2, "count"


def event_counts(tokens: Sequence[Token], refs: Sequence[GroupRef], lo: int, hi: int
                 ) -> GroupValues | None:
    """The groups' counts of the event a verb of finding reports, or None."""
    verb = next((p for p in range(lo, hi - 1) if tokens[p].text.lower() in _REPORTED
                 and tokens[p + 1].text.lower() in ("in", "among")), None)
    if verb is None:
        return None
    found: list[tuple[str, float, int, int]] = []  # group, value, value's token, ref's end
    kinds: set[str] = set()
    pos = verb + 2
    while pos < hi:
        read = _count_value(tokens, pos, hi)
        if read is None:
            if found and tokens[pos].text.lower() not in _JOIN | _TO_GROUP | _COUNTED and \
                    not tokens[pos].is_number and pos > found[-1][3]:
                break  # the list of counts has ended
            pos += 1
            continue
        value, start, kind = read
        owner = None
        for step in range(start, min(hi, start + 6)):
            owner = next((r for r in refs if r.position == step), None)
            if owner is not None or tokens[step].text.lower() not in _TO_GROUP:
                break
        if owner is None or owner.group not in ("intervention", "control"):
            return None
        found.append((owner.group, value, pos, owner.last))
        kinds.add(kind)
        pos = owner.last + 1
    if len(found) != 2 or {f[0] for f in found} != {"intervention", "control"} or \
            kinds >= {"count", "share"}:  # "3 patients" against "10%" compares nothing
        return None
    mine = next(f for f in found if f[0] == "intervention")
    theirs = next(f for f in found if f[0] == "control")
    if mine[1] == theirs[1]:
        return None
    return GroupValues(mine[1], theirs[1], found[0][2], found[1][3], mine[2], theirs[2])
