"""Claim cues of one clause: direction words, no-difference phrases, differences without a
side, and the significance and hedges said in words at each.

Pure functions over the token list of one clause (token indices, half-open ranges).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.compared_side import times_as
from pytest_rwe.rules.compositions import compositions
from pytest_rwe.rules.headline import headline_change
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.non_claims import share_of, states_no_claim
from pytest_rwe.rules.sizes import BIGGER as _BIGGER
from pytest_rwe.rules.sizes import SMALLER as _SMALLER
from pytest_rwe.rules.sizes import quantity_before, sized_excesses
from pytest_rwe.rules.text import Span, Token, outside_brackets


@dataclass(frozen=True)
class Cue:
    """A claim word or phrase: ``kind`` is higher, lower, null, differ or valence."""

    kind: str
    start: int  # token index of the first token
    end: int  # token index of the last token
    significant: bool | None  # significance said in words at the cue
    hedged: bool = False


def _span_tokens(tokens: Sequence[Token], start: int, end: int, lo: int, hi: int
                 ) -> tuple[int, int]:
    first = next((i for i in range(lo, hi) if tokens[i].end > start), hi)
    last = next((i for i in range(hi - 1, lo - 1, -1) if tokens[i].start < end), lo - 1)
    return first, last


def _negated(tokens: Sequence[Token], lo: int, pos: int) -> bool:
    """A negation that modifies the cue: "not higher", "was not associated with a higher"."""
    for index in range(pos - 1, max(lo, pos - 8) - 1, -1):
        word = tokens[index].text.lower()
        if word in lexicon.NEGATORS:
            # "not only ... but also" affirms
            return not (index + 1 < len(tokens) and tokens[index + 1].text.lower() == "only")
        if word not in lexicon.NEGATION_BRIDGE and not (word.endswith("ly") and len(word) > 4):
            return False  # adverbs bridge: "no statisticaly significant", "not markedly"
    return False


def _word_significance(text: str, before: str, after: str) -> bool | None:
    if lexicon.NEGATED_SIGNIFICANT.search(before[-40:]) or re.match(
            r"^\W{0,3}(?:but\s+)?not\s+(?:statistically\s+)?significant", after, re.IGNORECASE):
        return False
    if lexicon.SIGNIFICANT.search(before[-32:]) or re.match(
            r"^\W{0,3}(?:and\s+)?(?:statistically\s+)?significant(?:ly)?\b", after,
            re.IGNORECASE):
        return True
    return None


def _next_claim_start(tokens: Sequence[Token], pos: int, hi: int, in_names: set[int],
                      text: str) -> int:
    """Where the words after a cue stop being about its outcome: at the next outcome's
    name ("X was 10% lower (HR 0.90), and Y was not significantly different"), or at the
    second when the cue's own outcome comes after it ("lower risk of X, not significant")."""
    subject = any(p in in_names for p in range(max(0, pos - 8), pos))
    runs = []
    for ahead in range(pos + 1, min(hi, pos + 48)):  # the window after a cue is short
        if ahead in in_names and (ahead - 1 not in in_names or ahead - 1 == pos):
            runs.append(ahead)
            if len(runs) > 1:
                break
    cut = runs[0] if subject and runs else (runs[1] if len(runs) > 1 else None)
    return tokens[cut].start if cut is not None else len(text)


def _neither_nor_before(tokens: Sequence[Token], lo: int, pos: int, in_names: set[int]
                        ) -> bool:
    """"neither A (HR ...) nor B (...) differed": the verb after "nor" is negated; not when
    "neither ... nor" is a name ("compared with neither drug A nor drug B, C had higher")."""
    seen_nor = False
    depth = 0
    for back in range(pos - 1, lo - 1, -1):
        word = tokens[back].text.lower()
        if word in (")", "]"):
            depth += 1
        elif word in ("(", "["):
            depth = max(0, depth - 1)
        elif word == "," and not depth and not seen_nor:
            return False  # the verb's own stretch starts after the comma
        if back in in_names:
            continue
        if word == "nor":
            seen_nor = True
        elif word == "neither" and seen_nor:
            return True
    return False


