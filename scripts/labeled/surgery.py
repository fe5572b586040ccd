"""Text surgery on a summary: find where it reports an outcome, cut a sentence or list item.

Works on any summary that copies a study's numbers verbatim: this script's sentences and the
builtin template summarizer's lists ("a higher risk of A (...), B (...), and C (...)").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from labeled.base import (
    CRITERIA,
    display_name,
    number_re,
    numbers_of,
    outcome_numbers,
    prompt_numbers,
    timepoint_phrase,
)
from pytest_rwe.study import Outcome, Study

# ---------------------------------------------------------------- text surgery

Span = tuple[int, int]
_SEP_RE = re.compile(r", and |, | and ")


def sentence_spans(text: str) -> list[Span]:
    spans, start = [], 0
    for match in re.finditer(r"(?<=[.!?])\s+(?=[A-Z])", text):
        spans.append((start, match.start()))
        start = match.end()
    return [*spans, (start, len(text))] if start < len(text) else spans


def has_all(text: str, nums: Sequence[str]) -> bool:
    return bool(nums) and all(re.search(number_re(n), text) for n in nums)


def name_re(o: Outcome) -> str:
    """The outcome's name as the builtin summarizer or this script writes it."""
    names = sorted({o.name + timepoint_phrase(o.timepoint), display_name(o)}, key=len, reverse=True)
    return r"(?i:\b(?:" + "|".join(r"\s+".join(map(re.escape, n.split())) for n in names) + r"))"


@dataclass(frozen=True)
class Mention:
    """Where a summary reports an outcome: the parenthesis with its numbers, in a sentence."""

    paren: Span
    sentence: Span
    full: bool  # the estimate is written (not only the p-value)


def find_mention(text: str, o: Outcome) -> Mention | None:
    """The one parenthesis holding all of ``o``'s numbers, or only its p-value right after
    its name (a list of non-significant outcomes); None when absent or ambiguous."""
    full, hits = outcome_numbers(o), []
    for sent in sentence_spans(text):
        for g in re.finditer(r"\([^()]*\)", text[sent[0]:sent[1]]):
            span = (sent[0] + g.start(), sent[0] + g.end())
            if has_all(g[0], full):
                hits.append(Mention(span, sent, True))
            elif (o.p is not None and len(numbers_of(g[0])) == 1
                  and has_all(g[0], numbers_of(o.p.text))
                  and re.search(name_re(o) + r"\s*$", text[sent[0]:span[0]])):
                hits.append(Mention(span, sent, False))
    return hits[0] if len(hits) == 1 else None


def _items(study: Study, text: str, sent: Span) -> list[tuple[Outcome, Mention]] | None:
    """The outcomes reported in a sentence, in order; None if a parenthesis after the first
    one belongs to no outcome (the sentence cannot be cut into items safely)."""
    found = [(x, m) for x in study.outcomes if (m := find_mention(text, x)) and m.sentence == sent]
    found.sort(key=lambda item: item[1].paren[0])
    if not found:
        return None
    parens = {m.paren for _, m in found}
    for g in re.finditer(r"\([^()]*\)", text[found[0][1].paren[0]:sent[1]]):
        start = found[0][1].paren[0] + g.start()
        if (start, start + len(g[0])) not in parens:
            return None
    return found


def item_region(study: Study, text: str, o: Outcome) -> tuple[Mention, Span] | None:
    """The outcome's mention and the words that introduce it (since the previous item)."""
    m = find_mention(text, o)
    items = _items(study, text, m.sentence) if m else None
    if m is None or items is None:
        return None
    before = [x.paren[1] for _, x in items if x.paren[1] <= m.paren[0]]
    return m, (max(before, default=m.sentence[0]), m.paren[0])


def _normalize_list(study: Study, text: str, sentence_start: int) -> str:
    """Rewrite the separators of a list of outcomes as 'A and B' or 'A, B, and C'."""
    sent = next(s for s in sentence_spans(text) if s[0] == sentence_start)
    items = _items(study, text, sent) or []
    n = len(items)
    for k in range(n - 2, -1, -1):
        sep = _SEP_RE.match(text, items[k][1].paren[1])
        if sep is None:
            continue
        want = " and " if n == 2 else (", and " if k == n - 2 else ", ")
        text = text[:sep.start()] + want + text[sep.end():]
    return text


