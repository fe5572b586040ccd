"""End-to-end runs of the installed plugin with pytester, each with and without ``-n 2``."""

from __future__ import annotations

import json

import pytest
from e2e_kit import RECORDER, STUDIES, SUITE, make_suite, read_records, write_study, xdist_args

WORKERS = [0, 2]


@pytest.mark.parametrize("workers", WORKERS)
def test_offline_suite_passes_every_criterion(pytester: pytest.Pytester, workers: int) -> None:
    make_suite(pytester)
    pytester.makeconftest(RECORDER)
    result = pytester.runpytest(*xdist_args(workers), "-rA")
    result.assert_outcomes(passed=len(STUDIES) * 3)
    records = read_records(pytester)
    assert sorted(r["study"] for r in records) == sorted(STUDIES)  # once each, from any worker
    for record in records:
        assert record["badge"] == "green" and record["summary"]["text"]
        # claim diagnostics ride on the record: the template claims what the study says
        claims = record["claims"]
        assert claims["significance_matches"] == claims["significance_checked"]
        assert claims["direction_agrees"] == claims["direction_checked"]
        assert {c: v["mean"] for c, v in record["verdict"].items()} == {
            "direction_of_effect": 1.0, "numbers_accurate": 1.0, "completeness": 1.0}
    # the test ids name the model and the study
    result.stdout.fnmatch_lines([
        "*test_summary?builtin/template::trinetx_cud_pancreatic_cancer_chronic_pancreatitis-"
        "completeness?*",
    ])
    # the controller aggregates one record per (model, study), also from xdist workers
    result.stdout.fnmatch_lines(["*badges green/yellow/red: builtin/template 4/0/0*"])


@pytest.mark.parametrize("workers", WORKERS)
def test_a_broken_study_fails_alone_naming_file_field_and_fix(
    pytester: pytest.Pytester, workers: int
) -> None:
    folder = make_suite(pytester)
    raw = json.loads((SUITE / f"{STUDIES[0]}.json").read_text(encoding="utf-8"))
    raw["id"] = "broken_study"
    raw["results"]["outcomes"]["outcome.pancreatic_cancer_bin!HR"] = "0.263 (0.202"
    write_study(folder, "broken_study", raw)
    result = pytester.runpytest(*xdist_args(workers))
    # the broken study's tests error at setup; every other study still runs and passes
    result.assert_outcomes(passed=len(STUDIES) * 3, errors=3)
    result.stdout.fnmatch_lines([
        "*broken_study.json: invalid study file*",
        '*$.results.outcomes?"outcome.pancreatic_cancer_bin!HR"?*est (lo, hi)*',
    ])
    result.stdout.no_fnmatch_line("*p-value but no estimate*")  # no knock-on complaint


