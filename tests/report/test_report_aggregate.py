"""Aggregation of evaluation records into the report's sections (hand-computed cases)."""

from __future__ import annotations

import random

import pytest
from report_records import FAST, JURY, record, two_model_run

from pytest_rwe.report import ReportSettings
from pytest_rwe.report.aggregate import aggregate
from pytest_rwe.stats import fleiss_kappa, mean_ci, score_models


def test_means_intervals_rubric_and_rank_by_hand() -> None:
    result = aggregate(two_model_run(), FAST, models=["m/good", "m/weak"], jury=JURY)
    good, weak = result["models"]["m/good"], result["models"]["m/weak"]
    assert weak["criteria"]["completeness"]["mean"] == pytest.approx(4 / 6)
    assert weak["criteria"]["direction_of_effect"]["mean"] == pytest.approx((2 / 3 + 5) / 6)
    assert weak["criteria"]["numbers_accurate"]["mean"] == 1.0
    assert weak["criteria"]["completeness"]["n"] == 6
    assert weak["inference_time"]["mean"] == 2.0
    # the interval is the stats module's seeded bootstrap of the per-study values
    expected = mean_ci([1, 1 / 3] * 3, resamples=200, seed="0:m/weak:completeness")
    cell = weak["criteria"]["completeness"]
    assert (cell["mean"], cell["ci_low"], cell["ci_high"]) == pytest.approx(tuple(expected))
    assert cell["ci_low"] < cell["mean"] < cell["ci_high"]
    # DESIGN.md's rubric: good is best on every key -> 1; numbers is 1.00 for both models,
    # so it cannot rank them: undefined (None), left out of the sum (the others unchanged)
    assert good["normalized"] == {"direction_of_effect": 1.0, "numbers_accurate": None,
                                  "completeness": 1.0, "inference_time": 1.0}
    assert weak["normalized"] == {"direction_of_effect": 0.0, "numbers_accurate": None,
                                  "completeness": 0.0, "inference_time": 0.0}
    assert (good["weighted_sum"], weak["weighted_sum"]) == (28.0, 0.0)
    assert result["rubric"]["undefined"] == ["numbers_accurate"]
    assert "numbers_accurate: every model has the same mean" in result["rubric"]["note"]
    assert (good["score"], good["rank"], weak["score"], weak["rank"]) == (1.0, 1, 0.0, 2)
    assert result["rubric"]["ranking"] == ["m/good", "m/weak"]
    means = {m: {**{c: v["criteria"][c]["mean"] for c in v["criteria"]},
                 "inference_time": v["inference_time"]["mean"]}
             for m, v in result["models"].items()}
    assert score_models(means).models["m/weak"].score == weak["score"]


def test_pass_counts_tokens_and_badges() -> None:
    result = aggregate(two_model_run(), FAST)
    weak = result["models"]["m/weak"]
    assert weak["criteria"]["completeness"]["passed"] == 3  # odd studies have mean 1/3
    assert weak["tokens"] == {"input": 600, "output": 240}
    assert weak["badges"] == {"green": 2, "yellow": 1, "red": 3}
    assert result["models"]["m/good"]["badges"] == {"green": 6, "yellow": 0, "red": 0}
    assert result["badges"]["study_00"] == {"m/good": "green", "m/weak": "yellow"}
    assert result["badges"]["study_01"]["m/weak"] == "red"


def test_fleiss_kappa_per_criterion_from_juror_scores() -> None:
    result = aggregate(two_model_run(), FAST, jury=JURY)
    # completeness: 9 unanimous summaries [1,1,1] and 3 split [0,0,1] -> kappa 0.4 by hand
    assert result["agreement"]["completeness"]["kappa"] == pytest.approx(0.4)
    assert result["agreement"]["completeness"]["subjects"] == 12
    # every numbers answer is 1: kappa is undefined, and the note says why
    numbers = result["agreement"]["numbers_accurate"]
    assert numbers["kappa"] is None and "undefined" in numbers["note"]


def test_abstentions_are_counted_never_scored() -> None:
    records = [
        record("m/a", "s1", {"completeness": [1, None, 1]}),
        record("m/a", "s2", {"completeness": [None, None, None]}),
        record("m/a", "s3", {"completeness": [0, 0, None]}),
    ]
    result = aggregate(records, FAST, jury=JURY)
    cell = result["models"]["m/a"]["criteria"]["completeness"]
    assert cell["n"] == 2 and cell["mean"] == pytest.approx(0.5)  # s2 has no value
    abst = result["abstentions"]
    assert abst["total"] == 5
    assert abst["by_juror"]["judge/b"]["completeness"] == 2
    assert abst["by_model"]["m/a"]["completeness"] == 5
    rows = [[1, None, 1], [None, None, None], [0, 0, None]]
    assert result["agreement"]["completeness"]["kappa"] == fleiss_kappa(rows).kappa
    assert result["agreement"]["completeness"]["abstentions"] == 5


