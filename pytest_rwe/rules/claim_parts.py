"""Which outcome a cue is about, and the significance written after a claim.

Pure functions over the token list of one clause (token indices, half-open ranges).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.name_index import WEAK_WORDS
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.text import STOPWORDS, Token, outside_brackets, stem

_CONTENT_SKIP = frozenset(w for w in STOPWORDS) | lexicon.ARGUMENT_LEAD | lexicon.FILLER | \
    lexicon.COMPARISON | lexicon.GROUP_NOUNS | words("""
and or as well including both also each respectively compared to with from by in at during
after before over within among between per among mg kg ml kgs weeks week months month days day
hours hour h min minutes year years baseline group groups time follow up
""")


def _skippable(token: Token) -> bool:
    word = token.text.lower()
    return (word in _CONTENT_SKIP or not word[0].isalpha() or word in lexicon.INTERVENTION_ROLES
            or word in lexicon.CONTROL_ROLES)


def _after_name(tokens: Sequence[Token], mention: Mention, cues: dict[int, Cue],
                mention_at: dict[int, Mention], group_tokens: set[int], hi: int
                ) -> tuple[Cue | None, bool]:
    """A cue right after the name, over parentheses, filler, a group phrase or coordinated
    names: "X (HR 2.72) was higher", "X and Y were lower", "X in the Z group was greater".
    The second value is True when the way there crossed other names (a coordinated list)."""
    depth, pos, steps, crossed, unknown = 0, mention.positions[-1] + 1, 0, False, 0
    # the name has a value of its own: "A +1.81, B +0.67/year and C lower"
    valued = any(tokens[p].is_number for p in range(mention.positions[0], mention.positions[-1]))
    while pos < hi and steps < 16:
        tok = tokens[pos]
        word = tok.text.lower()
        if tok.text in "([":
            depth += 1
        elif tok.text in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            if pos in cues:
                return cues[pos], crossed
            other = mention_at.get(pos)
            if other is not None:
                if valued:
                    return None, crossed
                pos, crossed = other.positions[-1] + 1, True
                continue
            if tok.is_number and pos - mention.positions[-1] <= 3 and _own_value(tokens, pos, hi):
                valued = True
            if word in ("and", "or", ","):
                # a conjunction continues a list of names, never a new claim ("A and higher B")
                nxt = _next_outside(tokens, pos + 1, hi)
                if nxt is None or (nxt not in mention_at and tokens[nxt].text.lower() not in (
                        "and", "or", "the", "of", "as", "well")):
                    listed = _listed_predicate(tokens, pos, cues, hi)
                    return (listed, True) if listed is not None else (None, crossed)
            elif not (word in lexicon.FILLER or pos in group_tokens or word in (
                    "the", "in", "of", "with", "among", "for", "at", "all", "both", "as",
                    "well", "%") or word in lexicon.GROUP_NOUNS or tok.is_number
                    or word in lexicon.INTERVENTION_ROLES or word in lexicon.CONTROL_ROLES
                    or (word.endswith("ly") and len(word) > 4)):
                # a few words of the name's own phrase: "X expressed as percent of intake
                # was higher", "X in eczematous lesions in group A decreased"
                unknown += 1
                if word in _STOP_AFTER_NAME or unknown > 5:
                    return None, crossed
            steps += 1
        pos += 1
    return None, crossed


_TIME_UNITS = words("h hours hour min minutes days day weeks week months month years year wk wks "
                    "mo yr yrs")


def _own_value(tokens: Sequence[Token], pos: int, hi: int) -> bool:
    """A number right after a name is its value ("eGFR change +1.81"), not a time point
    ("at 2, 3 and 4 h") or a threshold ("≥30%")."""
    prev = tokens[pos - 1].text.lower() if pos else ""
    nxt = tokens[pos + 1].text.lower() if pos + 1 < hi else ""
    return prev not in ("at", "after", "within", "≥", "≤", ">", "<", "by", "to", ",", "and") \
        and nxt not in _TIME_UNITS


_COPULA = frozenset(["was", "were", "is", "are", "remained", "became", "appeared", "seemed"])


def _listed_predicate(tokens: Sequence[Token], pos: int, cues: dict[int, Cue], hi: int
                      ) -> Cue | None:
    """"X, Y, heart rate and Z were significantly higher": a list of things the study does
    not all name, then one predicate for all of them. Only plain list items (words, commas,
    "and") may come before the copula and its cue. "A HR 1.2, B HR 1.3 and C HR 0.9, all
    significantly higher with X": "all", "both" or "each" after the list takes it up."""
    ahead = pos + 1
    if ahead < hi and tokens[ahead].text.lower() in ("all", "both", "each"):
        ahead += 1
        while ahead < hi and (tokens[ahead].text.lower() in _COPULA or tokens[ahead].text.lower()
                              in lexicon.FILLER or tokens[ahead].text.lower().endswith("ly")):
            ahead += 1
        return cues.get(ahead)
    items = 0
    for ahead in outside_brackets(tokens, pos, min(hi, pos + 30)):
        tok = tokens[ahead]
        word = tok.text.lower()
        if word in _COPULA:
            after = ahead + 1
            while after < hi and (tokens[after].text.lower() in lexicon.FILLER
                                  or tokens[after].text.lower().endswith("ly")):
                after += 1
            return cues.get(after)
        if ahead in cues and items and _verb_form(tok):
            return cues[ahead]  # "Both TEF10 and 25/PT significantly decreased"
        if ahead in cues or word in _STOP_AFTER_NAME or word in (";", ":") or (
                not word[0].isalnum() and word not in (",", "-", "'", "\u2019", "/")):
            return None
        if word not in ("and", "or", ",") and not word.endswith("ly"):
            items += 1
    return None


