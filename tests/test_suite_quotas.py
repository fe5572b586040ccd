"""The public suite's breadth (issue 15's quotas) and every curated number's provenance.

The quotas keep the overall means from measuring one template in one therapeutic area; the
provenance checks keep every number traceable: a location for each value and a second
person's check of it.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pytest_rwe.study import Measure, Study, load_folder
from pytest_rwe.study.selection import HARD_OUTCOMES, source_collection, study_tags

SUITE = Path(__file__).resolve().parent.parent / "cases" / "studies"


@pytest.fixture(scope="module")
def studies() -> list[Study]:
    return [load.study for load in load_folder(SUITE) if load.study is not None]


def _source(study: Study) -> dict[str, Any]:
    source = study.raw.get("source")
    return source if isinstance(source, dict) else {}


def _literature(studies: list[Study]) -> list[Study]:
    return [s for s in studies if source_collection(s) == "literature"
            and not s.id.startswith("legend_htn_")]


def _publication(study: Study) -> str:
    source = _source(study)
    for key in ("doi", "pmcid", "pmid", "title"):
        if source.get(key):
            return str(source[key]).lower()
    raise AssertionError(f"{study.path}: no doi, pmcid, pmid or title")


def test_size_and_breadth(studies: list[Study]) -> None:
    literature = _literature(studies)
    assert len(studies) >= 150
    assert len(literature) >= 100, "at least 100 studies not from LEGEND-HTN"
    assert len({_publication(s) for s in literature}) >= 50
    areas = {study_tags(s)["area"][0] for s in studies} - {"unknown"}
    assert len(areas) >= 15, sorted(areas)


def test_designs_and_subsets(studies: list[Study]) -> None:
    designs = Counter(s.design for s in studies)
    assert designs["case_series"] >= 20 and designs["cross_sectional"] >= 20
    profiles = Counter(study_tags(s)["significance"][0] for s in studies)
    assert profiles["all"] >= 25, "studies whose outcomes are all significant"
    assert profiles["none"] >= 25, "studies whose outcomes are all non-significant"
    assert sum(len(s.outcomes) >= HARD_OUTCOMES for s in studies) >= 15, "the hard subset"
    assert sum(any(o.timepoint for o in s.outcomes) for s in studies) >= 20


def test_every_measure_is_exercised(studies: list[Study]) -> None:
    counts: Counter[str] = Counter()
    for study in studies:
        for outcome in study.outcomes:
            counts.update(m.value for m in outcome.estimates)
            counts[Measure.N.value] += outcome.count is not None
    for measure in ("OR", "HR", "RR", "MD", "N", "PCT"):
        assert counts[measure] >= 20, f"{measure}: {counts[measure]} outcomes"


def test_every_area_is_named(studies: list[Study]) -> None:
    unnamed = [s.id for s in studies if study_tags(s)["area"] == ("unknown",)]
    assert unnamed == [], "add source.therapeutic_area"


def test_every_curated_number_has_a_location_and_a_second_check(studies: list[Study]) -> None:
    for study in _literature(studies):
        source = _source(study)
        where = f"{study.path}: source"
        locations = source.get("locations")
        assert isinstance(locations, dict), f"{where}.locations is missing"
        results = study.raw["results"]
        wanted = [f"results.{k}" for k in ("intervention_size", "control_size")
                  if results.get(k) is not None]
        wanted += [f"results.baseline_differences.{k}" for k in results["baseline_differences"]]
        wanted += [f"results.outcomes.{k}" for k in results["outcomes"]]
        missing = [k for k in wanted if k not in locations]
        assert missing == [], f"{where}.locations has no entry for {missing}"
        verified = source.get("verified")
        assert isinstance(verified, dict), f"{where}.verified is missing"
        assert verified.get("by") and verified.get("by") != source.get("curated_by"), (
            f"{where}.verified.by must name someone other than the curator")
        assert verified.get("result") in ("all match", "corrected", "partly checked"), where
        if verified["result"] == "partly checked":
            assert verified.get("unchecked"), f"{where}.verified.unchecked must list what"


def test_the_sources_table_in_cases_readme_is_current() -> None:
    script = SUITE.parents[1] / "scripts" / "list_sources.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