def drop_mention(study: Study, text: str, o: Outcome) -> tuple[str, int, bool] | None:
    """Remove the sentence or list item reporting ``o``. Returns the new text, the offset of
    the sentence it was in, and whether that whole sentence went."""
    region = item_region(study, text, o)
    if region is None:
        return None
    m = region[0]
    items = _items(study, text, m.sentence)
    assert items is not None
    s0, s1 = m.sentence
    if len(items) == 1:
        end = s1
        while end < len(text) and text[end].isspace():
            end += 1
        return (text[:s0] + text[end:]).rstrip(), s0, True
    idx = [x.key for x, _ in items].index(o.key)
    seps = [_SEP_RE.match(text, mm.paren[1]) for _, mm in items[:-1]]
    if any(sep is None for sep in seps):
        return None
    if idx > 0:
        sep = seps[idx - 1]
        assert sep is not None
        text = text[:sep.start()] + text[m.paren[1]:]
    else:
        first_sep, second = seps[0], items[1][0]
        assert first_sep is not None
        phrase = text[first_sep.end():items[1][1].paren[0]]
        at = re.search(name_re(second), phrase)
        if at is None:
            return None
        prefix = re.sub(r"(higher|lower|increase|decrease)", "(?:higher|lower|increase|decrease)",
                        re.escape(phrase[:at.start()]))
        start = re.search(prefix + name_re(o) + r"[^()]*$", text[s0:m.paren[0]])
        if start is None:
            return None
        text = text[:s0 + start.start()] + text[first_sep.end():]
    return _normalize_list(study, text, s0), s0, False


def insert_sentence(text: str, at: int, whole: bool, sentence: str) -> str:
    """Put ``sentence`` where a removed sentence was, or after the sentence starting at ``at``."""
    if whole:
        return (text[:at] + sentence + " " + text[at:]).rstrip() if at < len(text) else \
            (text + " " + sentence).strip()
    end = next(s[1] for s in sentence_spans(text) if s[0] == at)
    return text[:end] + " " + sentence + text[end:]


@dataclass(frozen=True)
class Labeled:
    """A summary under construction, its labels, and what was done to it."""

    text: str
    labels: tuple[int, int, int]
    kinds: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    touched: frozenset[str] = frozenset()

    def edit(self, text: str, kind: str, note: str, target: str, zero: str | None) -> Labeled:
        assert text != self.text, f"mutation {kind} did not change the text"
        labels = tuple(0 if zero == c else v for c, v in zip(CRITERIA, self.labels, strict=True))
        return Labeled(text, (labels[0], labels[1], labels[2]), (*self.kinds, kind),
                       (*self.notes, note), self.touched | {target})


def replace_number(text: str, span: Span, num: str, new: str, nth: int = 0) -> str:
    """Replace the ``nth`` whole-number occurrence of ``num`` inside ``span``."""
    hits = list(re.finditer(number_re(num), text[span[0]:span[1]]))
    hit = hits[min(nth, len(hits) - 1)]
    return text[:span[0] + hit.start()] + new + text[span[0] + hit.end():]


def decimals(num: str) -> int:
    return len(num.split(".")[1]) if "." in num else 0


def fresh_number(study: Study, candidates: Sequence[float], decimals: int, old: str) -> str | None:
    """The first candidate, formatted, that differs from ``old`` beyond rounding and is no
    number of the prompt (so it cannot pass as a value attached elsewhere)."""
    taken = prompt_numbers(study)
    for value in candidates:
        text = f"{value:.{decimals}f}"
        if float(text) not in taken and abs(float(text) - float(old)) >= 2.5 * 10 ** -decimals:
            return text
    return None


def null_of(o: Outcome) -> float:
    return 1.0 if o.effect_measure is not None and o.effect_measure.is_ratio else 0.0
