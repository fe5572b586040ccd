"""The committed public case suite: it loads, it is varied, and it matches its build script."""

from __future__ import annotations

import csv
import json
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pytest_rwe.study import DESIGNS, Study, load_folder

ROOT = Path(__file__).resolve().parent.parent
STUDIES = ROOT / "cases" / "studies"
LEGEND = ROOT / "cases" / "sources" / "legend-htn-bp"
SCRIPT = ROOT / "scripts" / "build_legend_cases.py"
BUILT_BY = "scripts/build_legend_cases.py"


def _studies() -> list[Study]:
    loads = load_folder(STUDIES)
    return [load.study for load in loads if load.study is not None]


def _source(study: Study) -> dict[str, Any]:
    source = study.raw.get("source")
    return source if isinstance(source, dict) else {}


def _legend(studies: list[Study]) -> list[Study]:
    return [s for s in studies if _source(s).get("built_by") == BUILT_BY]


def _has_no_significant_outcome(study: Study) -> bool:
    """Reports p-values, and none of them is below 0.05."""
    return study.has_pvalues and not any(o.significant for o in study.outcomes)


def _words(name: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", name.lower())


def _read(name: str) -> list[dict[str, str]]:
    with (LEGEND / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_suite_loads_without_errors() -> None:
    errors = [load.error.render() for load in load_folder(STUDIES) if load.error is not None]
    assert errors == []


def test_suite_is_large_and_covers_every_design() -> None:
    studies = _studies()
    assert len(studies) >= 40
    assert set(Counter(s.design for s in studies)) == set(DESIGNS)


def test_suite_has_studies_without_a_significant_outcome() -> None:
    negatives = [s.id for s in _studies() if _has_no_significant_outcome(s)]
    assert len(negatives) >= 5, negatives


def test_every_study_names_its_source() -> None:
    locators = {"doi", "pmid", "pmcid", "url", "urls_seen", "repository"}
    for study in _studies():
        source = _source(study)
        assert source.get("title"), f"{study.path}: source.title is missing"
        assert locators & set(source), f"{study.path}: source has none of {sorted(locators)}"
        assert source.get("notes"), f"{study.path}: source.notes is missing"


def test_legend_studies_mix_significant_and_non_significant_outcomes() -> None:
    legend = _legend(_studies())
    assert len(legend) >= 32
    for study in legend:
        source = _source(study)
        assert source["license"] == "Apache License 2.0"
        assert source["rows"]["type"] in source["notes"]
        assert 4 <= len(study.outcomes) <= 10, study.id
        flags = [o.significant for o in study.outcomes]
        assert None not in flags, f"{study.id}: every LEGEND outcome carries a p-value"
        if source["selection"] == "all_non_significant":
            assert not any(flags), study.id
        else:
            assert source["selection"] == "mixed"
            assert any(flags) and not all(flags), study.id
    assert sum(_source(s)["selection"] == "all_non_significant" for s in legend) >= 3


def test_legend_studies_cover_each_comparison_in_one_direction() -> None:
    balance_pairs = {(int(r["targetId"]), int(r["comparatorId"])) for r in _read("Balance.csv")}
    assert len(balance_pairs) == 16
    built = {(_source(s)["rows"]["targetId"], _source(s)["rows"]["comparatorId"])
             for s in _legend(_studies())}
    assert built == balance_pairs


def test_legend_numbers_and_directions_match_the_source_rows() -> None:
    rows = _read("HrsData_all.csv")
    index = {(r["targetId"], r["comparatorId"], r["outcomeId"], r["type"], r["estimate"]): r
             for r in rows}
    names = {(r["targetId"], r["comparatorId"]): (r["targetName"], r["comparatorName"])
             for r in _read("Balance.csv")}
    for study in _legend(_studies()):
        sel = _source(study)["rows"]
        t, c = str(sel["targetId"]), str(sel["comparatorId"])
        assert (study.picot["intervention"], study.picot["control"]) == names[(t, c)]
        assert len(sel["outcomeIds"]) == len(study.outcomes)
        for outcome_id, outcome in zip(sel["outcomeIds"], study.outcomes, strict=True):
            raw = index[(t, c, str(outcome_id), sel["type"], sel["estimate"])]
            mirror = index[(c, t, str(outcome_id), sel["type"], sel["estimate"])]
            assert _words(raw["outcomeName"]) == _words(outcome.name)
            rr, p = float(raw["rr"]), float(raw["p"])
            # The mirrored row is the same analysis seen from the other side.
            assert math.isclose(float(mirror["rr"]), 1 / rr, rel_tol=1e-6)
            effect = outcome.effect
            assert effect is not None and outcome.p is not None
            assert effect.value == pytest.approx(rr, abs=0.005)
            assert effect.ci_low == pytest.approx(float(raw["ci95lb"]), abs=0.005)
            assert effect.ci_high == pytest.approx(float(raw["ci95ub"]), abs=0.005)
            expected = "higher" if rr > 1 else "lower"
            assert outcome.direction in (expected, "none"), f"{study.id}: {outcome.name}"
            assert outcome.significant == (p < 0.05), f"{study.id}: {outcome.name}"


@pytest.mark.parametrize(("target", "comparator", "outcome", "higher"), [
    ("1", "4", "Angioedema", True),  # ACE inhibitors vs ARBs: the known ACE-inhibitor harm
    ("1", "4", "Cough", True),
    ("1", "15", "Hypokalemia", False),  # ACE inhibitors vs thiazides
    ("1", "15", "Hyperkalemia", True),
    ("974166", "1395058", "Hypokalemia", False),  # hydrochlorothiazide vs chlorthalidone
])
def test_hazard_ratio_is_target_versus_comparator(
    target: str, comparator: str, outcome: str, higher: bool
) -> None:
    """Known pharmacology fixes the orientation: rr is the target's hazard over the comparator's."""
    (row,) = [r for r in _read("HrsData_all.csv")
              if (r["targetId"], r["comparatorId"], r["outcomeName"].strip()) ==
              (target, comparator, outcome)
              and r["type"] == "Original" and r["estimate"] == "Uncalibrated"]
    assert (float(row["rr"]) > 1) is higher
    assert float(row["p"]) < 0.001


def test_legend_baselines_are_the_after_stratification_means() -> None:
    balance = {(r["targetId"], r["comparatorId"], r["covariateName"]): r
               for r in _read("Balance.csv")}
    for study in _legend(_studies()):
        sel = _source(study)["rows"]
        for key, covariate in (("systolic_bp_mmhg", "BP systolic"),
                               ("diastolic_bp_mmhg", "BP diastolic")):
            row = balance[(str(sel["targetId"]), str(sel["comparatorId"]), covariate)]
            values = study.baseline[key]
            assert values.control == pytest.approx(float(row["afterMatchingMeanComparator"]),
                                                   abs=0.05)
            assert values.intervention == pytest.approx(float(row["afterMatchingMeanTarget"]),
                                                        abs=0.05)


def test_build_script_reproduces_the_committed_legend_files(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    built = {p.name: p.read_bytes() for p in tmp_path.glob("*.json")}
    committed = {p.name: p.read_bytes() for p in STUDIES.glob("*.json")
                 if json.loads(p.read_text(encoding="utf-8")).get("source", {}).get("built_by")
                 == BUILT_BY}
    assert sorted(built) == sorted(committed), "rerun: python scripts/build_legend_cases.py"
    for name, data in built.items():
        assert data == committed[name], f"{name} differs; rerun: python {BUILT_BY}"
