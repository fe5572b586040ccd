"""The claims a summary makes about each outcome: direction, significance, who is compared.

A summary is cut into sentences and clauses. In each clause the direction words ("higher",
"reduced"), no-difference phrases ("did not differ", "no evidence of a difference") and
significance signals (words, p-values, intervals) are found; each is attached to the outcome
it is about (the name right before it, "X was lower", or the argument after it, "lower risk
of X", with lists "A, B and C"), and a direction is read from the intervention's side: the
group that bears it ("in the X group", "X reduced ...") or, failing that, the side it is
compared against ("higher than in C"). A claim that cannot be tied to an outcome, or whose
group side is not one of the study's groups, is kept *ungrounded*: it is counted (coverage)
and never judged.
"""

from __future__ import annotations

import bisect
import re

from pytest_rwe.rules.analysis import Analysis, Claim
from pytest_rwe.rules.compared_bearers import bearers_after_compared
from pytest_rwe.rules.groups import find_group_refs
from pytest_rwe.rules.interaction_terms import interaction_terms
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.name_index import OutcomeIndex, build_outcome_index
from pytest_rwe.rules.named_events import count_named_events
from pytest_rwe.rules.outcomes import Mention, find_mentions
from pytest_rwe.rules.plural_labels import plural_labels
from pytest_rwe.rules.reader import Reader
from pytest_rwe.rules.summary_labels import defined_labels
from pytest_rwe.rules.text import Span, Token, clauses, sentences, tokenize
from pytest_rwe.rules.times_to import without_times_to
from pytest_rwe.rules.truth import Fact, read_facts
from pytest_rwe.study import Study

__all__ = ["Analysis", "Claim", "analyze"]


def _token_range(starts: list[int], span: Span) -> tuple[int, int]:
    lo = bisect.bisect_left(starts, span.start)
    hi = bisect.bisect_left(starts, span.end)
    return (lo, hi) if hi > lo else (0, 0)


_INDEXES: dict[int, tuple[Study, OutcomeIndex, dict[str, Fact]]] = {}


def study_reading(study: Study) -> tuple[OutcomeIndex, dict[str, Fact]]:
    """The study's name index and facts, built once per study object."""
    hit = _INDEXES.get(id(study))
    if hit is not None and hit[0] is study:
        return hit[1], hit[2]
    if len(_INDEXES) > 256:
        _INDEXES.clear()
    result = (study, build_outcome_index(study), read_facts(study))
    _INDEXES[id(study)] = result
    return result[1], result[2]


def analyze(study: Study, text: str) -> Analysis:
    """Read ``text`` as a summary of ``study``."""
    index, facts = study_reading(study)
    tokens = tokenize(text)
    starts = [t.start for t in tokens]
    sentence_spans = sentences(text)
    sentence_ranges = [_token_range(starts, s) for s in sentence_spans]
    clause_ranges: list[tuple[int, int, Span]] = []
    for sentence in sentence_spans:
        for clause in clauses(text, sentence):
            lo, hi = _token_range(starts, clause)
            if hi > lo:
                clause_ranges.append((lo, hi, clause))
    mentions = find_mentions(study, index, facts, text, tokens,
                             [r for r in sentence_ranges if r[1] > r[0]],
                             [(lo, hi) for lo, hi, _ in clause_ranges])
    kept = _without_components(tokens, without_times_to(tokens, mentions))
    # a component's words stay part of a name: "cognitive decline" states no decline
    kept_ids = {id(m) for m in kept}
    dropped = [m for m in mentions if id(m) not in kept_ids]
    components = {p for m in dropped for p in m.positions}
    mentions = kept
    in_names = {p for m in mentions for p in m.positions} | components
    # "a group-by-time interaction" names model terms, not groups; "in groups 1 and 2": group
    # 1 and group 2
    groups = defined_labels(tokens, plural_labels(study, tokens, bearers_after_compared(
        tokens, find_group_refs(study, text, tokens, in_names | interaction_terms(tokens)))))
    # a word of a group's description written out ("telephone consultation") names the group
    # there, not the outcome it shares the word with ("mean consultation time")
    in_verbatim = {p for g in groups if g.verbatim for p in range(g.position, g.end + 1)}
    if in_verbatim:
        mentions = [m for m in mentions if not set(m.positions) <= in_verbatim]
        in_names = {p for m in mentions for p in m.positions} | components
    analysis = Analysis(text, tokens, sentence_ranges, clause_ranges, mentions, groups, [],
                        facts, starts,
                        [tokens[lo].start if hi > lo else 0 for lo, hi in sentence_ranges],
                        [c[2].start for c in clause_ranges],
                        dropped)
    # words inside a name's own span ("rehospitalization for worsening heart failure") are
    # part of the name, not claims of their own
    for mention in mentions:
        first, last = mention.positions[0], mention.positions[-1]
        if last - first - len(mention.positions) < 2:
            in_names |= set(range(first, last + 1))
    reader = Reader(study, analysis, in_names)
    for lo, hi, span in clause_ranges:
        analysis.claims += reader.clause(lo, hi, span)
    count_named_events(analysis)
    return analysis


