"""The labeled set of summaries (cases/golden/labeled): shape, coverage, reproducibility and
labels that hold by construction."""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pytest_rwe.study import Outcome, Study, load_study

ROOT = Path(__file__).resolve().parent.parent
LABELED = ROOT / "cases" / "golden" / "labeled"
STUDIES = ROOT / "cases" / "studies"
CRITERIA = ("direction_of_effect", "numbers_accurate", "completeness")
# Which label each mutation breaks (None: the mutation keeps the summary correct).
BREAKS = {
    "base": None, "omit_nonsignificant": None, "round": None,
    "flip_direction": "direction_of_effect", "nonsig_to_sig": "direction_of_effect",
    "drop_significant": "completeness",
    "change_estimate": "numbers_accurate", "change_ci": "numbers_accurate",
    "change_pvalue": "numbers_accurate", "swap_sizes": "numbers_accurate",
    "change_size": "numbers_accurate", "swap_baseline": "numbers_accurate",
}
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_DIRECTION = re.compile(r"\b(higher|lower|increase|decrease)\b")


def _listed() -> set[str]:
    """The studies the mutation set is built from (cases/golden/labeled/mutation_studies.txt)."""
    lines = (line.split("#", 1)[0].strip()
             for line in (LABELED / "mutation_studies.txt").read_text("utf-8").splitlines())
    return {line for line in lines if line}


def _read(path: Path) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            pytest.fail(f"{path.name}:{n} is not valid JSON ({exc.msg}); write one object a line")
    return rows


