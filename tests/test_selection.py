"""Study tags and --rwe-select expressions."""

from __future__ import annotations

import copy

import pytest

from pytest_rwe.study import parse_study
from pytest_rwe.study.selection import (
    SelectError,
    parse_select,
    selected,
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
