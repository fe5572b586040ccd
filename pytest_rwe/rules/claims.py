"""The claims a summary makes about each outcome: direction, significance, who is compared.

A summary is cut into sentences and clauses. In each clause the outcome mentions are
attached to the direction cue that governs them ("higher", "reduced", "no significant
difference"), negations are honoured, and the cue is read from the intervention's side: when
the comparator is the subject ("the control group had a higher risk") the claim flips.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pytest_rwe.rules.mentions import GroupRef, Mention, find_group_refs, find_mentions
from pytest_rwe.rules.text import Span, Token, clauses, sentences, tokenize
from pytest_rwe.study import Outcome, Study

Direction = Literal["higher", "lower", "null"]

_UP = frozenset(["higher", "increase", "increased", "increases", "increasing", "elevated",
                 "greater", "more", "raised", "rise", "rises", "rose", "excess", "larger",
                 "doubled", "tripled", "heightened", "fold", "twice", "double"])
_DOWN = frozenset(["lower", "lowered", "decrease", "decreased", "decreases", "decreasing",
                   "reduced", "reduce", "reduces", "reduction", "reductions", "fewer", "less",
                   "declined", "decline", "declines", "drop", "dropped", "protective", "smaller",
                   "diminished", "lowering", "fell"])
_INTENSIFIERS = frozenset(["greater", "larger", "bigger", "more", "steeper", "smaller", "less"])
_CHANGE_NOUNS = frozenset(["fall", "drop", "decline", "decrease", "reduction", "rise", "increase",
                           "improvement", "change", "gain", "loss"])
_NOT_CUES = re.compile(r"^\s*(?:bound|limit|end|confidence|ci\b|-?likely\s+to\s+report)",
                       re.IGNORECASE)
_NULL_RE = re.compile(
    r"\bno\s+(?:statistically\s+)?(?:significant|meaningful|clear|notable|material|detectable)?"
    r"\s*(?:difference|differences|association|associations|change|changes|effect|evidence)\b"
    r"|\bnot\s+(?:statistically\s+)?significant(?:ly)?\b|\bnon-?\s?significant(?:ly)?\b"
    r"|\bdid\s+not\s+(?:significantly\s+)?(?:differ|change|reach|show|increase|decrease)"
    r"|\bdo\s+not\s+differ|\bsimilar\b|\bcomparable\b|\bunchanged\b|\bnot\s+differ"
    r"|\bnot\s+(?:significantly\s+)?associated\b|\bneutral\b|\bnull\b",
    re.IGNORECASE,
)
_NONSIG_MODIFIER = re.compile(r"\bnon-?\s?significant(?:ly)?\s+(?:\w+\s+){0,2}$|"
                              r"\b(?:trend|tendency)\s+(?:toward|towards)\s+(?:a\s+)?$",
                              re.IGNORECASE)
_SIG_RE = re.compile(r"(?<!non-)(?<!non)\b(?:statistically\s+)?significant(?:ly)?\b",
                     re.IGNORECASE)
_BASELINE_RE = re.compile(
    r"\bat\s+baseline\b|\bbaseline\s+(?:characteristics?|values?|differences?|imbalances?)"
    r"|\bbefore\s+(?:matching|weighting|treatment\s+start)|^\W*baseline\b|\bat\s+entry\b"
    r"|\bat\s+study\s+entry\b|\bpre-?existing\b",
    re.IGNORECASE,
)
_OUTCOME_TALK = re.compile(r"\bsignifican|\bassociat|\brisk|\bodds\b|\bhazard|\bp\s*[=<>]",
                           re.IGNORECASE)
_NEGATION_BRIDGE = frozenset(["was", "were", "is", "are", "be", "been", "significantly",
                              "statistically", "associated", "with", "a", "an", "any", "the",
                              "risk", "of", "in", "found", "observed", "show", "shown", "showed",
                              "detected", "evidence", "meaningfully", "clinically", "materially",
                              "substantially"])
_FILLER = frozenset(["was", "were", "is", "are", "be", "been", "remained", "appeared", "appears",
                     "seemed", "also", "slightly", "substantially", "markedly", "modestly",
                     "significantly", "statistically", "risk", "risks", "rate", "rates",
                     "incidence", "odds", "hazard", "likelihood", "probability"])


@dataclass(frozen=True)
class Claim:
    """What one clause says about one outcome, read from the intervention group's side."""

    outcome: Outcome
    mention: Mention
    clause: Span
    direction: Direction | None  # None: no direction word governs the mention
    cue: Span | None
    significant: bool | None  # True: called significant; False: called non-significant
    flipped: bool  # the comparator was the subject of the cue
    baseline: bool  # the clause describes baseline characteristics