def find_cues(text: str, tokens: Sequence[Token], lo: int, hi: int, span: Span,
              in_names: set[int], outcome_names: set[int] | None = None) -> list[Cue]:
    """Every claim cue of one clause, in order (``in_names``: tokens of outcome and group
    names, which are no cues; ``outcome_names``: those of outcome names alone)."""
    named = in_names if outcome_names is None else outcome_names
    cues: list[Cue] = []
    taken: set[int] = set()
    changes, absorbed = compositions(tokens, lo, hi, in_names)
    defined = lexicon.DEFINITION.search(text, span.start, span.end)
    definition = defined.end() if defined is not None else span.end + 1  # no cue after it
    sized_excesses(tokens, lo, hi, in_names, changes, absorbed)
    for match in lexicon.NULL_PHRASE.finditer(text, span.start, span.end):
        first, last = _span_tokens(tokens, match.start(), match.end(), lo, hi)
        if first > last or all(p in in_names for p in range(first, last + 1)):
            continue  # a name's own words ("neither A nor B" as a group's name)
        cues.append(Cue("null", first, last, False))
        taken |= set(range(first, last + 1))
    for pos in range(lo, hi):
        # "body weight up 5 kg": a change between a name and its unit, inside the name's span
        headline = headline_change(tokens, pos, hi, named)
        if pos in taken or (pos in in_names and headline is None) or pos in absorbed:
            continue
        word = tokens[pos].text.lower()
        kind = changes.get(pos) or _kind(word) or _compared_degree(tokens, pos, lo, hi) or \
            headline or times_as(tokens, pos)
        if kind is None:
            continue
        if word in ("more", "less", "fewer", "greater", "higher", "lower", "longer") and \
                pos >= lo + 2 and tokens[pos - 1].text.lower() == "or" and \
                quantity_before(tokens, lo, pos - 1):
            continue  # "four or more antidepressants", "40 kg/m2 or more": a bound
        if (word in ("double", "single", "triple") and pos + 1 < hi and tokens[pos + 1].text in (
                "-", "blind")) or (word == "double" and pos + 2 < hi
                                  and tokens[pos + 2].text.lower() in ("blind", "dummy")):
            continue  # "double-blind": a design, not a doubling
        if word == "half" and ((pos >= lo + 2 and tokens[pos - 1].text.lower() == "a" and
                                tokens[pos - 2].text.lower() == "and") or share_of(tokens, pos)):
            continue  # "four and a half times": a number; "half of adults": a share
        if word == "half" and pos + 1 < hi and tokens[pos + 1].text.lower() == "again":
            kind = "higher"  # "half again as likely": one and a half times
        if word == "longer" and pos > lo and tokens[pos - 1].text.lower() in lexicon.LIVED:
            cues.append(Cue("valence", pos - 1, pos, None))  # "lived longer": better survival
            continue
        if states_no_claim(tokens, pos, lo, hi):
            continue  # "visual impairment": a condition; "did worse": no outcome named
        if lexicon.NOT_A_CUE.match(text[tokens[pos].end:tokens[pos].end + 24]) or \
                tokens[pos].start >= definition:
            continue
        if word in ("least", "most", "increased", "higher", "high", "lower", "greater") and \
                _at_before(tokens, lo, pos):
            continue  # "at least one", "at increased risk of": a bound or a population
        if pos > lo and tokens[pos - 1].text == "-" and pos + 1 < hi and \
                tokens[pos + 1].text.lower() in lexicon.GROUP_NOUNS:
            continue  # "the stress-reduction group": a group's name
        if word in lexicon.INTENSIFIERS and pos + 1 < hi and \
                tokens[pos + 1].text.lower() in lexicon.CHANGE_NOUNS:
            continue  # "a greater fall": the noun gives the direction (flipped by "smaller")
        if pos not in changes and kind in ("higher", "lower") and pos > lo and \
                word in lexicon.CHANGE_NOUNS and tokens[pos - 1].text.lower() in _SMALLER:
            kind = "lower" if kind == "higher" else "higher"  # "smaller increases", "less decline"
        if word in lexicon.INTENSIFIERS and not (pos + 1 < hi and pos + 1 in named):
            # "slower eGFR decline and less albuminuria": an intensifier before a name is
            # that outcome's own comparative, not the size of the change before it
            composed = _composed(tokens, lo, pos, in_names)
            if composed is not None:
                kind = composed[0]  # "the decrease in X was greater": a larger decrease
                # the change noun is this claim's, not one of its own ("the mean increase in
                # X in group I was less than in group II" says X rose less with I)
                cues = [c for c in cues if c.start != composed[1]]
        before = text[max(span.start, tokens[pos].start - 60):tokens[pos].start]
        after = text[tokens[pos].end:min(span.end, tokens[pos].end + 160,
                                          _next_claim_start(tokens, pos, hi, named, text))]
        # "higher risk of X (HR 1.40; p = 0.05), not statistically significant": what stands
        # in parentheses does not end the reach of a hedge after the cue
        after = re.sub(r"\([^()]*\)", " ", after)
        if kind in ("higher", "lower", "valence") and (
                _negated(tokens, lo, pos) or _neither_nor_before(tokens, lo, pos, in_names)
                or lexicon.NO_EVIDENCE_THAT.search(before)):
            cues.append(Cue("null", pos, pos, False))
            continue
        if kind in ("higher", "lower") and pos + 1 < hi and pos + 1 not in in_names and \
                pos not in changes and _adjective_after(tokens, pos + 1, hi):
            kind = "valence"  # "more effective", "more specific": the adjective is the claim
        significant = _word_significance(text, before, after)
        hedged = bool(lexicon.HEDGE_BEFORE.search(before) or lexicon.HEDGE_AFTER.match(after))
        if hedged and (re.search(r"non-?\s?significant", before[-30:], re.IGNORECASE)
                       or re.match(r"^[^.;]{0,80}?\bnot\s+(?:statistically\s+)?significant",
                                   after, re.IGNORECASE)):
            significant = False
        cues.append(Cue(kind, pos, pos, significant, hedged))
    cues += _difference_cues(text, tokens, lo, hi, span, in_names, taken, cues)
    return sorted(cues, key=lambda c: c.start)


