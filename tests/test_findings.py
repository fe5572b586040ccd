"""Findings as data: the rules juror's spans and fields, LLM quotes located in the summary,
and both carried through records, report.json and report.html."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_rwe.engine import Evaluation
from pytest_rwe.plugin.records import evaluation_record
from pytest_rwe.providers.base import GenerationResult, Usage
from pytest_rwe.report.html_findings import summary_with_findings
from pytest_rwe.report.report_json import result_entry
from pytest_rwe.rules.diagnostics import juror_findings, study_value
from pytest_rwe.rules.quotes import locate, locate_quotes, quoted_spans
from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.study import Study, load_study
from pytest_rwe.verdict import JurorScore, Verdict

STUDIES = Path(__file__).resolve().parent.parent / "cases" / "studies"
THRESHOLDS = {"direction_of_effect": 0.5, "numbers_accurate": 0.5, "completeness": 0.5}


@pytest.fixture(scope="module")
def cud() -> Study:
    return load_study(STUDIES / "trinetx_cud_pancreatic_cancer_chronic_pancreatitis.json")


def test_quoted_passages_of_an_explanation() -> None:
    text = ('The summary says "higher risk of stroke", calls it \u201csignificant\u201d and '
            "writes 'twice the risk'; the group's value is fine. \"higher risk of stroke\"")
    assert quoted_spans(text) == ["higher risk of stroke", "significant", "twice the risk"]


def test_a_quote_is_located_exactly_then_loosely_or_not_at_all() -> None:
    summary = "Drug A had a  Lower risk of\nstroke (HR 0.81, 95% CI 0.70\u20130.94)."
    exact = locate("HR 0.81", summary)
    assert exact.found and summary[exact.start:exact.end] == "HR 0.81"
    loose = locate("lower risk of stroke", summary)  # case and whitespace differ
    assert loose.found and summary[loose.start:loose.end] == "Lower risk of\nstroke"
    dash = locate("0.70-0.94", summary)  # an en dash written as a hyphen
    assert dash.found and summary[dash.start:dash.end] == "0.70\u20130.94"
    missing = locate("higher risk of stroke", summary)
    assert (missing.found, missing.start, missing.end) == (False, -1, -1)


def test_a_quote_of_the_study_is_not_a_misquote() -> None:
    quotes = locate_quotes('"lower risk" contradicts "outcome.stroke_bin!HR" and "made up"',
                           "A lower risk of stroke.", '{"outcome.stroke_bin!HR": "1.2"}')
    assert [(q.found, q.in_study, q.misquoted) for q in quotes] == [
        (True, False, False), (False, True, False), (False, False, True)]


def test_rules_findings_carry_span_field_and_study_value(cud: Study) -> None:
    text = summarize(cud).replace("HR 0.263", "HR 0.363").replace(
        "significantly higher risk", "significantly lower risk")
    verdict = Verdict.from_scores([JurorScore("builtin/rules", c, 0, "x") for c in THRESHOLDS])
    found = juror_findings(cud, text, verdict)
    numbers = found["numbers_accurate"]["builtin/rules"]["findings"]
    assert numbers and all(text[f["start"]:f["end"]] == f["quote"] for f in numbers)
    first = numbers[0]
    assert first["quote"] == "0.363"
    assert first["field"] == 'results.outcomes["outcome.pancreatic_cancer_bin!HR"]'
    assert first["value"] == cud.raw["results"]["outcomes"]["outcome.pancreatic_cancer_bin!HR"]
    direction = found["direction_of_effect"]["builtin/rules"]["findings"]
    assert direction and "lower" in direction[0]["quote"]
    assert text[direction[0]["start"]:direction[0]["end"]] == direction[0]["quote"]
    assert found["completeness"]["builtin/rules"] == {"findings": []}


def test_study_value_reads_each_kind_of_field(cud: Study) -> None:
    assert study_value(cud, "results.intervention_size") == str(
        cud.raw["results"]["intervention_size"])
    assert study_value(cud, 'results.baseline_differences["age_mean_years"]') == \
        "control 48.1 vs intervention 47.0"
    assert study_value(cud, 'results.outcomes["outcome.pancreatic_cancer_bin!*"]') \
        .startswith("HR ")
    assert study_value(cud, "counts of outcomes and groups") is None


def test_llm_quotes_are_located_and_misquotes_counted(cud: Study) -> None:
    text = summarize(cud)
    verdict = Verdict.from_scores([
        JurorScore("openai/o4-mini", "direction_of_effect", 0,
                   'It says "significantly lower risk" but also "much safer overall".'),
        JurorScore("openai/o4-mini", "numbers_accurate", None, "abstained: unreadable"),
    ])
    found = juror_findings(cud, text, verdict)
    entry = found["direction_of_effect"]["openai/o4-mini"]
    assert [q["found"] for q in entry["quotes"]] == [True, False]
    assert entry["misquotes"] == 1
    located = entry["quotes"][0]
    assert text[located["start"]:located["end"]] == "significantly lower risk"
    assert "numbers_accurate" not in found  # an abstention points at nothing


def _evaluation(cud: Study, text: str, verdict: Verdict) -> Evaluation:
    return Evaluation("m/a", cud.id, 0, GenerationResult(text, 0.1, Usage(None, None)),
                      verdict)


def test_findings_ride_on_the_record_into_report_json_and_html(cud: Study) -> None:
    text = summarize(cud).replace("HR 0.263", "HR 0.363")
    verdict = Verdict.from_scores([
        JurorScore("builtin/rules", "numbers_accurate", 0, "x"),
        JurorScore("openai/o4-mini", "numbers_accurate", 0, 'objects to "HR 9.99"')])
    record = evaluation_record(_evaluation(cud, text, verdict), THRESHOLDS,
                               findings=juror_findings(cud, text, verdict))
    json.dumps(record)  # JSON primitives only: xdist ships records as JSON text
    entry = result_entry(record)
    jurors = {j["juror"]: j for j in entry["criteria"]["numbers_accurate"]["jurors"]}
    assert jurors["builtin/rules"]["findings"][0]["quote"] == "0.363"
    assert jurors["openai/o4-mini"]["misquotes"] == 1
    page = summary_with_findings(text, entry["criteria"])
    assert '<mark class="finding"' in page and ">0.363<sup>1</sup></mark>" in page
    assert cud.raw["results"]["outcomes"]["outcome.pancreatic_cancer_bin!HR"] in page
    assert 'class="misquote"' in page and "HR 9.99" in page


def test_a_record_without_findings_is_unchanged(cud: Study) -> None:
    verdict = Verdict.from_scores([JurorScore("builtin/rules", "completeness", 1, "ok")])
    record = evaluation_record(_evaluation(cud, "text", verdict), THRESHOLDS)
    assert record["verdict"]["completeness"]["jurors"][0] == {
        "juror": "builtin/rules", "score": 1, "explanation": "ok", "status": "scored"}
