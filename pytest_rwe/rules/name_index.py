"""The outcomes' names as an inverted index: the words that name each outcome, its
abbreviations, and the variants a summary may use (a part of a name listing several things,
a short name in brackets, a subgroup's outcome named by its base and its qualifier).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pytest_rwe.rules.abbreviations import (
    RESERVED,
    acronym,
    alias_key,
    bracketed,
    code_like,
    initialisms,
)
from pytest_rwe.rules.strata import Qualifier, shared_bases, split_key
from pytest_rwe.rules.text import STOPWORDS, Span, normalize_phrase, same_word, stem
from pytest_rwe.study import Outcome, Study

_STOP_STEMS = frozenset(stem(w) for w in STOPWORDS) | STOPWORDS
# Words that describe how or when an outcome is measured, not which outcome it is: a name's
# other words must all be found, these need not ("mean operative time" ~ "operative time").
WEAK_WORDS = frozenset(stem(w) for w in (
    "level", "levels", "score", "scores", "value", "values", "mean", "median", "change",
    "changes", "concentration", "concentrations", "measure", "measured", "patients", "percent",
    "percentage", "time", "times", "duration", "use", "usage", "amount", "index", "total",
    "week", "weeks", "month", "months", "day", "days", "year", "years", "hour", "hours",
    "minute", "minutes", "min", "follow", "up", "end", "baseline", "period", "number", "average",
    "participants", "subjects", "people", "group", "groups", "overall", "serum", "plasma",
    "daily", "postoperative", "mm", "ml", "mg", "kg", "cm"))


def content_words(name: str) -> list[str]:
    """The stemmed, de-duplicated content words of a name (outside parentheses)."""
    words = [w for w in normalize_phrase(name) if w not in _STOP_STEMS]
    unique: list[str] = []
    for word in words:
        if not any(same_word(word, u) for u in unique):
            unique.append(word)
    return unique or normalize_phrase(name)


@dataclass(frozen=True)
class Mention:
    """A place where the summary names an outcome."""

    outcome: Outcome
    positions: tuple[int, ...]  # token indices that matched the name
    span: Span
    full: bool  # every content word of the name (or an abbreviation of it) was found


@dataclass(frozen=True)
class Variant:
    """One way to name an outcome: words that must all be found, words that may be."""

    key: str
    strong: tuple[str, ...]
    weak: tuple[str, ...]
    part: bool  # one part of a name listing several things ("A, B and C")


@dataclass
class OutcomeIndex:
    """The outcomes' names as an inverted index: word -> variants of names holding it."""

    outcomes: dict[str, Outcome]
    names: dict[str, list[str]]  # every content word of each name (without parentheses)
    variants: list[Variant]
    aliases: dict[str, set[str]]  # abbreviation -> outcome keys
    postings: dict[str, list[int]]  # strong word -> variant numbers
    weak: frozenset[str]
    rarest: dict[str, list[int]] = field(default_factory=dict)  # rarest strong word -> variants
    # subgroups: key -> its qualifier, and key -> its base ("dementia" of "dementia.htn_only")
    qualifiers: dict[str, Qualifier] = field(default_factory=dict)
    bases: dict[str, str] = field(default_factory=dict)
    stratum_bases: frozenset[str] = frozenset()  # bases that have subgroups
    by_qualifier_word: dict[str, list[str]] = field(default_factory=dict)  # word -> keys
    by_base: dict[str, list[str]] = field(default_factory=dict)  # base -> keys, in order
    # words of the study's own text that a name abbreviates ("hypertension" -> "htn")
    expansions: dict[str, set[str]] = field(default_factory=dict)
    _by_prefix: dict[str, set[str]] = field(default_factory=dict)
    _matched: dict[str, frozenset[str]] = field(default_factory=dict)

    def words_matching(self, norm: str) -> frozenset[str]:
        """The name words a token matches: equal, or the same word by a long prefix."""
        hit = self._matched.get(norm)
        if hit is None:
            found = {norm} if norm in self.postings or norm in self.weak else set()
            joined = norm.replace("-", "")  # "PHQ-9" is the "phq9" of a key
            if joined != norm and joined in self.postings:
                found.add(joined)
            found |= self.expansions.get(norm, set())
            for word in self._by_prefix.get(norm[:5], ()):
                if word != norm and same_word(norm, word):
                    found.add(word)
            hit = self._matched[norm] = frozenset(found)
        return hit


_PARTS = re.compile(r",\s*(?:and\s+|or\s+)?|;\s*|\s+(?:and|or|and/or|vs\.?|versus)\s+|\s*=\s*",
                    re.IGNORECASE)


def _variant(key: str, words: list[str], part: bool) -> Variant | None:
    strong = tuple(w for w in words if w not in WEAK_WORDS)
    weak = tuple(w for w in words if w in WEAK_WORDS)
    if not strong:
        strong, weak = tuple(words), ()
    return Variant(key, strong, weak, part) if strong else None


