"""Readings of one word as a group's: a word of one description ("names_word"), a
hyphenated or "G"-suffixed abbreviation ("SB-RFA", "SeG"), a role ("the control group",
"CG"), a label the study does not give ("group 3"), names paired in a list, a p-value's
letter, and kin ("their siblings").

Used by :mod:`pytest_rwe.rules.groups`, which labels every token of a summary; the words
each group owns come from :func:`pytest_rwe.rules.group_words.vocabulary`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.group_words import STOP_STEMS, Vocabulary
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import STOPWORDS, Token, same_word, stem

__all__ = ["ROLE_STEMS", "alone_after", "group_suffix_label", "hyphen_label", "kin_named",
           "names_word", "p_bound", "paired_names", "role_label", "unknown_group"]

# role words in a description ("control", "placebo") name a group only as themselves: the
# "controlling" of "for controlling postoperative pain" is not the control group
ROLE_STEMS = frozenset(stem(w) for w in lexicon.CONTROL_ROLES | lexicon.INTERVENTION_ROLES)


def names_word(norm: str, word: str) -> bool:
    """A summary word (stem) names a description word: the same word, or by a long common
    prefix, except for role words, which must be the same."""
    if word in ROLE_STEMS:
        return norm in (word, word + "s")
    return same_word(norm, word)


# ---------------------------------------------- one summary word's group, from its own form

_ALONE = words("alone only monotherapy")


def alone_after(tokens: Sequence[Token], run: list[int]) -> bool:
    """"syrup alone", "fentanyl administered alone": the words both groups share, said to
    stand alone, are the group without the intervention's addition."""
    end = min(len(tokens), run[-1] + 3)
    return any(tokens[p].text.lower() in _ALONE for p in range(run[0], end))


def hyphen_label(norm: str, vocab: Vocabulary) -> str | None:
    """"SB-RFA" for "switching bipolar (SB) radiofrequency ablation (RFA)": a hyphenated
    word whose parts name one group only (both groups, or none: no label)."""
    if "-" not in norm:
        return None
    sides = set()
    for part in norm.split("-"):
        if len(part) < 2 or part[0].isdigit():
            continue
        if any(names_word(part, w) for w in vocab.c_only):
            sides.add("control")
        if any(names_word(part, w) for w in vocab.i_only):
            sides.add("intervention")
    return sides.pop() if len(sides) == 1 else None


def group_suffix_label(text: str, vocab: Vocabulary) -> str | None:
    """"SeG" for the group given "Se (as sodium selenite)": a short name of one group's
    description with a G for "group" after it."""
    if not re.fullmatch(r"[A-Z][A-Za-z]{1,4}G", text):
        return None
    prefix = text[:-1].lower()
    sides = {side for side, names in (("intervention", vocab.i_only),
                                      ("control", vocab.c_only)) if prefix in names}
    return sides.pop() if len(sides) == 1 else None


# the usual abbreviations of the role groups, read when no description gives them
_ROLE_ABBREVIATIONS = {"CG": "role-control", "IG": "role-intervention",
                       "EG": "role-intervention"}


def role_label(tokens: Sequence[Token], pos: int) -> str | None:
    word = tokens[pos].text.lower()
    nxt = tokens[pos + 1].text.lower() if pos + 1 < len(tokens) else ""
    prev = tokens[pos - 1].text.lower() if pos else ""
    follows_noun = nxt in lexicon.GROUP_NOUNS
    if tokens[pos].text in _ROLE_ABBREVIATIONS:  # "20.5% compared to 44.5% in the CG"
        return _ROLE_ABBREVIATIONS[tokens[pos].text]
    if word in ("comparison", "reference") and nxt in ("of", "between", "with", "to"):
        return None  # "the comparison of scores": the act, not the comparison group
    if word in lexicon.CONTROL_ROLES and (follows_noun or word in (
            "controls", "placebo", "sham", "vehicle", "nonusers", "non-users") or prev in (
            "the", "vs", "versus", "than", "to", "with", "and", "over", "against")):
        return "role-control"
    if word in lexicon.INTERVENTION_ROLES and follows_noun and tokens[pos + 1].text.lower() \
            not in ("groups", "arms") and prev not in ("both", "all", "two", "the two"):
        return "role-intervention"
    if word in lexicon.INTERVENTION_ROLES and _paired_with_control(tokens, pos):
        return "role-intervention"
    return None


