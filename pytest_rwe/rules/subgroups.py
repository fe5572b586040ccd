"""Mentions of subgroups' outcomes: a base name picked by the qualifiers of its clause, and a
subgroup named by its qualifier alone (see :mod:`pytest_rwe.rules.strata`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.name_index import Mention, OutcomeIndex
from pytest_rwe.rules.strata import canonical, pick, written
from pytest_rwe.rules.text import Span, Token
from pytest_rwe.study import Outcome


def word_places(index: OutcomeIndex, tokens: Sequence[Token], lo: int, hi: int
                ) -> dict[str, list[int]]:
    """Word (canonical, or one a token's name-index entry matches) -> the ascending indices
    in [lo, hi) of the tokens that write it."""
    places: dict[str, list[int]] = {}
    for pos in range(lo, hi):
        norm = tokens[pos].norm
        first = canonical(norm)
        places.setdefault(first, []).append(pos)
        for word in index.words_matching(norm):
            if word != first:  # each word once per token, as the union of the two would
                places.setdefault(word, []).append(pos)
    return places


def qualifier_mentions(index: OutcomeIndex, text: str, tokens: Sequence[Token], lo: int,
                        hi: int, found: list[Mention]) -> list[Mention]:
    """A subgroup named by its qualifier alone in a sentence that names its base ("PHQ-9
    rose by 4.2 points, and by 3.2 points in patients with four or more failed
    antidepressants"): a mention of that subgroup where its qualifier is written."""
    named = {m.outcome.key for m in found}
    bases = {index.bases.get(k) for k in named}
    taken = {p for m in found for p in range(m.positions[0], m.positions[-1] + 1)}
    # only the qualifiers whose words the sentence writes, looked up by word (near-linear)
    places = word_places(index, tokens, lo, hi)
    present = set(places)
    keys = {k for word in present for k in index.by_qualifier_word.get(word, ())}
    out: list[Mention] = []
    for key in sorted(keys):
        qualifier = index.qualifiers[key]
        if key in named or index.bases.get(key) not in bases or not set(
                qualifier.words) <= present:
            continue
        at = written(qualifier, tokens, lo, hi,
                     lambda norm, word: word in index.words_matching(norm), places)
        if at is None or at in taken:
            continue
        span = Span(tokens[at].start, tokens[at].end, text[tokens[at].start:tokens[at].end])
        out.append(Mention(index.outcomes[key], (at,), span, False))
    return out


@dataclass(frozen=True)
class _Family:
    """The outcomes of one base: their keys in the study's order, each key's place in it,
    and the keys without a qualifier (the whole group)."""

    keys: tuple[str, ...]
    order: dict[str, int]
    whole: tuple[str, ...]

    def among(self, index: OutcomeIndex, places: Mapping[str, Sequence[int]]) -> list[str]:
        """The keys a clause with these words may pick, in order: the whole group and the
        subgroups with a word of their qualifier written (the others score nothing), found
        through the qualifiers' words when the clause has fewer words than the base has
        subgroups."""
        if len(places) >= len(self.keys):
            return list(self.keys)
        found = {k for word in places for k in index.by_qualifier_word.get(word, ())
                 if k in self.order}
        return sorted(found.union(self.whole), key=self.order.__getitem__)


_FAMILIES: Memo[str, _Family] = Memo()


def _family(index: OutcomeIndex, base: str) -> _Family:
    def build() -> _Family:
        keys = tuple(index.by_base.get(base, ()))
        return _Family(keys, {k: i for i, k in enumerate(keys)},
                       tuple(k for k in keys if k not in index.qualifiers))

    return _FAMILIES.get(index, base, build)


_CLAUSE_PLACES: Memo[tuple[int, int], tuple[OutcomeIndex, dict[str, list[int]]]] = Memo()


def _clause_places(index: OutcomeIndex, tokens: Sequence[Token], lo: int, hi: int
                   ) -> dict[str, list[int]]:
    """:func:`word_places` of a clause, read once for every name of the clause."""
    kept = _CLAUSE_PLACES.get(tokens, (lo, hi), lambda: (index, word_places(index, tokens,
                                                                             lo, hi)))
    return kept[1] if kept[0] is index else word_places(index, tokens, lo, hi)


def subgroups(index: OutcomeIndex, chosen: list[Outcome], tokens: Sequence[Token],
               positions: list[int], clauses: Sequence[tuple[int, int]], lo: int, hi: int
               ) -> list[Outcome]:
    """Outcomes of subgroups sharing one base, picked by the qualifiers written: in the
    clause of a name that is only the base ("hypertension alone ... a lower risk of
    dementia"), or in the name itself and the words just before it ("cancer in patients
    without diabetes" is the "no diabetes" subgroup). [] when it cannot tell."""
    bases = {index.bases.get(o.key, "") for o in chosen}
    if len(bases) != 1 or not bases & index.stratum_bases:
        return chosen
    base = bases.pop()
    family = _family(index, base)
    base_words = set(base.split())
    own = [p for p in positions if not index.words_matching(tokens[p].norm) & base_words]
    def matches(norm: str, word: str) -> bool:
        return word in index.words_matching(norm)

    if own:
        a, b = max(lo, positions[0] - 3), positions[-1] + 1
        places = word_places(index, tokens, a, b)
        picked = pick(family.among(index, places), index.qualifiers, tokens, a, b, matches,
                      places)
    else:
        c_lo, c_hi = next(((a, b) for a, b in clauses if a <= positions[0] < b), (lo, hi))
        # a qualifier before the name scopes it ("Among patients who failed four drugs,
        # PHQ-9 fell"), and one just after it ("dementia in those without diabetes"); one
        # further on starts a claim of its own ("PHQ-9 fell by 4.2, and by 3.2 in those who
        # failed four drugs"), unless every outcome is a subgroup ("dementia was not
        # associated with hypertension alone or hyperlipidaemia alone")
        # one look-up of the clause's words serves every sibling (a base may have dozens)
        # and every name of the clause
        clause_places = _clause_places(index, tokens, c_lo, c_hi)
        keys = family.among(index, clause_places)
        near = pick(keys, index.qualifiers, tokens, c_lo, min(c_hi, positions[-1] + 6),
                    matches, clause_places)
        whole = list(family.whole)
        if near and near != whole:
            picked = near
        elif whole:
            picked = whole
        else:
            picked = pick(keys, index.qualifiers, tokens, c_lo, c_hi, matches, clause_places)
        if not picked:
            picked = _scoped(index, family, tokens, clauses, lo, c_lo, matches)
    return [index.outcomes[k] for k in sorted(set(picked), key=family.order.__getitem__)]


_SCOPE = frozenset(["among", "amongst", "in", "for", "within"])


def _scoped(index: OutcomeIndex, family: _Family, tokens: Sequence[Token],
            clauses: Sequence[tuple[int, int]], lo: int, c_lo: int,
            matches: Callable[[str, str], bool]) -> list[str]:
    """"among adults with depression, those with X had higher odds of A (OR 2.1) but lower
    odds of B (OR 1.3)": a clause of the sentence that opens with a scope ("among ...,")
    names the subgroup of the clauses after it too; the subgroup it names, or []."""
    for a, b in reversed([c for c in clauses if lo <= c[0] < c_lo]):
        # at the clause's start, or after a heading's colon ("Survey X: among adults ...")
        a = next((p + 1 for p in range(a, min(b, a + 12)) if tokens[p].text == ":"), a)
        if a >= b or tokens[a].text.lower() not in _SCOPE:
            continue
        comma = next((p for p in range(a + 1, b) if tokens[p].text == ","), None)
        if comma is None:
            continue
        places = word_places(index, tokens, a, comma)
        picked = pick(family.among(index, places), index.qualifiers, tokens, a, comma, matches,
                      places)
        return picked if picked and picked != list(family.whole) else []
    return []
