"""The outcome a direction word without a name of its own is about: the one outcome its
sentence names.

"Patients in the telemonitored group rated their likelihood to continue using CPAP
significantly higher than the patients in the usual care group", "the intervention group
showed significantly higher scores after education", "X was 1.9 (95% CI 1.8-2.1), which was
significantly higher compared to A": the direction word stands apart from the name, over a
verb, a relative clause or a weak noun, but the sentence names one outcome only, and the
word's own argument names nothing else. Then the word is about that outcome. When the word's
argument is a content word the name does not have ("a significant increase in Ve"), or the
sentence names two outcomes, or the outcome already has a direction of its own there, the
claim stays ungrounded.

A summary of a one-outcome study that names no outcome at all is read the same way
(:func:`unnamed_mention`): "The scores were significantly lower in the A group", "ease of
intubation was greater with A" (for "intubations considered easy") compare the groups on the
one thing the study compared them on, unless the words before the direction word name
something that outcome's name does not ("Nausea VAS scores were lower" is about nausea).
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.cue_targets import GENERIC_TARGETS
from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.name_index import WEAK_WORDS
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.text import STOPWORDS, Span, Token, outside_brackets, tokenize
from pytest_rwe.study import Outcome

__all__ = ["sole_outcome", "survival_outcomes", "unnamed_mention", "word_mention"]

# Words after a direction word that end its argument or introduce a group or a time, so the
# word names no thing of its own: "higher than ...", "lower in the A group", "higher after".
_NO_ARGUMENT = words("""
than compared versus vs in among with for at after before during by when following over within
from to relative following thereafter and but or while whereas which that
""")
_DETERMINERS = words("the a an its their his her this these those both all each")


def _argument(tokens: Sequence[Token], cue: Cue, hi: int, skip: set[int]) -> int | None:
    """The token that heads the direction word's argument, or None when it has none."""
    for pos in range(cue.end + 1, min(hi, cue.end + 5)):
        token = tokens[pos]
        word = token.text.lower()
        if word in _DETERMINERS:
            continue
        if word in ("in", "of") and tokens[cue.end].text.lower() in lexicon.CHANGE_NOUNS:
            continue  # "an increase in X": X is the argument; "higher in X", a group
        if pos in skip or not word[:1].isalpha() or word in _NO_ARGUMENT or (
                word.endswith("ly") and len(word) > 4) or word in lexicon.GROUP_NOUNS:
            return None
        return pos
    return None


def _measure_word(token: Token) -> bool:
    """A word that names no thing by itself: a measure ("levels"), a group noun, a stopword."""
    word = token.text.lower()
    return token.norm in WEAK_WORDS or token.norm in GENERIC_TARGETS or \
        token.norm in STOPWORDS or word in lexicon.GROUP_NOUNS or \
        word in lexicon.ARGUMENT_LEAD or word in lexicon.FREQUENCY_AFTER_COMPARATIVE


def _names_other(tokens: Sequence[Token], head: int, hi: int, skip: set[int]) -> bool:
    """The argument names a thing of its own: a content word ("an increase in Ve"), or a
    weak noun with its complement ("lower levels of endothelin-1"); not a weak noun with the
    group it is measured in ("a higher prevalence in female students")."""
    if not _measure_word(tokens[head]):
        return True
    if head + 1 >= hi or tokens[head + 1].text.lower() not in ("of", "in", "for"):
        return False
    after = head + 2
    while after < hi and tokens[after].text.lower() in _DETERMINERS:
        after += 1
    return not (tokens[head + 1].text.lower() == "in" and after in skip)


_TO_VALUE = words("to from")


def _over_time(tokens: Sequence[Token], cue: Cue, hi: int) -> bool:
    """"which at 36 weeks decreased to 90.6% and 74.1%, respectively": a verb of change
    followed by the value it reached is each group's change over time, not a comparison."""
    word = tokens[cue.start].text.lower()
    if not word.endswith(("ed", "fell", "rose", "grew")) or cue.end + 2 >= hi:
        return False
    return tokens[cue.end + 1].text.lower() in _TO_VALUE and any(
        t.is_number for t in tokens[cue.end + 2:min(hi, cue.end + 4)])


# A clause opening with these is about what the clause before named: "X was 1.9, which
# was significantly higher", "This was lower in A".
_REFERRING = words("which that this it these they who")


def _compares(tokens: Sequence[Token], cue: Cue, hi: int, skip: set[int],
              sentence_text: str) -> bool:
    """The direction ``cue`` compares the groups on something it does not name itself: not
    a change over time in each group, not in a sentence that also says there is no
    difference, not a word whose argument names a thing of its own."""
    if cue.kind not in ("higher", "lower") or _over_time(tokens, cue, hi):
        return False
    if lexicon.NULL_PHRASE.search(sentence_text) or \
            lexicon.NEGATED_SIGNIFICANT.search(sentence_text):
        return False
    head = _argument(tokens, cue, hi, skip)
    # "a significant increase in Ve": about something the name is not
    return head is None or not _names_other(tokens, head, hi, skip)


