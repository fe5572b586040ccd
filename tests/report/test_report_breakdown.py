"""The breakdown of criterion means by design, source and area; study warnings; selection."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from report_records import FAST, JURY, record

from pytest_rwe.cli import main
from pytest_rwe.report import build_report, plain, render_html, render_markdown, render_summary
from pytest_rwe.report.breakdown import breakdown
from pytest_rwe.report.breakdown_text import TERMINAL_VALUES
from pytest_rwe.report.report_json import dumps
from pytest_rwe.report.study_notes import TERMINAL_WARNINGS, study_warnings
from pytest_rwe.study import parse_study

META = {"git_commit": None, "created_at": "2025-01-01T00:00:00+00:00"}
TAGS: dict[str, dict[str, list[str]]] = {
    "s1": {"design": ["cohort"], "source": ["legend-htn"], "area": ["cardiology"]},
    "s2": {"design": ["cohort"], "source": ["literature"], "area": ["cardiology"]},
    "s3": {"design": ["case_series"], "source": ["literature"], "area": ["hepatology"]},
    "s4": {"design": ["cross_sectional"], "source": ["literature"], "area": ["psychiatry"]},
    # s5 has no tags: it counts as unknown in every dimension
}
WRONG = [0, 0, 0]  # every juror scores 0
HALF = [1, 0]  # a jury of two, split: mean 0.5


def run() -> list[dict[str, Any]]:
    """Model m/a: direction wrong on s3 and s4, numbers split on s2; m/b right everywhere."""
    records = [
        record("m/a", "s1"),
        record("m/a", "s2", {"numbers_accurate": [1, 1, 0]}),
        record("m/a", "s3", {"direction_of_effect": WRONG}),
        record("m/a", "s4", {"direction_of_effect": WRONG}),
        record("m/a", "s5"),
    ]
    return records + [record("m/b", s) for s in ("s1", "s2", "s3", "s4")]


def cell(section: dict[str, Any], model: str, dimension: str, value: str) -> dict[str, Any]:
    found: dict[str, Any] = section["models"][model][dimension][value]
    return found


def test_means_and_counts_per_design_source_and_area_by_hand() -> None:
    section = breakdown(run(), TAGS, FAST, models=["m/a", "m/b"])
    assert section["dimensions"] == ["design", "source", "area"]
    # values by number of studies, then name; the untagged s5 is "unknown"
    assert section["values"]["design"] == ["cohort", "case_series", "cross_sectional", "unknown"]
    assert section["values"]["source"] == ["literature", "legend-htn", "unknown"]
    cohort = cell(section, "m/a", "design", "cohort")
    assert cohort["studies"] == 2
    assert cohort["criteria"]["direction_of_effect"]["mean"] == 1.0
    assert cohort["criteria"]["numbers_accurate"]["mean"] == (1 + 2 / 3) / 2
    assert cohort["criteria"]["numbers_accurate"]["n"] == 2
    literature = cell(section, "m/a", "source", "literature")
    assert literature["studies"] == 3
    assert literature["criteria"]["direction_of_effect"]["mean"] == 1 / 3
    legend = cell(section, "m/a", "source", "legend-htn")
    assert (legend["studies"], legend["criteria"]["direction_of_effect"]["mean"]) == (1, 1.0)
    # one study: a zero-width interval at its value
    single = cell(section, "m/a", "area", "hepatology")["criteria"]["direction_of_effect"]
    assert (single["mean"], single["ci_low"], single["ci_high"], single["n"]) == (0, 0, 0, 1)
    unknown = cell(section, "m/a", "area", "unknown")
    assert unknown["studies"] == 1
    # m/b has no study without tags: an empty cell, never a made-up mean
    empty = cell(section, "m/b", "design", "unknown")
    assert empty["studies"] == 0 and empty["criteria"]["completeness"]["mean"] is None
    assert "overall" not in section["models"]["m/a"]  # that is the models section


def test_intervals_hold_their_mean() -> None:
    report = build_report(run(), FAST, jury=JURY, meta=META, study_tags=TAGS)
    section = report["breakdown"]
    for entry in section["models"].values():
        for dimension in section["dimensions"]:
            for value in entry[dimension].values():
                for ci in value["criteria"].values():
                    if ci["mean"] is not None:
                        assert 0 <= ci["ci_low"] <= ci["mean"] <= ci["ci_high"] <= 1
    literature = cell(section, "m/a", "source", "literature")["criteria"]["direction_of_effect"]
    assert literature["ci_low"] < literature["mean"] < literature["ci_high"]
    # study_tags in report.json let anyone recompute the breakdown from report.json alone
    assert report["study_tags"]["s1"]["design"] == ["cohort"]
    assert report["study_tags"]["s5"] == {}


def test_arrival_order_does_not_change_the_breakdown() -> None:
    records = run()
    shuffled = copy.deepcopy(records)
    random.Random(7).shuffle(shuffled)
    assert breakdown(records, TAGS, FAST) == breakdown(shuffled, TAGS, FAST)


def test_repeats_are_averaged_per_study_before_the_cell_mean() -> None:
    records = [record("m/a", "s1", {"completeness": WRONG}),
               record("m/a", "s1", repeat=1),
               record("m/a", "s2")]
    cohort = cell(breakdown(records, TAGS, FAST), "m/a", "design", "cohort")
    assert cohort["studies"] == 2
    assert cohort["criteria"]["completeness"]["mean"] == (0.5 + 1) / 2


def test_no_quorum_and_abstentions_leave_a_study_out_of_that_criterion_only() -> None:
    records = [record("m/a", "s1", {"completeness": [None, None, None]}),
               record("m/a", "s2")]
    cohort = cell(breakdown(records, TAGS, FAST), "m/a", "design", "cohort")
    assert cohort["studies"] == 2
    assert cohort["criteria"]["completeness"]["n"] == 1
    assert cohort["criteria"]["direction_of_effect"]["n"] == 2


def test_renderings_show_every_dimension() -> None:
    report = build_report(run(), FAST, jury=JURY, meta=META, study_tags=TAGS)
    lines = plain(render_summary(report))
    head = lines.index("criterion means by design, source, area (direction/numbers/complete; "
                       "95% intervals in report.md, .html, .json):")
    assert lines[head + 1].split() == ["n", "m/a", "m/b"]
    assert lines[head + 2].split() == ["design=cohort", "2", "1.00/0.83/1.00", "1.00/1.00/1.00"]
    # a model without a study of a value: "-"
    assert lines[head + 5].split() == ["design=unknown", "1", "1.00/1.00/1.00", "-"]
    row = next(line for line in lines if "source=literature" in line)
    assert row.split() == ["source=literature", "3", "0.33/0.89/1.00", "1.00/1.00/1.00"]
    markdown = render_markdown(report)
    assert "### Means by design, source, area" in markdown
    assert "| area=psychiatry | 1 | 0.00 [0.00, 0.00] |" in markdown
    page = render_html(report)
    assert "<h2>Means by design, source, area</h2>" in page
    assert "<td>area=hepatology</td>" in page


def test_the_terminal_lists_the_largest_values_and_says_how_many_more() -> None:
    tags = {f"s{i}": {"design": ["cohort"], "source": ["literature"], "area": [f"area {i:02d}"]}
            for i in range(TERMINAL_VALUES + 3)}
    records = [record("m/a", s) for s in tags]
    report = build_report(records, FAST, jury=JURY, meta=META, study_tags=tags)
    text = "\n".join(plain(render_summary(report)))
    assert "area=area 00" in text and f"area=area {TERMINAL_VALUES:02d}" not in text
    assert "... and 3 more areas with fewer studies (in the report files)" in text
    assert f"area=area {TERMINAL_VALUES + 2:02d}" in render_markdown(report)


def test_one_study_has_no_breakdown_to_show() -> None:
    report = build_report([record("m/a", "s1")], FAST, jury=JURY, meta=META, study_tags=TAGS)
    assert report["breakdown"]["models"]["m/a"]["design"]["cohort"]["studies"] == 1
    assert "criterion means by" not in "\n".join(plain(render_summary(report)))
    assert "Means by" not in render_markdown(report)


def test_names_are_escaped_in_every_rendering() -> None:
    evil = '<img src=x onerror=alert(1)>|\x1b[2J'
    tags = {"s1": {"area": [evil]}, "s2": {"area": ["cardiology"]}}
    report = build_report([record("m/a", "s1"), record("m/a", "s2")], FAST, jury=JURY,
                          meta=META, study_tags=tags)
    # (terminal lines are escaped where the plugin writes them, like every other line)
    assert "<img" not in render_html(report) and "<img" not in render_markdown(report)
    assert "\x1b" not in render_html(report) and "\x1b" not in render_markdown(report)


def bad_study(cohort_raw: dict[str, object], study_id: str) -> dict[str, object]:
    raw = copy.deepcopy(cohort_raw)
    raw["id"] = study_id
    raw["results"]["outcomes"] = {"outcome.death_bin!HR": "1.50 (0.70, 0.95)"}  # type: ignore[index]
    return raw


def test_study_warnings_are_listed_once_with_paths_relative_to_the_root(
        cohort_raw: dict[str, object], tmp_path: Path) -> None:
    files = []
    for i in range(TERMINAL_WARNINGS + 2):
        path = tmp_path / "studies" / f"bad_{i:02d}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(bad_study(cohort_raw, f"bad_{i:02d}")), encoding="utf-8")
        files.append(path)
    from pytest_rwe.study import load_paths

    studies = [load.study for load in load_paths(files) if load.study is not None]
    studies.append(parse_study(cohort_raw))  # a consistent study has none
    warnings = study_warnings(studies, tmp_path)
    assert len(warnings) == TERMINAL_WARNINGS + 2
    assert warnings[0] == {"study": "bad_00", "file": "studies/bad_00.json",
                           "where": '$.results.outcomes["outcome.death_bin!HR"]',
                           "message": warnings[0]["message"]}
    assert "outside its own interval" in warnings[0]["message"]
    report = build_report([record("m/a", "bad_00")], FAST, jury=JURY, meta=META,
                          study_warnings=warnings)
    assert report["study_warnings"] == warnings
    lines = plain(render_summary(report))
    assert sum("study warnings: 12 in 12 studies" in line for line in lines) == 1
    assert sum("outside its own interval" in line for line in lines) == TERMINAL_WARNINGS
    assert "... 2 more (report.json study_warnings)" in "\n".join(lines)
    assert render_markdown(report).count("outside its own interval") == TERMINAL_WARNINGS + 2
    assert "<h2>Study warnings</h2>" in render_html(report)


def test_no_warning_and_no_selection_add_nothing() -> None:
    report = build_report(run(), FAST, jury=JURY, meta=META, study_tags=TAGS)
    assert report["study_warnings"] == [] and report["selection"] is None
    text = "\n".join(plain(render_summary(report)))
    assert "study warnings" not in text and "--rwe-select" not in text


def test_the_selection_is_named_in_the_head_of_every_rendering() -> None:
    selection = {"expression": "design=cohort", "selected": 2, "studies": 5, "deselected": 3}
    report = build_report(run(), FAST, jury=JURY, meta=META, study_tags=TAGS,
                          selection=selection)
    assert report["selection"] == selection
    assert plain(render_summary(report))[0].endswith("; --rwe-select design=cohort: 2 of 5 "
                                                     "studies")
    assert "`--rwe-select design=cohort: 2 of 5 studies`" in render_markdown(report)
    assert "<code>--rwe-select design=cohort: 2 of 5 studies</code>" in render_html(report)


def test_rwe_rescore_of_a_saved_report_shows_its_breakdown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.json"
    path.write_text(dumps(build_report(run(), FAST, jury=JURY, meta=META, study_tags=TAGS)),
                    encoding="utf-8")
    assert main(["rescore", str(path), "--weights", "completeness=0"]) == 0
    out = capsys.readouterr().out
    assert "criterion means by design, source, area" in out
    assert next(line for line in out.splitlines() if "source=literature" in line).split()[1] == "3"
    assert main(["rescore", str(path), "--json"]) == 0
    section = json.loads(capsys.readouterr().out)["breakdown"]
    assert section["models"]["m/a"]["source"]["literature"]["studies"] == 3
    # a report whose breakdown was edited out of shape still rescores, and says so
    broken = json.loads(path.read_text(encoding="utf-8"))
    broken["breakdown"]["models"]["m/a"] = {"overall": 1}
    path.write_text(json.dumps(broken), encoding="utf-8")
    assert main(["rescore", str(path)]) == 0
    captured = capsys.readouterr()
    assert "criterion means by" not in captured.out and "left out" in captured.err
