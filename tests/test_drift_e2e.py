"""Drift snapshots and the baseline gate, end to end through pytester.

A vendor model is recorded once through the SDKs and the local fake server (store, golden
verdict profiles and a baseline report.json), then the server is stopped and everything is
replayed with ``--rwe-record none``, as the pull-request gate does for a fork.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_kit import (
    FAKE_KEYS,
    FIXED_SUITE,
    ROOT,
    STUDIES,
    VENDOR_JURY,
    VENDOR_MODEL,
    make_suite,
    summarizing_responder,
    xdist_args,
)

from pytest_rwe.store.entry import slug
from pytest_rwe.testing.fake_server import FakeServer

WORKERS = [0, 2]
RULES = "builtin/rules"
DRIFT_TEST = """
import pytest
from pytest_rwe import CRITERIA
from pytest_rwe import assert_criterion


@pytest.mark.parametrize("criterion", CRITERIA)
def test_summary(rwe_verdict, rwe_summary, rwe_thresholds, criterion):
    assert_criterion(rwe_verdict, criterion, rwe_thresholds[criterion], rwe_summary.text)


def test_drift(rwe_verdict_profile, rwe_snapshot):
    assert rwe_verdict_profile == rwe_snapshot
"""
TESTS_PER_STUDY = 3 + 1  # three criteria and the drift check
MAX_DROP = "direction_of_effect=0.05,numbers_accurate=0.05,completeness=0.05"
MINIMUMS = "direction_of_effect=0.9,numbers_accurate=0.9,completeness=0.9"
UNUSED = re.compile(r"snapshots? unused")
DEMO_CONFTEST = (ROOT / "tests" / "report" / "demo_conftest.py").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def not_an_xdist_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    # When this file itself runs under xdist, syrupy in the in-process pytester runs reads
    # PYTEST_XDIST_WORKER and would act as a worker (no unused accounting, no summary).
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in FAKE_KEYS.items():
        monkeypatch.setenv(name, value)


def golden_dir(pytester: pytest.Pytester, model: str = VENDOR_MODEL) -> Path:
    # the test function's name is a folder when it differs from the file's stem
    return pytester.path / "golden" / "test_suite" / "test_drift" / slug(model)


def record(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, jury: str) -> None:
    """Record the store, the golden profiles and baseline/report.json; stop the server."""
    folder = make_suite(pytester, models=VENDOR_MODEL, jury=jury, test=DRIFT_TEST)
    with FakeServer(latency_s=0.005, responder=summarizing_responder(folder)) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        result = pytester.runpytest("--snapshot-update", "--rwe-report", "baseline")
        result.assert_outcomes(passed=len(STUDIES) * TESTS_PER_STUDY)
        assert server.requests, "the vendor model was not called"
    assert sorted(p.stem for p in golden_dir(pytester).glob("*.json")) == sorted(STUDIES)
    # the server is stopped: from here on, any call would fail to connect


@pytest.mark.parametrize("workers", WORKERS)
def test_a_replay_from_the_committed_store_passes_drift_and_gates(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, keys: None, workers: int
) -> None:
    record(pytester, monkeypatch, VENDOR_JURY)
    result = pytester.runpytest(
        *xdist_args(workers), "--rwe-record", "none", "--rwe-baseline", "baseline/report.json",
        "--rwe-max-drop", MAX_DROP, "--rwe-min", MINIMUMS, "--rwe-report", "pr")
    result.assert_outcomes(passed=len(STUDIES) * TESTS_PER_STUDY)
    assert result.ret == 0
    result.stdout.fnmatch_lines([
        f"*{len(STUDIES)} snapshots passed*",
        f"*{VENDOR_MODEL} ({len(STUDIES)} studies): direction +0.000 [[]+0.000, +0.000[]]*",
    ])
    # the gates' verdicts come last, after pytest's own summary line
    tail = result.stdout.lines[-2:]
    assert "quality gate passed" in tail[0] and "baseline gate passed" in tail[1]
    report = json.loads((pytester.path / "pr" / "report.json").read_text(encoding="utf-8"))
    assert report["gating"]["passed"] is True
    cell = report["gating"]["baseline"]["models"][VENDOR_MODEL]["completeness"]
    assert cell["n"] == len(STUDIES) and cell["diff"] == 0
    assert "### Against the baseline" in (pytester.path / "pr" / "report.md").read_text("utf-8")


def _edit_a_number(pytester: pytest.Pytester, study: str) -> tuple[str, str]:
    """Change one number in the stored summary of ``study``; return (old, new)."""
    path = pytester.path / "store" / slug(VENDOR_MODEL) / study / "summary.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    text = stored["response"]["text"]
    cited = set(re.findall(r"\d+\.\d+", text))
    old = sorted(cited)[len(cited) // 2]
    new = next(f"{float(old) + step:.{len(old.split('.')[1])}f}" for step in (0.07, 0.13, 0.29)
               if f"{float(old) + step:.{len(old.split('.')[1])}f}" not in cited)
    stored["response"]["text"] = text.replace(old, new)
    path.write_text(json.dumps(stored, indent=2), encoding="utf-8")
    return old, new


@pytest.mark.parametrize("workers", WORKERS)
def test_an_edited_number_fails_the_drift_check_naming_the_number_and_study(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, keys: None, workers: int
) -> None:
    record(pytester, monkeypatch, RULES)
    study = STUDIES[0]
    old, new = _edit_a_number(pytester, study)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none", "-vv")
    # only that study drifts; the rules juror also fails its numbers
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] == 2 and result.ret == 1
    result.stdout.fnmatch_lines([
        f"FAILED *test_summary?{VENDOR_MODEL}::{study}-numbers_accurate?*",
        f"FAILED *test_drift?{VENDOR_MODEL}::{study}?*",
    ])
    text = result.stdout.str()
    assert f"verdict profile of {VENDOR_MODEL} on study {study} drifted from " \
           f"golden/test_suite/test_drift/{slug(VENDOR_MODEL)}/{study}.json" in text
    assert re.search(rf"- number {re.escape(old)}%? is no longer cited", text)
    assert re.search(rf'- number {re.escape(new)}%? is newly cited: ".*{re.escape(new)}', text)
    # what the jurors say about it: the rules juror quotes the new number
    assert re.search(rf"numbers_accurate, {RULES} \(score 0\): .*{re.escape(new)}", text)
    assert "1 snapshot failed" in text and not UNUSED.search(text)
    # the golden file is untouched until the change is accepted
    cited = set(json.loads((golden_dir(pytester) / f"{study}.json").read_text("utf-8"))["numbers"])
    assert {old, old + "%"} & cited and not {new, new + "%"} & cited

    accepted = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none",
                                  "--snapshot-update", "-k", "test_drift")
    assert accepted.parseoutcomes()["passed"] == len(STUDIES) and accepted.ret == 0
    cited = set(json.loads((golden_dir(pytester) / f"{study}.json").read_text("utf-8"))["numbers"])
    assert {new, new + "%"} & cited and not {old, old + "%"} & cited
    again = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none", "-k", "test_drift")
    assert again.parseoutcomes()["passed"] == len(STUDIES) and again.ret == 0


def test_a_reworded_summary_is_not_drift(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, keys: None
) -> None:
    record(pytester, monkeypatch, RULES)
    path = pytester.path / "store" / slug(VENDOR_MODEL) / STUDIES[3] / "summary.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    text = stored["response"]["text"]
    assert text.startswith("This cohort study compared")
    stored["response"]["text"] = text.replace("This cohort study compared",
                                              "In this observational cohort analysis, we compared")
    path.write_text(json.dumps(stored, indent=2), encoding="utf-8")
    result = pytester.runpytest("--rwe-record", "none", "-k", "test_drift")
    result.assert_outcomes(passed=len(STUDIES), deselected=len(STUDIES) * 3)


@pytest.mark.parametrize("workers", WORKERS)
def test_a_prompt_edit_under_replay_only_names_the_studies_missing_responses(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, keys: None, workers: int
) -> None:
    record(pytester, monkeypatch, VENDOR_JURY)
    prompts = pytester.path / "cases" / "prompts"
    prompts.mkdir()
    template = (ROOT / "cases" / "prompts" / "summarize_cohort.txt").read_text(encoding="utf-8")
    (prompts / "summarize_cohort.txt").write_text(template + "\nBe brief.\n", encoding="utf-8")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none",
                                "--rwe-baseline", "baseline/report.json",
                                "--rwe-max-drop", MAX_DROP, "--rwe-report", "pr")
    assert result.ret == 1
    cohorts = [s for s in STUDIES if json.loads(
        (pytester.path / "cases" / "studies" / f"{s}.json").read_text("utf-8"))["design"]
        == "cohort"]
    assert len(cohorts) == 2
    # each test of an edited-prompt study errors; the others replay and pass
    result.assert_outcomes(passed=(len(STUDIES) - len(cohorts)) * TESTS_PER_STUDY,
                           errors=len(cohorts) * TESTS_PER_STUDY)
    # and the end of the log names every study whose response is missing
    result.stdout.fnmatch_lines([
        f"pytest-rwe: {len(cohorts)} evaluation(s) have no recorded response (replay-only, "
        "--rwe-record none); record them with --rwe-record new:",
        f"  {VENDOR_MODEL}: {', '.join(sorted(cohorts))}",
        "pytest-rwe baseline gate passed*",
    ])
    # their golden files are kept: a missing response is not an unused snapshot
    assert not UNUSED.search(result.stdout.str())
    assert sorted(p.stem for p in golden_dir(pytester).glob("*.json")) == sorted(STUDIES)
    summary = (pytester.path / "pr" / "report.md").read_text(encoding="utf-8")
    assert "### Not recorded" in summary
    assert all(f"`{VENDOR_MODEL}` on `{s}`" in summary for s in cohorts)


def test_other_models_snapshots_are_left_alone_and_removed_studies_are_unused(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, keys: None
) -> None:
    record(pytester, monkeypatch, RULES)
    vendor_files = sorted(golden_dir(pytester).glob("*.json"))
    offline = ["--rwe-model", "builtin/template", "--rwe-jury", RULES]
    # another model: its own folder is written, the vendor model's is neither used nor unused
    result = pytester.runpytest(*offline, "--snapshot-update")
    result.stdout.fnmatch_lines([f"*{len(STUDIES)} snapshots generated*"])
    assert not UNUSED.search(result.stdout.str())
    assert sorted(golden_dir(pytester).glob("*.json")) == vendor_files
    assert len(list(golden_dir(pytester, "builtin/template").glob("*.json"))) == len(STUDIES)

    # a study that leaves the suite leaves an unused golden file; --snapshot-update deletes it
    # (syrupy matches -k against snapshot names, the study ids: run the whole file here)
    (pytester.path / "cases" / "studies" / f"{STUDIES[1]}.json").unlink()
    result = pytester.runpytest(*offline)
    result.stdout.fnmatch_lines(["*1 snapshot unused*"])
    assert result.ret == 1
    result = pytester.runpytest(*offline, "--snapshot-update")
    result.stdout.fnmatch_lines(["*1 unused snapshot deleted*"])
    left = sorted(p.stem for p in golden_dir(pytester, "builtin/template").glob("*.json"))
    assert left == sorted(s for s in STUDIES if s != STUDIES[1])
    assert sorted(golden_dir(pytester).glob("*.json")) == vendor_files


@pytest.fixture
def demo_run(pytester: pytest.Pytester) -> Iterator[dict[str, object]]:
    """A fixed slice of the suite summarized by demo/careless (drops a significant outcome)."""
    make_suite(pytester, studies=FIXED_SUITE, models="demo/careless", jury=RULES)
    pytester.makeconftest(DEMO_CONFTEST)
    pytester.runpytest("--rwe-report", "now")
    yield json.loads((pytester.path / "now" / "report.json").read_text(encoding="utf-8"))


def _baseline(pytester: pytest.Pytester, report: dict[str, object], name: str,
              completeness: dict[str, float]) -> str:
    """``report`` with completeness means replaced per study, saved as ``name``."""
    edited = json.loads(json.dumps(report))
    for result in edited["results"]:
        if result["study"] in completeness:
            result["criteria"]["completeness"]["mean"] = completeness[result["study"]]
    (pytester.path / name).write_text(json.dumps(edited), encoding="utf-8")
    return name


@pytest.mark.parametrize("workers", WORKERS)
def test_a_clearly_better_baseline_fails_the_gate_and_noise_passes(
    pytester: pytest.Pytester, demo_run: dict[str, object], workers: int
) -> None:
    results = demo_run["results"]
    assert isinstance(results, list)
    dropped = sorted(r["study"] for r in results if r["criteria"]["completeness"]["mean"] < 1)
    assert len(dropped) >= 20  # careless drops a significant outcome on most studies

    # the same model scored 1.0 on completeness everywhere before (e.g. an older prompt)
    better = _baseline(pytester, demo_run, "better.json", dict.fromkeys(dropped, 1.0))
    result = pytester.runpytest(*xdist_args(workers), "--rwe-baseline", better,
                                "--rwe-max-drop", "completeness=0.1", "-k", "completeness")
    assert result.ret == 1
    line = result.stdout.lines[-1]
    assert line.startswith("  demo/careless: completeness dropped -")
    assert f"worse on {len(dropped)} studies: {dropped[0]} (1.00 -> 0.00)" in line
    assert result.stdout.lines[-2].startswith("pytest-rwe baseline gate FAILED "
                                              "(--rwe-max-drop completeness=0.1)")

    # two studies better in the baseline, one worse: noise, the interval reaches 0
    noisy = _baseline(pytester, demo_run, "noisy.json",
                      {dropped[0]: 1.0, dropped[1]: 1.0,
                       next(r["study"] for r in results
                            if r["criteria"]["completeness"]["mean"] == 1): 0.0})
    result = pytester.runpytest(*xdist_args(workers), "--rwe-baseline", noisy,
                                "--rwe-max-drop", "completeness=0.1", "-k", "completeness")
    assert result.ret == 1  # careless fails its own completeness tests, not the gate
    assert result.stdout.lines[-1].startswith("pytest-rwe baseline gate passed")
    result.stdout.fnmatch_lines(["*demo/careless (46 studies): *complete -0.022 [[]-0.109, "
                                 "+0.043[]]*"])


WRITE_COUNTER = """
import json

