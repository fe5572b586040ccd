"""The Evidence Inference calibration set: built as documented, labels by construction, and
the rules juror measured on it offline (the CI step of ``rwe calibrate`` on the built set)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_rwe.cli import main
from pytest_rwe.rules.truth import read_facts
from pytest_rwe.study import load_folder

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "cases" / "golden" / "labeled" / "evidence_inference"
LINES = SET / "validation.jsonl"
STUDIES = SET / "validation"
# Regression floors for builtin/rules on the validation twins, a few catches below issue 14's
# round 7 (131/195, 69/101, 5 of 296 agreeing twins with a false alarm; docs/jury.md): a
# change that loses more than a few catches, or raises false alarms, fails here.
MIN_INCREASE_DECREASE_CAUGHT = 0.66
MIN_SIGNIFICANCE_CAUGHT = 0.66
MAX_AGREEING_FALSE_ALARMS = 0.04


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_evidence_inference", ROOT / "scripts" / "build_evidence_inference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_evidence_inference", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in LINES.read_text(encoding="utf-8").splitlines()]


def test_every_line_has_its_study_and_every_study_is_valid(lines: list[dict[str, Any]]) -> None:
    loads = load_folder(STUDIES)
    assert [str(x.error) for x in loads if x.error] == []
    ids = {x.study.id for x in loads if x.study}
    assert {line["study_id"] for line in lines} == ids
    assert len({line["summary_id"] for line in lines}) == len(lines) == len(ids)
    assert not (ROOT / "cases" / "studies" / "evidence_inference").exists()


def test_labels_follow_the_twins_results(lines: list[dict[str, Any]]) -> None:
    """The documented table: direction 0 only for a contradicted increase or decrease,
    completeness 0 only for a significant twin of "no significant difference", and never a
    numbers label; each twin's study agrees or disagrees with the doctors as it says."""
    studies = {x.study.id: x.study for x in load_folder(STUDIES) if x.study}
    for line in lines:
        _, twin, label = line["origin"].split(":")
        study = studies[line["study_id"]]
        (fact,) = read_facts(study).values()
        assert study.raw["source"]["split"] == "validation"
        assert study.raw["source"]["twin"] == twin
        assert set(line["labels"]) == {"direction_of_effect", "completeness"}, line
        if label == "no_significant_difference":
            assert fact.significant is (twin == "contradict")
            assert line["labels"] == {"direction_of_effect": 1,
                                      "completeness": 0 if twin == "contradict" else 1}
        else:
            assert fact.significant is True
            said = "higher" if label == "significantly_increased" else "lower"
            assert (fact.direction == said) is (twin == "agree")
            assert line["labels"] == {"direction_of_effect": 1 if twin == "agree" else 0,
                                      "completeness": 1}


def test_the_direction_screen_leaves_out_what_only_a_reader_can_label() -> None:
    states = _builder().states_direction
    assert not states("There was no significant difference between the groups (p = 0.24).")
    assert not states("Drug A did not significantly increase mortality.")
    assert not states("Pain scores were similar in the three groups.")
    assert states("X was slightly lower in group A, but not significantly (p = 0.25).")
    assert states("HbA1c decreased in both groups (p = 0.4 between groups).")
    assert states("It tended to improve recovery, though not significantly.")


def test_the_committed_set_is_what_the_script_builds() -> None:
    builder = _builder()
    if not (builder.DEFAULT_DATA / "annotations.csv").exists():
        pytest.skip(f"the Evidence Inference data is not at {builder.DEFAULT_DATA}")
    assert builder.main(["--check"]) == 0


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["calibrate", str(LINES), "--cases", str(STUDIES), "--jury",
                     "builtin/rules", "--json", "--by-origin", "--resamples", "200"])
    assert code == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def _share(cells: list[dict[str, int]], key: str) -> float:
    return sum(c[key] for c in cells) / sum(c["n"] for c in cells)


def test_rules_juror_on_the_validation_twins(figures: dict[str, Any]) -> None:
    origins = figures["by_origin"]
    increase_decrease = [origins[f"evidence_inference:contradict:significantly_{kind}"]
                         ["direction_of_effect"] for kind in ("increased", "decreased")]
    significance = [origins["evidence_inference:contradict:no_significant_difference"]
                    ["completeness"]]
    agreeing = [cell for origin, per in origins.items() if ":agree:" in origin
                for cell in per.values()]
    assert _share(increase_decrease, "caught") >= MIN_INCREASE_DECREASE_CAUGHT
    assert _share(significance, "caught") >= MIN_SIGNIFICANCE_CAUGHT
    assert _share(agreeing, "false_alarms") <= MAX_AGREEING_FALSE_ALARMS  # per label
    coverage = figures["coverage"]["builtin/rules"]
    assert 0 < coverage["grounded"] <= coverage["claims"]
    assert figures["jurors"]["builtin/rules"]["direction_of_effect"]["abstained"] == 0


def test_agreeing_twins_rarely_raise_a_false_alarm(lines: list[dict[str, Any]]) -> None:
    """Per twin: a false alarm on either criterion counts once."""
    from pytest_rwe.rules import judge

    studies = {x.study.id: x.study for x in load_folder(STUDIES) if x.study}
    agreeing = [line for line in lines if ":agree:" in line["origin"]]
    alarms = sum(1 for line in agreeing
                 if any(judge(studies[line["study_id"]], line["text"], c).score == 0
                        for c in line["labels"]))
    assert alarms / len(agreeing) <= MAX_AGREEING_FALSE_ALARMS
