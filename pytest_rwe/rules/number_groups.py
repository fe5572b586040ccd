"""Numbers written for the wrong group: a group size or a baseline value given to the other
group, directly ("chlorthalidone (n = 693,337)") or by a pair's declared order ("intervention
vs control: 6.98 vs 7.10")."""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe.rules.claims import Analysis
from pytest_rwe.rules.group_values import group_values
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.index import matches
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in
from pytest_rwe.rules.text import Span, Token, stem
from pytest_rwe.study import Study

_BRIDGE = frozenset(stem(w) for w in ["patients", "participants", "subjects", "individuals",
                                      "persons",
                                      "people", "adults", "users", "were", "was", "in", "the",
                                      "on", "receiving", "received", "taking", "treated", "with",
                                      "who", "using", "initiating", "started", "starting", "new",
                                      "of", "group", "arm", "%"])
_BEFORE_BRIDGE = frozenset(stem(w) for w in [
    "users", "patients", "participants", "subjects", "group", "arm", "numbered", "included",
    "totalled", "totaled", "was", "were", "of", ":", "=", ","])


@dataclass(frozen=True)
class NumberFinding:
    """A number the study does not support, and why."""

    span: Span
    field: str
    message: str


class Numbers:
    """The summary's numbers, in order, with their neighbours looked up by position."""

    def __init__(self, text: str, numbers: list[NumberMention]) -> None:
        self.text = text
        self.items = numbers
        self.starts = [n.span.start for n in numbers]

    def at(self, number: NumberMention) -> int | None:
        i = bisect.bisect_left(self.starts, number.span.start)
        return i if i < len(self.items) and self.starts[i] == number.span.start else None

    def in_list(self, number: NumberMention) -> bool:
        """The number is one of several written together: "X and Y", "X vs Y", "X/Y"."""
        at = self.at(number)
        if at is None:
            return False
        before = self.items[at - 1] if at > 0 else None
        after = self.items[at + 1] if at + 1 < len(self.items) else None
        return bool((before and _LIST_GAP.match(self.text[before.span.end:number.span.start]))
                    or (after and _LIST_GAP.match(self.text[number.span.end:after.span.start])))


def size_swap(study: Study, analysis: Analysis, numbers: Numbers, number: NumberMention
              ) -> NumberFinding | None:
    """A group size written for the other group ("chlorthalidone (n = 693,337)")."""
    sizes = {"intervention": study.intervention_size, "control": study.control_size}
    if None in sizes.values() or sizes["intervention"] == sizes["control"] or number.decimals:
        return None
    written = number.value * number.scale
    own = next((g for g, s in sizes.items() if s is not None and matches(written, 0, s)), None)
    if own is None or number.scale != 1.0 or numbers.in_list(number):
        return None  # "A and B users (735,657 and 206,570)": the order is the reader's to map
    group = _group_of(analysis, number)
    if group is None or group == own:
        return None
    field = f"results.{own}_size"
    return NumberFinding(number.span, field, (
        f"{number.span.quote} is written for the {group} group, but it is {field} "
        f"(the {group} group has {sizes[group]:,})"))


_EVERYONE_AFTER = re.compile(r"\s*(?:patients|participants|adults|people|individuals|subjects|"
                             r"persons)\b", re.IGNORECASE)


def whole_as_group(study: Study, analysis: Analysis, numbers: Numbers, number: NumberMention
                   ) -> NumberFinding | None:
    """The design's count of everyone written as one group's size: "general anesthesia (n =
    18,158)" when 18,158 patients is the whole cohort and 5,254 of them had regional
    anesthesia (the other group's size unknown to the study, so no size of its own fits)."""
    sizes = {"intervention": study.intervention_size, "control": study.control_size}
    if number.decimals or number.scale != 1.0 or list(sizes.values()).count(None) != 1:
        return None
    population = study.picot.get("population", "")
    written = number.value
    known = next(s for s in sizes.values() if s is not None)
    if known >= written or f"{known:,}" in population or str(known) in population:
        return None  # the design counts the groups apart: its numbers may be either's
    everyone = [n for n in numbers_in(population) if n.value == written and not n.decimals
                and _EVERYONE_AFTER.match(population, n.span.end)]
    group = _group_of(analysis, number) if everyone and not numbers.in_list(number) else None
    if group is None or sizes[group] is not None:
        return None
    return NumberFinding(number.span, "picot.population", (
        f"{number.span.quote} is written as the {group} group's size, but it is everyone in "
        f"the study (picot.population), of whom {known:,} are in the other group"))


