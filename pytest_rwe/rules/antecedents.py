"""The outcome a direction word with no name of its own refers back to, across sentences:
"This was significantly lower ..." and "The A group showed lower levels than ..." after a
sentence that named one outcome. A complement to the reader's antecedents within a sentence
(:meth:`pytest_rwe.rules.reader.Reader._antecedent`)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.cue_targets import GENERIC_TARGETS, argument_head
from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.name_index import WEAK_WORDS
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.sole_outcome import word_mention
from pytest_rwe.rules.text import Token
from pytest_rwe.study import Outcome

__all__ = ["bare_change", "contrasted_change", "measure_antecedent", "pronoun_antecedent",
           "subject_pronoun"]

Mentions = Callable[[int, int], list[Mention]]


def _the_one_outcome(analysis: Analysis, pos: int, sole: Outcome | None) -> Mention | None:
    """The study's one outcome, referred to by the word at ``pos`` ("the score", "this"),
    when no sentence before names one: a summary of a one-outcome study that opens "The
    score was significantly lower with A" can only be about that outcome."""
    return None if sole is None else word_mention(analysis, sole, pos, pos)


def pronoun_antecedent(analysis: Analysis, mentions: Mentions, cue: Cue, lo: int, s_lo: int,
                       sole: Outcome | None = None) -> Mention | None:
    """"The mean IFN level was 7.73 in the CO group. This was significantly lower than in
    the EDE group": a sentence whose subject is "this" or "it", about the one outcome the
    sentence before named (or, opening the summary, the study's one outcome ``sole``).
    ``mentions(lo, hi)``: the outcome mentions in a token range."""
    tokens = analysis.tokens
    if lo != s_lo or tokens[lo].text.lower() not in ("this", "it") or (
            lo + 1 < len(tokens) and tokens[lo + 1].text.lower() in GENERIC_TARGETS
            and tokens[lo + 1].text.lower() not in ("was", "were", "is")):
        return None  # "This difference ...": about whatever was compared, not a name
    before = [(a, b) for a, b in analysis.sentences if b <= s_lo and b > a]
    if not before:
        return _the_one_outcome(analysis, lo, sole)
    previous = mentions(*before[-1])
    if len({m.outcome.key for m in previous}) != 1:
        return None
    return previous[-1]


def measure_antecedent(analysis: Analysis, mentions: Mentions, sentence_los: list[int],
                       cue: Cue, lo: int, hi: int, s_lo: int, sole: Outcome | None = None
                       ) -> Mention | None:
    """"The mean levels of IP-10 were ... . The A group showed significantly lower levels
    than the B group", "... . The score was significantly lower in A": a bare measure word
    ("levels", "the score") in a sentence that names no outcome is the measure last named,
    when the nearest sentence before that names an outcome names one only; with none
    before, the study's one outcome ``sole``. ``sentence_los``: the first token of each
    sentence, in order."""
    tokens = analysis.tokens
    sentences = analysis.sentences
    at = bisect.bisect_left(sentence_los, s_lo)
    s_hi = sentences[at][1] if at < len(sentences) and sentences[at][0] == s_lo else hi
    if mentions(s_lo, s_hi):
        return None
    head = argument_head(tokens, cue, hi)
    bare_argument = head is not None and head[0] in WEAK_WORDS and \
        head[1] not in ("of", "in", "for") and not head[1][:1].isalpha()
    # "The score was ...": the sentence's subject is the measure word alone
    subject = lo == s_lo and lo + 2 < len(tokens) and tokens[lo].text.lower() in (
        "the", "these") and tokens[lo + 1].norm in WEAK_WORDS and \
        tokens[lo + 2].text.lower() in ("was", "were", "is", "are")
    if not bare_argument and not subject:
        return None
    # the measure last named: the nearest of the three sentences before that names one
    previous: list[Mention] = []
    for a, b in reversed(sentences[max(0, at - 3):at]):
        previous = mentions(a, b) if b > a else []
        if previous:
            break
    if not previous and not mentions(0, s_lo):
        return _the_one_outcome(analysis, lo + 1 if subject else cue.start, sole)
    if len({m.outcome.key for m in previous}) != 1:
        return None
    return previous[-1]


_LEADS = frozenset([",", ";", "but", "however", "and", "whereas", "while", "yet", "although"])
_BE = frozenset(["was", "were", "is", "are", "remained", "became"])
_AFTER_BARE = frozenset(["in", "than", "with", "among", "for", "compared", "versus", "vs",
                         "after", "at", "during", "when", "following", "from", "and", "on"])
_ADVERBS = frozenset(["significantly", "statistically", "also", "still", "then", "further",
                      "markedly", "slightly", "much"])