_PAIR_WORDS = frozenset(["and", "or", "vs", "vs.", "versus"])


def _paired_with_control(tokens: Sequence[Token], pos: int) -> bool:
    """"the treatment and control arms", "the control and intervention groups": a role word
    paired with the control's role word shares its group noun, so it names the other group
    (alone, "the treatment groups" may be every treated arm)."""
    def text(at: int) -> str:
        return tokens[at].text.lower() if 0 <= at < len(tokens) else ""

    if text(pos + 1) in _PAIR_WORDS and text(pos + 2) in lexicon.CONTROL_ROLES and \
            text(pos + 3) in lexicon.GROUP_NOUNS:
        return True
    return text(pos - 1) in _PAIR_WORDS and text(pos - 2) in lexicon.CONTROL_ROLES and \
        text(pos + 1) in lexicon.GROUP_NOUNS


def unknown_group(tokens: Sequence[Token], pos: int) -> bool:
    """A word naming a group the study does not name: "the tube group", "A group"."""
    word = tokens[pos].text.lower()
    if word in lexicon.GROUP_NOUNS or word in STOP_STEMS or word in STOPWORDS or word in (
            "age", "each", "both", "either", "all", "two", "three", "four", "other", "same",
            "one", "study", "treatment", "intervention", "control", "these", "those", "every",
            "respective", "treated", "any", "different", "individual", "whole", "entire"):
        return False
    return tokens[pos].text[0].isalpha()


def paired_names(tokens: Sequence[Token], pos: int, vocab: Vocabulary) -> bool:
    """"between the reduced and standard doses", "high vs low scores": a word of one group's
    name paired with a word of the other's names a group, not a direction."""
    def own(at: int, words: Sequence[str]) -> bool:
        return 0 <= at < len(tokens) and any(names_word(tokens[at].norm, w) for w in words)

    for mine, theirs in ((vocab.i_only, sorted(vocab.c_words)),
                         (vocab.c_only, sorted(vocab.i_words))):
        if not own(pos, mine):
            continue
        if pos + 2 < len(tokens) and tokens[pos + 1].text.lower() in _PAIRING and \
                own(pos + 2, theirs):
            return True
        if pos >= 2 and tokens[pos - 1].text.lower() in _PAIRING and own(pos - 2, theirs):
            return True
    return False


_PAIRING = frozenset(["and", "or", "vs", "versus", "/"])


_P_WORDS = frozenset(["p", "p-value", "pvalue"])


def p_bound(text: str, prev: str) -> bool:
    """"p<0.0001", "P ≥ 0.05": a sign after "p" bounds a p-value; it never names the group
    described as "(<=250 mg prednisolone)", whose sign is read as the word "below"."""
    return not text[:1].isalnum() and prev in _P_WORDS


_KIN = frozenset(stem(w) for w in ["sibling", "siblings", "brothers", "sisters", "offspring",
                                    "relatives", "parents", "mothers", "fathers", "partners",
                                    "spouses", "children", "sons", "daughters", "twins"])


def kin_named(tokens: Sequence[Token], last: int, other: int) -> bool:
    """"Healthy brothers and sisters of children with type 1 diabetes": a group's word
    (ending at ``last``) before kin nouns and "of" another group's name (at ``other``)
    describes the kin; the name after "of" says whose kin they are, and so the group."""
    if other - last > 9 or tokens[last + 1].norm not in _KIN:
        return False  # the kin noun right after the group's word: it modifies them
    kin = False
    for pos in range(last + 1, other):
        word = tokens[pos].text.lower()
        if tokens[pos].norm in _KIN or word in _KIN:
            kin = True
        elif word == "of":
            return kin
        elif word not in ("and", "-", "/"):
            return False
    return False