@pytest.mark.parametrize("workers", WORKERS)
def test_missing_api_key_is_a_usage_error_naming_the_variable(
    pytester: pytest.Pytester, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    make_suite(pytester)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-model", "gpt-4.1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--rwe-model gpt-4.1 needs an API key: set OPENAI_API_KEY*"])
    result.stdout.no_fnmatch_line("*passed*")


@pytest.mark.parametrize("workers", WORKERS)
def test_a_key_missing_for_an_ini_model_fails_at_start(
    pytester: pytest.Pytester, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    make_suite(pytester, jury="anthropic/claude-sonnet-4-20250514")
    result = pytester.runpytest(*xdist_args(workers))
    # without xdist it is a usage error; a worker cannot raise one, so every test fails fast
    # with the same message instead of calling anything
    text = result.stdout.str() + result.stderr.str()
    assert "needs an API key: set ANTHROPIC_API_KEY" in text
    assert result.ret != 0


def test_no_model_configured_is_a_usage_error(pytester: pytest.Pytester) -> None:
    make_suite(pytester, models="")
    result = pytester.runpytest()
    assert result.ret != 0
    assert "no model to evaluate; pass --rwe-model" in result.stdout.str() + result.stderr.str()


@pytest.mark.parametrize("workers", WORKERS)
def test_own_summarizer_judged_by_rwe_jury(pytester: pytest.Pytester, workers: int) -> None:
    make_suite(pytester, test="""
from pytest_rwe.rules.summarizer import summarize


def test_good(rwe_study, rwe_jury):
    verdict = rwe_jury.judge(rwe_study, summarize(rwe_study))
    assert all(v.passes(rwe_jury.thresholds[c]) for c, v in verdict.criteria.items())


def test_wrong_number(rwe_study, rwe_jury):
    text = summarize(rwe_study) + " The study followed 987654 patients."
    verdict = rwe_jury.judge(rwe_study, text)
    assert not verdict["numbers_accurate"].passes(0.5)
    assert "987654" in verdict["numbers_accurate"].explain()
""")
    result = pytester.runpytest(*xdist_args(workers))
    # parametrized by study alone: no model is involved
    result.assert_outcomes(passed=2 * len(STUDIES))


@pytest.mark.parametrize("workers", WORKERS)
def test_repeat_samples_each_pair(pytester: pytest.Pytester, workers: int) -> None:
    make_suite(pytester, studies=STUDIES[:2])
    pytester.makeconftest(RECORDER)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-repeat", "2", "--co", "-q")
    assert "builtin/template::iscgm_t2d_basal_or_oral_therapy_case_series#r2-completeness" in (
        result.stdout.str())
    result = pytester.runpytest(*xdist_args(workers), "--rwe-repeat", "2")
    result.assert_outcomes(passed=2 * 2 * 3)
    assert sorted((r["study"], r["repeat"]) for r in read_records(pytester)) == sorted(
        (study, repeat) for study in STUDIES[:2] for repeat in (0, 1))


BROKEN_JUROR = """
import json
from pytest_rwe.providers.base import GenerationResult, Provider
from pytest_rwe.providers.registry import register_provider


class Mumbler(Provider):
    name = "mumbler"
    uses_store = False

    async def generate(self, request):
        if self.model == "half":  # answers completeness only, mumbles on the rest
            task = request.task
            if task.criterion == "completeness":
                return GenerationResult(json.dumps({"completeness": {"score": 1,
                                        "explanation": "fine"}}), 0.0)
        return GenerationResult("I think it is quite good overall.", 0.0)


register_provider("mumbler", Mumbler)
"""


@pytest.mark.parametrize("workers", WORKERS)
def test_a_juror_that_cannot_answer_abstains_and_is_counted(
    pytester: pytest.Pytester, workers: int
) -> None:
    make_suite(pytester, studies=STUDIES[:1], jury="builtin/rules,mumbler/half")
    pytester.makeconftest(BROKEN_JUROR + RECORDER)
    # by default a criterion needs a majority of the jury (2 of 2): one juror cannot decide
    result = pytester.runpytest(*xdist_args(workers))
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(["*numbers_accurate: no quorum: 1 of 2 juror(s) answered, 2 "
                                 "needed (--rwe-quorum or ini rwe_quorum)*missing: "
                                 "mumbler/half (abstained)*"])
    (record,) = read_records(pytester)
    assert record["verdict"]["numbers_accurate"]["quorum_met"] is False
    assert record["badge"] == "red"
    # with a quorum of one, the rules juror decides; the mumbler abstained, never scored
    result = pytester.runpytest(*xdist_args(workers), "--rwe-quorum", "1")
    result.assert_outcomes(passed=3)
    (record,) = read_records(pytester)
    verdict = record["verdict"]
    assert [verdict[c]["abstentions"] for c in verdict] == [1, 1, 0]
    assert verdict["numbers_accurate"]["mean"] == 1.0  # the rules juror's score alone
    mumbler = verdict["numbers_accurate"]["jurors"][1]
    assert mumbler["score"] is None and "abstained" in mumbler["explanation"]
    assert record["badge"] == "yellow"  # passes, but not with every juror answering


@pytest.mark.parametrize("workers", WORKERS)
def test_every_juror_abstaining_fails_with_their_reasons(
    pytester: pytest.Pytester, workers: int
) -> None:
    make_suite(pytester, studies=STUDIES[:1], jury="mumbler/always")
    pytester.makeconftest(BROKEN_JUROR)
    result = pytester.runpytest(*xdist_args(workers))
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines([
        "*jury mean n/a (every juror abstained)*",
        "*mumbler/always: abstained: reply unreadable after one repair attempt*",
    ])