def subject_pronoun(tokens: Sequence[Token], lo: int, cue: int, cue_end: int) -> bool:
    """"..., but it was significantly lower in the A group": the direction word (tokens
    ``cue``-``cue_end``) has "it" or "they" for its subject, after a form of "to be" (and
    adverbs), the pronoun starting the clause at ``lo`` or following a conjunction or a
    comma, and no noun of its own after it ("it was lower doses that ..."), so it is about
    the outcome its sentence named before."""
    after = tokens[cue_end + 1].text.lower() if cue_end + 1 < len(tokens) else "."
    if after[:1].isalpha() and after not in _AFTER_BARE:
        return False
    pos = cue - 1
    while pos > lo and tokens[pos].text.lower() in _ADVERBS:
        pos -= 1
    if pos == lo and tokens[pos].text.lower() in _BE and lo > 0 and \
            tokens[lo - 1].text.lower() in ("but", "yet"):
        # "X was above 95% in all groups but was lower in the control arm": the subject of
        # the verb after "but" is left out, so it is the subject before
        return True
    if pos <= lo or tokens[pos].text.lower() not in _BE:
        return False
    pos -= 1
    if tokens[pos].text.lower() not in ("it", "they"):
        return False
    return pos == lo or tokens[pos - 1].text.lower() in _LEADS


_BUT_NOT_GLUE = frozenset(["in", "with", "among", "for", "on", "the", "those"])
_CONTRAST = frozenset(["whereas", "while"])
_UNCHANGED = frozenset(["no", "not", "unchanged", "remained", "stable", "neither", "nor"])


def _unchanged_after_contrast(tokens: Sequence[Token], ref: GroupRef) -> bool:
    """"..., whereas no increase was observed in the B group", "while in group B it remained
    stable": the group of a clause led by "whereas" or "while" that says it did not change."""
    start = next((p for p in range(ref.position - 1, max(-1, ref.position - 9), -1)
                  if tokens[p].text.lower() in _CONTRAST), None)
    if start is None:
        return False
    end = min(len(tokens), ref.last + 8)
    stretch = [t.text.lower() for t in tokens[start + 1:end]]
    stop = next((i for i, w in enumerate(stretch) if w in (";", ".")), len(stretch))
    return any(w in _UNCHANGED for w in stretch[:stop])


def contrasted_change(tokens: Sequence[Token], refs: Sequence[GroupRef]) -> str | None:
    """"X rose significantly from baseline in the A group, but not in the B group": a change
    within one group set against the other by "but not" (or by "whereas" with a clause that
    says the other did not change); the group that had the change
    ("intervention" or "control"), or None. ``refs``: the sentence's group references; every
    one but the contrasted must name the other group."""
    contrasted = []
    for ref in refs:
        pos = ref.position - 1
        while pos >= 0 and ref.position - pos <= 3 and tokens[pos].text.lower() in _BUT_NOT_GLUE:
            pos -= 1
        but_not = pos >= 1 and tokens[pos].text.lower() == "not" and \
            tokens[pos - 1].text.lower() == "but"
        if but_not or _unchanged_after_contrast(tokens, ref):
            contrasted.append(ref)
    if len(contrasted) != 1 or contrasted[0].group not in ("intervention", "control"):
        return None
    others = {r.group for r in refs if r is not contrasted[0]}
    if len(others) != 1 or others == {contrasted[0].group} or \
            not others <= {"intervention", "control"}:
        return None
    return others.pop()


def bare_change(tokens: Sequence[Token], cue: Cue, hi: int, group_words: set[int]) -> bool:
    """A change noun with no argument of its own ("a greater increase in the A group",
    "more decrease was seen"), so it is about the outcome the sentence named."""
    if tokens[cue.end].text.lower() not in lexicon.CHANGE_NOUNS:
        return False
    before = tokens[cue.start - 1].text.lower() if cue.start else ""
    if cue.start == cue.end and before not in ("a", "an", "significant", "with") and \
            before not in lexicon.INTENSIFIERS:
        return False  # "this reduction in the control group": the change named before
    nxt = cue.end + 1
    if nxt >= hi:
        return True
    word = tokens[nxt].text.lower()
    if word in ("of", "for", "to") or (word[0].isalpha() and word not in (
            "in", "was", "were", "is", "with", "after", "among", "compared", "than",
            "observed", "seen", "found", "noted")):
        return False
    if word in ("in", "among"):
        after = nxt + 1
        while after < hi and tokens[after].text.lower() in ("the", "a", "an", "all", "those",
                                                              "patients", "participants"):
            after += 1
        return after in group_words
    return True
