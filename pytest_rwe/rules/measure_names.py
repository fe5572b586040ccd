"""Outcomes a summary names by how they are measured rather than by their own words.

- A pain scale ("VAS", "NRS", "visual analogue scale") names the study's one outcome of pain:
  "VAS scores were lower with A" for "pain intensity". Never when the scale is said to
  measure something else ("the VAS for nausea", "satisfaction VAS") or the study has two
  outcomes of pain (the scale does not say which).
- A stay whose length is the outcome ("length of hospital stay", "duration of
  hospitalization") is named by the stay itself when a word of length is said of it:
  "hospitalization was shorter with A", "a shorter hospitalization". "Hospitalization was
  less frequent" is about admissions, not their length, and is left alone.

Each is read only where no outcome was found at those words, so a name the summary writes
out always wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_rwe.rules.name_index import Mention
from pytest_rwe.rules.text import Span, Token
from pytest_rwe.study import Outcome, Study

__all__ = ["measure_mentions"]

_PAIN = re.compile(r"\bpain", re.IGNORECASE)
_SCALES = frozenset(["vas", "nrs", "vrs"])
# "visual analogue scale", "numerical rating scale": the first word of a spelled-out scale
_SPELLED = re.compile(r"(?:visual\s+analog(?:ue)?|numeric(?:al)?\s+rating|verbal\s+rating)\s+"
                      r"scales?\b", re.IGNORECASE)
# words before a scale that keep it about pain or about nothing in particular
_PLAIN_BEFORE = frozenset(["the", "a", "mean", "median", "average", "pain", "on", "by", "in",
                           "of", "(", ",", "and", "lower", "higher", "reduced", "total",
                           "postoperative", "resting", "rest"])
_STAY = re.compile(r"\b(?:length|duration)\s+of\s+(?:(?:the\s+)?hospital\s+)?(?:stay|"
                   r"hospitali[sz]ation)|\bhospital\s+stay|\bhospitali[sz]ation\s+(?:length|"
                   r"duration|time)", re.IGNORECASE)
_LENGTH_WORDS = frozenset(["shorter", "longer", "shortened", "prolonged", "lengthened",
                           "briefer", "shortest", "longest"])
_BETWEEN_STAY_AND_LENGTH = frozenset(["was", "were", "is", "for", "significantly", "statistically",
                                      "also", "markedly", "the", "a", "their", "significant"])


def _one(study: Study, pattern: re.Pattern[str]) -> Outcome | None:
    matching = [o for o in study.outcomes if pattern.search(o.name)]
    return matching[0] if len(matching) == 1 else None


def _scale_positions(text: str, tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """(first, last) token positions of each pain scale written in the text."""
    out = [(p, p) for p, t in enumerate(tokens) if t.text.lower() in _SCALES and t.text.isupper()]
    starts = {t.start: p for p, t in enumerate(tokens)}
    ends = {t.end: p for p, t in enumerate(tokens)}
    for match in _SPELLED.finditer(text):
        first, last = starts.get(match.start()), ends.get(match.end())
        if first is not None and last is not None:
            out.append((first, last))
    return sorted(out)


def _about_pain(tokens: Sequence[Token], first: int, last: int) -> bool:
    """The scale measures pain or nothing named: no other word qualifies it ("nausea VAS",
    "VAS for nausea", "VAS satisfaction")."""
    before = tokens[first - 1].text.lower() if first else "("
    if before not in _PLAIN_BEFORE and not before[:1].isdigit():
        return False
    nxt = tokens[last + 1].text.lower() if last + 1 < len(tokens) else ""
    if nxt in ("for", "of"):
        return last + 2 < len(tokens) and tokens[last + 2].text.lower() == "pain"
    return not nxt[:1].isalpha() or nxt in ("score", "scores", "was", "were", "values",
                                             "ratings", "rating", "pain", "decreased",
                                             "increased", "reduced", "at", "in", "than",
                                             "with", "compared", "measurements")


def _stay_positions(tokens: Sequence[Token]) -> list[int]:
    """Words of hospitalization with a word of length said of them: "hospitalization was
    (significantly) shorter", "shorter hospitalization", "hospital stay was longer"."""
    out = []
    for pos, token in enumerate(tokens):
        word = token.text.lower()
        if not word.startswith("hospitali"):
            continue
        if pos and tokens[pos - 1].text.lower() in _LENGTH_WORDS:
            out.append(pos)
            continue
        after = pos + 1
        while after < len(tokens) and tokens[after].text.lower() in _BETWEEN_STAY_AND_LENGTH:
            after += 1
        if after < len(tokens) and after > pos + 1 and \
                tokens[after].text.lower() in _LENGTH_WORDS:
            out.append(pos)
    return out


def measure_mentions(study: Study, text: str, tokens: Sequence[Token],
                     mentions: list[Mention]) -> list[Mention]:
    """``mentions`` with the outcomes named by their measure added, in text order."""
    taken = {p for m in mentions for p in m.positions}
    extra: list[Mention] = []
    pain = _one(study, _PAIN)
    if pain is not None and not any(m.outcome.key == pain.key for m in mentions):
        for first, last in _scale_positions(text, tokens):
            if taken.isdisjoint(range(first, last + 1)) and _about_pain(tokens, first, last):
                extra.append(_mention(pain, tokens, text, first, last))
    stay = _one(study, _STAY)
    if stay is not None and not any(m.outcome.key == stay.key for m in mentions):
        extra += [_mention(stay, tokens, text, p, p) for p in _stay_positions(tokens)
                  if p not in taken]
    if not extra:
        return mentions
    return sorted(mentions + extra, key=lambda m: m.positions[0])


def _mention(outcome: Outcome, tokens: Sequence[Token], text: str, first: int, last: int
             ) -> Mention:
    start, end = tokens[first].start, tokens[last].end
    return Mention(outcome, tuple(range(first, last + 1)), Span(start, end, text[start:end]),
                   False)
