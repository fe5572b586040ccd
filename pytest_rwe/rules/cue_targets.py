"""What a cue is about, read from its own words: the side of good of a valence word for an
outcome, the head of its argument, and whether the words around it name anything.

Pure functions over tokens; used by :class:`pytest_rwe.rules.reader.Reader`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.name_index import WEAK_WORDS, Mention
from pytest_rwe.rules.strata import split_key
from pytest_rwe.rules.text import STOPWORDS, Token, outside_brackets, stem

__all__ = ["GENERIC_TARGETS", "VALUE_GLUE", "about_nothing", "argument_head", "change_size",
           "measures", "only_values", "oriented_valence", "polarity"]


_ABSENCE = re.compile(r"\b(?:lack|absence|free|freedom|without|no|non)[\s-]*(?:of|from)?[\s-]*$",
                      re.IGNORECASE)
# "without troublesome dyskinesia", "free of severe pain": one word may qualify the harm that
# is absent ("non-" only ever stands right before it: "non-fatal bleeding" is a harm)
_ABSENCE_QUALIFIED = re.compile(r"\b(?:lack\s+of|absence\s+of|free\s+(?:of|from)|freedom\s+"
                                r"from|without)\s+[a-z]+\s+$", re.IGNORECASE)


def polarity(name: str, word: str) -> str | None:
    """The direction a valence word means for an outcome: "higher" or "lower", or None."""
    if (word in lexicon.FASTER or word in lexicon.SLOWER) and lexicon.TIME_NAME.search(name):
        return "lower" if word in lexicon.FASTER else "higher"
    good = word in lexicon.GOOD
    if not good and word not in lexicon.BAD:
        return None
    if lexicon.CHANGE_IN_NAME.search(name):
        return None
    harm = benefit = False
    for match in lexicon.HARMS.finditer(name):
        # "lack-of-ghosting", "free of pain", "without relapse": the absence of a harm is good
        if _ABSENCE.search(name[max(0, match.start() - 16):match.start()]) or \
                _ABSENCE_QUALIFIED.search(name[max(0, match.start() - 36):match.start()]):
            benefit = True
        else:
            harm = True
    benefit = benefit or bool(lexicon.GOODS.search(name))
    if harm == benefit:
        return None
    return "higher" if good == benefit else "lower"


_LARGER = words("greater larger bigger more")
_SMALLER = words("smaller less lesser")


def change_size(name: str, word: str) -> str | None:
    """"Mean improvement in VA was significantly greater": for an outcome that is itself a
    change ("improvement in X", "reduction of Y"), the size word says which group's change is
    larger, whatever the change's good side."""
    if not lexicon.CHANGE_IN_NAME.search(name):
        return None
    if word in _LARGER:
        return "higher"
    return "lower" if word in _SMALLER else None


# a time ("scores after training") or a reduced relative clause ("levels found in B") ends
# the argument of a direction word
_ARGUMENT_ENDS = words("after before during throughout following found observed seen noted "
                       "recorded reported")


def argument_head(tokens: list[Token], cue: Cue, hi: int) -> tuple[str, str] | None:
    """The first word after a cue that is not an article or a preposition, stemmed, and the
    word after it ("" at the clause's end): "lower scores than" -> ("score", "than")."""
    for pos in range(cue.end + 1, min(hi, cue.end + 4)):
        word = tokens[pos].text.lower()
        if word in ("the", "a", "an", "of", "in", "its", "their"):
            continue
        if not word[0].isalpha():
            return None
        following = tokens[pos + 1].text.lower() if pos + 1 < hi else ""
        if following in ("than", "compared", "versus", "vs", "among", "with", "at", "and") or \
                following in _ARGUMENT_ENDS:
            # the argument ends: a comparison, a group, a time or a relative clause follows
            following = "."
        return tokens[pos].norm, following
    return None


_OCCURRENCE = frozenset(stem(w) for w in (
    "risk", "risks", "incidence", "prevalence", "rate", "rates", "odds", "hazard", "hazards",
    "frequency", "occurrence", "likelihood"))


def measures(head: str, mention: Mention, clause_lo: int) -> bool:
    """Whether a cue's argument ``head`` (stemmed, no name of its own after it) only
    measures ``mention``, the one outcome named before it in the sentence: how it is
    measured ("lower scores than B") or how often it occurs ("a 52% higher incidence than
    B"). A subgroup's outcome named in an earlier clause is not taken up by how often: the
    clause's own subject says which subgroup ("..., whereas underweight adults had a lower
    prevalence")."""
    if head in WEAK_WORDS:
        return True
    return head in _OCCURRENCE and (mention.positions[0] >= clause_lo
                                    or split_key(mention.outcome.key) is None)

VALUE_GLUE = words("% in of the a an for among with group groups arm arms patients , = : was "
                    "were mean median")

GENERIC_TARGETS = words("""
difference differences effect effects change changes result results finding findings outcome
outcomes group groups arms arm two both the a an this these that those between in of was were
is are significant significantly statistically observed found noted seen reduction reductions
increase increases decrease decreases improvement improvements trend it they all each overall
primary secondary endpoint endpoints any these those three four five six other none every
such adjusted unadjusted crude estimate estimates ratio hr hrs or ors rr rrs pr prs irr aor ahr
apr arr did does do not no show shows showed shown demonstrate demonstrated reveal revealed
detect detected reach reached
""")


def about_nothing(tokens: list[Token], cue: Cue, lo: int, hi: int, in_groups: set[int]
                   ) -> bool:
    """The words around the cue name nothing but generic words and groups ("the difference
    was significant", "the first two were lower with drug A"), so the claim is about
    whatever the sentence (or the one before) is about."""
    start = max(lo, cue.start - 4)
    window = [t for pos, t in enumerate(tokens[start:min(hi, cue.end + 5)], start)
              if t.text[0].isalpha() and pos not in in_groups]
    return all(t.text.lower() in GENERIC_TARGETS or t.text.lower() in STOPWORDS
               or t.text.lower() in lexicon.UP
               or t.text.lower() in lexicon.DOWN or t.text.lower() in lexicon.FILLER
               or t.text.lower() in lexicon.VALENCE or re.fullmatch(r"p", t.text, re.I)
               for t in window)


def only_values(tokens: list[Token], start: int, end: int, group_words: set[int]) -> bool:
    """Only a value, its interval and a group's name (``group_words``: its tokens) between
    two positions: "of 53.3% (95% CI ...) in the sorafenib group"."""
    if end - start > 24:
        return False
    for pos in outside_brackets(tokens, start, end):
        tok = tokens[pos]
        if not (tok.is_number or pos in group_words or tok.text.lower() in VALUE_GLUE
                or tok.text.lower() in lexicon.FILLER):
            return False
    return True


def oriented_valence(tokens: Sequence[Token], cue: Cue, name: str) -> Cue:
    """A valence cue turned into the direction it gives outcome ``name`` ("pain improved":
    less pain; "better survival": more survival), or unchanged when the name has no side of
    good."""
    word = tokens[cue.start].text.lower()
    if word in ("more", "greater", "less", "lesser") and cue.start + 1 < len(tokens):
        # "more effective", "less beneficial": the adjective's good or bad
        word = "better" if word in ("more", "greater") else "worse"
    side_of_good = polarity(name, word) or change_size(name, tokens[cue.start].text.lower())
    return cue if side_of_good is None else replace(cue, kind=side_of_good)
