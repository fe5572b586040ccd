"""Where a summary names each outcome: by its words, part of them, or an abbreviation.

An outcome's name is matched as a bag of stemmed content words inside a short window of one
sentence ("ip visit for asthma" ~ "asthma-related inpatient visits"), or by an abbreviation:
one its name gives in parentheses ("free plasma glucose (FPG)"), the initials of its words
("low cardiac output syndrome" ~ "LCOS"), or one the summary defines ("... volume (Vd/Vt)").
Overlapping matches go to the most specific name ("ischemic stroke" is not also "stroke"); a
partial match counts only when it singles out one outcome, or when the outcome's own estimate
is written nearby.

Lookups go through an inverted index of the names' words, so the cost grows with the words
a sentence shares with the names, not with the number of outcomes times the summary's length.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence

from pytest_rwe.rules.abbreviations import alias_key, code_like
from pytest_rwe.rules.measure_names import measure_mentions
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.name_index import (
    Mention,
    OutcomeIndex,
    Variant,
)
from pytest_rwe.rules.number_mentions import NumberMention, numbers_within
from pytest_rwe.rules.outcome_places import (
    by_numbers,
    by_timepoint,
    placed,
    timepoint_phrases,
    written_values,
)
from pytest_rwe.rules.subgroups import qualifier_mentions, subgroups
from pytest_rwe.rules.text import Span, Token
from pytest_rwe.rules.truth import Fact
from pytest_rwe.study import Outcome, Study

__all__ = ["Mention", "find_mentions"]
_BREAKS = frozenset("();:[]")
_CROWDED = 48  # a segment sharing words with more outcomes than this: full matches only


def _segments(tokens: Sequence[Token], lo: int, hi: int) -> list[tuple[int, int]]:
    out, start = [], lo
    for pos in range(lo, hi):
        if tokens[pos].text in _BREAKS:
            if pos > start:
                out.append((start, pos))
            start = pos + 1
    if hi > start:
        out.append((start, hi))
    return out


def _window(variant: Variant, at: dict[int, frozenset[str]], positions: list[int], start: int,
            hi: int) -> tuple[list[int], int, int]:
    """Greedy match from ``positions[start]``: matched positions, strong words found, last."""
    words = variant.strong + variant.weak
    found: dict[str, int] = {}
    first = positions[start]
    limit = min(hi, first + 2 * len(words) + 2)
    last = first
    for pos in positions[start:]:
        if pos >= limit:
            break
        for word in words:
            if word not in found and word in at[pos]:
                found[word] = pos
                last = pos
                break
        if len(found) == len(words):
            break
    strong = sum(1 for w in variant.strong if w in found)
    return sorted(found.values()), strong, last


_Candidate = tuple[float, list[Outcome], list[int]]
_Groups = dict[str, list[tuple[tuple[str, ...], list[int]]]]
_RAREST_GROUPS: Memo[None, _Groups] = Memo()


def _rarest_groups(index: OutcomeIndex) -> _Groups:
    """``index.rarest`` with the variants of each word grouped by their strong words (the
    base name of fifty subgroups is one group), built once per index."""
    def build() -> _Groups:
        groups: dict[str, dict[tuple[str, ...], list[int]]] = {}
        for word, numbers in index.rarest.items():
            by_words = groups.setdefault(word, {})
            for number in numbers:
                by_words.setdefault(index.variants[number].strong, []).append(number)
        return {word: list(by_words.items()) for word, by_words in groups.items()}

    return _RAREST_GROUPS.get(index, None, build)
_Matches = list[tuple[float, list[int]]]  # (strength, matched positions) of one variant


def _segment_candidates(index: OutcomeIndex, tokens: Sequence[Token], lo: int, hi: int
                        ) -> list[_Candidate]:
    at = {pos: index.words_matching(tokens[pos].norm) for pos in range(lo, hi)}
    at = {pos: words for pos, words in at.items() if words}
    if not at:
        return []
    present = frozenset().union(*at.values())
    if sum(len(index.postings.get(word, ())) for word in present) > _CROWDED:
        # a segment sharing words with many names: full matches only, each name looked up
        # once, under its rarest word (names sharing their words tested once)
        groups = _rarest_groups(index)
        numbers = {n for word in present for strong, group in groups.get(word, ())
                   if all(w in present for w in strong) for n in group}
    else:
        numbers = {n for word in present for n in index.postings.get(word, ())}
    # outcomes often share a variant's words (one base name for fifty subgroups): match each
    # set of words once per segment, then give the matches to every outcome that has it; one
    # candidate per (strength, positions), its outcomes in variant order, as _resolve merges
    by_words: dict[tuple[tuple[str, ...], tuple[str, ...], bool],
                   list[tuple[float, tuple[int, ...]]]] = {}
    merged: dict[tuple[float, tuple[int, ...]], list[Outcome]] = {}
    for number in sorted(numbers):
        variant = index.variants[number]
        signature = (variant.strong, variant.weak, variant.part)
        found = by_words.get(signature)
        if found is None:
            found = by_words[signature] = [(strength, tuple(matched)) for strength, matched
                                           in _variant_matches(variant, at, hi)]
        outcome = index.outcomes[variant.key]
        for key in found:
            outcomes = merged.get(key)
            if outcomes is None:
                merged[key] = [outcome]
            else:
                outcomes.append(outcome)
    return [(strength, outcomes, list(positions))
            for (strength, positions), outcomes in merged.items()]


def _variant_matches(variant: Variant, at: dict[int, frozenset[str]], hi: int) -> _Matches:
    """Where a segment (``at``: position -> name words there) writes a variant's words:
    (strength, matched positions) for each match."""
    out: _Matches = []
    words = set(variant.strong)
    everything = set(variant.strong + variant.weak)
    positions = [pos for pos, found in at.items() if found & everything]
    i = 0
    while i < len(positions):
        if not at[positions[i]] & words and not any(
                at[p] & words for p in positions[i:i + 4]):
            i += 1
            continue
        matched, strong, last = _window(variant, at, positions, i, hi)
        if strong == len(variant.strong):
            matched, last = _tightest(variant, at, positions, i, hi, matched, last)
            # a part of a name counts a little less than the whole name
            out.append((len(matched) + (0.25 if variant.part else 0.5), matched))
        elif 2 * strong >= len(variant.strong) and strong and not variant.part:
            if matched[-1] - matched[0] > len(matched):
                # a part of a name must stand together: "no ... intrahepatic
                # cholangiocarcinoma" is not "intrahepatic cholangiocarcinoma no
                # diabetes"; the words after the first may ("dementia ... with
                # hypertension plus hyperlipidaemia")
                i += 1
                continue
            out.append((float(len(matched)), matched))
        while i < len(positions) and positions[i] <= last:
            i += 1
    return out


def _tightest(variant: Variant, at: dict[int, frozenset[str]], positions: list[int], start: int,
              hi: int, matched: list[int], last: int) -> tuple[list[int], int]:
    """The shortest full match starting inside this one: "significantly lower risk of
    clinically significant bleeding" names the outcome with its last three words."""
    best, best_last = matched, last
    j = start + 1
    while j < len(positions) and positions[j] <= last:
        other, strong, other_last = _window(variant, at, positions, j, hi)
        if strong == len(variant.strong) and other[-1] - other[0] < best[-1] - best[0]:
            best, best_last = other, other_last
        j += 1
    return best, max(best_last, last)


