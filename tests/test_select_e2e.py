"""End-to-end runs of ``--rwe-select``, the report's breakdown and the study warnings, each
with and without ``-n 2``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import RECORDER, STUDIES, SUITE, make_suite, read_records, write_study, xdist_args

WORKERS = [0, 2]
# the kit's four studies (cohort, case series, cross-sectional, LEGEND cohort) and a second
# case series, so that a selection keeps more than one study
SERIES = ("iscgm_t2d_basal_or_oral_therapy_case_series",
          "acquired_hemophilia_a_single_centre_15_year_case_series")
SUITE_STUDIES = (*STUDIES, SERIES[1])
# a test that needs only the studies (your own summarizer judged by rwe_jury): selected too
STUDY_TEST = """

def test_study_loads(rwe_study):
    assert rwe_study.outcomes
"""


def suite(pytester: pytest.Pytester, extra_ini: str = "") -> Path:
    from e2e_kit import SUITE_TEST

    folder = make_suite(pytester, studies=SUITE_STUDIES, extra_ini=extra_ini,
                        test=SUITE_TEST + STUDY_TEST)
    pytester.makeconftest(RECORDER)
    return folder


def report_of(pytester: pytest.Pytester, folder: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pytester.path / folder / "report.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("workers", WORKERS)
def test_design_case_series_runs_exactly_the_case_series(
        pytester: pytest.Pytester, workers: int) -> None:
    suite(pytester)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-select", "design=case_series",
                                "--rwe-report", "rep", "-rA")
    # 3 criteria + 1 study test per case series; the other studies' tests are deselected
    result.assert_outcomes(passed=len(SERIES) * 4,
                           deselected=(len(SUITE_STUDIES) - len(SERIES)) * 4 if not workers
                           else None)
    assert sorted(r["study"] for r in read_records(pytester)) == sorted(SERIES)
    passed = {line.split("::", 1)[1] for line in result.outlines if line.startswith("PASSED")}
    assert all(any(s in line for s in SERIES) for line in passed), passed
    report = report_of(pytester, "rep")
    assert report["studies"] == sorted(SERIES)
    assert report["selection"] == {"expression": "design=case_series", "selected": 2,
                                   "studies": 5, "deselected": 3}
    result.stdout.fnmatch_lines(["*pytest-rwe: 2 studies x 1 model, jury builtin/rules; "
                                 "--rwe-select design=case_series: 2 of 5 studies*"])


@pytest.mark.parametrize("workers", WORKERS)
def test_ini_rwe_select_and_the_command_line_overrides_it(
        pytester: pytest.Pytester, workers: int) -> None:
    suite(pytester, extra_ini="rwe_select = source!=legend-htn\n    design=cohort\n")
    result = pytester.runpytest(*xdist_args(workers))
    result.assert_outcomes(passed=4)  # the one published cohort: both lines must hold
    assert [r["study"] for r in read_records(pytester)] == [STUDIES[0]]
    result = pytester.runpytest(*xdist_args(workers), "--rwe-select", "measure=hr|OR")
    result.assert_outcomes(passed=3 * 4)
    assert sorted(r["study"] for r in read_records(pytester)) == sorted(
        [STUDIES[0], STUDIES[2], STUDIES[3]])


@pytest.mark.parametrize("workers", WORKERS)
def test_an_unknown_key_is_a_usage_error_naming_the_keys_and_the_fix(
        pytester: pytest.Pytester, workers: int) -> None:
    suite(pytester)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-select", "colour=red")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*--rwe-select: unknown key 'colour'; use one of id, design, measure, area, source, "
        "hard, timepoints, significance, e.g. --rwe-select design=case_series*"])


@pytest.mark.parametrize("workers", WORKERS)
def test_a_value_no_study_has_is_a_usage_error(pytester: pytest.Pytester, workers: int) -> None:
    suite(pytester)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-select", "design=cohrot")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*--rwe-select: design=cohrot matches no study; known values: case_series, cohort, "
        "cross_sectional; did you mean cohort?*Fix the value or drop the condition*"])
    assert "passed" not in result.stdout.str()


@pytest.mark.parametrize("workers", WORKERS)
def test_selecting_no_study_is_a_usage_error_not_a_pass(
        pytester: pytest.Pytester, workers: int) -> None:
    suite(pytester)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-select",
                                "design=case_series,source=legend-htn")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*--rwe-select design=case_series,source=legend-htn selects none of the 5 studies: a "
        "run on no study would pass on no evidence*"])


@pytest.mark.parametrize("workers", WORKERS)
def test_an_ini_selection_of_no_study_fails_like_an_empty_folder(
        pytester: pytest.Pytester, workers: int) -> None:
    suite(pytester, extra_ini="rwe_select = design=cohrot\n")
    result = pytester.runpytest(*xdist_args(workers))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    message = "*ini rwe_select: design=cohrot matches no study*"
    # a plain run stops at collection; under xdist each worker's placeholder test fails with
    # it and the controller ends with it, as for an empty cases folder
    (result.stderr if workers == 0 else result.stdout).fnmatch_lines([message])
    assert " passed" not in result.stdout.str()
    assert "skipped" not in result.stdout.str()


def test_help_lists_every_key(pytester: pytest.Pytester) -> None:
    from pytest_rwe.study.selection import TAG_KEYS

    text = " ".join(pytester.runpytest("--help").stdout.str().split())
    assert "rwe_select" in text
    help_text = text.split("--rwe-select=KEY=VALUE,...", 1)[1].split("--rwe-prompts", 1)[0]
    for key in TAG_KEYS:
        assert re.search(rf"\b{key}\b", help_text.split("Keys:", 1)[1]), key


@pytest.mark.parametrize("workers", WORKERS)
def test_report_breakdown_by_design_source_and_area(
        pytester: pytest.Pytester, workers: int) -> None:
    suite(pytester)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "rep")
    result.assert_outcomes(passed=len(SUITE_STUDIES) * 4)
    report = report_of(pytester, "rep")
    section = report["breakdown"]
    entry = section["models"]["builtin/template"]
    assert {v: c["studies"] for v, c in entry["design"].items()} == {
        "cohort": 2, "case_series": 2, "cross_sectional": 1}
    assert {v: c["studies"] for v, c in entry["source"].items()} == {
        "literature": 4, "legend-htn": 1}
    assert sum(c["studies"] for c in entry["area"].values()) == len(SUITE_STUDIES)
    assert entry["design"]["case_series"]["criteria"]["completeness"] == {
        "mean": 1.0, "ci_low": 1.0, "ci_high": 1.0, "n": 2}
    assert report["study_tags"][STUDIES[3]]["source"] == ["legend-htn"]
    result.stdout.fnmatch_lines(["*criterion means by design, source, area*",
                                 "*design=case_series *2  1.00/1.00/1.00",
                                 "*design=cohort  *2  1.00/1.00/1.00"])
    markdown = (pytester.path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "| design=case_series | 2 |" in markdown
    assert "<td>source=legend-htn</td>" in (pytester.path / "rep" / "report.html").read_text(
        encoding="utf-8")


def test_the_breakdown_is_the_same_with_and_without_xdist(pytester: pytest.Pytester) -> None:
    suite(pytester)
    assert pytester.runpytest("--rwe-report", "plain").ret == pytest.ExitCode.OK
    assert pytester.runpytest(*xdist_args(2), "--rwe-report", "xdist").ret == pytest.ExitCode.OK
    plain, spread = report_of(pytester, "plain"), report_of(pytester, "xdist")
    for key in ("breakdown", "study_tags", "study_warnings", "selection"):
        assert plain[key] == spread[key], key


@pytest.mark.parametrize("workers", WORKERS)
def test_study_warnings_are_printed_once_per_run(pytester: pytest.Pytester, workers: int) -> None:
    folder = suite(pytester)
    raw = json.loads((SUITE / f"{STUDIES[3]}.json").read_text(encoding="utf-8"))
    raw["id"] = "legend_with_a_misprint"
    key = next(k for k in raw["results"]["outcomes"] if k.endswith("!HR"))
    raw["results"]["outcomes"][key] = "1.50 (0.70, 1.10)"  # the estimate outside its interval
    write_study(folder, "legend_with_a_misprint", raw)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "rep")
    # a warning, not an error: the study still runs (its summary states what the file says)
    assert result.ret == pytest.ExitCode.OK
    out = result.stdout.str()
    assert out.count("outside its own interval") == 1, out
    assert out.count("study warnings: 1 in 1 study") == 1
    result.stdout.fnmatch_lines([
        f'*cases/studies/legend_with_a_misprint.json: $.results.outcomes?"{key}"?: the '
        "estimate 1.5 lies outside its own interval (0.7, 1.1)*"])
    (warning,) = report_of(pytester, "rep")["study_warnings"]
    assert warning["study"] == "legend_with_a_misprint"
    assert warning["file"] == "cases/studies/legend_with_a_misprint.json"
    # a selection that leaves the study out leaves its warning out
    result = pytester.runpytest(*xdist_args(workers), "--rwe-select", "source=literature")
    assert "outside its own interval" not in result.stdout.str()