def _group_of(analysis: Analysis, number: NumberMention) -> str | None:
    """The group a written count belongs to, or None where it cannot be told."""
    group = _group_ref_of(analysis, number)
    # a reference read as a group whose side is unknown ("no PR n=71") tells no group
    return None if group == "unknown" else group


def _group_ref_of(analysis: Analysis, number: NumberMention) -> str | None:
    clause = analysis.clause_of(number.span.start)
    if clause is None:
        return None
    lo, hi, span = clause
    tokens = analysis.tokens
    at = min(hi, max(lo, bisect.bisect_left(analysis.token_starts, number.span.start)))
    starts = [g.position for g in analysis.groups]
    refs = analysis.groups[bisect.bisect_left(starts, lo):bisect.bisect_left(starts, hi)]
    before = [g for g in refs if g.position < at]
    after = [g for g in refs if g.position > at]
    prefix = analysis.text[max(span.start, number.span.start - 8):number.span.start]
    last = before[-1] if before else None
    last_end = last.last if last else -1
    if re.search(r"(?:\(|\bn\s*=)\s*$", prefix, re.IGNORECASE) and not _pairs_inside(
            analysis, refs, at):
        # "chlorthalidone (n = 36,918)": the group named right before the parenthesis.
        return last.group if last and at - last_end <= 6 else None
    described = _described_group(analysis, refs, at, lo)
    if described is not None:
        return described
    if after:
        gap = range(at + 1, after[0].position)
        if len(gap) <= 4 and all(tokens[i].norm in _BRIDGE for i in gap):
            # "18,847 healthy siblings of children with type 1 diabetes were compared ...":
            # the phrase the number counts names both groups, so it says neither
            phrase_end = next((i for i in range(at + 1, hi) if tokens[i].text.lower() in
                               _PHRASE_END or (tokens[i].is_number and i > at + 1
                                               and "," in tokens[i].text)), hi)
            sides = {g.group for g in after if g.position < phrase_end and not g.comparison}
            if not sides and not gap and after[0].comparison and tokens[at - 1].text.lower() in (
                    "vs", "versus", "and", "with") and not any(
                    g.group == after[0].group for g in before if g.position > at - 6):
                # "71 surgical vs 57 nonsurgical patients"; not "1,878 antibody-positive vs
                # 3,287 antibody-negative", both read as one group
                return after[0].group
            return after[0].group if len(sides) == 1 else None
    if last and not last.comparison and at - last_end <= 4 and all(
            tokens[i].norm in _BEFORE_BRIDGE for i in range(last_end + 1, at)) and not any(
            tokens[i].is_number for i in range(max(lo, last.position - 3), last.position)):
        # "chlorthalidone users numbered 36,918"; not "247 with cancer, 1,402 without", where
        # the group already has its number
        return last.group
    return None


_PAIRING = frozenset(["and", "vs", "versus", "respectively", "/", "or"])


def _pairs_inside(analysis: Analysis, refs: list[GroupRef], at: int) -> bool:
    """The parenthesis holding the number names a group or pairs values itself: "after
    matching (7,099 adults with A vs 20,834 without)" says the groups inside, so the words
    before the parenthesis do not."""
    tokens = analysis.tokens
    brackets = _BRACKETS.get(tokens, None, lambda: Brackets(tokens))
    pos = brackets.enclosing[at] if at < len(tokens) else brackets.last_open
    if pos < 0:
        return False
    close = brackets.next_close[pos]
    return any(pos < r.position < close for r in refs) or any(
        tokens[i].text.lower() in _PAIRING for i in range(pos + 1, close))


def described_group(analysis: Analysis, number: NumberMention) -> str | None:
    """The group whose description in parentheses holds the number (see below)."""
    clause = analysis.clause_of(number.span.start)
    if clause is None:
        return None
    lo, hi, _span = clause
    at = min(hi, max(lo, bisect.bisect_left(analysis.token_starts, number.span.start)))
    starts = [g.position for g in analysis.groups]
    refs = analysis.groups[bisect.bisect_left(starts, lo):bisect.bisect_left(starts, hi)]
    return _described_group(analysis, refs, at, lo)