def find_mentions(study: Study, index: OutcomeIndex, facts: Mapping[str, Fact], text: str,
                  tokens: Sequence[Token], sentences: Sequence[tuple[int, int]],
                  clauses: Sequence[tuple[int, int]] = ()) -> list[Mention]:
    """Every outcome mention, sentence by sentence (``sentences`` and ``clauses`` are token
    ranges; a subgroup's base is read with the qualifiers of its clause)."""
    mentions: list[Mention] = []
    for lo, hi in sentences:
        candidates: list[_Candidate] = []
        for s_lo, s_hi in _segments(tokens, lo, hi):
            candidates += _segment_candidates(index, tokens, s_lo, s_hi)
        if index.aliases and hi > lo:
            candidates += _alias_candidates(index, text, tokens, lo, hi)
        found = _resolve(index, facts, text, tokens, lo, hi, candidates, clauses)
        if index.qualifiers and found:
            found += qualifier_mentions(index, text, tokens, lo, hi, found)
        mentions += found
    return measure_mentions(study, text, tokens, _summary_aliases(index, text, tokens, mentions))


_WORD = re.compile(r"[^\W\d_][\w/\-\u2010]*")


def _alias_candidates(index: OutcomeIndex, text: str, tokens: Sequence[Token], lo: int,
                      hi: int) -> list[_Candidate]:
    """Abbreviations in capitals ("FPG", "hs-CRP", "QoR-15" for "QoR", "SCL-90" for
    "SCL90", "ARBs" for "ARB") at the tokens they cover."""
    out: list[_Candidate] = []
    start, end = tokens[lo].start, tokens[hi - 1].end
    starts = [t.start for t in tokens]
    for match in _WORD.finditer(text, start, end):
        word = match.group(0).rstrip("-/")
        if not code_like(word):
            continue
        key = alias_key(word)
        keys = index.aliases.get(key) or index.aliases.get(re.sub(r"\d+$", "", key)) or (
            index.aliases.get(key[:-1]) if key.endswith("s") else index.aliases.get(key + "s"))
        if not keys and "-" in word:
            # "INH-DILI" for "INH-related drug-induced liver injury": a qualifier before the
            # hyphen, the name's own initials after it
            last_part = word.rsplit("-", 1)[1]
            if len(last_part) >= 3 and code_like(last_part):
                keys = index.aliases.get(alias_key(last_part))
        if not keys and word.isupper() and word.isalpha() and len(word) >= 6:
            # "EVLWST", "EVLWIG" for "(EVLW)": an abbreviation of four letters or more, with
            # capitals after it that say how it was measured
            keys = next((index.aliases[key[:n]] for n in range(len(key) - 2, 3, -1)
                         if key[:n] in index.aliases), None)
        if not keys:
            continue
        first = bisect.bisect_left(starts, match.start())
        last = bisect.bisect_left(starts, match.start() + len(word))
        positions = [p for p in range(first, max(first + 1, last)) if lo <= p < hi]
        if positions:
            out.append((1.5, [index.outcomes[k] for k in sorted(keys)], positions))
    return out