@dataclass(frozen=True)
class _Cue:
    kind: Direction
    start: int  # token index of the cue's first token
    end: int  # token index of the cue's last token
    significant: bool | None


@dataclass
class Analysis:
    """A summary read once: tokens, sentence and clause token ranges, mentions and claims."""

    text: str
    tokens: list[Token]
    sentences: list[tuple[int, int]]
    clauses: list[tuple[int, int, Span]]
    mentions: list[Mention]
    groups: list[GroupRef]
    claims: list[Claim]

    def sentence_of(self, char: int) -> tuple[int, int]:
        for lo, hi in self.sentences:
            if lo < hi and self.tokens[lo].start <= char <= self.tokens[hi - 1].end:
                return lo, hi
        return 0, 0

    def clause_of(self, char: int) -> tuple[int, int, Span] | None:
        for clause in self.clauses:
            if clause[2].start <= char < clause[2].end:
                return clause
        return None


def _token_range(tokens: list[Token], span: Span) -> tuple[int, int]:
    indices = [i for i, t in enumerate(tokens) if span.start <= t.start < span.end]
    return (indices[0], indices[-1] + 1) if indices else (0, 0)


def analyze(study: Study, text: str) -> Analysis:
    """Read ``text`` as a summary of ``study``."""
    tokens = tokenize(text)
    sentence_spans = sentences(text)
    sentence_ranges = [_token_range(tokens, s) for s in sentence_spans]
    clause_ranges: list[tuple[int, int, Span]] = []
    for sentence in sentence_spans:
        for clause in clauses(text, sentence):
            lo, hi = _token_range(tokens, clause)
            if hi > lo:
                clause_ranges.append((lo, hi, clause))
    mentions = find_mentions(study, text, tokens, [r for r in sentence_ranges if r[1] > r[0]])
    in_names = {p for m in mentions for p in m.positions}
    groups = find_group_refs(study, text, tokens, in_names)
    analysis = Analysis(text, tokens, sentence_ranges, clause_ranges, mentions, groups, [])
    baseline_sentence = False
    for lo, hi, span in clause_ranges:
        first = any(s_lo == lo for s_lo, _ in sentence_ranges)
        if first:
            baseline_sentence = bool(_BASELINE_RE.search(span.quote))
        baseline = bool(_BASELINE_RE.search(span.quote)) or (
            baseline_sentence and not _OUTCOME_TALK.search(span.quote))
        analysis.claims += _clause_claims(analysis, lo, hi, span, in_names, baseline)
    return analysis


def _cues(analysis: Analysis, lo: int, hi: int, span: Span, in_names: set[int]) -> list[_Cue]:
    tokens, text = analysis.tokens, analysis.text
    cues: list[_Cue] = []
    for match in _NULL_RE.finditer(text, span.start, span.end):
        start, end = _token_range(tokens, Span(match.start(), match.end(), ""))
        if end > start:
            cues.append(_Cue("null", start, end - 1, False))
    nulls = [(c.start, c.end) for c in cues]
    for pos in range(lo, hi):
        word = tokens[pos].text.lower()
        if pos in in_names or (word not in _UP and word not in _DOWN):
            continue
        if any(a <= pos <= b for a, b in nulls):
            continue
        if _NOT_CUES.match(text[tokens[pos].end:tokens[pos].end + 24]):
            continue
        if word in _INTENSIFIERS and pos + 1 < hi and tokens[pos + 1].text.lower() in _CHANGE_NOUNS:
            continue  # "a greater fall", "a larger increase": the noun gives the direction
        kind: Direction = "higher" if word in _UP else "lower"
        before = text[max(span.start, tokens[pos].start - 40):tokens[pos].start]
        if _negated(tokens, lo, pos):
            cues.append(_Cue("null", pos, pos, False))
            continue
        significant: bool | None = None
        if _NONSIG_MODIFIER.search(before):
            significant = False
        elif _SIG_RE.search(before[-30:]):
            significant = True
        cues.append(_Cue(kind, pos, pos, significant))
    return sorted(cues, key=lambda c: c.start)


