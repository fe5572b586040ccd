"""What the rules juror reads in a summary: its claims, and the summary read once."""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.text import Span, Token
from pytest_rwe.rules.truth import Fact
from pytest_rwe.study import Outcome

__all__ = ["Analysis", "Claim"]


@dataclass(frozen=True)
class Claim:
    """What one clause says about one outcome, read from the intervention group's side.

    ``outcome`` is None for a claim that names no outcome of the study (ungrounded).
    ``direction`` is "higher", "lower", "null" (no difference), or None (a difference without
    a side, "better", or only a p-value). ``grounded`` is False when the outcome or, for a
    direction, the group side could not be established; such a claim is never judged.
    """

    outcome: Outcome | None
    mention: Mention | None
    clause: Span
    direction: str | None
    cue: Span | None
    significant: bool | None  # True: called significant; False: called not significant
    flipped: bool  # the comparator bears the stated direction
    baseline: bool  # the clause describes baseline characteristics
    hedged: bool = False  # a direction stated without asserting it ("tended to be lower")
    grounded: bool = True
    reason: str = ""  # why the claim is not grounded
    valence: bool = False  # "better", "improved": a difference whose side is not stated
    generic: bool = False  # an ungrounded claim about nothing named ("the difference was ...")
    untested: bool = False  # the groups' values with no test: a side, not a difference


@dataclass
class Analysis:
    """A summary read once: tokens, sentence and clause token ranges, mentions and claims."""

    text: str
    tokens: list[Token]
    sentences: list[tuple[int, int]]
    clauses: list[tuple[int, int, Span]]
    mentions: list[Mention]
    groups: list[GroupRef]
    claims: list[Claim]
    facts: Mapping[str, Fact] = field(default_factory=dict)
    token_starts: list[int] = field(default_factory=list)
    _sentence_starts: list[int] = field(default_factory=list)
    _clause_starts: list[int] = field(default_factory=list)
    #: names read as a composite's parts ("X, Y or Z (taken together)"), not in ``mentions``:
    #: no claims of their own, but they show the composite was named
    components: list[Mention] = field(default_factory=list)
    #: each mention's first name token, and whether they are in order: built on first use
    _firsts: list[int] | None = field(default=None, repr=False)
    _firsts_sorted: bool = field(default=False, repr=False)

    def sentence_of(self, char: int) -> tuple[int, int]:
        """The token range of the sentence holding character ``char``."""
        i = bisect.bisect_right(self._sentence_starts, char) - 1
        for lo, hi in self.sentences[max(0, i):i + 2]:
            if lo < hi and self.tokens[lo].start <= char <= self.tokens[hi - 1].end:
                return lo, hi
        return 0, 0

    def clause_of(self, char: int) -> tuple[int, int, Span] | None:
        i = bisect.bisect_right(self._clause_starts, char) - 1
        if 0 <= i < len(self.clauses) and self.clauses[i][2].start <= char < \
                self.clauses[i][2].end:
            return self.clauses[i]
        return None

    def names_other(self, key: str, start: int, end: int) -> bool:
        """An outcome other than the one under ``key`` is named from character ``start`` to
        ``end``."""
        # the mentions are in text order: bisect to the stretch, not a scan of every mention
        mentions = self.mentions
        for at in range(bisect.bisect_left(mentions, start, key=lambda m: m.span.start),
                        len(mentions)):
            if mentions[at].span.start >= end:
                return False
            if mentions[at].outcome.key != key:
                return True
        return False

    def first_other_name(self, after: int, before: int, key: str | None) -> int | None:
        """The first name token, strictly between tokens ``after`` and ``before``, of the
        first mention (in ``mentions`` order) of an outcome other than ``key``."""
        mentions = self.mentions
        if self._firsts is None:
            self._firsts = [m.positions[0] for m in mentions]
            self._firsts_sorted = all(a <= b for a, b in pairwise(self._firsts))
        firsts = self._firsts
        # ``mentions`` is nearly always in name order; where it is not (a subgroup's
        # qualifier mentions follow their sentence's names), the list is scanned in its order
        at = bisect.bisect_right(firsts, after) if self._firsts_sorted else 0
        for place in range(at, len(firsts)):
            first = firsts[place]
            if self._firsts_sorted and first >= before:
                return None
            if after < first < before and mentions[place].outcome.key != key:
                return first
        return None

    @property
    def grounded(self) -> list[Claim]:
        return [c for c in self.claims if c.grounded and c.outcome is not None]

    def coverage(self) -> tuple[int, int]:
        """(grounded claims, all claims), baseline statements left out."""
        claims = [c for c in self.claims if not c.baseline]
        return sum(1 for c in claims if c.grounded and c.outcome is not None), len(claims)