_NAMED_CHANGES = words("loss losses reduction reductions decrease decline gain increase")
_GROWING = words("increase increases rise rises gain gains elevation")
_SHRINKING = words("decrease decreases reduction reductions fall falls drop drops decline "
                   "declines loss losses")


def _composed(tokens: Sequence[Token], lo: int, pos: int, in_names: set[int]
              ) -> tuple[str, int] | None:
    """An intensifier after a change noun composes with it: "the reduction in X was greater"
    is lower, "the increase ... was smaller" is lower; "the improvement ... greater" has no
    side. The kind, and where the change noun stands."""
    for back in range(pos - 1, max(lo - 1, pos - 22), -1):
        word = tokens[back].text.lower()
        if word in (",", ";", "than"):
            return None
        if back in in_names and word not in _NAMED_CHANGES:
            continue  # "falls" in the name "falls" is not a change; "weight loss" is
        if word in _GROWING or word in _SHRINKING:
            bigger = tokens[pos].text.lower() in _BIGGER
            grows = word in _GROWING
            return ("higher" if bigger == grows else "lower"), back
        if word in ("improvement", "improvements", "benefit"):
            return "valence", back
    return None


def _at_before(tokens: Sequence[Token], lo: int, pos: int) -> bool:
    word = tokens[pos].text.lower()
    prev = tokens[pos - 1].text.lower() if pos > lo else ""
    if word in ("least", "most"):
        return prev == "at"
    nxt = tokens[pos + 1].text.lower() if pos + 1 < len(tokens) else ""
    return prev == "at" and nxt in ("risk", "risks")


_ADJECTIVE_ENDINGS = ("ic", "al", "ive", "ous", "ful", "able", "ible", "ent", "ant", "ary", "ile")


def _adjective_after(tokens: Sequence[Token], pos: int, hi: int) -> bool:
    """"more effective", "less specific than": a comparative of an adjective, not of an
    amount ("more abdominal pain" is more pain)."""
    word = tokens[pos].text.lower()
    if word in lexicon.FREQUENCY_AFTER_COMPARATIVE or not word.isalpha():
        return False
    if word in lexicon.VALENCE_AFTER_COMPARATIVE:
        return True
    nxt = tokens[pos + 1].text.lower() if pos + 1 < hi else "."
    if nxt == "-" and tokens[pos + 1].start == tokens[pos].end and pos + 2 < hi and \
            tokens[pos + 2].text[:1].isalpha():
        return False  # "a higher multivariable-adjusted hazard": a compound before its noun
    return (len(word) > 5 and word.endswith(_ADJECTIVE_ENDINGS) and not word.endswith("ment")
            and (nxt in ("than", ",", ".", ";", "and", "or", ")") or not nxt[0].isalnum()))