_COMPOSITE = words("composite combination combined")
def _without_components(tokens: list[Token], mentions: list[Mention]) -> list[Mention]:
    """"a lower composite of cognitive decline, dementia and Alzheimer's disease": the names
    listed after "composite of" describe the composite; they are not claims of their own."""
    out: list[Mention] = []
    listing = -1  # the token where a list of components ends
    named = {p for m in mentions for p in m.positions}
    composites = {p for m in mentions if _COMPOSITE & {tokens[q].text.lower() for q in
                                                      m.positions} for p in m.positions}
    for mention in mentions:
        first = mention.positions[0]
        if first <= listing:
            continue
        # only when "composite" itself names an outcome: else the list may be its name
        # ("the composite of cardiac death and HF rehospitalization")
        if _after_composite(tokens, first, named):
            listing = _list_end(tokens, first)
            continue
        closing = _composite_brackets(tokens, first, named, composites)
        if closing is None:
            closing = _listed_together(tokens, first, named)
        if closing is not None:
            listing = closing
            continue
        out.append(mention)
    return out


def _list_start(tokens: list[Token], first: int, named: set[int]) -> int:
    """Where a list of names "A, B or C" that holds ``first`` begins."""
    start = first
    for back in range(first - 1, max(-1, first - 30), -1):
        if back in named:
            start = back
        elif tokens[back].text.lower() not in (",", "or", "and", "/"):
            break
    return start


def _composite_brackets(tokens: list[Token], first: int, named: set[int],
                        composites: set[int]) -> int | None:
    """"the composite neurocognitive outcome (cognitive decline, dementia or Alzheimer's
    disease)": names in a bracket right after a composite's name are its components. The
    position of the closing bracket, or None."""
    start = _list_start(tokens, first, named)
    if start < 2 or tokens[start - 1].text != "(" or not (
            start - 2 in composites or (tokens[start - 2].text.lower() in _COMPONENT_HEADS
                                        and start - 3 in composites)):
        return None
    for pos in range(first, min(len(tokens), first + 30)):
        if tokens[pos].text == ")":
            return pos
        if tokens[pos].text in ("(", ";", ".", ":"):
            return None
    return None


_COMPONENT_HEADS = words("outcome outcomes endpoint endpoints end-point")
_TOGETHER = re.compile(r"^\W{0,3}(?:taken\s+together|together|combined|as\s+a\s+composite)"
                       r"\b", re.IGNORECASE)


def _listed_together(tokens: list[Token], first: int, named: set[int]) -> int | None:
    """"less likely to have X, Y or Z (taken together)": names listed and then said to be
    taken together describe one composite, not a claim about each; the list's last token."""
    pos = first
    names = 0
    while pos < min(len(tokens), first + 40):
        if pos in named:
            if pos == first or pos - 1 not in named:
                names += 1
        elif tokens[pos].text.lower() not in (",", "or", "and", "/"):
            break
        pos += 1
    if pos >= len(tokens) or names + (first - _list_start(tokens, first, named) > 0) < 2:
        return None
    rest = " ".join(t.text for t in tokens[pos:pos + 5])
    if (tokens[pos].text == "(" and _TOGETHER.match(rest[1:])) or _TOGETHER.match(rest):
        return pos
    return None


def _after_composite(tokens: list[Token], first: int, named: set[int]) -> bool:
    """A list "composite of A, B and C" runs back from ``first`` to a named "composite"."""
    for back in range(first - 1, max(-1, first - 14), -1):
        word = tokens[back].text.lower()
        if word == "of" and back > 0 and tokens[back - 1].text.lower() in _COMPOSITE:
            return back - 1 in named
        if word in ("(", ")", ";", ".", "was", "were", "than", "with", "had"):
            return False
    return False


def _list_end(tokens: list[Token], first: int) -> int:
    """The last token of a list of names "A, B and C" starting at ``first``."""
    for pos in range(first, min(len(tokens), first + 30)):
        if tokens[pos].text in ("(", ";", ".", ":") or tokens[pos].text.lower() in (
                "was", "were", "than", "compared", "versus", "vs", "which"):
            return pos - 1
    return first + 29