import pytest_rwe.report.report_json as report_json

WRITES = []
_write = report_json.write_report


def counting_write(directory, report):
    WRITES.append(sorted(report))
    return _write(directory, report)


report_json.write_report = counting_write


def pytest_rwe_report_sections(config, report):
    return {"mine": {"models": len(report["model_names"])}}


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        (config.rootpath / "writes.json").write_text(json.dumps(WRITES), encoding="utf-8")
"""


@pytest.mark.parametrize("workers", WORKERS)
def test_the_report_is_written_once_with_every_contributors_sections(
    pytester: pytest.Pytester, demo_run: dict[str, object], workers: int
) -> None:
    """The baseline gate and a conftest's pytest_rwe_report_sections add their sections
    before the report files are written, once."""
    pytester.makeconftest(DEMO_CONFTEST + WRITE_COUNTER)
    baseline = _baseline(pytester, demo_run, "same.json", {})
    result = pytester.runpytest(*xdist_args(workers), "--rwe-baseline", baseline,
                                "--rwe-max-drop", "completeness=0.1", "-k", "completeness",
                                "--rwe-report", "out")
    assert result.stdout.lines[-1].startswith("pytest-rwe baseline gate passed")
    writes = json.loads((pytester.path / "writes.json").read_text(encoding="utf-8"))
    assert len(writes) == 1 and {"gating", "mine"} <= set(writes[0])
    report = json.loads((pytester.path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["gating"]["passed"] is True and report["mine"] == {"models": 1}
    assert "Baseline" in (pytester.path / "out" / "report.md").read_text(encoding="utf-8")


def test_bad_gate_options_are_usage_errors_that_name_the_fix(pytester: pytest.Pytester) -> None:
    make_suite(pytester)
    result = pytester.runpytest("--rwe-max-drop", "completeness=0.1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--rwe-max-drop needs a baseline*--rwe-baseline*"])
    result = pytester.runpytest("--rwe-baseline", "nope.json")
    result.stderr.fnmatch_lines(["*--rwe-baseline: *nope.json does not exist; pass a "
                                 "report.json written by `pytest --rwe-report DIR`*"])
    (pytester.path / "x.json").write_text("{}", encoding="utf-8")
    result = pytester.runpytest("--rwe-baseline", "x.json", "--rwe-max-drop", "complete=1")
    result.stderr.fnmatch_lines(["*--rwe-max-drop 'complete=1': unknown criterion 'complete'*"])