def _kind(word: str) -> str | None:
    if word in lexicon.UP or word in _UP_EXTRA:
        return "higher"
    if word in lexicon.DOWN or word in _DOWN_EXTRA:
        return "lower"
    if word in lexicon.VALENCE:
        return "valence"
    return None


def _compared_degree(tokens: Sequence[Token], pos: int, lo: int, hi: int) -> str | None:
    """"significantly high in group A compared to group B", "significantly low in G than in
    D": a plain degree word that a significance adverb or a comparison makes comparative."""
    word = tokens[pos].text.lower()
    if word not in ("high", "low"):
        return None
    kind = "higher" if word == "high" else "lower"
    if pos > lo and tokens[pos - 1].text.lower() in ("significantly", "statistically"):
        return kind
    ahead = {t.text.lower() for t in tokens[pos + 1:min(hi, pos + 8)]}
    return kind if ahead & {"than", "compared"} else None


_UP_EXTRA = words("fold twice double doubling twofold threefold tripling")
_DOWN_EXTRA = words("half halving")
_DIFFER = re.compile(r"^(?:differ|differed|differs|differing|different|difference|differences|"
                     r"effect|effects|association|associations|associated|significant|"
                     r"significantly)$", re.IGNORECASE)


def _cue_follows(tokens: Sequence[Token], pos: int, hi: int, cues: Sequence[Cue]) -> bool:
    """A direction or valence cue within three words after ``pos``, over parentheses."""
    starts = {c.start for c in cues if c.kind != "null"}
    for steps, ahead in enumerate(outside_brackets(tokens, pos + 1, hi)):
        if steps > 3:
            return False
        if ahead in starts:
            return True
    return False


def _difference_cues(text: str, tokens: Sequence[Token], lo: int, hi: int, span: Span,
                     in_names: set[int], taken: set[int], cues: list[Cue]) -> list[Cue]:
    """"differed significantly", "a significant difference in X": a difference, no side."""
    near = {p for c in cues for p in range(c.start - 3, c.end + 4)}
    # "no significant difference ... (a) significant effect": still the no-difference phrase
    near |= {p for c in cues if c.kind == "null" for p in range(c.end, c.end + 8)}
    out = []
    for pos in range(lo, hi):
        if pos in taken or pos in in_names or pos in near:
            continue
        word = tokens[pos].text.lower()
        if not _DIFFER.match(word):
            continue
        before = text[max(span.start, tokens[pos].start - 40):tokens[pos].start]
        after = text[tokens[pos].end:min(span.end, tokens[pos].end + 60)]
        significant = _word_significance(text, before, after)
        if _neither_nor_before(tokens, lo, pos, in_names) and (
                not word.startswith("significant") or not _cue_follows(tokens, pos, hi, cues)):
            # "neither A nor B showed a significant difference": negated by "nor"
            out.append(Cue("null", pos, pos, False))
            near |= set(range(pos - 3, pos + 4))
            continue
        if word.startswith("differ") and _negated(tokens, lo, pos) and \
                not _cue_follows(tokens, pos, hi, cues):
            # "was not linked to any significant difference in A, B or C": each is null
            out.append(Cue("null", pos, pos, False))
            near |= set(range(pos - 3, pos + 4))
            continue
        if word.startswith("significant"):
            if _cue_follows(tokens, pos, hi, cues):
                continue  # "significantly (p < 0.05) higher": the word qualifies that cue
            if significant is False or _negated(tokens, lo, pos) or re.search(
                    r"\bnot\s*$|\bnon-?$|\b(?:marginally|borderline|nearly|almost|approach\w*|"
                    r"near)\s+(?:statistically\s+)?$", before, re.IGNORECASE):
                continue
            significant = True
        elif word.startswith(("associat", "effect")) and significant is not True:
            continue  # "associated with" alone only links words
        elif word in ("difference", "differences", "different") and (
                significant is not True or re.search(r"\bmean\s*$|-$", before, re.IGNORECASE)
                or after.startswith("-")):
            continue  # "mean difference", "difference-in-differences": a measure, not a claim
        out.append(Cue("differ", pos, pos, significant))
        near |= set(range(pos - 3, pos + 4))
    return out


