"""numbers_accurate: fixes of session 9 (each test fails when its fix breaks). The studies and
sentences are invented for these tests, not copied from a labeled set."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge_all
from pytest_rwe.study import Study, parse_study


def _study(sizes: tuple[int, int]) -> Study:
    raw: dict[str, Any] = {
        "id": "round8", "design": "cohort", "question": "Does rehabilitation help survivors?",
        "picot": {"population": "98 adults followed up after a hospital stay",
                  "intervention": "Pulmonary rehabilitation (five sessions) during convalescence",
                  "control": "No pulmonary rehabilitation", "outcome": "walk distance",
                  "timeframe": "six months"},
        "results": {"intervention_size": sizes[0], "control_size": sizes[1],
                    "baseline_differences": {},
                    "outcomes": {"outcome.walk_distance_cont!MD": "123 (66, 181)",
                                 "outcome.walk_distance_cont!pvalue": "<0.001"}}}
    return parse_study(raw)


def test_a_size_beside_a_group_of_unknown_side_is_no_swap_and_no_crash() -> None:
    """"no PR n=71" is read as a group whose side is unknown: the size's group cannot be
    told, so it is neither a swap nor (as it was) a KeyError that errors the whole pair."""
    for text in ("98 survivors; PR group n=27 vs no PR n=71.",
                 "- PR group n=27 vs no PR n=71\n- walk distance rose by 123 m (p<0.001)"):
        verdicts = judge_all(_study((27, 71)), text)
        assert verdicts["numbers_accurate"].score == 1, text