def _negated(tokens: list[Token], lo: int, pos: int) -> bool:
    """A negation that modifies the cue: "not higher", "was not associated with a higher"."""
    for index in range(pos - 1, max(lo, pos - 7) - 1, -1):
        word = tokens[index].text.lower()
        if word in ("not", "no", "nor", "neither", "without", "never", "n't"):
            return True
        if word not in _NEGATION_BRIDGE:
            return False
    return False


def _governing(analysis: Analysis, mention: Mention, mentions: list[Mention], cues: list[_Cue],
               hi: int) -> _Cue | None:
    first, last = mention.positions[0], mention.positions[-1]
    # A cue right after the name ("hypokalemia (HR 2.72) was higher") governs it.
    depth, pos = 0, last + 1
    while pos < hi:
        tok = analysis.tokens[pos]
        if tok.text in "([":
            depth += 1
        elif tok.text in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and tok.text.lower() not in _FILLER:
            after = [c for c in cues if c.start == pos]
            if after:
                return after[0]
            break
        pos += 1
    before = [c for c in cues if c.end < first]
    if before:
        return before[-1]
    later = [c for c in cues if c.start > last]
    if not later:
        return None
    # A later cue governs only if no other outcome is named before it ("A and B were higher").
    others = [m for m in mentions if m.positions[0] > last and m.positions[0] < later[0].start
              and m.outcome.key != mention.outcome.key]
    if others and not _coordinated(analysis, last, others[0].positions[0]):
        return None
    return later[0]


def _coordinated(analysis: Analysis, end: int, start: int) -> bool:
    """Only list punctuation and "and"/"or" (or parentheses) lie between two names."""
    depth = 0
    for pos in range(end + 1, start):
        text = analysis.tokens[pos].text.lower()
        if text == "(":
            depth += 1
        elif text == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and text not in (",", "and", "or", "as", "well", "the", "of"):
            return False
    return True


def _flipped(analysis: Analysis, cue: _Cue, lo: int, hi: int) -> bool:
    refs = [g for g in analysis.groups if lo <= g.position < hi
            and not _in_parentheses(analysis, lo, g.position)]
    subjects = [g for g in refs if not g.comparison]
    if subjects:
        # The grammatical subject usually comes before the cue; else the nearest after it.
        before = [g for g in subjects if g.position < cue.start]
        nearest = before[-1] if before else min(subjects, key=lambda g: g.position)
        return nearest.group == "control"
    compared = {g.group for g in refs}
    return compared == {"intervention"}


def _in_parentheses(analysis: Analysis, lo: int, pos: int) -> bool:
    depth = 0
    for index in range(lo, pos):
        text = analysis.tokens[index].text
        if text == "(":
            depth += 1
        elif text == ")" and depth:
            depth -= 1
    return depth > 0


def _clause_claims(analysis: Analysis, lo: int, hi: int, span: Span, in_names: set[int],
                   baseline: bool) -> list[Claim]:
    mentions = [m for m in analysis.mentions if lo <= m.positions[0] < hi]
    if not mentions:
        return []
    cues = _cues(analysis, lo, hi, span, in_names)
    clause_sig: bool | None = True if _SIG_RE.search(span.quote) else None
    claims: list[Claim] = []
    for mention in mentions:
        cue = _governing(analysis, mention, mentions, cues, hi)
        direction: Direction | None = None
        flipped = False
        significant = clause_sig
        cue_span = None
        if cue is not None:
            cue_span = Span(analysis.tokens[cue.start].start, analysis.tokens[cue.end].end,
                            analysis.text[analysis.tokens[cue.start].start:
                                          analysis.tokens[cue.end].end])
            direction = cue.kind
            if cue.kind == "null":
                significant = False
            else:
                if cue.significant is not None:
                    significant = cue.significant
                flipped = _flipped(analysis, cue, lo, hi)
                if flipped:
                    direction = "lower" if cue.kind == "higher" else "higher"
        claims.append(Claim(mention.outcome, mention, span, direction, cue_span, significant,
                            flipped, baseline))
    return claims
