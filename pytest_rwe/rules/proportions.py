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
from pytest_rwe.rules.number_mentions import NumberMention, numbers_in
from pytest_rwe.rules.outcomes import Mention
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
        counted = _count_beside(study, text, approximation)
        if counted is not None:
            share, written = counted
            if share is None or approximation.admits(share):
                return None
            return NumberFinding(approximation.span, "results.outcomes", (
                f'"{approximation.span.quote}" means {approximation.describe()}, but the '
                f"summary writes {written} beside it ({share:.3g}%)"))
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


# "about a third (16 people)", "seven in ten patients with X (80 of 114)": a count in the first
# bracket after a share in words, no other number between, is the count the share is of
_COUNT_BESIDE = re.compile(r"[^.;:()\d]{0,60}?\(\s*(?P<k>\d[\d,]*)(?:\s*(?:of|/|out\s+of)\s*"
                           r"(?P<n>\d[\d,]*))?(?:\s+[A-Za-z]+){0,2}\s*\)", re.IGNORECASE)


def _count_beside(study: Study, text: str, approximation: Approximation
                  ) -> tuple[float | None, str] | None:
    """The share a count beside a proportion in words makes: k of n as the summary writes
    it, or for a bare k the share of the study's outcome counted k whose share the word fits
    (None when one does). Nothing when there is no such count, or the study has no count k
    (the usual reading then applies)."""
    match = _COUNT_BESIDE.match(text, approximation.span.end)
    if match is None:
        return None
    events = float(match.group("k").replace(",", ""))
    written = match.group(0)[match.group(0).index("("):]
    if match.group("n"):
        total = float(match.group("n").replace(",", ""))
        return (100 * events / total, written) if 0 < events <= total else None
    shares = [o.count.percent for o in study.outcomes
              if o.count is not None and o.count.events == events]
    if not shares:
        return None
    fitting = [v for v in shares if approximation.admits(v)]
    return (None, written) if fitting else (shares[0], written)


def _approximated(analysis: Analysis, mention_starts: list[int],
                  approximation: Approximation) -> str | None:
    """The outcome (key) a proportion in words is about: the one whose estimate follows it
    ("about twice as high in overweight adults (PR 2.12)", "more than twice the odds of
    having both conditions (OR 2.17)"), else the name right after it, else the name before."""
    text = analysis.text
    inside = _estimate_inside(analysis, approximation)
    if inside is not None:
        return inside
    after_text = text[approximation.span.end:approximation.span.end + 120]
    # a line break ends a list item ("- Heart failure: HR 2.18, more than double\n- ..."),
    # so the next item's estimate is not this one's
    stop = re.search(r"[.;]\s|\n|\b(?:times|fold|twice|double\w*|half|thirds?|quarters?)\b",
                     after_text)  # the next proportion in words has its own estimate
    bracket = re.search(r"\(([^()]*)\)?", after_text[:stop.start() if stop else None])
    # "at BMI 30-34.9 (PR 3.21)", "2.7-fold hazard of X (95% CI 2.2-3.3)": the estimate or
    # the interval in the first bracket after it
    following = [n for n in numbers_in(bracket.group(1) if bracket else "") if n.decimals >= 1]
    # the upper end of a range in words ("two to almost three times (ORs 2.12 to 2.77)") is
    # about the largest estimate of the bracket, the last one written
    upper = _RANGE_UPPER.search(text[max(0, approximation.span.start - 24):
                                     approximation.span.start]) is not None
    anchor = following[-1:] if upper else following[:1]
    anchored = {key for key, fact in analysis.facts.items()
                if fact.point is not None and any(matches(n.value, n.decimals, fact.point)
                                                  for n in anchor)}
    if len(anchored) != 1:
        anchored = {key for key, fact in analysis.facts.items()
                    if fact.low is not None and fact.high is not None and len(following) >= 2
                    and matches(following[-2].value, following[-2].decimals, fact.low)
                    and matches(following[-1].value, following[-1].decimals, fact.high)}
    if len(anchored) == 1:
        return anchored.pop()
    # "2.5-fold at three months": a time point read as an outcome's name is not a name
    mentions = [m for m in sentence_mentions(analysis, mention_starts, approximation.span.start)
                if not _NUMBER_WORDS.fullmatch(m.span.quote.strip())]
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


_NUMBER_WORDS = re.compile(r"(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|"
                           r"eleven|twelve|eighteen|twenty|thirty|[\s-])+", re.IGNORECASE)
_RANGE_UPPER = re.compile(r"(?:(?:\b[a-z]+|\d(?:\.\d+)?%?)\s*(?:\bto|-)|\bbetween\s+\S+\s+and)\s*$",
                          re.IGNORECASE)


def _estimate_inside(analysis: Analysis, approximation: Approximation) -> str | None:
    """The outcome of the estimate a proportion in words stands beside in one bracket:
    "(OR 0.79, about a fifth lower)" is about the outcome whose estimate is 0.79."""
    text = analysis.text
    start = approximation.span.start
    opened = text.rfind("(", 0, start)
    if opened < 0 or start - opened > 60 or ")" in text[opened:start]:
        return None
    written = [n for n in numbers_in(text[opened + 1:start]) if n.decimals >= 1]
    keys = {key for key, fact in analysis.facts.items() if fact.point is not None
            and any(matches(n.value, n.decimals, fact.point) for n in written[:1])}
    return keys.pop() if len(keys) == 1 else None
