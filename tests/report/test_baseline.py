"""The comparison with a baseline report.json and the drop gate (pure)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_rwe.report.baseline import (
    compare_reports,
    drop_failures,
    gate_section,
    load_baseline,
    missing_responses,
    parse_max_drop,
    study_means,
)
from pytest_rwe.report.baseline_text import baseline_lines, baseline_markdown, gate_lines
from pytest_rwe.settings import SettingsError
from pytest_rwe.stats import paired_diff_ci

ROOT = Path(__file__).resolve().parents[2]


def report(scores: dict[str, dict[str, float | None]], model: str = "m/a",
           **extra: Any) -> dict[str, Any]:
    """A minimal report.json: per study {criterion: jury mean}."""
    return {"schema": "pytest-rwe/report", "model_names": [model], **extra, "results": [
        {"study": study, "model": model, "repeat": 0, "error": None,
         "criteria": {c: {"mean": v} for c, v in cell.items()}}
        for study, cell in scores.items()]}


def test_study_means_average_repeats_and_skip_missing_values() -> None:
    data = report({"s1": {"completeness": 1.0}})
    data["results"].append({"study": "s1", "model": "m/a", "repeat": 1,
                            "criteria": {"completeness": {"mean": 0.0},
                                         "numbers_accurate": {"mean": None}}})
    assert study_means(data) == {"m/a": {"s1": {"completeness": 0.5}}}


def test_the_difference_is_the_paired_bootstrap_over_shared_studies() -> None:
    now = report({f"s{i}": {"completeness": v} for i, v in enumerate([1, 0, 0, 1, 0])})
    before = report({f"s{i}": {"completeness": 1.0} for i in range(6)},
                    created_at="2025-01-01T00:00:00+00:00", git_commit="abc")
    comparison = compare_reports(now, before, source="base.json", resamples=500)
    cell = comparison["models"]["m/a"]["completeness"]
    expected = paired_diff_ci([1, 0, 0, 1, 0], [1] * 5, resamples=500,
                              seed="baseline:m/a:completeness")
    assert (cell["diff"], cell["ci_low"], cell["ci_high"]) == tuple(expected)
    assert cell["n"] == 5 and cell["better"] == 0
    assert [w["study"] for w in cell["worse"]] == ["s1", "s2", "s4"]
    assert comparison["models"]["m/a"]["numbers_accurate"] is None
    assert comparison["studies_only_baseline"] == ["s5"]
    assert comparison["baseline_git_commit"] == "abc"


def test_only_a_drop_beyond_the_limit_with_its_whole_interval_fails() -> None:
    before = report({f"s{i}": {"completeness": 1.0, "numbers_accurate": 1.0}
                     for i in range(20)})
    clearly = report({f"s{i}": {"completeness": 0.0 if i < 15 else 1.0,
                                "numbers_accurate": 0.0 if i == 3 else 1.0}
                      for i in range(20)})
    comparison = compare_reports(clearly, before)
    failures = drop_failures(comparison, {"completeness": 0.1, "numbers_accurate": 0.0})
    assert [(f["model"], f["criterion"]) for f in failures] == [("m/a", "completeness")]
    assert len(failures[0]["worse"]) == 15
    # one study worse out of twenty is noise: the interval reaches 0
    assert comparison["models"]["m/a"]["numbers_accurate"]["ci_high"] == 0
    # a limit larger than the drop passes
    assert drop_failures(comparison, {"completeness": 0.9}) == []


def test_models_are_compared_only_when_both_runs_have_them() -> None:
    comparison = compare_reports(report({"s": {"completeness": 1}}, model="m/new"),
                                 report({"s": {"completeness": 1}}, model="m/old"))
    assert comparison["models"] == {}
    assert comparison["models_only_current"] == ["m/new"]
    assert comparison["models_only_baseline"] == ["m/old"]


def test_parse_max_drop_names_the_fix() -> None:
    assert parse_max_drop("direction_of_effect=0.05, completeness=0") == {
        "direction_of_effect": 0.05, "completeness": 0.0}
    assert parse_max_drop(None) == {}
    for bad, why in (("complete=0.1", "unknown criterion 'complete'"),
                     ("completeness", "'' is not a number >= 0"),
                     ("completeness=-1", "'-1' is not a number >= 0"),
                     ("completeness=x", "'x' is not a number >= 0")):
        with pytest.raises(SettingsError, match="--rwe-max-drop") as info:
            parse_max_drop(bad)
        assert why in str(info.value) and "e.g. direction_of_effect=0.05" in str(info.value)


def test_load_baseline_checks_the_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"does not exist; pass a report\.json"):
        load_baseline(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read"):
        load_baseline(bad)
    bad.write_text(json.dumps({"schema": "other"}), encoding="utf-8")
    with pytest.raises(ValueError, match="field 'schema' is not 'pytest-rwe/report'"):
        load_baseline(bad)
    committed = load_baseline(ROOT / "cases" / "golden" / "baseline" / "report.json")
    suite = {p.stem for p in (Path(__file__).resolve().parents[2] / "cases" / "studies").glob(
        "*.json")}
    assert {r["study"] for r in committed["results"]} == suite  # re-record it with the suite


def test_missing_responses_come_from_replay_only_errors() -> None:
    data = report({"s1": {}, "s2": {}})
    data["results"][0]["error"] = ("no recorded response for the summary of model m/a on study "
                                   "s1 (replay-only: --rwe-record none).")
    data["results"][1]["error"] = "HTTP 500"
    assert missing_responses(data) == [{"model": "m/a", "study": "s1"}]


def test_renderings_say_what_dropped_and_what_is_missing() -> None:
    before = report({f"s{i}": {"completeness": 1.0} for i in range(12)})
    now = report({f"s{i}": {"completeness": 0.0} for i in range(12)})
    section = gate_section(compare_reports(now, before, source="b.json"),
                           {"completeness": 0.1}, [{"model": "m/a", "study": "s9"}])
    assert section["passed"] is False
    shown = {"gating": section}
    text = ["".join(t for t, _ in line) for line in baseline_lines(shown)]
    assert text[1] == ("  m/a (12 studies): direction n/a; numbers n/a; complete -1.000 "
                       "[-1.000, -1.000] DROP")
    gate = ["".join(t for t, _ in line) for line in gate_lines(shown)]
    assert gate[0].startswith("pytest-rwe: 1 evaluation(s) have no recorded response")
    assert gate[1] == "  m/a: s9"
    assert gate[2].startswith("pytest-rwe baseline gate FAILED (--rwe-max-drop completeness=0.1)")
    assert gate[3].endswith("worse on 12 studies: s0 (1.00 -> 0.00), s1 (1.00 -> 0.00), s10 "
                            "(1.00 -> 0.00), s11 (1.00 -> 0.00), s2 (1.00 -> 0.00), s3 (1.00 -> "
                            "0.00), s4 (1.00 -> 0.00), s5 (1.00 -> 0.00), s6 (1.00 -> 0.00), s7 "
                            "(1.00 -> 0.00), and 2 more")
    markdown = "\n".join(baseline_markdown(shown))
    assert "### Not recorded" in markdown and "- `m/a` on `s9`" in markdown
    assert "**Baseline gate failed** (max drop: completeness 0.1)." in markdown
    assert "| `m/a` | 12 | n/a | n/a | -1.000 [-1.000, -1.000] DROP |" in markdown
    assert baseline_lines({}) == [] and gate_lines({}) == [] and baseline_markdown({}) == []