def _verb_form(token: Token) -> bool:
    """A cue that is a finite verb of its own: "decreased", "declined", "rose", "fell"."""
    word = token.text.lower()
    return word.endswith("ed") or word in ("rose", "fell", "grew")


# Words that end a name's phrase: a relative clause, a new clause, a comparison.
_STOP_AFTER_NAME = frozenset(["which", "who", "that", "while", "whereas", "than", "compared",
                              "versus", "vs", "vs.", "but", "although", "however", "when",
                              "because", "if", "whether", "not", "no"])


def _next_outside(tokens: Sequence[Token], pos: int, hi: int) -> int | None:
    """The next token position outside parentheses."""
    return next(outside_brackets(tokens, pos, hi), None)


_NEW_NEGATION = words("no not neither none nor")


def _cues_before(tokens: Sequence[Token], mentions: Sequence[Mention], cues: Sequence[Cue],
                 lo: int, hi: int, known: set[int]) -> dict[int, Cue]:
    """For each mention, the nearest cue before it whose argument reaches it: "lower risk of
    X", "reduced the incidence of X", "higher A (HR ...), B and X". One pass over the clause:
    at most six words that are neither names, groups nor argument words may stand between."""
    firsts = {m.positions[0] for m in mentions}
    cue_at = {c.start: c for c in cues}
    out: dict[int, Cue] = {}
    cue: Cue | None = None
    depth = unknown = 0
    excepted = False
    pos = lo
    while pos < hi:
        if pos in cue_at:
            cue, depth, unknown, excepted = cue_at[pos], 0, 0, False
            pos = cue.end + 1
            continue
        if pos in firsts and cue is not None and unknown <= 6 and not excepted:
            out[pos] = cue
        tok = tokens[pos]
        if cue is not None and cue.kind == "null" and depth == 0 and \
                tok.text.lower() in lexicon.EXCEPTIONS:
            excepted = True  # "no difference, with the exception of X": X is not included
        if cue is not None and depth == 0 and tok.text.lower() in _NEW_NEGATION and \
                pos not in known:
            cue = None  # "raised (HR 1.1), and no specific category, including X, ..."
        if tok.text in "([":
            depth += 1
        elif tok.text in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and pos not in known and not _skippable(tok):
            unknown += 1
        pos += 1
    return out


def attach(tokens: Sequence[Token], mentions: Sequence[Mention], cues: Sequence[Cue], lo: int,
           hi: int, group_tokens: set[int] | None = None) -> dict[int, Cue]:
    """The cue governing each mention (by the mention's first token index)."""
    at = {c.start: c for c in cues}
    mention_at = {m.positions[0]: m for m in mentions}
    known = set(group_tokens or ()) | {p for m in mentions
                                       for p in range(m.positions[0], m.positions[-1] + 1)}
    before = _cues_before(tokens, mentions, cues, lo, hi, known)
    out: dict[int, Cue] = {}
    for mention in mentions:
        cue, crossed = _after_name(tokens, mention, at, mention_at, group_tokens or set(), hi)
        if cue is None or crossed:
            # "similar risks of A, B and C, with no difference for any": the cue the list
            # hangs on comes first; "A and B were higher": no cue before, so the one after
            cue = before.get(mention.positions[0]) or cue
        if cue is None and not crossed:
            cue = _through_copula(tokens, mention, at, mention_at, hi) or _in_gap(
                tokens, mention, at)
        if cue is not None:
            out[mention.positions[0]] = cue
    return out