@pytest.fixture(scope="module")
def builder() -> Iterator[ModuleType]:
    """scripts/build_labeled_set.py imported as a module (its helpers live beside it)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    yield importlib.import_module("build_labeled_set")
    sys.path.remove(str(ROOT / "scripts"))


@pytest.fixture(scope="module")
def mutations() -> list[dict[str, Any]]:
    return _read(LABELED / "mutations.jsonl")


@pytest.fixture(scope="module")
def prose() -> list[dict[str, Any]]:
    return _read(LABELED / "prose.jsonl")


@pytest.fixture(scope="module")
def studies() -> dict[str, Study]:
    return {p.stem: load_study(p) for p in sorted(STUDIES.glob("*.json"))}


def test_every_line_has_the_documented_shape(
    mutations: list[dict[str, Any]], prose: list[dict[str, Any]]
) -> None:
    for row in mutations + prose:
        where = row.get("summary_id", row)
        assert set(row) <= {"study_id", "summary_id", "text", "labels", "origin", "note"}, where
        assert isinstance(row["text"], str) and row["text"].strip(), where
        assert set(row["labels"]) == set(CRITERIA), where
        assert all(v in (0, 1) for v in row["labels"].values()), where
        assert row["origin"] == "prose" or row["origin"].startswith("mutation:"), where


def test_ids_are_unique_and_studies_exist(
    mutations: list[dict[str, Any]], prose: list[dict[str, Any]], studies: dict[str, Study]
) -> None:
    ids = Counter(row["summary_id"] for row in mutations + prose)
    assert [i for i, n in ids.items() if n > 1] == []
    by_id = {s.id for s in studies.values()}
    assert {row["study_id"] for row in mutations + prose} - by_id == set()


def test_coverage(
    mutations: list[dict[str, Any]], prose: list[dict[str, Any]], studies: dict[str, Study]
) -> None:
    rows = mutations + prose
    design = {s.id: s.design for s in studies.values()}
    assert len(rows) >= 300
    assert len({r["study_id"] for r in rows}) >= 30
    assert {design[r["study_id"]] for r in rows} == {"cohort", "cross_sectional", "case_series"}
    for criterion in CRITERIA:  # both classes present, so sensitivity and specificity exist
        assert Counter(r["labels"][criterion] for r in rows)[0] >= 30, criterion


def test_prose_coverage(prose: list[dict[str, Any]], studies: dict[str, Study]) -> None:
    design = {s.id: s.design for s in studies.values()}
    assert len(prose) >= 60
    assert all(r["origin"] == "prose" for r in prose)
    assert len({r["study_id"] for r in prose}) >= 15
    non_cohort = {s.id for s in studies.values() if s.design != "cohort"
                  and s.id in _listed()}
    assert non_cohort <= {r["study_id"] for r in prose}, "every case series and cross-sectional"
    correct = [r for r in prose if all(v == 1 for v in r["labels"].values())]
    assert len(correct) >= 30
    for row in prose:
        assert row.get("note"), f"{row['summary_id']}: say why it is labelled so"
        zeros = [c for c in CRITERIA if row["labels"][c] == 0]
        # Prose errors are single errors; correct lines say what makes them hard.
        assert len(zeros) <= 1, row["summary_id"]
        assert row["note"].startswith("correct") == (not zeros), row["summary_id"]
    assert Counter(design[r["study_id"]] for r in prose)["case_series"] >= 3


def test_rebuilding_reproduces_the_committed_file(builder: ModuleType) -> None:
    text = builder.render(builder.build(builder.load_studies(STUDIES)))
    committed = (LABELED / "mutations.jsonl").read_text(encoding="utf-8")
    assert text == committed, "stale: run python scripts/build_labeled_set.py and commit the file"


def _kinds(row: dict[str, Any]) -> list[str]:
    return str(row["origin"]).removeprefix("mutation:").split("+")


def _base_of(row: dict[str, Any], mutations: list[dict[str, Any]]) -> dict[str, Any]:
    style = row["summary_id"].split("#", 1)[1].split("-")[1]
    return next(r for r in mutations if r["study_id"] == row["study_id"]
                and r["summary_id"].endswith(f"-{style}-base"))


def _prompt_numbers(study: Study) -> set[float]:
    blob = json.dumps([study.question, dict(study.picot), study.raw["results"]])
    return {float(n.replace(",", "")) for n in _NUMBER.findall(blob)}


def _numbers(text: str) -> list[float]:
    """The numbers of a summary, without the "95" of "95% CI"."""
    text = re.sub(r"\b95% CI", "CI", text)
    return [float(n.replace(",", "")) for n in _NUMBER.findall(text)]


def test_labels_follow_from_the_mutations(mutations: list[dict[str, Any]]) -> None:
    for row in mutations:
        kinds = _kinds(row)
        assert set(kinds) <= set(BREAKS), f"{row['summary_id']}: unknown mutation {kinds}"
        broken = {BREAKS[k] for k in kinds} - {None}
        want = {c: 0 if c in broken else 1 for c in CRITERIA}
        assert row["labels"] == want, row["summary_id"]
        if kinds != ["base"]:
            assert row["text"] != _base_of(row, mutations)["text"], row["summary_id"]


def _outcome(study: Study, note: str, what: str) -> Outcome:
    match = re.search(re.escape(what) + r": [^\[]*\[([^\]]+)\]", note)
    assert match is not None, f"note does not name the outcome key: {note}"
    return next(o for o in study.outcomes if o.key == match.group(1))


def _names(o: Outcome) -> set[str]:
    unit = {"mo": "months", "yrs": "years", "y": "years", "d": "days"}
    time = re.fullmatch(r"(\d+)([a-z]+)", o.timepoint or "")
    suffix = f" at {time.group(1)} {unit.get(time.group(2), time.group(2))}" if time else ""
    return {(o.name + suffix).lower()}


def test_dropped_significant_outcomes_are_really_gone(
    mutations: list[dict[str, Any]], studies: dict[str, Study]
) -> None:
    dropped = [r for r in mutations if "drop_significant" in _kinds(r)]
    assert len(dropped) >= 30
    for row in dropped:
        study = studies[row["study_id"]]
        o = _outcome(study, row["note"], "significant outcome dropped")
        assert o.must_report and row["labels"]["completeness"] == 0
        text = row["text"].lower()
        # Remove the names of other outcomes that contain this one ("ischemic stroke").
        for other in study.outcomes:
            for name in _names(other):
                if other.key != o.key and any(n in name for n in _names(o)):
                    text = text.replace(name, "")
        for name in _names(o):
            assert not re.search(r"\b" + re.escape(name) + r"\b", text), (row["summary_id"], name)


def test_single_mutations_touch_only_their_criterion(
    mutations: list[dict[str, Any]], studies: dict[str, Study]
) -> None:
    for row in mutations:
        kinds, base = _kinds(row), _base_of(row, mutations)
        study = studies[row["study_id"]]
        if len(kinds) != 1 or kinds == ["base"]:
            continue
        kind, where = kinds[0], row["summary_id"]
        if BREAKS[kind] != "numbers_accurate":
            # No new number: every number is the prompt's (or an accurate rounding of one).
            prompt = _prompt_numbers(study)
            for value in _numbers(row["text"]):
                assert value in prompt or any(abs(value - p) < 0.051 for p in prompt), where
        else:
            assert _numbers(row["text"]) != _numbers(base["text"]), where  # in order: swaps too
            assert _DIRECTION.findall(row["text"]) == _DIRECTION.findall(base["text"]), where
        if kind == "flip_direction":
            assert sorted(_numbers(row["text"])) == sorted(_numbers(base["text"])), where
            assert _DIRECTION.findall(row["text"]) != _DIRECTION.findall(base["text"]), where
        if kind == "nonsig_to_sig":
            o = _outcome(study, row["note"], "non-significant outcome called significant")
            assert o.p is not None and not o.p.significant, where
            assert "significant" in row["text"], where