def build_outcome_index(study: Study) -> OutcomeIndex:
    outcomes = {o.key: o for o in study.outcomes}
    names: dict[str, list[str]] = {}
    variants: list[Variant] = []
    aliases: dict[str, set[str]] = {}
    codes: dict[str, set[str]] = {}
    qualifiers: dict[str, Qualifier] = {}
    bases: dict[str, str] = {}
    keys = shared_bases([o.key for o in study.outcomes])
    heads: list[Variant] = []
    for outcome in study.outcomes:
        outer = re.sub(r"\([^()]*\)", " ", outcome.name)
        words = content_words(outer if outer.strip() else outcome.name)
        names[outcome.key] = words
        whole = _variant(outcome.key, words, False)
        if whole is not None:
            variants.append(whole)
        head = _head_variant(outcome.key, outer, words)
        if head is not None:
            heads.append(head)
        stratum = split_key(outcome.key, keys)
        if stratum is not None:
            # a subgroup's outcome is named by its base alone; the clause says which subgroup
            base_text, qualifiers[outcome.key] = stratum
            bases[outcome.key] = " ".join(content_words(base_text))
            base = _variant(outcome.key, content_words(base_text), True)
            if base is not None and base.strong != (whole.strong if whole else ()):
                variants.append(base)
        else:
            bases[outcome.key] = " ".join(words)
        # "A, B and C" names each part; a subgroup's qualifier ("both htn and hpl") is one
        parts = [p for p in _PARTS.split(outer) if p.strip()] if stratum is None else []
        if len(parts) > 1:
            for text in parts:
                part = _variant(outcome.key, content_words(text), True)
                if part is not None and part.strong != (whole.strong if whole else ()):
                    variants.append(part)
        for alias in bracketed(outcome.name):
            if " " in alias:  # "(VO2 peak)": a short name of its own
                variant = _variant(outcome.key, normalize_phrase(alias), True)
                if variant is not None:
                    variants.append(variant)
            else:
                aliases.setdefault(alias_key(alias), set()).add(outcome.key)
            # "community ... program (COTiD program) referrals": the abbreviation with the
            # words after it names the outcome too ("COTiD referrals")
            rest = outcome.name.split(alias, 1)[1].lstrip(")] ")
            if rest and not rest.startswith("("):
                variant = _variant(outcome.key, normalize_phrase(alias) + content_words(rest),
                                   False)
                if variant is not None and len(variant.strong) > 1:
                    variants.append(variant)
        initials = acronym(outer)
        if len(initials) >= 3 and len(words) >= 3 and initials not in RESERVED:
            codes.setdefault(initials, set()).add(outcome.key)
        # each part of a name, or its head before its circumstances, by its initials:
        # "PIH / PE" for "pregnancy-induced hypertension / pre-eclampsia", "QOL" for
        # "quality of life after 20 months"
        for phrase in _initialed_parts(outer):
            for initials in initialisms(phrase):
                if len(initials) >= 3 and initials not in RESERVED:
                    codes.setdefault(initials, set()).add(outcome.key)
        for word in re.findall(r"[^\W\d_][\w\-]*", outer):
            # "ASAS40", or "phq9" and "hba1c" in a name read from a results key
            if code_like(word) or re.fullmatch(r"[a-z]{2,}\d+[a-z\d]*", word):
                codes.setdefault(alias_key(word), set()).add(outcome.key)
    variants += _own_heads(heads, names)
    # a code-like word of one name only ("ASAS40") names that outcome by itself
    for code, owners in codes.items():
        if len(owners) == 1 and code not in RESERVED:
            aliases.setdefault(code, set()).update(owners)
    postings: dict[str, list[int]] = {}
    weak: set[str] = set()
    for number, variant in enumerate(variants):
        for word in variant.strong:
            postings.setdefault(word, []).append(number)
        weak |= set(variant.weak)
    index = OutcomeIndex(outcomes, names, variants, aliases, postings, frozenset(weak),
                         qualifiers=qualifiers, bases=bases,
                         stratum_bases=frozenset(bases[k] for k in qualifiers),
                         by_qualifier_word=_by_word(qualifiers),
                         by_base=_by_base(bases),
                         expansions=_expansions(study, set(postings)))
    for number, variant in enumerate(variants):
        rarest = min(variant.strong, key=lambda w: len(postings[w]))
        index.rarest.setdefault(rarest, []).append(number)
    for word in set(postings) | weak:
        index._by_prefix.setdefault(word[:5], set()).add(word)
    return index


# where a long name's own words end and its circumstances begin: "fentanyl consumption
# during the 48 h after surgery", "desire-to-eat at 60 min", "pain in the first week"
_CIRCUMSTANCE = re.compile(r"\s(?:during|after|at|over|within|following|before|until|"
                           r"throughout|up\s+to|by\s+(?:day|week|month)|in\s+the\s+first)\s",
                           re.IGNORECASE)