def _in_gap(tokens: Sequence[Token], mention: Mention, cues: dict[int, Cue]) -> Cue | None:
    """"waist circumference rose by 3 cm" read as the name "waist circumference change cm",
    "hypertension alone carried a higher dementia risk" as "dementia, hypertension only": a
    cue between the name's words, after words that say which outcome it is, is the name's
    own predicate. ("at 16 weeks, greater gains in X scores" is not: only a time point comes
    before the cue.)"""
    inside = set(mention.positions)
    span = range(mention.positions[0] + 1, mention.positions[-1])
    if any(tokens[p].text.lower() in ("and", "or", ",", ";", "but", "whereas") for p in span):
        return None  # words of two names read as one ("A fell by 3 and B-A by 2"): not one
    for pos in span:
        if pos in cues and pos not in inside:
            before = [tokens[p] for p in mention.positions if p < pos]
            if any(stem(t.text.lower()) not in WEAK_WORDS and not t.is_number
                   for t in before):
                return cues[pos]
            return None
    return None


_BEFORE_PREDICATE = words("$ ± % between to and - \u2013 \u2212 by about approximately nearly "
                          "almost around times fold")


def _through_copula(tokens: Sequence[Token], mention: Mention, cues: dict[int, Cue],
                    mention_at: dict[int, Mention], hi: int) -> Cue | None:
    """The name is the subject of a copula whose predicate is the cue, over a longer phrase
    than :func:`_after_name` crosses: "The prevalence of X among children consuming A was
    16% (95% CI ...) lower than the control group", "X when the participants were on A was
    0.018 higher". A clause of its own (a comma, "and the", "which"), another name or a cue
    before the copula ends the search."""
    depth, pos, steps, after_when = 0, mention.positions[-1] + 1, 0, False
    while pos < hi and steps < 16:
        tok = tokens[pos]
        word = tok.text.lower()
        if tok.text in "([":
            depth += 1
        elif tok.text in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            if pos in cues or pos in mention_at or word in (",", ";", ":") or (
                    word in _STOP_AFTER_NAME and word != "when"):
                return None
            if word == "and" and pos + 1 < hi and tokens[pos + 1].text.lower() in (
                    "the", "a", "an", "this", "these", "it", "they", "there"):
                return None  # "X was measured and the rate was lower": a new subject
            if word == "when":
                after_when = True
            elif word in _COPULA:
                cue = _predicate(tokens, pos + 1, cues, hi)
                if cue is not None:
                    return cue
                if not after_when:
                    return None
                after_when = False  # "when the participants were on A" ends at its copula
            steps += 1
        pos += 1
    return None


def _predicate(tokens: Sequence[Token], pos: int, cues: dict[int, Cue], hi: int) -> Cue | None:
    """The cue a copula's predicate starts with, over adverbs, an amount and its interval:
    "was significantly (P<0.001) slower", "were between $9,500 and $9,800 higher"."""
    for ahead in outside_brackets(tokens, pos, min(hi, pos + 14)):
        tok = tokens[ahead]
        word = tok.text.lower()
        if ahead in cues:
            return cues[ahead]
        if not (tok.is_number or word in lexicon.FILLER or word in _BEFORE_PREDICATE
                or (word.endswith("ly") and len(word) > 4) or word in _TIME_UNITS):
            return None
    return None


# ---------------------------------------------------------------- significance after a claim

_P_VALUE = re.compile(
    r"\bp\s*(?:-?\s*values?)?\s*(?:for\s+\w+\s+)?(?P<op>[=<>≤≥]=?|<\s*or\s*=|of|was|were|is|:|"
    r"less\s+than|below|greater\s+than|above)?\s*(?P<op2>[<>≤≥=])?\s*(?P<num>0?[.\u00b7]\d+|"
    r"1\.0*\b|[01]\b|\d\.\d+e-\d+)", re.IGNORECASE)
_CI = re.compile(r"\b(?:95\s*%\s*)?(?:CI|confidence\s+intervals?)\b[\s,:=]*(?:of\s+|from\s+)?"
                 r"(?P<lo>[-\u2212\u2013]?\d*\.?\d+)\s*(?:to|-|\u2013|,|;|and)\s*"
                 r"(?P<hi>[-\u2212]?\d*\.?\d+)", re.IGNORECASE)
_RATIO_LABEL = re.compile(r"\b(?:a?HRs?|a?ORs?|a?RRs?|IRRs?|(?:hazard|odds|risk|rate)\s+ratios?|"
                          r"relative\s+risks?)\b[^()]{0,30}$", re.IGNORECASE)
_DIFF_LABEL = re.compile(r"\b(?:MDs?|(?:mean\s+)?differences?|changes?)\b[^()]{0,30}$",
                         re.IGNORECASE)
_NS = re.compile(r"\bns\b|\bn\.s\.|\bnot\s+(?:statistically\s+)?significant", re.IGNORECASE)


