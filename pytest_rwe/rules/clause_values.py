"""The groups' own values in a clause ("12.4% in A and 3.4% in C"), read by the first of
several layouts that applies.

Used by :class:`pytest_rwe.rules.reader.Reader` once per clause.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.arm_values import arm_values
from pytest_rwe.rules.compared_values import (
    compared_values,
    contrasted_values,
    first_values,
    ordered_values,
    parallel_values,
)
from pytest_rwe.rules.event_counts import event_counts
from pytest_rwe.rules.group_values import GroupValues, group_values
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.respectively import respective_values
from pytest_rwe.rules.text import Token
from pytest_rwe.rules.value_refs import value_owners
from pytest_rwe.rules.values_then_groups import values_then_groups
from pytest_rwe.rules.zero_values import zero_values

__all__ = ["clause_values", "sentence_values"]


def clause_values(tokens: Sequence[Token], refs: list[GroupRef], lo: int, hi: int, times: bool,
                  excluded: frozenset[float], in_names: set[int],
                  sentence_values: Callable[[], GroupValues | None]) -> GroupValues | None:
    """The groups' values in tokens ``lo:hi``; ``sentence_values`` (called only when the
    clause's own layouts fail first) reads them over the whole sentence."""
    own = value_owners(refs)  # "at the end of RT": a setting, not a group
    # a shared word left out as an owner still stands between a value and "compared with"
    # ("35.41 per patient consultation compared with 51.12")
    in_refs = {p for r in refs for p in range(r.position, r.last + 1)}
    return group_values(tokens, own, lo, hi, times, excluded) or sentence_values() or \
        first_values(tokens, own, lo, hi, times, excluded) or \
        compared_values(tokens, own, lo, hi, in_names | in_refs) or \
        parallel_values(tokens, own, lo, hi, in_names) or \
        ordered_values(tokens, own, lo, hi) or respective_values(
            tokens, own, lo, hi, excluded) or values_then_groups(
            tokens, own, lo, hi) or zero_values(tokens, own, lo, hi) or \
        event_counts(tokens, own, lo, hi) or arm_values(tokens, own, lo, hi)


def sentence_values(analysis: Analysis, refs_in: Callable[[int, int], list[GroupRef]], lo: int,
                    excluded: frozenset[float]) -> GroupValues | None:
    """The groups' values over the whole sentence holding token ``lo``, when its clauses
    split them: "X was 50.3 s with A, whereas with B it was 39.6 s"; ``refs_in`` gives the
    group references of a token range."""
    s_lo, s_hi = next(((a, b) for a, b in analysis.sentences if a <= lo < b), (lo, lo))
    if s_hi <= s_lo:
        return None
    refs = refs_in(s_lo, s_hi)
    return group_values(analysis.tokens, refs, s_lo, s_hi, excluded=excluded) or \
        contrasted_values(analysis.tokens, refs, s_lo, s_hi)
