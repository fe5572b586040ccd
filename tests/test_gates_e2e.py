"""End to end, with and without xdist: no evidence, no pass; the jury's quorum; rubric edge
cases and an unresolved ranking; Bradley-Terry on quality."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import RECORDER, STUDIES, make_suite, read_records, xdist_args

WORKERS = [0, 2]

# Offline models a project could register itself (conftest.py), with fixed latencies:
# - copy/same: the builtin template's summary, 0.5 s (the same quality as builtin/template);
# - copy/flip1: the same, with the first significant direction flipped on one study only;
# - broken/model: every call fails;
# - mumbler/*: jurors that answer some criteria and mumble (an unreadable reply) on others.
PROVIDERS = """
import json, re
from pytest_rwe.providers.base import GenerationResult, Provider, ProviderError
from pytest_rwe.providers.registry import register_provider

FLIPPED_STUDY = "trinetx_cud_pancreatic_cancer_chronic_pancreatitis"


def flip(text):
    swap = {"higher": "lower", "lower": "higher", "increase": "decrease",
            "decrease": "increase"}
    return re.sub(r"\\b(higher|lower|increase|decrease)\\b", lambda m: swap[m.group(1)],
                  text, count=1)


class Copy(Provider):
    name = "copy"
    uses_store = False

    async def generate(self, request):
        from pytest_rwe.rules.summarizer import summarize
        study = request.task.study
        text = summarize(study)
        if self.model == "flip1" and study.id == FLIPPED_STUDY:
            text = flip(text)
        return GenerationResult(text, 0.5)


class Broken(Provider):
    name = "broken"
    uses_store = False

    async def generate(self, request):
        raise ProviderError(self.full_name, "HTTP 503: the service is down")


class Mumbler(Provider):
    name = "mumbler"
    uses_store = False

    async def generate(self, request):
        task = request.task
        if self.model == "half" and task.criterion == "completeness":
            return GenerationResult(json.dumps({"completeness": {"score": 1,
                                    "explanation": "fine"}}), 0.0)
        return GenerationResult("I think it is quite good overall.", 0.0)