def _described_group(analysis: Analysis, refs: list[GroupRef], at: int, lo: int
                     ) -> str | None:
    """A number inside the parenthesis that follows a group's name is that group's: "A
    (9,605 people, mean age 72.8, 45.7% men) versus B (166,545, ...)". Not when the
    parenthesis names a group itself ("(247 with cancer, 1,402 without)")."""
    tokens = analysis.tokens
    brackets = _BRACKETS.get(tokens, None, lambda: Brackets(tokens))
    pos = brackets.enclosing[at] if at < len(tokens) else brackets.last_open
    if pos < lo:
        return None
    close = brackets.next_close[pos]
    if any(pos < max(r.position, r.end) and r.position < close for r in refs) or any(
            tokens[i].text.lower() in _PAIRING for i in range(pos + 1, close)):
        return None  # "(247 with cancer, 1,402 without)", "(735,657 and 206,570)"
    owner = [r for r in refs if max(r.position, r.end) == pos - 1 and not r.between]
    return owner[-1].group if len(owner) == 1 and owner[0].group in (
        "intervention", "control") else None


class Brackets:
    """Where a token list opens and closes brackets, read in one pass: for each position the
    innermost bracket still open before it (-1: none), and the first closing bracket after
    it. The same answers as scanning back, counting closed pairs, from each number to its
    clause's start: one kind of bracket pairs the same way read either way, so the bracket a
    scan back from ``at`` stops at, if it lies inside the clause, is the one open at ``at``."""

    def __init__(self, tokens: Sequence[Token]) -> None:
        self.enclosing: list[int] = []
        stack: list[int] = []
        for pos, token in enumerate(tokens):
            self.enclosing.append(stack[-1] if stack else -1)
            if token.text in ")]":
                if stack:
                    stack.pop()
            elif token.text in "([":
                stack.append(pos)
        self.last_open = stack[-1] if stack else -1
        self.next_close: list[int] = [len(tokens)] * len(tokens)
        following = len(tokens)
        for pos in range(len(tokens) - 1, -1, -1):
            self.next_close[pos] = following
            if tokens[pos].text in ")]":
                following = pos


_BRACKETS: Memo[None, Brackets] = Memo()


_PHRASE_END = frozenset(["were", "was", "are", "is", "compared", "vs", "versus", "and", ",",
                         ";", "(", "than", "had"])
_ORDER_RE = re.compile(r"\b(intervention|treated|exposed|control|comparator|unexposed)\s*"
                       r"(?:group\s*)?(?:vs\.?|versus|and|/|compared\s+with)\s*"
                       r"(intervention|treated|exposed|control|comparator|unexposed)\b",
                       re.IGNORECASE)
_PAIR_GAP = re.compile(r"^\s*%?\s*(?:vs\.?|versus|and|compared\s+with|against|/)\s*$",
                       re.IGNORECASE)


def _baseline_sides(study: Study, number: NumberMention) -> list[tuple[str, str, str]]:
    """(characteristic, the group whose value it is, the other group) for a baseline value
    the number fits on one side only."""
    written = number.value * number.scale
    sides = []
    for name, base in study.baseline.items():
        fits_i = matches(written, number.decimals, base.intervention)
        fits_c = matches(written, number.decimals, base.control)
        if fits_i != fits_c:
            sides.append((name, "intervention" if fits_i else "control",
                          "control" if fits_i else "intervention"))
    return sides


def _declared_order(analysis: Analysis, number: NumberMention) -> tuple[str, str] | None:
    """The group order a "X vs Y" pair of values is written in, when the sentence says it:
    "(intervention vs control)", or "in A vs B" with A and B the two groups."""
    lo, hi = analysis.sentence_of(number.span.start)
    if hi <= lo:
        return None
    start, end = analysis.tokens[lo].start, analysis.tokens[hi - 1].end
    words = {"treated": "intervention", "exposed": "intervention", "comparator": "control",
             "unexposed": "control"}
    match = _ORDER_RE.search(analysis.text, start, end)
    if match is not None:
        first, second = (words.get(g.lower(), g.lower()) for g in match.groups())
        if first != second:
            return first, second
    return None


def baseline_swap(study: Study, analysis: Analysis, numbers: Numbers, number: NumberMention
                  ) -> NumberFinding | None:
    """A baseline value written for the other group ("85.0 in the control group" when 85.0
    is the intervention group's value, or an "X vs Y" pair in the reverse of its order)."""
    sides = _baseline_sides(study, number)
    if len(sides) != 1 or number.hedged:
        return None
    name, own, _other = sides[0]
    base = study.baseline[name]
    field = f"results.baseline_differences[{json.dumps(name)}]"
    # a value in a list ("142.7/86.5 vs 144.5/87.3") is placed by its declared order, or by
    # the groups named beside each value ("23.6% in the A group vs 34.0% with B")
    paired = numbers.in_list(number)
    group = _labelled_by_bracket(analysis, number) or (
        _pair_group(study, analysis, numbers, number, name) if paired
        else _group_of(analysis, number)) or (
        None if paired and _bracketed_pair(analysis, number)
        else _valued_group(analysis, number)) or described_group(analysis, number)
    if group is None or group == own:
        return None
    return NumberFinding(number.span, field, (
        f"{number.span.quote} is written for the {group} group, but in {field} = "
        f"{base.text!r} it is the {own} group's value"))


