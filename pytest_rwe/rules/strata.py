"""Outcomes of subgroups: "outcome.dementia.htn_only_bin" is dementia (the base) in the
subgroup "htn only" (the qualifier).

A summary names such an outcome by its base ("a higher risk of dementia") and says the
subgroup somewhere in the same clause ("hypertension alone was associated with ..."), often
far from the base, or lists several subgroups for one base ("in patients over 50, in those
without diabetes and in those with cirrhosis"). The base alone is one mention of every
subgroup sharing it; the qualifiers written in its clause pick the subgroups it is about.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pytest_rwe.rules.text import STOPWORDS, Token, normalize_phrase, stem

_KIND = re.compile(r"_(?:bin|cont|pctpoints)$")
_NEGATIONS = frozenset({"no", "not", "non", "without", "free", "never", "negative"})
# words of a qualifier that need not be written ("age over 50" as "patients over 50")
_WEAK = frozenset({"age", "ag", "patient", "with", "group", "subgroup", "those", "people",
                   "both"}) | \
    STOPWORDS | frozenset(stem(w) for w in STOPWORDS)
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                 "seven": "7", "eight": "8", "nine": "9", "ten": "10"}
# "4plus", "or more", "over 50", "above", "at least": one side of a bound
_CANONICAL = {"plus": "above", "more": "above", "greater": "above", "older": "above",
              "less": "below", "under": "below", "fewer": "below", "younger": "below",
              # the same words stemmed ("4plus" -> "4 plu", "more" -> "mor")
              "plu": "above", "mor": "above", "great": "above", "les": "below",
              "few": "below", "young": "below"}


@dataclass(frozen=True)
class Qualifier:
    """The subgroup part of an outcome's key: its words, and for each whether a negation
    stands before it ("no diabetes"; "insulin resistance without diabetes": only diabetes)."""

    words: tuple[str, ...]
    negated: tuple[bool, ...]


def canonical(norm: str) -> str:
    return _CANONICAL.get(norm, _NUMBER_WORDS.get(norm, norm))


def shared_bases(keys: Sequence[str]) -> frozenset[str]:
    """The bases ("cancer" of "outcome.cancer.diabetes_bin") that two keys or more share."""
    counts: dict[str, int] = {}
    for key in keys:
        base = _base_of(key)
        if base:
            counts[base] = counts.get(base, 0) + 1
    return frozenset(b for b, n in counts.items() if n > 1)


def split_key(key: str, shared: frozenset[str] = frozenset()) -> tuple[str, Qualifier] | None:
    """("dementia", Qualifier(("htn", "only"), (False, False))) for
    "outcome.dementia.htn_only_bin";
    None for a key without a subgroup ("outcome_3yrs.ip.visit.for.asthma_bin", whose dots
    separate words). One dot splits base and qualifier when the key joins words with "_"
    or another key of the study has the same base (``shared``, from :func:`shared_bases`)."""
    stem = _KIND.sub("", re.sub(r"^outcome[^.]*\.", "", key))
    if stem.count(".") != 1:
        return None
    if "_" not in stem and stem.split(".")[0] not in shared:
        return None
    base, qualifier = stem.split(".")
    # "bmi_25_to_29_9": 29.9 (a key has no dots); "4plus": 4 or more
    qualifier = re.sub(r"(?<=\d)_(?=\d(?:_|$))", ".", qualifier)
    qualifier = re.sub(r"(\d)plus\b", r"\1 plus", qualifier).replace("_", " ")
    strong: list[str] = []
    negated: list[bool] = []
    after_negation = False
    for word in (canonical(w) for w in normalize_phrase(qualifier)):
        if word in _NEGATIONS:
            after_negation = True
        elif word not in _WEAK:
            strong.append(word)
            negated.append(after_negation)
    if not strong:
        return None
    return base.replace("_", " "), Qualifier(tuple(strong), tuple(negated))


def _base_of(key: str) -> str:
    stem = _KIND.sub("", re.sub(r"^outcome[^.]*\.", "", key))
    return stem.split(".")[0] if stem.count(".") == 1 else ""


def _present(qualifier: Qualifier, tokens: Sequence[Token], lo: int, hi: int,
             matches: Callable[[str, str], bool], floor: int | None = None,
             places: Mapping[str, Sequence[int]] | None = None) -> int:
    """How many of the qualifier's words the tokens [lo, hi) write, on the right side of a
    negation ("without diabetes" is "no diabetes", not "diabetes"). ``places`` (word ->
    ascending token indices where ``matches`` holds) replaces the scan of every token."""
    found = 0
    for word, wanted in zip(qualifier.words, qualifier.negated, strict=True):
        candidates: Iterable[int] = range(lo, hi) if places is None else (
            p for p in places.get(word, ()) if lo <= p < hi)
        for pos in candidates:
            if places is None and canonical(tokens[pos].norm) != word and not matches(
                    tokens[pos].norm, word):
                continue
            back = {tokens[p].text.lower().rstrip("-")
                    for p in range(max(lo if floor is None else floor, pos - 3), pos)}
            negated = bool(back & _NEGATIONS) or tokens[pos].text.lower().startswith("non")
            if negated == wanted:
                found += 1
                break
    return found


def written(qualifier: Qualifier, tokens: Sequence[Token], lo: int, hi: int,
            matches: Callable[[str, str], bool],
            places: dict[str, list[int]] | None = None) -> int | None:
    """Where the tokens [lo, hi) write every word of a qualifier within six tokens ("in
    patients with four or more failed antidepressants"): the first word's index, or None.
    ``places`` (word -> token indices in [lo, hi)) limits the search to where its words are."""
    if places is not None:
        starts = sorted({p for w in qualifier.words for p in places.get(w, ())})
    else:
        starts = [p for p in range(lo, hi) if canonical(tokens[p].norm) in qualifier.words
                  or any(matches(tokens[p].norm, w) for w in qualifier.words)]
    for start in starts:
        if _present(qualifier, tokens, start, min(hi, start + 7), matches, lo) == len(
                qualifier.words):
            return start
    return None


def pick(keys: Sequence[str], qualifiers: dict[str, Qualifier], tokens: Sequence[Token],
         lo: int, hi: int, matches: Callable[[str, str], bool],
         places: Mapping[str, Sequence[int]] | None = None) -> list[str]:
    """The subgroups among ``keys`` (all sharing one base) that the clause [lo, hi) writes:
    every subgroup whose qualifier is written in full, else the one written best; the key
    without a qualifier (the whole group) when none is written; [] when it cannot tell.
    ``places``: as for :func:`_present` (a base with many subgroups then costs no rescans)."""
    scored = []
    for key in keys:
        qualifier = qualifiers.get(key)
        if qualifier is not None:
            if places is not None and not any(w in places for w in qualifier.words):
                continue  # none of its words is written: it scores 0, which picks nothing
            scored.append((_present(qualifier, tokens, lo, hi, matches, places=places)
                           / len(qualifier.words), key))
    full = [key for share, key in scored if share >= 1.0]
    if full:
        return full
    best = max((share for share, _ in scored), default=0.0)
    if best >= 0.5:  # at least half its words: one word of four is not a subgroup named
        top = [key for share, key in scored if share == best]
        return top if len(top) == 1 else []
    whole = [key for key in keys if key not in qualifiers]
    return whole if len(whole) == 1 else []