register_provider("copy", Copy)
register_provider("broken", Broken)
register_provider("mumbler", Mumbler)
"""


def project(pytester: pytest.Pytester, *, models: str = "builtin/template",
            jury: str = "builtin/rules", extra_ini: str = "") -> Path:
    folder = make_suite(pytester, models=models, jury=jury, extra_ini=extra_ini)
    pytester.makeconftest(PROVIDERS + RECORDER)
    return folder


def report_of(pytester: pytest.Pytester, folder: str = "rep") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pytester.path / folder / "report.json").read_text("utf-8"))
    return data


# -- no evidence, no pass -------------------------------------------------------------------

@pytest.mark.parametrize("workers", WORKERS)
def test_an_empty_cases_folder_on_the_command_line_is_a_usage_error(
        pytester: pytest.Pytester, workers: int) -> None:
    project(pytester)
    empty = pytester.mkdir("empty")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-cases", "empty",
                                "--rwe-min", "direction_of_effect=0.9")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*pytest-rwe: no study found in {empty} (--rwe-cases*point "
                                 "--rwe-cases at a folder of study JSON files*"])
    assert pytester.runpytest("--rwe-report", "base").ret == pytest.ExitCode.OK
    baseline = pytester.runpytest(*xdist_args(workers), "--rwe-cases", "empty",
                                  "--rwe-baseline", "base/report.json",
                                  "--rwe-max-drop", "direction_of_effect=0.05")
    assert baseline.ret == pytest.ExitCode.USAGE_ERROR
    baseline.stderr.fnmatch_lines(["*pytest-rwe: no study found in*"])
    typo = pytester.runpytest(*xdist_args(workers), "--rwe-cases", "cases/studeis")
    assert typo.ret == pytest.ExitCode.USAGE_ERROR
    typo.stderr.fnmatch_lines(["*no study found*cases/studeis is not a folder*"])


@pytest.mark.parametrize("workers", WORKERS)
def test_an_empty_ini_cases_folder_fails_with_a_usage_error_not_a_skip(
        pytester: pytest.Pytester, workers: int) -> None:
    folder = project(pytester, extra_ini="rwe_min = direction_of_effect=0.9\n")
    for path in folder.iterdir():
        path.unlink()
    result = pytester.runpytest(*xdist_args(workers))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    message = f"*ERROR: pytest-rwe: no study found in {folder} (--rwe-cases, or ini rwe_cases)*"
    # a plain run stops at collection; an xdist worker's placeholder test says it, and the
    # controller ends with it (exit status 4) after the gate
    (result.stderr if workers == 0 else result.stdout).fnmatch_lines([message])
    assert "skipped" not in result.stdout.str()
    if workers:
        assert result.outlines[-1].startswith("ERROR: pytest-rwe: no study found")
        result.stdout.fnmatch_lines(["*direction_of_effect has no evaluation: pytest-rwe: no "
                                     "study found*"])


@pytest.mark.parametrize("workers", WORKERS)
def test_every_pair_errored_fails_the_min_gate_naming_the_cause(
        pytester: pytest.Pytester, workers: int) -> None:
    project(pytester, models="builtin/template broken/model")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-min", "completeness=0.5",
                                "--rwe-report", "rep")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = [line for line in result.outlines if line.strip()]
    assert lines[-2] == "pytest-rwe quality gate FAILED (--rwe-min completeness>=0.5); exit " \
                        "status 1:"
    assert lines[-1].startswith("  broken/model: completeness has no evaluation: every pair "
                                "errored (4 of 4 evaluations have no verdict); first error: ")
    assert "HTTP 503: the service is down" in lines[-1]
    report = report_of(pytester)
    broken = report["models"]["broken/model"]
    # no evaluation: no score, no rank (never "rank 1, 100%")
    assert (broken["score"], broken["rank"], broken["normalized"]) == (None, None, {})
    assert report["rubric"]["normalization_defined"] is False


@pytest.mark.parametrize("workers", WORKERS)
def test_a_replay_of_an_empty_store_scores_nobody(pytester: pytest.Pytester,
                                                  workers: int) -> None:
    project(pytester, models="openai/gpt-4.1-mini anthropic/claude-sonnet-4-20250514")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none",
                                "--rwe-report", "rep")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    report = report_of(pytester)
    assert {(m["score"], m["rank"]) for m in report["models"].values()} == {(None, None)}
    assert "no model has an evaluation" in report["rubric"]["note"]
    assert "100.0%" not in result.stdout.str()


@pytest.mark.parametrize("workers", WORKERS)
def test_a_baseline_model_absent_from_this_run_fails_the_baseline_gate(
        pytester: pytest.Pytester, workers: int) -> None:
    project(pytester, models="builtin/template copy/same")
    assert pytester.runpytest("--rwe-report", "base").ret == pytest.ExitCode.OK
    result = pytester.runpytest(*xdist_args(workers), "--rwe-model", "builtin/template",
                                "--rwe-baseline", "base/report.json",
                                "--rwe-max-drop", "completeness=0.1", "--rwe-report", "rep")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = [line for line in result.outlines if line.strip()]
    assert lines[-2].startswith("pytest-rwe baseline gate FAILED (--rwe-max-drop "
                                "completeness=0.1)")
    assert lines[-1] == ("  copy/same: a model of the baseline has no evaluation in this run: "
                         "no test of this model ran (deselected with -k, or not collected): "
                         "this run holds no evaluation of it")
    gating = report_of(pytester)["gating"]
    assert gating["passed"] is False and gating["failures"][0]["model"] == "copy/same"
    # both models present again: the gate passes
    again = pytester.runpytest(*xdist_args(workers), "--rwe-baseline", "base/report.json",
                               "--rwe-max-drop", "completeness=0.1")
    assert again.ret == pytest.ExitCode.OK


# -- quorum -----------------------------------------------------------------------------------

@pytest.mark.parametrize("workers", WORKERS)
def test_a_criterion_needs_a_quorum_of_answering_jurors(pytester: pytest.Pytester,
                                                        workers: int) -> None:
    # three jurors, majority 2: completeness has the rules juror and mumbler/half, the other
    # criteria only the rules juror (mumbler/half and mumbler/none abstain)
    project(pytester, jury="builtin/rules,mumbler/half,mumbler/none")
    result = pytester.runpytest(*xdist_args(workers), "-k", STUDIES[0])
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines([
        "*direction_of_effect: no quorum: 1 of 3 juror(s) answered, 2 needed "
        "(--rwe-quorum or ini rwe_quorum), so the jury mean 1.00 is not a verdict; missing: "
        "mumbler/half (abstained), mumbler/none (abstained)*",
    ])
    (record,) = read_records(pytester)
    assert record["verdict"]["completeness"]["quorum_met"] is True
    assert record["verdict"]["numbers_accurate"]["quorum"] == 2
    # a quorum of 3 fails completeness too; the ini key works like the option
    strict = pytester.runpytest(*xdist_args(workers), "-k", STUDIES[0], "-o", "rwe_quorum=3")
    strict.assert_outcomes(failed=3)
    read_records(pytester)
    lenient = pytester.runpytest(*xdist_args(workers), "-k", STUDIES[0], "--rwe-quorum", "1")
    lenient.assert_outcomes(passed=3)
    bad = pytester.runpytest(*xdist_args(workers), "--rwe-jury",
                             "builtin/rules,mumbler/half", "--rwe-quorum", "3")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*rwe_quorum: 3 must be between 1 and the 2 configured juror(s)*"])
    ini = pytester.runpytest(*xdist_args(workers), "-o", "rwe_quorum=9")
    assert ini.ret == pytest.ExitCode.USAGE_ERROR
    ini.stderr.fnmatch_lines(["*rwe_quorum: 9 must be between 1 and the 3 configured juror(s)*"])


# -- rubric edge cases and Bradley-Terry --------------------------------------------------------

@pytest.mark.parametrize("workers", WORKERS)
def test_equal_quality_is_undefined_in_the_rubric_and_a_tie_in_bradley_terry(
        pytester: pytest.Pytester, workers: int) -> None:
    # both models write the same summaries: every criterion 1.00 for both; copy/same is slower
    project(pytester, models="builtin/template copy/same")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "rep")
    assert result.ret == pytest.ExitCode.OK
    report = report_of(pytester)
    rubric = report["rubric"]
    assert rubric["undefined"] == ["direction_of_effect", "numbers_accurate", "completeness"]
    for model in report["models"].values():
        assert [model["normalized"][c] for c in rubric["undefined"]] == [None, None, None]
    assert "the ranking rests on inference_time alone" in rubric["note"]
    result.stdout.fnmatch_lines(["*1*builtin/template*-*-*-*1.00*100.0%*",
                                 "*note: direction_of_effect, numbers_accurate, completeness: "
                                 "every model has the same mean*"])
    # Bradley-Terry compares quality only: every study is a tie, whatever the latencies
    ratings = {m: v["bradley_terry"] for m, v in report["models"].items()}
    assert {(r["rating"], r["ci_low"], r["ci_high"]) for r in ratings.values()} == {
        (1500.0, 1500.0, 1500.0)}
    assert report["bradley_terry"]["time_weight"] == 0.0
    # with time in Bradley-Terry explicitly: 0.5 s against a few microseconds is beyond 10%
    timed = pytester.runpytest(*xdist_args(workers), "--rwe-bt-time-weight", "3",
                               "--rwe-report", "rep")
    assert timed.ret == pytest.ExitCode.OK
    assert report_of(pytester)["models"]["builtin/template"]["bradley_terry"]["rating"] > 1500
    # quality only in the rubric too: nothing separates them, nobody is ranked
    flat = pytester.runpytest(*xdist_args(workers), "--rwe-weights", "inference_time=0",
                              "--rwe-report", "rep")
    assert flat.ret == pytest.ExitCode.OK
    report = report_of(pytester)
    assert report["rubric"]["normalization_defined"] is False
    assert {(m["score"], m["rank"]) for m in report["models"].values()} == {(None, None)}
    assert "nothing separates them" in (pytester.path / "rep" / "report.md").read_text("utf-8")


@pytest.mark.parametrize("workers", WORKERS)
def test_a_lead_within_bootstrap_noise_is_not_a_resolved_ranking(
        pytester: pytest.Pytester, workers: int) -> None:
    # copy/flip1 differs from the template on one study of four
    project(pytester, models="builtin/template copy/flip1")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-weights", "inference_time=0",
                                "--rwe-report", "rep")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the flipped direction fails its test
    report = report_of(pytester)
    assert report["rubric"]["ranking"] == ["builtin/template", "copy/flip1"]
    resolution = report["rubric"]["resolution"]
    assert resolution["resolved"] is False and resolution["top_share"] < 0.95
    result.stdout.fnmatch_lines(["*ranking NOT resolved: builtin/template and copy/flip1 are "
                                 "within bootstrap noise*"])
    assert "ranking not resolved" in (pytester.path / "rep" / "report.md").read_text(
        "utf-8").lower()


def test_help_lists_the_gate_options_and_ini_keys(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--help")
    assert result.ret == pytest.ExitCode.OK
    text = result.stdout.str()
    for name in ("--rwe-quorum=N", "--rwe-exclude-self", "--rwe-repeat-rule=RULE",
                 "--rwe-bt-time-weight=W", "rwe_quorum", "rwe_exclude_self", "rwe_repeat_rule",
                 "rwe_bt_time_weight"):
        assert name in text, name
