"""The group side of a direction: which group bears it, or is compared against."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.compared_side import starts_clause
from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import Token

RELATIVE = words("which who whom whose")
UNKNOWN_GROUP = "the group named is not one of the study's groups"


@dataclass(frozen=True)
class Side:
    """The group a direction is about; ``explicit`` when the clause names it."""

    group: str  # intervention, control or unknown
    explicit: bool
    reason: str = ""


def segment(tokens: Sequence[Token], first: int, last: int, lo: int, hi: int
            ) -> tuple[int, int]:
    """The comma-delimited stretch of the clause around tokens ``first..last`` (outside
    parentheses)."""
    start, depth = lo, 0
    for pos in range(first - 1, lo - 1, -1):
        text = tokens[pos].text
        if text in ")]":
            depth += 1
        elif text in "([":
            if depth:
                depth -= 1
            else:
                start = pos + 1
                break
        elif text == "," and not depth:
            start = pos + 1
            break
    end, depth = hi, 0
    for pos in range(last + 1, hi):
        text = tokens[pos].text
        if text in "([":
            depth += 1
        elif text in ")]":
            if depth:
                depth -= 1
            else:
                end = pos
                break
        elif text == "," and not depth:
            end = pos
            break
    return start, end


def _outside_parentheses(tokens: Sequence[Token], lo: int, refs: Sequence[GroupRef]
                         ) -> list[GroupRef]:
    depth_at: dict[int, int] = {}
    depth = 0
    wanted = {r.position for r in refs}
    last = max(wanted, default=lo)
    for pos in range(lo, last + 1):
        if pos in wanted:
            depth_at[pos] = depth
        text = tokens[pos].text
        if text in "([{":
            depth += 1
        elif text in ")]}" and depth:
            depth -= 1
    return [r for r in refs if depth_at.get(r.position, 0) == 0]


def _side_of(refs: Sequence[GroupRef], cue: Cue) -> Side | None:
    bearers = [r for r in refs if not r.comparison and not r.between]
    if any(r.via != "shared" for r in bearers):
        # "vapocoolant spray at the time of injections": a word both groups share does not
        # name the other side when a group is named by its own words
        bearers = [r for r in bearers if r.via != "shared"]
    known = {r.group for r in bearers if r.group != "unknown"}
    compared = {r.group for r in refs if r.comparison and r.group != "unknown"}
    if len(known) == 1:
        group = known.pop()
        if compared == {group}:
            return _against_shared(refs, bearers, group)
        return Side(group, True)
    if len(known) == 2:
        return Side("unknown", True, "both groups are named as having it")
    if any(r.group == "unknown" for r in bearers):
        # "the K2 group ... compared with the control group": with two groups, the one not
        # recognized is the other one; without a recognized side it stays unknown
        if compared == {"control"}:
            return Side("intervention", True)
        if compared == {"intervention"}:
            return Side("control", True)
        return Side("unknown", True, UNKNOWN_GROUP)
    if compared == {"control"}:
        return Side("intervention", True)
    if compared == {"intervention"}:
        return Side("control", True)
    if compared:
        return Side("unknown", True, "compared with a group the study does not name")
    return None


def _against_shared(refs: Sequence[GroupRef], bearers: Sequence[GroupRef], group: str
                    ) -> Side:
    """"higher after TSD than after a night of sleep" (both groups had sleep): a comparison
    sets two groups apart, so a word both groups share, set against a group named by its own
    words, names the other group."""
    compared = [r for r in refs if r.comparison and r.group != "unknown"]
    own_bearer = any(r.via != "shared" for r in bearers)
    own_compared = any(r.via != "shared" for r in compared)
    if own_bearer and not own_compared:
        return Side(group, True)
    if own_compared and not own_bearer:
        return Side("control" if group == "intervention" else "intervention", True)
    return Side("unknown", True, "one group is named on both sides")


def orientation(tokens: Sequence[Token], refs: Sequence[GroupRef], cue: Cue, lo: int, hi: int,
                topic: str | None, design: str, between: tuple[int, int] | None = None) -> Side:
    """The group a direction cue is about: named in its stretch, its clause, the clauses
    before (the group last named as a subject), or by convention the intervention.
    ``between`` is where the cues before and after this one stand in the clause: "X improved
    in the A group and worsened in the B group" gives each cue the group it alone reaches."""
    if design == "case_series":
        return Side("intervention", False)
    refs = _outside_parentheses(tokens, lo, refs)
    seg_lo, seg_hi = segment(tokens, cue.start, cue.end, lo, hi)
    stretch = [r for r in refs if seg_lo <= r.position < seg_hi]
    bearers = [r for r in stretch if not r.comparison]  # the groups the stretch gives it to
    # "a weight decrease (CI ...) in the A group compared to a weight increase in the B
    # group": when the cue's own stretch names no group, the clause's groups are split the
    # same way between its cues
    pool = stretch if bearers else refs
    if between is not None and len({r.group for r in pool if not r.comparison}) > 1:
        own = [r for r in pool if between[0] < r.position < between[1] and r.via != "shared"]
        side = _side_of(own, cue) if own else None
        if side is not None and side.group in ("intervention", "control"):
            return side
    if tokens[seg_lo].text.lower() in RELATIVE and not bearers:
        # "..., which still had higher X": the relative pronoun is the group named just before
        antecedent = [r for r in refs if r.last < seg_lo
                      and seg_lo - r.last <= 3 and r.group != "unknown"]
        if antecedent:
            return Side(antecedent[-1].group, True)
    # "A had lower X than B, and B users, in turn, had the lower Y": a stretch that names no
    # group of its own belongs to the group with a verb of its own just before it
    subject = [r for r in refs if r.last < seg_lo and seg_lo - r.last <= 6
               and starts_clause(tokens, r.last)]
    if subject and subject[-1].group != "unknown" and not bearers:
        return Side(subject[-1].group, True)
    segment_text = " ".join(t.text for t in tokens[seg_lo:seg_hi])
    for group in (stretch, refs):
        side = _side_of(group, cue)
        if side is not None:
            return side
        if group is stretch and lexicon.BOTH.search(segment_text):
            return Side("unknown", True, "both groups are named as having it")
    clause_text = " ".join(t.text for t in tokens[lo:hi])
    if lexicon.BOTH.search(clause_text) and not refs:
        return Side("unknown", True, "both groups are named as having it")
    if _own_subject(tokens, lo, cue.start):
        return Side("unknown", False, "the clause's subject is a group not named")
    if topic is not None:
        return Side(topic, False)
    return Side("intervention", False)


_PEOPLE = words("patients participants people adults children women men users subjects "
                "individuals infants residents survivors recipients")
_PEOPLE_MODIFIERS = words("on given receiving taking treated sent started starting using "
                          "prescribed assigned allocated exposed")


def _own_subject(tokens: Sequence[Token], lo: int, cue: int) -> bool:
    """"Patients sent home on the drug had a lower risk": the clause names its own subject
    group by words that are not a group's name, so neither the group of the sentences before
    (the topic) nor the intervention by convention is its side."""
    for pos in range(lo, max(lo, cue - 1)):
        if tokens[pos].text.lower() in _PEOPLE and \
                tokens[pos + 1].text.lower() in _PEOPLE_MODIFIERS:
            return True
    return False


