"""Two prompt variants in one run, through the openai SDK and the local fake server, with and
without xdist: each variant its own parametrization, its own stored calls, and the report's
paired comparison of the two."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import FAKE_KEYS, RECORDER, make_suite, read_records, xdist_args

from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.study import load_folder
from pytest_rwe.testing.fake_server import FakeServer

WORKERS = [0, 2]
MODEL = "openai/gpt-4.1-mini"
JUROR = "openai/o4-mini"
COHORTS = (
    "trinetx_cud_pancreatic_cancer_chronic_pancreatitis",
    "legend_htn_ace_inhibitors_vs_arbs_cardiovascular",
    "legend_htn_ace_inhibitors_vs_arbs_metabolic",
    "covid_hcq_alone_vs_neither_new_york",
    "covid_hcq_azithro_vs_no_hcq_veterans",
    "rtcgm_initiation_insulin_treated_t2d_hba1c_below_8",
)
CASE_SERIES = "iscgm_t2d_basal_or_oral_therapy_case_series"
MARK = "TERSE VARIANT"
WRONG = "The exposure had no effect on any outcome."  # what the terse prompt gets back


class Responder:
    """Summaries: the builtin summary of the study asked for, or (a prompt of the terse
    variant) a wrong one. Judge calls: direction of effect 0 for the wrong summary, else 1."""

    def __init__(self, studies: Path) -> None:
        self.by_question = {load.study.question: summarize(load.study)
                            for load in load_folder(studies) if load.study is not None}

    def __call__(self, provider: str, model: str, prompt: str) -> str | None:
        if "<<<SUMMARY" in prompt:
            criterion = next(c for c in ("direction_of_effect", "numbers_accurate",
                                         "completeness") if f'"{c}"' in prompt)
            score = 0 if WRONG in prompt and criterion == "direction_of_effect" else 1
            return json.dumps({criterion: {"score": score, "explanation": "read it"}})
        if MARK in prompt:
            return WRONG
        return next((s for q, s in self.by_question.items() if q in prompt), None)


@pytest.fixture
def server(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    folder = make_suite(pytester, studies=(*COHORTS, CASE_SERIES), models=MODEL, jury=JUROR)
    pytester.makeconftest(RECORDER)
    # the variant changes the cohort prompt only: the case series' prompts are the default's
    terse = pytester.path / "prompts_terse"
    terse.mkdir()
    packaged = Path(__file__).resolve().parent.parent / "pytest_rwe" / "prompts"
    text = (packaged / "summarize_cohort.txt").read_text(encoding="utf-8")
    (terse / "summarize_cohort.txt").write_text(f"{MARK}: one sentence.\n{text}",
                                                encoding="utf-8")
    with FakeServer(responder=Responder(folder)) as fake:
        for name, value in {**FAKE_KEYS, **fake.env()}.items():
            monkeypatch.setenv(name, value)
        yield fake


def _report(pytester: pytest.Pytester) -> dict[str, Any]:
    report: dict[str, Any] = json.loads((pytester.path / "out" / "report.json").read_text())
    return report


@pytest.mark.parametrize("workers", WORKERS)
def test_two_variants_in_one_run_are_compared_per_criterion(
        pytester: pytest.Pytester, server: FakeServer, workers: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--rwe-variant", "terse=prompts_terse", "--rwe-report", "out", "-rA",
            *xdist_args(workers)]
    result = pytester.runpytest(*args)
    studies = len(COHORTS) + 1
    # each variant is its own parametrization; the terse one misses direction on cohorts
    result.assert_outcomes(passed=2 * studies * 3 - len(COHORTS), failed=len(COHORTS))
    outcomes = set(result.stdout.lines)  # -rA: one "PASSED <node id>" line per test
    for outcome, variant, study in [("PASSED", "default", COHORTS[0]),
                                    ("FAILED", "terse", COHORTS[0]),
                                    ("PASSED", "terse", CASE_SERIES)]:
        test_id = f"test_suite.py::test_summary[{MODEL}+{variant}::{study}-direction_of_effect]"
        assert any(line.startswith(f"{outcome} {test_id}") for line in outcomes), test_id
    # the prompts differ, so do the calls: two summaries per cohort, one per case series
    # (its prompt is the same in both variants: one call, one stored answer, shared)
    prompts = [json.dumps(r.body) for r in server.requests]
    summaries = [p for p in prompts if "<<<SUMMARY" not in p]
    assert sum(MARK in p for p in summaries) == len(COHORTS)
    assert len(summaries) == 2 * len(COHORTS) + 1
    assert len(server.requests) == (2 * len(COHORTS) + 1) * 4
    assert server.duplicate_requests() == []
    records = read_records(pytester)
    assert sorted((r["model"], r["variant"], r["variant_of"]) for r in records) == sorted(
        [(f"{MODEL}+{v}", v, MODEL) for v in ("default", "terse") for _ in range(studies)])

    report = _report(pytester)
    assert report["model_names"] == [f"{MODEL}+default", f"{MODEL}+terse"]
    assert set(report["prompts"]["variants"]) == {"default", "terse"}
    section = report["variants"]
    assert section["names"] == ["default", "terse"] and section["reference"] == "default"
    [comp] = section["comparisons"]
    assert (comp["model"], comp["variant"], comp["studies"]) == (MODEL, "terse", studies)
    direction = comp["differences"]["direction_of_effect"]
    assert direction["mean"] == pytest.approx(-len(COHORTS) / studies)
    assert direction["ci_high"] < 0 and direction["verdict"] == "real"
    assert comp["differences"]["weighted_score"]["verdict"] == "real"
    for criterion in ("numbers_accurate", "completeness"):
        assert comp["differences"][criterion]["verdict"] == "not resolved"
        assert comp["differences"][criterion]["mean"] == 0
    assert "direction_of_effect" in comp["real"] and comp["notes"] == []
    result.stdout.fnmatch_lines([
        "*prompt variants: each variant minus default on the same studies*",
        f"*{MODEL}: terse vs default over {studies} studies: real differences on direction*",
    ])
    assert "### Prompt variants" in (pytester.path / "out" / "report.md").read_text()
    assert "<h2>Prompt variants</h2>" in (pytester.path / "out" / "report.html").read_text()

    # replay only: every variant's answers are in the store, under keys of their own
    server.reset()
    for name in FAKE_KEYS:
        monkeypatch.delenv(name)
    again = pytester.runpytest(*args, "--rwe-record", "none")
    again.assert_outcomes(passed=2 * studies * 3 - len(COHORTS), failed=len(COHORTS))
    assert server.requests == []
    [replayed] = _report(pytester)["variants"]["comparisons"]
    quality = ("direction_of_effect", "numbers_accurate", "completeness", "weighted_score")
    for key in quality:  # the stored latencies are rounded: time may move in the 4th digit
        assert replayed["differences"][key] == comp["differences"][key]


@pytest.mark.parametrize("workers", WORKERS)
def test_the_plan_of_a_variant_run_is_the_calls_it_makes(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    """--rwe-plan plans each variant with its own prompts: the run then makes exactly the
    announced calls (two summaries per cohort, one for the case series both share)."""
    args = ["--rwe-variant", "terse=prompts_terse", "--rwe-report", "out", *xdist_args(workers)]
    planned = pytester.runpytest(*args, "--rwe-plan")
    assert planned.ret == 0 and server.requests == []
    total = json.loads((pytester.path / "out" / "plan.json").read_text("utf-8"))["total"]
    assert total["stored"] == 0
    pytester.runpytest(*args)
    assert len(server.requests) == total["new"] == (2 * len(COHORTS) + 1) * 4
    assert server.duplicate_requests() == []


@pytest.mark.parametrize("workers", WORKERS)
def test_variants_from_the_ini_run_like_the_option_and_the_option_replaces_them(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    ini = pytester.path / "tox.ini"
    ini.write_text(ini.read_text(encoding="utf-8")
                   + "\nrwe_variants =\n    terse=prompts_terse\n", encoding="utf-8")
    result = pytester.runpytest("-k", "direction", "-rA", *xdist_args(workers))
    result.assert_outcomes(passed=len(COHORTS) + 2, failed=len(COHORTS))
    test_id = f"test_suite.py::test_summary[{MODEL}+terse::{COHORTS[0]}-direction_of_effect]"
    assert any(line.startswith(f"FAILED {test_id}") for line in result.stdout.lines)
    # the option wins: a variant of the same prompts as the default differs on nothing
    again = pytester.runpytest("-k", "direction", "--rwe-variant", "same=.",
                               *xdist_args(workers))
    again.assert_outcomes(passed=2 * (len(COHORTS) + 1))


def test_a_bad_ini_variant_names_the_ini_key(pytester: pytest.Pytester,
                                             server: FakeServer) -> None:
    ini = pytester.path / "tox.ini"
    ini.write_text(ini.read_text(encoding="utf-8") + "\nrwe_variants = terse\n",
                   encoding="utf-8")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ini rwe_variants 'terse' is not NAME=DIR; e.g. "
                                 "ini rwe_variants terse=prompts/terse*"])
    assert server.requests == []


def test_repeated_prompts_folders_name_the_variants(pytester: pytest.Pytester,
                                                    server: FakeServer) -> None:
    plain = pytester.path / "plain"
    plain.mkdir()  # overrides nothing: the default prompts under another name
    result = pytester.runpytest("--rwe-prompts", "plain", "--rwe-prompts", "prompts_terse",
                                "--rwe-report", "out", "-k", "direction", "-n", "2")
    result.assert_outcomes(passed=len(COHORTS) + 1 + 1, failed=len(COHORTS))
    [comp] = _report(pytester)["variants"]["comparisons"]
    assert (comp["reference"], comp["variant"]) == ("plain", "prompts_terse")
    assert comp["differences"]["direction_of_effect"]["verdict"] == "real"


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize(("args", "expected"), [
    (["--rwe-variant", "terse=nowhere"],
     "--rwe-variant terse=nowhere: no such folder */nowhere; create it with the prompt "
     "templates this variant changes*"),
    (["--rwe-variant", "terse=prompts_terse", "--rwe-variant", "terse=prompts_terse"],
     "--rwe-variant terse=prompts_terse: the variant name 'terse' is already taken by "
     "--rwe-variant terse=prompts_terse; give each variant its own name*"),
    (["--rwe-variant", "odd=odd"],
     "--rwe-variant odd=odd: */odd/summarise_cohort.txt: unknown template name "
     "'summarise_cohort.txt'; the templates are: *(rename or remove the file)"),
    (["--rwe-variant", "terse"], "--rwe-variant 'terse' is not NAME=DIR*"),
])
def test_bad_variants_are_usage_errors_that_name_the_fix(
        pytester: pytest.Pytester, server: FakeServer, workers: int, args: list[str],
        expected: str) -> None:
    odd = pytester.path / "odd"
    odd.mkdir()
    (odd / "summarise_cohort.txt").write_text("$question\n", encoding="utf-8")
    result = pytester.runpytest(*args, *xdist_args(workers))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{expected}"])
    assert server.requests == []


def test_builtin_variants_are_said_to_be_unable_to_differ(pytester: pytest.Pytester) -> None:
    make_suite(pytester, studies=COHORTS)
    terse = pytester.path / "terse"
    terse.mkdir()
    (terse / "summarize_cohort.txt").write_text(
        "Terse.\n$question\n$design_json\n$results_json\n", encoding="utf-8")
    result = pytester.runpytest("--rwe-variant", "terse=terse", "-n", "2")
    result.assert_outcomes(passed=2 * len(COHORTS) * 3)
    result.stdout.fnmatch_lines([
        "*builtin/template: terse vs default over 6 studies: no difference resolved*",
        "*note: builtin/template reads the study, not the prompt: its variants cannot differ*",
    ])


def test_prune_keeps_every_variant_the_suite_runs(
        pytester: pytest.Pytester, server: FakeServer) -> None:
    import subprocess
    import sys

    args = ["--rwe-variant", "terse=prompts_terse"]
    pytester.runpytest(*args)
    store = pytester.path / "store"
    files = sorted(p for p in store.rglob("*.json") if ".locks" not in p.parts)
    variants = {p.relative_to(store).parts[1] for p in files}
    assert variants == {"variant-default", "variant-terse"}

    def prune(*more: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(Path(sys.executable).parent / "rwe"), "store", "prune",
                               "--dry-run", *more], cwd=pytester.path, capture_output=True,
                              text=True, timeout=300, check=False)

    kept = prune(*args)
    assert kept.returncode == 0, kept.stderr
    assert "would remove 0 unused file(s)" in kept.stdout
    # a run without the variants uses none of their files
    without = prune()
    assert f"would remove {len(files)} unused file(s)" in without.stdout
