"""Readings of where a number belongs that the numbers check asks about: a year written
short ("1990-94"), a name counted as several outcomes ("all three revascularisation
endpoints"), and the time point a sentence's last time phrase gives ("5-y ..., CVD HR 2.95")."""

from __future__ import annotations

import bisect
import dataclasses
import re

from pytest_rwe.rules.at_time import timepoint_days, times_before
from pytest_rwe.rules.claims import Analysis, study_reading
from pytest_rwe.rules.memo import Memo
from pytest_rwe.rules.name_index import Mention
from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.rules.strata import pick
from pytest_rwe.rules.text import STOPWORDS
from pytest_rwe.study import Outcome, Study

_YEAR_BEFORE = re.compile(r"\b(1[89]|20)(\d\d)\s*[-\u2013/]\s*$")


def full_year(text: str, number: NumberMention) -> NumberMention:
    """The second year of a span written short ("1990-94") as the year it stands for."""
    if number.decimals or number.is_percent or number.is_word or not 0 <= number.value < 100 \
            or len(number.span.quote) != 2:
        return number
    match = _YEAR_BEFORE.search(text[max(0, number.span.start - 8):number.span.start])
    if match is None or number.value <= int(match.group(2)):
        return number
    return dataclasses.replace(number, value=int(match.group(1)) * 100 + number.value)


_COUNTED = re.compile(r"\b(?:(?:all|both)(?:\s+(?:the\s+)?(?:two|three|four|five|six|\d+))?|"
                      r"the\s+(?:two|three|four|five|six|\d+))\s+$", re.IGNORECASE)


_COUNTED_MENTIONS: Memo[str, tuple[Mention, ...]] = Memo()


def _counted_mentions(analysis: Analysis) -> tuple[Mention, ...]:
    """The mentions written after "all three", "both", ...: read once per summary."""
    text = analysis.text
    return _COUNTED_MENTIONS.get(analysis, "", lambda: tuple(
        m for m in analysis.mentions
        if _COUNTED.search(text[max(0, m.span.start - 24):m.span.start])))


def with_counted(study: Study, analysis: Analysis, number: NumberMention, local: set[str]
                  ) -> set[str]:
    """"all three revascularisation endpoints (HR 1.42-1.50)": a name counted as several is
    every outcome whose name holds its words, so their values are its."""
    every = _counted_mentions(analysis)
    if not every:
        return local
    # the counted mentions of the number's sentence before it
    lo, _hi = analysis.sentence_of(number.span.start)
    start = analysis.tokens[lo].start if analysis.tokens else 0
    counted = [m for m in every if m.outcome.key in local
               and start <= m.span.start and m.span.end <= number.span.start]
    if not counted:
        return local
    names, _ = study_reading(study)
    wider = set(local)
    for mention in counted:
        words = set(names.names.get(mention.outcome.key, ()))
        wider |= {k for k, name in names.names.items() if words and words <= set(name)}
    return wider


_BY_KEY: Memo[str, dict[str, Outcome]] = Memo()


def _by_key(study: Study) -> dict[str, Outcome]:
    """The study's outcomes by key, built once per study."""
    return _BY_KEY.get(study, "", lambda: {o.key: o for o in study.outcomes})


def at_written_time(study: Study, analysis: Analysis, number: NumberMention,
                    local: set[str]) -> set[str]:
    """Of the outcomes a number is written for, one name at several time points ("CVD death"
    read as its 5- and 10-year results) keeps only the time points the sentence's last time
    phrase before the number gives ("10-yr: ..., CVD death HR 2.46" is the 10-year HR)."""
    if len(local) < 2:
        return local
    by_key = _by_key(study)
    names: dict[str, list[str]] = {}
    for key in local:
        if key in by_key:
            names.setdefault(by_key[key].name, []).append(key)
    if all(len(keys) < 2 for keys in names.values()):
        return local
    times = _times(analysis, number)
    kept = set(local)
    for keys in names.values():
        at = {k for k in keys if _at(by_key[k], times)}
        if len(keys) > 1 and at:
            kept -= set(keys) - at
    return kept


def _times(analysis: Analysis, number: NumberMention) -> frozenset[float]:
    lo, _hi = analysis.sentence_of(number.span.start)
    start = analysis.tokens[lo].start if analysis.tokens else 0
    return times_before(analysis.text[start:number.span.start])


def _at(outcome: Outcome, times: frozenset[float]) -> bool:
    days = timepoint_days(outcome)
    return days is not None and any(abs(days - t) <= 0.1 * t for t in times)


_LIST_BREAK = frozenset({",", ";", "(", ")", ":", "and", "vs", "versus", "or"})


def at_written_stratum(study: Study, analysis: Analysis, number: NumberMention,
                       local: set[str]) -> set[str]:
    """Of the outcomes a number is written for, the subgroups of one base keep only those
    whose qualifier the words right after the number write ("prevalence: 7.8% in the
    H. pylori-negative, 8.9% in the H. pylori-positive")."""
    index, _ = study_reading(study)
    families: dict[str, list[str]] = {}
    for key in local:
        if key in index.qualifiers and index.bases.get(key):
            families.setdefault(index.bases[key], []).append(key)
    if all(len(keys) < 2 for keys in families.values()):
        return local
    tokens = analysis.tokens
    lo = bisect.bisect_left(analysis.token_starts, number.span.end)
    _first, last = analysis.sentence_of(number.span.start)
    hi = lo
    while hi < min(last, lo + 8) and tokens[hi].norm not in _LIST_BREAK \
            and not (hi > lo and tokens[hi].is_number):
        hi += 1

    def matches(norm: str, word: str) -> bool:
        return word in index.words_matching(norm)

    kept = set(local)
    for keys in families.values():
        chosen = pick(sorted(keys), index.qualifiers, tokens, lo, hi, matches)
        if len(keys) > 1 and chosen and len(chosen) < len(keys):
            kept -= set(keys) - set(chosen)
    return kept


def interrupted(analysis: Analysis, mention: Mention) -> bool:
    """The name was found with a word of the summary's own inside it ("deaths from heart
    causes" read as all-cause death): the reading is not sure."""
    positions = set(mention.positions)
    return any(analysis.tokens[p].norm not in STOPWORDS and analysis.tokens[p].text[:1].isalpha()
               for p in range(mention.positions[0], mention.positions[-1] + 1)
               if p not in positions)


def at_time_written(study: Study, analysis: Analysis, number: NumberMention,
                     keys: set[str]) -> bool:
    """Every outcome of ``keys`` is at a time point the sentence's last time phrase before
    the number gives."""
    times = _times(analysis, number)
    by_key = _by_key(study)
    return bool(times) and all(k in by_key and _at(by_key[k], times) for k in keys)
