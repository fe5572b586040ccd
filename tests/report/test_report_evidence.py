"""No evidence, no pass; quorum counts; repeats; self-judging; ranking resolution (report
sections from hand-built records)."""

from __future__ import annotations

from typing import Any

import pytest
from report_records import FAST, THRESHOLDS, record, two_model_run

from pytest_rwe.report import ReportSettings, build_report, plain, render_gate
from pytest_rwe.report.aggregate import aggregate
from pytest_rwe.report.baseline import compare_reports, gate_section
from pytest_rwe.report.markdown import render_markdown
from pytest_rwe.report.terminal import render_summary
from pytest_rwe.verdict import CRITERIA

GATE = ReportSettings(resamples=50, bt_resamples=50, minimums={"completeness": 0.5})


def no_quorum(model: str, study: str, **kw: Any) -> dict[str, Any]:
    """A record whose every criterion had one answering juror of three (quorum 2)."""
    rec = record(model, study, {c: [1, None, None] for c in CRITERIA}, **kw)
    for cell in rec["verdict"].values():
        cell.update(quorum=2, quorum_met=False)
    rec["badge"] = "red"
    return rec


def test_a_configured_model_without_records_fails_the_gate_with_its_cause() -> None:
    gate = aggregate([record("m/a", "s1")], GATE, models=["m/a", "m/b"])["gate"]
    assert not gate["passed"] and gate["models"] == ["m/a", "m/b"]
    (failure,) = gate["failures"]
    assert failure["model"] == "m/b" and failure["mean"] is None
    assert failure["cause"].startswith("no test of this model ran")
    # no record at all and no study: the cause is the missing study
    empty = aggregate([], GATE, models=["m/a"], no_study="pytest-rwe: no study found in /x")
    assert empty["gate"]["failures"][0]["cause"] == "pytest-rwe: no study found in /x"


def test_every_pair_errored_is_the_cause_not_a_score() -> None:
    records = [record("m/a", f"s{i}", error="m/a: HTTP 503 after 6 attempts") for i in range(3)]
    gate = aggregate(records, GATE, models=["m/a"])["gate"]
    cause = gate["failures"][0]["cause"]
    assert cause.startswith("every pair errored (3 of 3 evaluations have no verdict)")
    assert "HTTP 503" in cause
    lines = "\n".join(plain(render_gate(build_report(records, GATE, models=["m/a"]))))
    assert "m/a: completeness has no evaluation: every pair errored" in lines


def test_verdicts_without_quorum_have_no_value_and_are_counted() -> None:
    records = [no_quorum("m/a", "s1"), record("m/a", "s2")]
    result = aggregate(records, GATE)
    cell = result["models"]["m/a"]["criteria"]["completeness"]
    assert (cell["n"], cell["mean"], cell["no_quorum"], cell["passed"]) == (1, 1.0, 1, 1)
    only = aggregate([no_quorum("m/a", "s1")], GATE, models=["m/a"])
    assert "no study reached the jury's quorum (2 answering jurors" in (
        only["gate"]["failures"][0]["cause"])
    text = "\n".join(plain(render_summary(build_report(records, GATE))))
    assert "  2 (3 without quorum)  " in text


def test_the_baseline_gate_fails_models_without_evidence() -> None:
    baseline = build_report(two_model_run(), FAST)
    current = build_report([r for r in two_model_run() if r["model"] == "m/good"], FAST)
    comparison = compare_reports(current, baseline)
    section = gate_section(comparison, {"completeness": 0.1},
                           causes={"m/weak": "no test of this model ran"})
    assert not section["passed"]
    (failure,) = section["failures"]
    assert failure["model"] == "m/weak" and failure["cause"] == (
        "a model of the baseline has no evaluation in this run: no test of this model ran")
    # every pair of a shared model errored: nothing to compare is a failure, not a pass
    errored = build_report([record("m/good", f"study_{i:02d}", error="boom") for i in range(6)]
                           + [r for r in two_model_run() if r["model"] == "m/weak"], FAST)
    section = gate_section(compare_reports(errored, baseline), {"completeness": 0.1})
    assert [f["model"] for f in section["failures"]] == ["m/good"]
    assert section["failures"][0]["cause"].startswith("nothing to compare")
    # without --rwe-max-drop nothing is gated
    assert gate_section(compare_reports(current, baseline), {})["passed"]


