"""Study files: the typed objects parsed from them and the errors a broken file gets."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from pytest_rwe.study import Measure, StudyFileError, load_folder, load_study, parse_study


def test_parses_typed_outcomes(cohort_raw: dict[str, object]) -> None:
    study = parse_study(cohort_raw)
    assert (study.intervention_size, study.control_size) == (1523, 1498)
    asthma, fev1 = study.outcomes
    assert asthma.name == "ip visit for asthma"
    assert (asthma.timepoint, asthma.kind, asthma.effect_measure) == ("3yrs", "bin", Measure.OR)
    assert asthma.direction == "lower" and asthma.significant is False
    assert fev1.kind == "cont" and fev1.effect_measure is Measure.MD
    assert fev1.direction == "lower" and fev1.significant is True and fev1.must_report
    assert study.baseline["age_mean"].intervention == 71.2047
    assert study.raw is cohort_raw  # kept for rendering the original structure


def test_case_series_without_control(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["design"] = "case_series"
    raw["results"]["control_size"] = None  # type: ignore[index]
    raw["results"]["baseline_differences"] = {}  # type: ignore[index]
    raw["results"]["outcomes"] = {  # type: ignore[index]
        "outcome.readmission_bin!N": "4/13",
        "outcome.readmission_bin!PCT": "30.8",
        "outcome_6mo.hba1c_change_cont!MD": "-0.6",
        "outcome_6mo.hba1c_change_cont!pvalue": "<0.0001",
    }
    study = parse_study(raw)
    readmission, hba1c = study.outcomes
    assert readmission.count is not None and readmission.count.total == 13
    assert readmission.effect is None and readmission.direction is None
    assert hba1c.effect is not None and hba1c.effect.ci_low is None
    assert hba1c.direction == "lower" and hba1c.significant


def test_case_series_with_a_control_size_is_an_error(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["design"] = "case_series"
    with pytest.raises(StudyFileError, match=r"\$\.results\.control_size.*set control_size"):
        parse_study(raw)


def test_every_problem_is_named_with_path_and_fix(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["design"] = "rct"
    raw["results"]["intervention_size"] = "many"  # type: ignore[index]
    raw["results"]["outcomes"]["outcome.x_bin!HR"] = "1.2 (0.9"  # type: ignore[index]
    raw["results"]["outcomes"]["outcome.y_bin!XR"] = "1.2"  # type: ignore[index]
    with pytest.raises(StudyFileError) as info:
        parse_study(raw, "studies/demo.json")
    text = str(info.value)
    assert text.startswith("studies/demo.json: invalid study file")
    assert "$.design" in text and "cohort, case_series, cross_sectional" in text
    assert "$.results.intervention_size" in text and "whole number" in text
    assert '$.results.outcomes["outcome.x_bin!HR"]' in text and "est (lo, hi)" in text
    assert '$.results.outcomes["outcome.y_bin!XR"]' in text and "unknown measure" in text


def test_pvalue_without_estimate(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["results"]["outcomes"] = {"outcome.z_bin!pvalue": "0.01"}  # type: ignore[index]
    with pytest.raises(StudyFileError, match="has a p-value but no estimate"):
        parse_study(raw)


def test_load_errors_name_file_and_position(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x",\n  "design": }', encoding="utf-8")
    with pytest.raises(StudyFileError) as info:
        load_study(bad)
    assert str(bad) in str(info.value) and "line 2" in str(info.value)


def test_folder_keeps_going_past_a_bad_file(tmp_path: Path, cohort_raw: dict[str, object]) -> None:
    (tmp_path / "a.json").write_text(json.dumps(cohort_raw), encoding="utf-8")
    other = copy.deepcopy(cohort_raw)
    other["id"] = "other"
    (tmp_path / "b.json").write_text(json.dumps(other), encoding="utf-8")
    (tmp_path / "c.json").write_text("[]", encoding="utf-8")
    (tmp_path / "d.json").write_text(json.dumps(cohort_raw), encoding="utf-8")  # duplicate id
    os.utime(tmp_path / "d.json", ns=(2_000_000_000_000_000_000, 2_000_000_000_000_000_000))
    loads = load_folder(tmp_path)
    assert [load.study is not None for load in loads] == [True, True, False, False]
    assert "one JSON object" in str(loads[2].error)
    assert "already used" in str(loads[3].error)


def test_curated_studies_parse() -> None:
    # the published studies curated by hand (not built by a script)
    folder = Path(__file__).resolve().parents[1] / "cases" / "studies"
    loads = [load for load in load_folder(folder)
             if load.study is not None and "built_by" not in load.study.raw["source"]]
    assert len(loads) >= 100
    designs = {load.study.design for load in loads if load.study is not None}
    assert designs == {"cohort", "case_series", "cross_sectional"}


def test_a_duplicate_id_fails_the_newcomer_and_names_both(
        tmp_path: Path, cohort_raw: dict[str, object]) -> None:
    established, newcomer = tmp_path / "zeta.json", tmp_path / "alpha.json"
    established.write_text(json.dumps(cohort_raw), encoding="utf-8")
    newcomer.write_text(json.dumps(cohort_raw), encoding="utf-8")
    # the newcomer sorts first by name but is younger: it is the one that fails
    os.utime(established, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    os.utime(newcomer, ns=(2_000_000_000_000_000_000, 2_000_000_000_000_000_000))
    by_name = {load.path.name: load for load in load_folder(tmp_path)}
    assert by_name["zeta.json"].study is not None
    error = str(by_name["alpha.json"].error)
    assert "alpha.json" in error and "zeta.json" in error and "$.id" in error


@pytest.mark.parametrize(("key", "name", "timepoint"), [
    ("outcome_mortality_bin!OR", "mortality", None),
    ("outcome_30d_mortality_bin!OR", "mortality", "30d"),
    ("outcome_2nd_stroke_bin!OR", "2nd stroke", None),
    ("outcome.mortality_bin!OR", "mortality", None),
])
def test_keys_without_a_time_segment_or_a_dot(
        cohort_raw: dict[str, object], key: str, name: str, timepoint: str | None) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["results"]["outcomes"] = {key: "0.80 [0.70-0.95]"}  # type: ignore[index]
    (outcome,) = parse_study(raw).outcomes
    assert (outcome.name, outcome.timepoint, outcome.kind) == (name, timepoint, "bin")
    assert outcome.effect_measure is Measure.OR and outcome.effect is not None
    assert outcome.effect.text == "0.80 (0.70, 0.95)"


def test_rate_ratios_and_risk_differences(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["results"]["outcomes"] = {  # type: ignore[index]
        "outcome.infection_bin!IRR": "1.40 (1.10, 1.80)",
        "outcome.infection_bin!pvalue": "0.006",
        "outcome.death_bin!RD": "-2.1 (-3.5, -0.7)",
    }
    infection, death = parse_study(raw).outcomes
    assert infection.effect_measure is Measure.IRR and Measure.IRR.is_ratio
    assert infection.direction == "higher" and infection.significant is True
    assert death.effect_measure is Measure.RD and Measure.RD.is_difference
    assert death.direction == "lower"


def test_a_ratio_cannot_be_negative(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["results"]["outcomes"] = {"outcome.death_bin!HR": "-0.2 (-0.5, 0.1)"}  # type: ignore[index]
    with pytest.raises(StudyFileError, match=r"ratio and cannot be zero or negative.*!MD or !RD"):
        parse_study(raw)


def test_picot_as_a_list_says_the_shape_without_internal_names(
        cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    raw["picot"] = ["Adults", "Drug A", "Drug B", "Asthma", "3 years"]
    with pytest.raises(StudyFileError) as info:
        parse_study(raw)
    message = str(info.value)
    assert '$.picot: expected an object, got list; write an object {"population"' in message
    assert "_Picot" not in message and "instance" not in message

def test_a_measure_given_twice_is_an_error(cohort_raw: dict[str, object]) -> None:
    raw = copy.deepcopy(cohort_raw)
    outcomes = raw["results"]["outcomes"]  # type: ignore[index]
    key = next(k for k in outcomes if k.endswith("!OR"))
    outcomes[key[:-2] + "or"] = "0.5 (0.3, 0.9)"  # the same measure in other letters
    with pytest.raises(StudyFileError, match=r"given twice; keep one"):
        parse_study(raw)
