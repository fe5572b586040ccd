"""Study tags and --rwe-select expressions."""

from __future__ import annotations

import copy

import pytest

from pytest_rwe.study import parse_study
from pytest_rwe.study.selection import (
    SelectError,
    describe,
    parse_select,
    selected,
    selection_problem,
    significance_profile,
    study_tags,
)


def test_tags_of_a_cohort(cohort_raw: dict[str, object]) -> None:
    tags = study_tags(parse_study(cohort_raw))
    assert tags == {"id": ("demo_cohort",), "design": ("cohort",), "measure": ("MD", "OR"),
                    "area": ("unknown",), "source": ("literature",), "hard": ("false",),
                    "timepoints": ("true",), "significance": ("mixed",)}


def test_source_area_and_hard_subset(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["source"] = {"built_by": "scripts/build_legend_cases.py", "therapeutic_area": "Cardiology"}
    raw["results"]["outcomes"] = {  # type: ignore[index]
        f"outcome.o{i}_bin!HR": "0.9 (0.8, 1.1)" for i in range(9)}
    tags = study_tags(parse_study(raw))
    assert (tags["source"], tags["area"], tags["hard"]) == (("legend-htn",), ("cardiology",),
                                                             ("true",))
    assert tags["significance"] == ("unreported",)
    raw["source"] = {"collection": "My-Pipeline"}
    assert study_tags(parse_study(raw))["source"] == ("my-pipeline",)


@pytest.mark.parametrize(("pvalues", "profile"), [
    (["0.01", "<0.001"], "all"), (["0.2", "0.05"], "none"), (["0.01", "0.3"], "mixed"),
])
def test_significance_profiles(cohort_raw: dict[str, object], pvalues: list[str],
                               profile: str) -> None:
    raw = copy.deepcopy(cohort_raw)
    outcomes: dict[str, str] = {}
    for i, p in enumerate(pvalues):
        outcomes[f"outcome.o{i}_bin!OR"] = "1.5"
        outcomes[f"outcome.o{i}_bin!pvalue"] = p
    raw["results"]["outcomes"] = outcomes  # type: ignore[index]
    assert significance_profile(parse_study(raw)) == profile


def test_select_expressions(cohort_raw: dict[str, object]) -> None:
    study = parse_study(cohort_raw)
    assert selected(study, [])
    assert selected(study, parse_select(["design=cohort,measure=HR|OR"]))
    assert selected(study, parse_select(["id=demo_*", "source!=legend-htn"]))
    assert not selected(study, parse_select(["design=case_series"]))
    assert not selected(study, parse_select(["measure!=md"]))  # case-insensitive
    assert not selected(study, parse_select(["design=cohort", "hard=true"]))  # every one holds


@pytest.mark.parametrize(("expression", "message"), [
    ("design", "cannot read 'design'; write key=value"),
    ("colour=red", "unknown key 'colour'; use one of id, design"),
    ("design=", "cannot read 'design='"),
])
def test_bad_select_expressions_say_the_fix(expression: str, message: str) -> None:
    with pytest.raises(SelectError, match="--rwe-select: " + message):
        parse_select([expression])


TAG_SETS = [
    {"id": ("a_cohort",), "design": ("cohort",), "measure": ("HR", "OR")},
    {"id": ("b_series",), "design": ("case_series",), "measure": ("PCT",)},
]


def test_a_selection_that_keeps_a_study_has_no_problem() -> None:
    assert selection_problem([], TAG_SETS) is None
    assert selection_problem(parse_select(["design=case_series"]), TAG_SETS) is None
    assert selection_problem(parse_select(["measure=h*|pct"]), TAG_SETS) is None


@pytest.mark.parametrize(("expression", "message"), [
    ("design=cohrot", "design=cohrot matches no study; known values: case_series, cohort; "
                      "did you mean cohort?"),
    ("design!=cohrot", "design!=cohrot matches no study"),  # a typo that deselects nothing
    ("measure=HR|IRR", "measure=irr matches no study; known values: hr, or, pct"),
])
def test_a_value_no_study_has_names_the_key_the_values_and_the_fix(
        expression: str, message: str) -> None:
    problem = selection_problem(parse_select([expression]), TAG_SETS)
    assert problem is not None and problem.startswith("--rwe-select: " + message)
    assert "Fix the value or drop the condition (keys: id, design, measure" in problem


def test_a_selection_of_no_study_is_a_problem() -> None:
    problem = selection_problem(parse_select(["design=cohort", "measure=pct"]), TAG_SETS)
    assert problem == (
        "--rwe-select design=cohort,measure=pct selects none of the 2 studies: a run on no "
        "study would pass on no evidence. Every condition must hold at once; loosen one "
        "(key=a|b takes either value), or check the values with rwe validate")


def test_long_value_lists_are_cut() -> None:
    tag_sets = [{"id": (f"study_{i:03d}",)} for i in range(40)]
    problem = selection_problem(parse_select(["id=stuyd_001"]), tag_sets)
    assert problem is not None
    assert "study_011, ... (40 in all); did you mean study_001" in problem
    assert "study_012" not in problem.split("did you mean")[0]
    assert describe(parse_select(["id=A|b", "source!=legend-htn"])) == (
        "id=a|b,source!=legend-htn")