def test_repeats_section_consistency_and_pass_k() -> None:
    # s1: 3 repeats, completeness passes 2 of 3; s2: all pass
    records = [record("m/a", "s1", {"completeness": [0, 0, 0]} if r == 1 else None, repeat=r)
               for r in range(3)] + [record("m/a", "s2", repeat=r) for r in range(3)]
    section = aggregate(records, FAST)["repeats"]
    assert section["repeats"] == 3 and section["rule"] == "all"
    cell = section["models"]["m/a"]["criteria"]["completeness"]
    assert cell["pass_share"]["mean"] == pytest.approx((2 / 3 + 1) / 2)
    assert cell["pass_all"]["mean"] == 0.5 and cell["consistent"] == 1
    assert section["models"]["m/a"]["all_criteria"]["pass_all"]["mean"] == 0.5
    (split,) = section["models"]["m/a"]["disagreeing"]
    assert split["study"] == "s1" and split["passed"]["completeness"] == 2
    report = build_report(records, FAST)
    text = "\n".join(plain(render_summary(report)))
    assert "repeats (3 per study; rwe_repeat_rule all)" in text
    assert "repeats disagree on 1 studies: s1 (complete 2/3)" in text
    assert "### Repeats" in render_markdown(report)
    assert aggregate([record("m/a", "s1")], FAST)["repeats"] is None


def test_self_judging_is_flagged_and_exclusion_reported() -> None:
    jury = ("builtin/rules", "google/gemini-2.5-pro")
    records = [record("google/gemini-2.5-flash", "s1", jury=jury),
               record("builtin/template", "s1", jury=jury)]
    section = aggregate(records, FAST, jury=jury)["self_judging"]
    assert section == {"google/gemini-2.5-flash": {
        "family": "google", "jurors": ["google/gemini-2.5-pro"], "excluded": []}}
    text = "\n".join(plain(render_summary(build_report(records, FAST, jury=jury))))
    assert ("self-judging: google/gemini-2.5-flash is judged by its own vendor family "
            "(google): google/gemini-2.5-pro; judges it (use --rwe-exclude-self") in text
    for rec in records[:1]:
        rec["excluded_jurors"] = ["google/gemini-2.5-pro"]
    report = build_report(records, FAST, jury=jury)
    assert report["self_judging"]["google/gemini-2.5-flash"]["excluded"] == [
        "google/gemini-2.5-pro"]
    assert "dropped from its pairs (--rwe-exclude-self)" in "\n".join(
        plain(render_summary(report)))
    assert "### Self-judging" in render_markdown(report)


def test_top_two_within_bootstrap_noise_is_not_resolved() -> None:
    # b is worse than a on one study of six only: resampling often leaves that study out
    records = []
    for i in range(6):
        records.append(record("m/a", f"s{i}", latency=1.0))
        records.append(record("m/b", f"s{i}", {"direction_of_effect": [0, 0, 0]} if i == 0
                              else None, latency=1.0))
    report = build_report(records, ReportSettings(resamples=100, bt_resamples=400))
    resolution = report["rubric"]["resolution"]
    assert (resolution["top"], resolution["runner_up"]) == ("m/a", "m/b")
    assert resolution["resolved"] is False and resolution["ci_low"] <= 0
    assert 0.3 < resolution["top_share"] < 0.95
    text = "\n".join(plain(render_summary(report)))
    assert "ranking NOT resolved: m/a and m/b are within bootstrap noise" in text
    # a clear difference on every study is resolved
    clear = build_report(two_model_run(), FAST)["rubric"]["resolution"]
    assert clear["resolved"] is True and clear["top_share"] == 1.0


def test_thresholds_of_records_are_the_configured_ones() -> None:
    assert record("m/a", "s1")["thresholds"] == THRESHOLDS
