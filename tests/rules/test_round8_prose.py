"""builtin/rules, issue 14 round 8: readings of hand-written prose, each a rule of English
about how summaries state results, with invented outcomes and groups (not copied from a
labeled set)."""

from __future__ import annotations

from typing import Any

from test_rules_completeness_round7 import _pain_series
from twin_studies import binary_study

from pytest_rwe.rules import judge
from pytest_rwe.study import Study, parse_study


def direction(s: Study, text: str) -> int:
    return judge(s, text, "direction_of_effect").score


def test_a_describing_bracket_is_part_of_a_long_heading() -> None:
    """"Series X (n = 120, adults, score >= 4 at baseline; mean score 6.1): ..." is a long
    heading, its bracket describes the population: the heading is its own clause, so what
    follows the colon is not read together with it, while a heading whose brackets hold
    only estimates stays one clause with the result after its colon (round 7)."""
    text = ("Nerve block X series (n = 120, adults with knee pain, pain score >= 4 at "
            "baseline; mean baseline pain score 6.8): at 12 weeks, mean pain score change "
            "-2.4 (p < 0.001), i.e. a meaningful improvement for a population with three or "
            "more prior surgeries on average.")
    assert judge(_pain_series(), text, "completeness").score == 0
    s = binary_study(("stroke", "HR", "1.25 (1.05, 1.50)", "0.01"),
                     ("gout", "HR", "1.17 (1.02, 1.33)", "0.02"))
    note = "- Stroke (HR 1.25, 1.05-1.50) and gout (aOR 1.17): higher with {}\n"
    assert direction(s, note.format("placebo")) == 0
    assert direction(s, note.format("drug A")) == 1
