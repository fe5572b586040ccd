"""The parts of a claim: its cue, the outcome the cue is about, the group side, significance.

Pure functions over the token list of one clause (token indices, half-open ranges).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.text import STOPWORDS, Span, Token


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


def find_cues(text: str, tokens: Sequence[Token], lo: int, hi: int, span: Span,
              in_names: set[int]) -> list[Cue]:
    """Every claim cue of one clause, in order."""
    cues: list[Cue] = []
    taken: set[int] = set()
    for match in lexicon.NULL_PHRASE.finditer(text, span.start, span.end):
        first, last = _span_tokens(tokens, match.start(), match.end(), lo, hi)
        if first > last or all(p in in_names for p in range(first, last + 1)):
            continue  # a name's own words ("neither A nor B" as a group's name)
        cues.append(Cue("null", first, last, False))
        taken |= set(range(first, last + 1))
    for pos in range(lo, hi):
        if pos in taken or pos in in_names:
            continue
        word = tokens[pos].text.lower()
        kind = _kind(word)
        if kind is None:
            continue
        if lexicon.NOT_A_CUE.match(text[tokens[pos].end:tokens[pos].end + 24]):
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
        if kind in ("higher", "lower") and pos > lo and word in lexicon.CHANGE_NOUNS and \
                tokens[pos - 1].text.lower() in _SMALLER:
            kind = "lower" if kind == "higher" else "higher"  # "smaller increases", "less decline"
        if word in lexicon.INTENSIFIERS:
            composed = _composed(tokens, lo, pos, in_names)
            if composed is not None:
                kind = composed  # "the decrease in X was greater": a larger decrease
        before = text[max(span.start, tokens[pos].start - 60):tokens[pos].start]
        after = text[tokens[pos].end:min(span.end, tokens[pos].end + 160)]
        # "higher risk of X (HR 1.40; p = 0.05), not statistically significant": what stands
        # in parentheses does not end the reach of a hedge after the cue
        after = re.sub(r"\([^()]*\)", " ", after)
        if kind in ("higher", "lower", "valence") and _negated(tokens, lo, pos):
            cues.append(Cue("null", pos, pos, False))
            continue
        if kind in ("higher", "lower") and pos + 1 < hi and _adjective_after(tokens, pos + 1, hi):
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


_BIGGER = words("greater larger bigger more steeper marked")
_SMALLER = words("smaller less lesser lower fewer")
_NAMED_CHANGES = words("loss losses reduction reductions decrease decline gain increase")
_GROWING = words("increase increases rise rises gain gains elevation")
_SHRINKING = words("decrease decreases reduction reductions fall falls drop drops decline "
                   "declines loss losses")


def _composed(tokens: Sequence[Token], lo: int, pos: int, in_names: set[int]) -> str | None:
    """An intensifier after a change noun composes with it: "the reduction in X was greater"
    is lower, "the increase ... was smaller" is lower; "the improvement ... greater" has no
    side."""
    for back in range(pos - 1, max(lo - 1, pos - 22), -1):
        word = tokens[back].text.lower()
        if word in (",", ";", "than"):
            return None
        if back in in_names and word not in _NAMED_CHANGES:
            continue  # "falls" in the name "falls" is not a change; "weight loss" is
        if word in _GROWING or word in _SHRINKING:
            bigger = tokens[pos].text.lower() in _BIGGER
            grows = word in _GROWING
            return "higher" if bigger == grows else "lower"
        if word in ("improvement", "improvements", "benefit"):
            return "valence"
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


_UP_EXTRA = words("fold twice double doubling twofold threefold tripling")
_DOWN_EXTRA = words("half halving")
_DIFFER = re.compile(r"^(?:differ|differed|differs|differing|different|difference|differences|"
                     r"effect|effects|association|associations|associated|significant|"
                     r"significantly)$", re.IGNORECASE)


def _cue_follows(tokens: Sequence[Token], pos: int, hi: int, cues: Sequence[Cue]) -> bool:
    """A direction or valence cue within three words after ``pos``, over parentheses."""
    starts = {c.start for c in cues if c.kind != "null"}
    depth = steps = 0
    for ahead in range(pos + 1, hi):
        text = tokens[ahead].text
        if text in "([":
            depth += 1
        elif text in ")]":
            depth = max(0, depth - 1)
        elif not depth:
            if ahead in starts:
                return True
            steps += 1
            if steps > 3:
                return False
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


# ---------------------------------------------------------------- which outcome a cue is about

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
                pos, crossed = other.positions[-1] + 1, True
                continue
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


_COPULA = frozenset(["was", "were", "is", "are", "remained", "became", "appeared", "seemed"])


def _listed_predicate(tokens: Sequence[Token], pos: int, cues: dict[int, Cue], hi: int
                      ) -> Cue | None:
    """"X, Y, heart rate and Z were significantly higher": a list of things the study does
    not all name, then one predicate for all of them. Only plain list items (words, commas,
    "and") may come before the copula and its cue."""
    depth = 0
    for ahead in range(pos, min(hi, pos + 30)):
        tok = tokens[ahead]
        word = tok.text.lower()
        if tok.text in "([":
            depth += 1
            continue
        if tok.text in ")]":
            depth = max(0, depth - 1)
            continue
        if depth:
            continue
        if word in _COPULA:
            after = ahead + 1
            while after < hi and (tokens[after].text.lower() in lexicon.FILLER
                                  or tokens[after].text.lower().endswith("ly")):
                after += 1
            return cues.get(after)
        if ahead in cues or word in _STOP_AFTER_NAME or word in (";", ":") or (
                not word[0].isalnum() and word not in (",", "-", "'", "\u2019", "/")):
            return None
    return None


# Words that end a name's phrase: a relative clause, a new clause, a comparison.
_STOP_AFTER_NAME = frozenset(["which", "who", "that", "while", "whereas", "than", "compared",
                              "versus", "vs", "vs.", "but", "although", "however", "when",
                              "because", "if", "whether", "not", "no"])


def _next_outside(tokens: Sequence[Token], pos: int, hi: int) -> int | None:
    """The next token position outside parentheses."""
    depth = 0
    while pos < hi:
        text = tokens[pos].text
        if text in "([":
            depth += 1
        elif text in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            return pos
        pos += 1
    return None


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
        if cue is not None:
            out[mention.positions[0]] = cue
    return out


# ---------------------------------------------------------------- the group side


RELATIVE = words("which who whom whose")


@dataclass(frozen=True)
class Side:
    """The group a direction is about; ``explicit`` when the clause names it."""

    group: str  # intervention, control or unknown
    explicit: bool
    reason: str = ""


def segment(tokens: Sequence[Token], first: int, last: int, lo: int, hi: int
            ) -> tuple[int, int]:
    """The comma-delimited stretch of the clause around tokens ``first..last`` (outside
    parentheses)."""
    start, depth = lo, 0
    for pos in range(first - 1, lo - 1, -1):
        text = tokens[pos].text
        if text in ")]":
            depth += 1
        elif text in "([":
            if depth:
                depth -= 1
            else:
                start = pos + 1
                break
        elif text == "," and not depth:
            start = pos + 1
            break
    end, depth = hi, 0
    for pos in range(last + 1, hi):
        text = tokens[pos].text
        if text in "([":
            depth += 1
        elif text in ")]":
            if depth:
                depth -= 1
            else:
                end = pos
                break
        elif text == "," and not depth:
            end = pos
            break
    return start, end


def _outside_parentheses(tokens: Sequence[Token], lo: int, refs: Sequence[GroupRef]
                         ) -> list[GroupRef]:
    depth_at: dict[int, int] = {}
    depth = 0
    wanted = {r.position for r in refs}
    last = max(wanted, default=lo)
    for pos in range(lo, last + 1):
        if pos in wanted:
            depth_at[pos] = depth
        text = tokens[pos].text
        if text in "([":
            depth += 1
        elif text in ")]" and depth:
            depth -= 1
    return [r for r in refs if depth_at.get(r.position, 0) == 0]


def _side_of(refs: Sequence[GroupRef], cue: Cue) -> Side | None:
    bearers = [r for r in refs if not r.comparison and not r.between]
    known = {r.group for r in bearers if r.group != "unknown"}
    compared = {r.group for r in refs if r.comparison and r.group != "unknown"}
    if len(known) == 1:
        group = known.pop()
        if compared == {group}:
            return Side("unknown", True, "one group is named on both sides")
        return Side(group, True)
    if len(known) == 2:
        return Side("unknown", True, "both groups are named as having it")
    if any(r.group == "unknown" for r in bearers):
        # "the K2 group ... compared with the control group": with two groups, the one not
        # recognized is the other one; without a recognized side it stays unknown
        if compared == {"control"}:
            return Side("intervention", True)
        if compared == {"intervention"}:
            return Side("control", True)
        return Side("unknown", True, "the group named is not one of the study's groups")
    if compared == {"control"}:
        return Side("intervention", True)
    if compared == {"intervention"}:
        return Side("control", True)
    if compared:
        return Side("unknown", True, "compared with a group the study does not name")
    return None


def orientation(tokens: Sequence[Token], refs: Sequence[GroupRef], cue: Cue, lo: int, hi: int,
                topic: str | None, design: str) -> Side:
    """The group a direction cue is about: named in its stretch, its clause, the clauses
    before (the group last named as a subject), or by convention the intervention."""
    if design == "case_series":
        return Side("intervention", False)
    refs = _outside_parentheses(tokens, lo, refs)
    seg_lo, seg_hi = segment(tokens, cue.start, cue.end, lo, hi)
    stretch = [r for r in refs if seg_lo <= r.position < seg_hi]
    if tokens[seg_lo].text.lower() in RELATIVE and not [r for r in stretch if not r.comparison]:
        # "..., which still had higher X": the relative pronoun is the group named just before
        antecedent = [r for r in refs if max(r.end, r.position) < seg_lo
                      and seg_lo - max(r.end, r.position) <= 3 and r.group != "unknown"]
        if antecedent:
            return Side(antecedent[-1].group, True)
    segment_text = " ".join(t.text for t in tokens[seg_lo:seg_hi])
    for group in (stretch, refs):
        side = _side_of(group, cue)
        if side is not None:
            return side
        if group is stretch and lexicon.BOTH.search(segment_text):
            return Side("unknown", True, "both groups are named as having it")
    clause_text = " ".join(t.text for t in tokens[lo:hi])
    if lexicon.BOTH.search(clause_text) and not refs:
        return Side("unknown", True, "both groups are named as having it")
    if topic is not None:
        return Side(topic, False)
    return Side("intervention", False)


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


def significance_after(text: str, tokens: Sequence[Token], anchor: int, hi: int,
                       mentions: Sequence[Mention], mention: Mention | None, *,
                       intervals: bool = True) -> bool | None:
    """Significance written after a claim and before the next outcome's name: a p-value, "NS",
    or (with ``intervals``) an interval for a labelled ratio or difference."""
    if anchor + 1 >= hi:
        return None
    start = tokens[anchor].end
    stop = tokens[hi - 1].end
    for other in mentions:
        first = other.positions[0]
        if first > anchor and first < hi and (mention is None
                                              or other.outcome.key != mention.outcome.key):
            stop = min(stop, tokens[first].start)
            break
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