# "tear volume for murine experimental dry eye": whom or what a measure is taken for
_FOR_WHOM = re.compile(r"\s(?:for|among|in)\s", re.IGNORECASE)
_SLASH_OR_PARTS = re.compile(_PARTS.pattern + r"|\s*/\s*", re.IGNORECASE)


def _initialed_parts(outer: str) -> list[str]:
    """The parts of a name a summary may write by their initials: its head before its
    circumstances, and each of the things it lists ("A / B", "A and B")."""
    match = _CIRCUMSTANCE.search(outer)
    head = outer[:match.start()] if match is not None else outer
    parts = [p for p in _SLASH_OR_PARTS.split(head) if p.strip()]
    # the head noun comes last: "DILI" of "INH-related drug-induced liver injury"
    words = re.findall(r"[^\W\d_][\w']*", head)
    tails = [" ".join(words[i:]) for i in range(1, max(1, len(words) - 2))]
    # an instrument before what is read off it: "ACT" of "asthma control test score change"
    instrument = list(words)
    while instrument and instrument[-1].lower() in _READ_OFF:
        instrument.pop()
    heads = [" ".join(instrument)] if 3 <= len(instrument) < len(words) else []
    return [head] + (parts if len(parts) > 1 else []) + tails + heads


_READ_OFF = frozenset(["score", "scores", "change", "changes", "level", "levels", "index",
                       "total", "value", "values"])


def _head_variant(key: str, outer: str, words: list[str]) -> Variant | None:
    """A name's head before its circumstances ("fentanyl consumption" of "the total amount
    of fentanyl consumption during the 48 h after surgery"), read as one part of the name:
    a summary names the outcome by it, the time point being said elsewhere or not at all."""
    match = _CIRCUMSTANCE.search(outer) or _FOR_WHOM.search(outer)
    if match is None:
        return None
    head = content_words(outer[:match.start()])
    if match.re is _FOR_WHOM and len([w for w in head if w not in WEAK_WORDS]) < 2:
        return None  # "need for surgery": "need" alone names nothing
    variant = _variant(key, head, True)
    if variant is None or len(variant.strong) == len(words) or \
            not set(variant.strong) < set(words):
        return None
    return variant


def _own_heads(heads: list[Variant], names: dict[str, list[str]]) -> list[Variant]:
    """The heads that name one outcome only: "HbA1c" of "HbA1c at 6 months" beside "HbA1c
    at 12 months" is both, and left to the partial match and its time point."""
    if not heads:
        return []
    holders: dict[str, set[str]] = {}
    for key, name in names.items():
        for word in name:
            holders.setdefault(word, set()).add(key)
    out = []
    for head in heads:
        owners = set.intersection(*(holders.get(w, set()) for w in head.strong))
        if owners == {head.key}:
            out.append(head)
    return out


def _subsequence(short: str, word: str) -> bool:
    letters = iter(word)
    return all(letter in letters for letter in short)


def _expansions(study: Study, words: set[str]) -> dict[str, set[str]]:
    """Name words without a vowel ("htn", "hpl") abbreviate words of the study's own
    question and design that start with their first letter and hold their letters in order
    ("incident hypertension and/or hyperlipidaemia"): a summary writes those words."""
    text = " ".join([study.question, *map(str, study.picot.values())])
    out: dict[str, set[str]] = {}
    # "vi" of "bilateral_vi_or_blindness" for the design's "visual impairment": a short name
    # word that the initials of consecutive words of the study's text spell, and that the
    # text never writes itself
    written = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text) if w.lower() not in STOPWORDS]
    own = {w.lower() for w in written}
    for abbreviation in (w for w in words if 2 <= len(w) <= 4 and w.isalpha() and w not in own):
        n = len(abbreviation)
        for i in range(len(written) - n + 1):
            if "".join(w[0] for w in written[i:i + n]).lower() == abbreviation:
                for word in normalize_phrase(" ".join(written[i:i + n])):
                    out.setdefault(word, set()).add(abbreviation)
    short = [w for w in words if 2 <= len(w) <= 5 and w.isalpha() and not set(w) & set("aeiou")]
    for word in set(normalize_phrase(text)) if short else ():
        for abbreviation in short:
            if word[0] == abbreviation[0] and len(word) >= len(abbreviation) + 3 and \
                    _subsequence(abbreviation, word):
                out.setdefault(word, set()).add(abbreviation)
    return out


def _by_word(qualifiers: dict[str, Qualifier]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, qualifier in qualifiers.items():
        for word in set(qualifier.words):
            out.setdefault(word, []).append(key)
    return out


def _by_base(bases: dict[str, str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, base in bases.items():
        out.setdefault(base, []).append(key)
    return out