def p_significance(match: re.Match[str]) -> bool | None:
    """What a written p-value says: True below 0.05, False at or above, None for "p < 0.1"."""
    op = (match.group("op2") or match.group("op") or "=").lower().replace(" ", "")
    value = float(match.group("num").replace("\u00b7", "."))
    below = op in ("<", "<=", "≤", "<or=", "lessthan", "below")
    above = op in (">", ">=", "≥", "greaterthan", "above")
    if below:
        return True if value <= 0.05 else None
    if above:
        return False if value >= 0.05 else None
    return value < 0.05


def significance_after(analysis: Analysis, anchor: int, hi: int, mention: Mention | None, *,
                       intervals: bool = True) -> bool | None:
    """Significance written after a claim and before the next outcome's name: a p-value, "NS",
    or (with ``intervals``) an interval for a labelled ratio or difference."""
    if anchor + 1 >= hi:
        return None
    text, tokens = analysis.text, analysis.tokens
    start = tokens[anchor].end
    stop = tokens[hi - 1].end
    first = analysis.first_other_name(anchor, hi, None if mention is None
                                      else mention.outcome.key)
    if first is not None:
        stop = min(stop, tokens[first].start)
    window = text[start:stop]
    match = _P_VALUE.search(window)
    if match is not None:
        return p_significance(match)
    if _NS.search(window):
        return False
    ci = _CI.search(window) if intervals else None
    if ci is not None:
        label = window[:ci.start()]
        null = 1.0 if _RATIO_LABEL.search(label) else (0.0 if _DIFF_LABEL.search(label)
                                                       else None)
        if null is not None:
            low = float(ci.group("lo").replace("\u2212", "-").replace("\u2013", "-"))
            high = float(ci.group("hi").replace("\u2212", "-"))
            return not (min(low, high) <= null <= max(low, high))
    return None


_REFERRING = re.compile(r"\s*(?:this|these|the|such|that)\s+(?:between[-\s]group\s+)?"
                        r"(?:difference|differences|finding|result|change)s?\b"
                        r"|\s*(?:this|these|they)\s+(?:was|were)\b", re.IGNORECASE)


_STRAY_P = re.compile(r"\s*\(\s*p\s*[-\s]?(?:value)?\s*[=<>≤]\s*[\d.]+[^()]*\)", re.IGNORECASE)


def referred_significance(analysis: Analysis, lo: int) -> bool | None:
    """"... 16% in the A group and 36% in the control group. This difference is
    statistically significant (p = 0.02)": the next sentence, about "this difference",
    says whether the values of the sentence holding token ``lo`` differ significantly."""
    ranges = [r for r in analysis.sentences if r[1] > r[0]]
    at = next((i for i, (a, b) in enumerate(ranges) if a <= lo < b), None)
    if at is None or at + 1 >= len(ranges):
        return None
    a, b = ranges[at + 1]
    tokens = analysis.tokens
    following = analysis.text[tokens[a].start:tokens[b - 1].end]
    stray = _STRAY_P.match(following)
    if stray is not None:
        # "... was 13.5±4. (P=0.0001).": a p-value cut off by the sentence split
        match = _P_VALUE.search(stray.group(0))
        return p_significance(match) if match is not None else None
    if not _REFERRING.match(following):
        return None
    if lexicon.NEGATED_SIGNIFICANT.search(following):
        return False
    return True if lexicon.SIGNIFICANT.search(following) else None


# "..., resulting in a highly significant difference (P = 0.018)": a closing phrase of the
# sentence that tests what its clauses set side by side
_DIFFERENCE_AFTER = re.compile(r"(?:^|[,;])\W*(?:resulting\s+in|leading\s+to|giving|"
                               r"yielding)\s+an?\s+(?:\w+\s+){0,2}significant\s+differences?\b",
                               re.IGNORECASE)


def closing_significance(analysis: Analysis, hi: int) -> bool | None:
    """True when the rest of the sentence after token ``hi`` closes on a phrase calling the
    difference significant ("..., while only 3 in the A group, resulting in a highly
    significant difference"); else None."""
    if hi >= len(analysis.tokens):
        return None
    _, s_hi = analysis.sentence_of(analysis.tokens[hi].start)
    rest = analysis.text[analysis.tokens[hi].start:analysis.tokens[s_hi - 1].end]
    return True if _DIFFERENCE_AFTER.search(rest) else None


def says_significance(text: str) -> bool:
    """The text speaks of a test: a p-value, "(not) significant", "NS", or no difference."""
    return bool(_P_VALUE.search(text) or _NS.search(text) or lexicon.SIGNIFICANT.search(text)
                or lexicon.NULL_PHRASE.search(text))
