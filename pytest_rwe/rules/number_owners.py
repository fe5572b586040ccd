"""Which outcomes a written number is for: those named before it in its sentence (since the
last closed bracket), whether that is certain, and whether another outcome the juror did not
find may be named there instead (so a value of that outcome is not called moved)."""

from __future__ import annotations

import bisect
import re

from pytest_rwe.rules.claims import Analysis, study_reading
from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.rules.number_reading import interrupted
from pytest_rwe.rules.proportions import outcome_name, sentence_bounds
from pytest_rwe.study import Study

_NAME_THEN_BRACKET = re.compile(
    r"\s*(?:(?!(?:and|or|vs|versus|than|but)\b)[\w-]+\s+){0,4}\([^()]*", re.IGNORECASE)


def local_outcomes(analysis: Analysis, mention_starts: list[int], number: NumberMention
                    ) -> tuple[set[str], bool]:
    """The outcomes a number is written for: those named since the last ")" before it.

    The second value is True when that is certain: the number directly follows the full
    names of its outcomes ("hypokalemia (HR 2.72"), so a value of any other outcome is wrong.
    A bound after "all", "both" or "each" ("all had p < 0.001") is for every outcome the
    sentence names.
    """
    # index ranges of analysis.mentions, not copies: a sentence may name hundreds of outcomes
    first, last = sentence_bounds(analysis, mention_starts, number.span.start)
    mentions = analysis.mentions
    # mentions are in text order: those before the number are a prefix of the sentence's
    cut = bisect.bisect_left(mention_starts, number.span.start, first, max(first, last))
    while cut > first and mentions[cut - 1].span.end > number.span.start:
        cut -= 1
    if cut == first and cut < last and _bracket_closes_before(
            analysis.text, number.span.start, mentions[cut].span.start):
        # "in K-ODI was -0.94 (95% CI -3.00 to 1.12) and in EQ-5D 0.00": a bracket is about
        # what stands before it, so the outcome named after it is not this number's
        return set(), False
    if cut == first or _ALL_BEFORE.search(analysis.text[max(0, number.span.start - 24):
                                                        number.span.start]):
        return {m.outcome.key for m in mentions[first:last]}, False
    lo, _hi = analysis.sentence_of(number.span.start)
    start = analysis.tokens[lo].start if analysis.tokens else 0
    close = analysis.text.rfind(")", start, number.span.start)
    segment = mentions[bisect.bisect_left(mention_starts, close + 1, first, cut):cut]
    # "dementia HR 0.60 (0.40-0.89), p < 0.01": after the name's own bracket, still its
    # number, unless a list or a clause break comes between
    nearest = mentions[cut - 1:cut]
    if not segment and nearest and re.fullmatch(
            r"[^;()]*(?:\([^()]*\)[^;()]*)?", analysis.text[nearest[0].span.end:
                                                            number.span.start]):
        segment = nearest
    chosen = segment or mentions[first:cut]
    # "hypokalemia (HR 2.72", "gout at 30 days (RR 1.97": the name, a few words, then the
    # bracket; not "death rates, and 20% fewer heart attacks (HR 0.80"
    sure = all(m.full and not interrupted(analysis, m) for m in segment)
    strict = bool(segment) and sure and bool(
        _NAME_THEN_BRACKET.fullmatch(analysis.text, segment[-1].span.end, number.span.start))
    return {m.outcome.key for m in chosen}, strict


def _bracket_closes_before(text: str, at: int, end: int) -> bool:
    """The number at ``at`` stands inside a bracket that closes before ``end``."""
    depth = 0
    for char in text[at:end]:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return True
    return False


_ALL_BEFORE = re.compile(r"\b(?:all|both|each|every|either)\b[^.;()]{0,16}$", re.IGNORECASE)


_ESTIMATES = re.compile(r"\([^()]*\d[.\u00b7]\d[^()]*\)")


def named_near(study: Study, analysis: Analysis, number: NumberMention, local: set[str],
                keys: set[str], strict: bool) -> bool:
    """A word of another outcome's name (one the named outcomes do not have) stands before
    the number: in its own segment ("any bleeding (...) or BARC 2, 3 or 5 bleeding (HR
    0.85") or, less sure, in its clause ("counselling or therapy and psychotropic use ...
    (OR 1.51 and 1.56)"). The number may then be that outcome's, whose name the juror did
    not find."""
    names, _ = study_reading(study)
    words = {w for k in keys for w in names.names.get(k, ())} - {
        w for k in local for w in names.names.get(k, ())}
    if not words:
        return False
    if _named_by_shared_words(study, analysis, number, local, keys):
        return True
    clause = analysis.clause_of(number.span.start)
    start = clause[2].start if clause else 0
    if strict:
        # the segment starts after the previous outcome's estimates "(HR 0.91, 0.78-1.06)";
        # a label in brackets ("clinically relevant (BARC 2/3/5) bleeding") does not end it
        for match in _ESTIMATES.finditer(analysis.text, start, number.span.start):
            start = match.end()
    lo = bisect.bisect_left(analysis.token_starts, start)
    hi = bisect.bisect_left(analysis.token_starts, number.span.start)
    return any(names.words_matching(t.norm) & words or t.norm in words
               for t in analysis.tokens[lo:hi])


def _named_by_shared_words(study: Study, analysis: Analysis, number: NumberMention,
                           local: set[str], keys: set[str]) -> bool:
    """The outcome named last before the number was found through none of its own words (a
    synonym: "Ca death (HR 5.33)", "mortality (HR 1.44)" read as "fatal ... bleeding"), and
    the words read all name the outcome the number belongs to ("cancer death", "all-cause
    death"): the number may be that outcome's."""
    mentions = analysis.mentions
    at = bisect.bisect_left(mentions, number.span.start, key=lambda m: m.span.end)
    last = next((m for m in reversed(mentions[max(0, at - 4):at]) if m.outcome.key in local),
                None)
    if last is None:
        return False
    written = {analysis.tokens[p].text.lower() for p in last.positions}
    if not written or written & _name_words(study, last.outcome.key):
        return False  # "revascularization (HR 1.50)": its own word names it
    names, _ = study_reading(study)
    read = {analysis.tokens[p].norm for p in last.positions}
    return any(read <= set(names.names.get(k, ())) for k in keys - local)


def _name_words(study: Study, key: str) -> set[str]:
    return set(re.findall(r"\w+", outcome_name(study, key).lower()))