def test_repeats_are_averaged_per_study_and_the_worst_badge_shown() -> None:
    records = [record("m/a", "s1", {"completeness": [1, 1, 1]}, latency=1.0),
               record("m/a", "s1", {"completeness": [0, 0, 0]}, latency=3.0, repeat=1),
               record("m/a", "s2")]
    result = aggregate(records, FAST)
    model = result["models"]["m/a"]
    assert model["criteria"]["completeness"]["mean"] == pytest.approx((0.5 + 1.0) / 2)
    assert model["inference_time"]["mean"] == pytest.approx((2.0 + 1.0) / 2)
    assert model["studies"] == 2 and model["summaries"] == 3
    assert result["badges"]["s1"]["m/a"] == "red"


def test_a_failed_summary_counts_as_an_error_not_a_score() -> None:
    records = [record("m/a", "s1"), record("m/a", "s2", error="m/a: HTTP 500")]
    model = aggregate(records, FAST)["models"]["m/a"]
    assert model["errors"] == 1
    assert model["criteria"]["completeness"]["n"] == 1
    assert model["badges"]["red"] == 1


def test_arrival_order_does_not_change_any_number() -> None:
    records = two_model_run(8)
    first = aggregate(records, FAST, models=["m/good", "m/weak"], jury=JURY)
    shuffled = records[:]
    random.Random(7).shuffle(shuffled)
    assert aggregate(shuffled, FAST, models=["m/good", "m/weak"], jury=JURY) == first


def test_configured_model_order_is_kept() -> None:
    result = aggregate(two_model_run(), FAST, models=["m/weak", "m/good"])
    assert list(result["models"]) == ["m/weak", "m/good"]
    assert list(aggregate(two_model_run(), FAST)["models"]) == ["m/good", "m/weak"]


def test_bradley_terry_differences_and_sensitivity_with_two_models() -> None:
    result = aggregate(two_model_run(), FAST)
    good, weak = result["models"]["m/good"], result["models"]["m/weak"]
    # quality only: good wins the odd studies and the first; the others are ties, although
    # good is twice as fast (time counts only with --rwe-bt-time-weight)
    assert good["bradley_terry"]["wins"] == 4 + 0.5 * 2
    assert weak["bradley_terry"]["wins"] == 0.5 * 2
    assert result["bradley_terry"]["time_weight"] == 0.0
    assert good["bradley_terry"]["rating"] > 1500 > weak["bradley_terry"]["rating"]
    assert result["bradley_terry"]["top"] == "m/good"
    assert good["difference_from_top"] is None
    diff = weak["difference_from_top"]["completeness"]
    assert diff["mean"] == pytest.approx(-1 / 3)
    assert diff["ci_high"] <= 0
    assert weak["difference_from_top"]["inference_time"]["mean"] == pytest.approx(1.0)
    # numbers is undefined (1.00 for both): its weight changes nothing, so it has no range
    assert set(result["sensitivity"]) == {"direction_of_effect", "completeness",
                                          "inference_time"}
    assert result["sensitivity"]["completeness"]["top"] == ["m/good"]


def test_one_model_has_raw_means_and_says_normalization_is_undefined() -> None:
    result = aggregate([record("m/only", f"s{i}") for i in range(3)], FAST)
    model = result["models"]["m/only"]
    assert result["rubric"]["normalization_defined"] is False
    assert "undefined" in result["rubric"]["note"]
    assert model["criteria"]["completeness"]["mean"] == 1.0
    assert (model["score"], model["rank"], model["normalized"]) == (None, None, {})
    assert model["bradley_terry"] is None and result["bradley_terry"] is None
    assert result["sensitivity"] == {}


def test_gate_names_each_model_and_criterion_below_its_minimum() -> None:
    settings = ReportSettings(resamples=50, bt_resamples=20,
                              minimums={"completeness": 0.8, "numbers_accurate": 1.0})
    gate = aggregate(two_model_run(), settings)["gate"]
    assert gate["passed"] is False
    assert gate["failures"] == [{"model": "m/weak", "criterion": "completeness",
                                 "mean": pytest.approx(4 / 6), "minimum": 0.8,
                                 "cause": None}]
    assert aggregate(two_model_run(), FAST)["gate"] == {
        "minimums": {}, "passed": True, "failures": [], "models": ["m/good", "m/weak"]}