def _labelled_by_bracket(analysis: Analysis, number: NumberMention) -> str | None:
    """The group named alone in the bracket right after a value owns it: "median EF 28%
    (S/V) vs 25% (ACEI/ARB)" gives 25% to the ACEI/ARB group."""
    tokens = analysis.tokens
    at = bisect.bisect_left(analysis.token_starts, number.span.start)
    opened = at + 1 + (at + 1 < len(tokens) and tokens[at + 1].text == "%")
    if opened >= len(tokens) or tokens[opened].text != "(":
        return None
    inside = [g for g in analysis.groups if g.position == opened + 1]
    if len(inside) != 1 or inside[0].group not in ("intervention", "control"):
        return None
    close = max(inside[0].end, inside[0].position) + 1
    return inside[0].group if close < len(tokens) and tokens[close].text == ")" else None


def _bracketed_pair(analysis: Analysis, number: NumberMention) -> bool:
    """The number is one of a pair standing alone in a parenthesis that names no group
    ("older (mean age 44.9 vs 37.5 years)"): only a declared order says which value is
    whose; the groups named around the parenthesis do not."""
    tokens = analysis.tokens
    at = bisect.bisect_left(analysis.token_starts, number.span.start)
    brackets = _BRACKETS.get(tokens, None, lambda: Brackets(tokens))
    pos = brackets.enclosing[at] if at < len(tokens) else brackets.last_open
    if pos < 0:
        return False
    close = brackets.next_close[pos]
    named = any(pos < max(g.position, g.end) and g.position < close for g in analysis.groups
                if g.end >= g.position and not _is_unit_after_number(tokens, g))
    return not named


def _is_unit_after_number(tokens: Sequence[Token], ref: GroupRef) -> bool:
    """"37.5 years": a unit after a number measures it, whatever group name holds the word."""
    return ref.position > 0 and tokens[ref.position - 1].is_number and \
        tokens[ref.position].norm in _UNIT_WORDS


_UNIT_WORDS = frozenset(stem(w) for w in ["years", "year", "months", "month", "weeks", "week",
                                          "days", "day", "hours", "kg", "mg", "points"])


def _valued_group(analysis: Analysis, number: NumberMention) -> str | None:
    """The group a value is tied to by the layout of its clause: "41.2 years in the controls
    and 40.9 years in the patients with MS" (see ``group_values``)."""
    clause = analysis.clause_of(number.span.start)
    if clause is None:
        return None
    lo, hi, _ = clause
    starts = [g.position for g in analysis.groups]
    refs = analysis.groups[bisect.bisect_left(starts, lo):bisect.bisect_left(starts, hi)]
    values = group_values(analysis.tokens, refs, lo, hi)
    if values is None:
        return None
    at = bisect.bisect_left(analysis.token_starts, number.span.start)
    if at == values.intervention_at:
        return "intervention"
    if at == values.control_at:
        return "control"
    return None


def _pair_group(study: Study, analysis: Analysis, numbers: Numbers, number: NumberMention,
                name: str) -> str | None:
    """The group of a value in an "A vs B" pair of one characteristic, in a declared order."""
    order = _declared_order(analysis, number)
    if order is None:
        return None
    items = numbers.items
    at = numbers.at(number)
    if at is None:
        return None
    for partner, position in ((at + 1, 0), (at - 1, 1)):
        if not 0 <= partner < len(items):
            continue
        left, right = (number, items[partner]) if position == 0 else (items[partner], number)
        if not _PAIR_GAP.match(analysis.text[left.span.end:right.span.start]):
            continue
        # the partner must be a value of the same characteristic for the pair to be read
        if any(n == name for n, _, _ in _baseline_sides(study, items[partner])):
            return order[position]
    return None


_LIST_GAP = re.compile(r"^\s*%?\s*(?:/|,|;|and|or|vs\.?|versus|to)\s*$", re.IGNORECASE)