# matched at each name's end, in the text itself: a slice per mention copies the rest of a
# long summary every time
_DEFINED_AFTER = re.compile(r"\s*\(([A-Za-z][\w/\-]{0,11})\)")


def _summary_aliases(index: OutcomeIndex, text: str, tokens: Sequence[Token],
                     mentions: list[Mention]) -> list[Mention]:
    """Abbreviations the summary defines right after a name: "... volume (Vd/Vt)"."""
    defined: dict[str, Outcome] = {}
    for mention in mentions:
        match = _DEFINED_AFTER.match(text, mention.span.end)
        if match and sum(c.isupper() for c in match.group(1)) >= 2:
            defined.setdefault(match.group(1), mention.outcome)
    if not defined:
        return mentions
    taken = {p for m in mentions for p in m.positions}
    extra = []
    for pos, token in enumerate(tokens):
        outcome = defined.get(token.text)
        if outcome is not None and pos not in taken:
            extra.append(Mention(outcome, (pos,), Span(token.start, token.end, token.text), True))
    return sorted(mentions + extra, key=lambda m: m.positions[0])


def _resolve(index: OutcomeIndex, facts: Mapping[str, Fact], text: str, tokens: Sequence[Token],
             lo: int, hi: int, candidates: list[_Candidate],
             clauses: Sequence[tuple[int, int]] = ()) -> list[Mention]:
    if not candidates:
        return []
    # the sentence's numbers tell rivals apart; most sentences have none, and reading a list
    # sentence of hundreds of outcomes for them costs more than all its names
    read: list[list[NumberMention]] = []

    def written() -> list[NumberMention]:
        if not read:
            read.append(numbers_within(text, tokens[lo].start, tokens[hi - 1].end))
        return read[0]

    names = index.names
    merged: dict[tuple[float, tuple[int, ...]], list[Outcome]] = {}
    for strength, outcomes, positions in candidates:
        merged.setdefault((strength, tuple(positions)), []).extend(outcomes)
    ordered = sorted(merged.items(), key=lambda kv: (-kv[0][0], kv[0][1][0]))
    # where each name's stretch ends: the next name of the sentence
    bounds = sorted({(key[1][0], key[1][-1]) for key, _ in merged.items()})
    phrases: list[tuple[int, float, str]] | None = None
    values: frozenset[object] | None = None
    consumed: set[int] = set()
    out: list[Mention] = []
    for (strength, positions_key), outcomes in ordered:
        positions = list(positions_key)
        if set(positions) <= consumed:
            continue
        full = strength != int(strength)
        chosen = outcomes
        if not full:
            # A partial match must single out its outcome among all the study's outcomes.
            rivals = _rivals(index, [tokens[p].norm for p in positions])
            if len({tuple(names[o.key]) for o in rivals}) == 1:
                chosen = rivals  # one name at several timepoints
            elif len(rivals) > 1:
                chosen = by_numbers(rivals, facts, written())
                if len(chosen) != 1:
                    continue
        if index.qualifiers and any(o.key in index.qualifiers or index.bases.get(o.key) in
                                    index.stratum_bases for o in chosen):
            picked = subgroups(index, chosen, tokens, positions, clauses, lo, hi)
            if not picked:
                continue
            # a subgroup told by its clause, not by the name itself: no strict binding
            full = full and [o.key for o in picked] == [o.key for o in chosen]
            chosen = picked
        if len(chosen) > 1 and len({tuple(names[o.key]) for o in chosen}) == 1:
            if phrases is None:
                phrases = timepoint_phrases(text, tokens, lo, hi)
            spots, at_name = placed(chosen, phrases, positions, bounds, tokens, lo, hi)
            if spots:
                consumed |= set(positions)
                for outcome, pos in spots:
                    at = tuple(positions) if at_name else (pos,)
                    start, end = tokens[at[0]].start, tokens[at[-1]].end
                    out.append(Mention(outcome, at, Span(start, end, text[start:end]), full))
                continue
        if len(chosen) > 1:
            if values is None:
                values = written_values(written())
            chosen = (by_timepoint(chosen, values) or by_numbers(chosen, facts, written())
                      or chosen)
        consumed |= set(positions)
        start, end = tokens[positions[0]].start, tokens[positions[-1]].end
        for outcome in chosen:
            out.append(Mention(outcome, tuple(positions), Span(start, end, text[start:end]),
                               full))
    unique: dict[tuple[str, tuple[int, ...]], Mention] = {}
    for mention in out:
        unique.setdefault((mention.outcome.key, mention.positions), mention)
    return sorted(unique.values(), key=lambda m: m.positions[0])


def _rivals(index: OutcomeIndex, matched: list[str]) -> list[Outcome]:
    """The outcomes whose names contain every matched strong word (through the index)."""
    keys: set[str] | None = None
    for norm in matched:
        words = index.words_matching(norm) - index.weak
        if not words:
            continue
        found = {index.variants[n].key for word in words for n in index.postings.get(word, ())}
        keys = found if keys is None else keys & found
    return [index.outcomes[k] for k in sorted(keys or ())]