def sole_outcome(tokens: Sequence[Token], cue: Cue, lo: int, hi: int,
                 sentence: Sequence[Mention], directed: set[str], skip: set[int],
                 sentence_text: str) -> Mention | None:
    """The one outcome named in the clause ``lo``-``hi`` (or before it in the sentence, for
    a clause opening with "which", "this" ...; ``sentence``: the sentence's mentions), when
    the direction ``cue`` names nothing else.

    None when the sentence names no outcome or more than one, when that outcome already
    bears a direction there (``directed``: outcome keys), when the cue's argument names a
    thing of its own, or when the sentence also says there is no difference (``sentence_text``:
    "which was quicker ..., but did not differ statistically"). ``skip``: tokens of groups'
    names."""
    if not sentence or not _compares(tokens, cue, hi, skip, sentence_text):
        return None
    keys = {m.outcome.key for m in sentence}
    if len(keys) != 1 or keys & directed:
        return None
    here = [m for m in sentence if lo <= m.positions[0] < hi]
    if not here and tokens[lo].text.lower() not in _REFERRING:
        return None
    return min(here or sentence, key=lambda m: abs(m.positions[0] - cue.start))


# Words that join a group to what it had or did: "patients given A had a lower ...".
_BEARING = words("""
had have has showed show shows shown experienced experience given receiving received treated
taking took achieved achieve demonstrated exhibited reported report did does do there found
""")


def _weak(token: Token) -> bool:
    """A measure word, or one that joins a group to its measure ("had", "in", "both",
    "significantly")."""
    word = token.text.lower()
    return _measure_word(token) or word in _BEARING or word in _NO_ARGUMENT or \
        word in _DETERMINERS or (word.endswith("ly") and len(word) > 4)


def _subject_names_other(tokens: Sequence[Token], cue: Cue, lo: int, skip: set[int],
                         name: set[str]) -> bool:
    """The words of the clause before the direction word name a thing besides the groups
    and none of the outcome's words (``name``: their stems): "Nausea VAS scores were lower
    with A" is about nausea, "Hospitalization was less frequent" about admissions."""
    other = False
    for pos in outside_brackets(tokens, lo, cue.start):
        token = tokens[pos]
        if pos in skip or not token.text[:1].isalpha() or _weak(token):
            continue
        if token.norm in name:
            return False
        other = True
    return other


_BEFORE_GROUP = words("in with among for on after the those patients participants")


def _threshold(tokens: Sequence[Token], cue: Cue, hi: int, skip: set[int]) -> bool:
    """"more than pT2", "more than 50%": a direction word whose "than" leads to no group
    compares with a threshold, not the groups with each other."""
    pos = cue.end + 1
    if pos >= hi or tokens[pos].text.lower() != "than":
        return False
    pos += 1
    while pos < hi and pos not in skip and tokens[pos].text.lower() in _BEFORE_GROUP:
        pos += 1
    return pos < hi and pos not in skip and tokens[pos].text.lower() not in lexicon.GROUP_NOUNS


def _unnamed_outcome(tokens: Sequence[Token], cue: Cue, lo: int, s_lo: int, hi: int,
                     skip: set[int], sentence_text: str, name: set[str]) -> bool:
    """Whether the direction ``cue`` (in the clause from token ``lo``; its sentence from
    ``s_lo``, with text ``sentence_text``) is about the one outcome of a study whose summary
    names no outcome (``name``: the stems of that outcome's words; ``skip``: tokens of
    groups' names).

    Not when the words before it name something else, when its "than" leads to a
    threshold rather than a group, nor when it fails the checks of :func:`sole_outcome`."""
    if _subject_names_other(tokens, cue, lo, skip, name) or _threshold(tokens, cue, hi, skip):
        return False
    return _compares(tokens, cue, hi, skip, sentence_text)


def unnamed_mention(analysis: Analysis, outcome: Outcome, cue: Cue, where: tuple[int, int, int],
                    skip: set[int], sentence_text: str, directed: set[str]) -> Mention | None:
    """``outcome``, the study's one, as what the direction ``cue`` is about in a summary
    that names no outcome (``where``: the first tokens of the cue's clause and sentence and
    the clause's end; ``directed``: the outcomes given a direction earlier in the sentence)."""
    lo, s_lo, hi = where
    if outcome.key in directed:
        return None
    name = {t.norm for t in tokenize(outcome.name)}
    if not _unnamed_outcome(analysis.tokens, cue, lo, s_lo, hi, skip, sentence_text, name):
        return None
    return word_mention(analysis, outcome, cue.start, cue.end)


def word_mention(analysis: Analysis, outcome: Outcome, first: int, last: int) -> Mention:
    """``outcome`` as referred to by tokens ``first``-``last``, words that are not its name
    ("the score", "this", a direction word itself)."""
    start, end = analysis.tokens[first].start, analysis.tokens[last].end
    return Mention(outcome, (first,), Span(start, end, analysis.text[start:end]), False)


def survival_outcomes(analysis: Analysis, outcomes: Sequence[Outcome], cue: Cue
                      ) -> list[Mention]:
    """"lived longer", "survived longer" name no outcome but are about death: the study's
    ``outcomes`` of death, when they all lie on one side (else none)."""
    if cue.kind != "valence" or analysis.tokens[cue.start].text.lower() not in lexicon.LIVED:
        return []
    deaths = [o for o in outcomes if lexicon.DEATH_NAME.search(o.name)]
    sides = {(analysis.facts[o.key].direction if o.key in analysis.facts else None)
             for o in deaths}
    if not deaths or len(sides) != 1 or None in sides:
        return []
    return [word_mention(analysis, o, cue.start, cue.end) for o in deaths]
