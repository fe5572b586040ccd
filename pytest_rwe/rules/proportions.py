"""Proportions in words checked against the outcome they are about: "twice the risk of X"
against X's ratio, "three quarters of patients (81.3%)" against the share written beside it
(the tolerances are in :mod:`pytest_rwe.rules.approximate`)."""

from __future__ import annotations

import bisect
import json
import re

from pytest_rwe.rules.analysis import Analysis
from pytest_rwe.rules.approximate import Approximation, candidate_values
from pytest_rwe.rules.index import StudyIndex, matches
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.text import NumberMention, numbers_in
from pytest_rwe.study import Study


def sentence_mentions(analysis: Analysis, mention_starts: list[int], char: int
                      ) -> list[Mention]:
    """The outcome mentions in the sentence holding ``char`` (``mention_starts`` sorted)."""
    first, last = sentence_bounds(analysis, mention_starts, char)
    return analysis.mentions[first:last]


def sentence_bounds(analysis: Analysis, mention_starts: list[int], char: int
                    ) -> tuple[int, int]:
    """Where :func:`sentence_mentions` starts and ends in ``analysis.mentions`` (no copy)."""
    lo, hi = analysis.sentence_of(char)
    if hi <= lo:
        return 0, 0
    start, end = analysis.tokens[lo].start, analysis.tokens[hi - 1].end
    return bisect.bisect_left(mention_starts, start), bisect.bisect_right(mention_starts, end)


def outcome_name(study: Study, key: str) -> str:
    """The study's name of the outcome ``key`` (the key itself when it has none)."""
    return next((o.name for o in study.outcomes if o.key == key), key)


def check_approximation(study: Study, analysis: Analysis, index: StudyIndex,
                         mention_starts: list[int], approximation: Approximation
                         ) -> NumberFinding | None:
    """"twice the risk of X" against X's ratio, "three quarters of patients (81.3%)" against
    the share written beside it; nothing when no outcome is named near it."""
    text = analysis.text
    if approximation.kind == "share":
        beside = _percent_beside(text, approximation)
        if beside is not None:
            if approximation.admits(beside.value):
                return None
            return NumberFinding(approximation.span, "results.outcomes", (
                f'"{approximation.span.quote}" means {approximation.describe()}, but the '
                f"summary writes {beside.span.quote}% beside it"))
    key = _approximated(analysis, mention_starts, approximation)
    if key is None:
        return None
    fact = analysis.facts.get(key)
    ratios = [fact.point] if fact is not None and fact.is_ratio and fact.point is not None else []
    percents = [e.value for e in index.of_outcomes([key], "percent")]
    values = candidate_values(approximation, ratios, percents)
    if not values or any(approximation.admits(v) for v in values):
        return None
    field = (f"results.outcomes[{json.dumps(fact.key + '!' + (fact.measure or '*'))}]"
             if fact is not None else "results.outcomes")
    shown = fact.shown() if fact is not None else ""
    return NumberFinding(approximation.span, field, (
        f'"{approximation.span.quote}" means {approximation.describe()}, but the study '
        f"reports {shown} for {outcome_name(study, key)}"))


def _percent_beside(text: str, approximation: Approximation) -> NumberMention | None:
    """The share a summary writes right beside a proportion in words: "three quarters of
    the detachments (13/16, 81.3%)", "just over half (53.8%)"."""
    after = text[approximation.span.end:approximation.span.end + 48]
    match = re.match(r"[^.;()]{0,30}?\((?:[^()%]*?[,;]\s*)?(\d+(?:\.\d+)?)\s*%", after)
    if match is None:
        return None
    found = [n for n in numbers_in(after[:match.end()]) if n.is_percent]
    return found[-1] if found else None


def _approximated(analysis: Analysis, mention_starts: list[int],
                  approximation: Approximation) -> str | None:
    """The outcome (key) a proportion in words is about: the one whose estimate follows it
    ("about twice as high in overweight adults (PR 2.12)", "more than twice the odds of
    having both conditions (OR 2.17)"), else the name right after it, else the name before."""
    text = analysis.text
    after_text = text[approximation.span.end:approximation.span.end + 120]
    stop = re.search(r"[.;]\s|\b(?:times|fold|twice|double\w*|half|thirds?|quarters?)\b",
                     after_text)  # the next proportion in words has its own estimate
    bracket = re.search(r"\(([^()]*)\)?", after_text[:stop.start() if stop else None])
    # "at BMI 30-34.9 (PR 3.21)", "2.7-fold hazard of X (95% CI 2.2-3.3)": the estimate or
    # the interval in the first bracket after it
    following = [n for n in numbers_in(bracket.group(1) if bracket else "") if n.decimals >= 1]
    anchored = {key for key, fact in analysis.facts.items()
                if fact.point is not None and any(matches(n.value, n.decimals, fact.point)
                                                  for n in following[:1])}
    if len(anchored) != 1:
        anchored = {key for key, fact in analysis.facts.items()
                    if fact.low is not None and fact.high is not None and len(following) >= 2
                    and matches(following[-2].value, following[-2].decimals, fact.low)
                    and matches(following[-1].value, following[-1].decimals, fact.high)}
    if len(anchored) == 1:
        return anchored.pop()
    mentions = sentence_mentions(analysis, mention_starts, approximation.span.start)
    if not mentions:
        return None
    after = [m for m in mentions if m.span.start >= approximation.span.end]
    if after and after[0].span.start - approximation.span.end < 60:
        return after[0].outcome.key
    before = [m for m in mentions if m.span.start < approximation.span.start]
    if before:
        return before[-1].outcome.key
    # a mention inside the approximation's own words is neither before nor after it
    return after[0].outcome.key if after else None
