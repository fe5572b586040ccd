"""report.json, report.md, report.html and the terminal summary, from constructed records."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_records import FAST, JURY, record, two_model_run

from pytest_rwe.report import (
    ReportSettings,
    build_report,
    build_report_settings,
    plain,
    render_gate,
    render_html,
    render_markdown,
    render_summary,
    write_report,
)
from pytest_rwe.report.rescore import rescore
from pytest_rwe.report.terminal import GRID_LIMIT, ROW_LIMIT
from pytest_rwe.settings import SettingsError

META = {"git_commit": "0123456789abcdef", "created_at": "2025-01-01T00:00:00+00:00"}
EVIL = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'


def report_of(records: list[dict[str, Any]], settings: ReportSettings = FAST,
              **kwargs: Any) -> dict[str, Any]:
    return build_report(records, settings, jury=JURY, meta=META, **kwargs)


def test_report_json_is_self_describing_and_rescorable(tmp_path: Path) -> None:
    prompts = {"sha256": "ab" * 32, "templates": {}}
    report = report_of(two_model_run(), thresholds={"completeness": 0.5}, prompts=prompts)
    paths = write_report(tmp_path / "out", report)
    assert sorted(p.name for p in paths) == ["report.html", "report.json", "report.md"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "report.html", "report.json", "report.md"]  # no temporary files left behind
    data = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert data["schema"] == "pytest-rwe/report" and data["schema_version"] == 1
    assert data["git_commit"] == META["git_commit"] and data["plugin_version"]
    assert data["jury"] == list(JURY) and data["prompts"] == prompts
    assert data["weights"] == {"direction_of_effect": 20.0, "numbers_accurate": 6.0,
                               "completeness": 5.0, "inference_time": 3.0}
    weak = data["models"]["m/weak"]
    assert set(weak["criteria"]["completeness"]) >= {"mean", "ci_low", "ci_high", "n"}
    assert set(weak) >= {"inference_time", "normalized", "score", "rank", "bradley_terry",
                         "difference_from_top"}
    first = data["results"][0]
    assert (first["study"], first["model"]) == ("study_00", "m/good")
    assert first["summary"]["text"] and first["summary"]["latency_s"] == 1.0
    assert first["criteria"]["completeness"]["jurors"][0] == {
        "juror": "judge/a", "score": 1, "explanation": "ok", "status": "scored", "error": None}
    # `rwe rescore` reads it back and reproduces the run's scores
    again = rescore(data)
    assert {m: v["score"] for m, v in again["models"].items()} == {
        m: v["score"] for m, v in data["models"].items()}


def test_rescore_uses_the_recorded_weights() -> None:
    settings = build_report_settings(weights="inference_time=0,numbers_accurate=0")
    data = report_of(two_model_run(), ReportSettings(**{**FAST.__dict__,
                                                         "weights": settings.weights}))
    assert data["weights"]["inference_time"] == 0.0
    assert rescore(data)["weights"]["inference_time"] == 0.0


def test_api_keys_never_reach_any_report_file(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    key = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    records = [record("m/a", "s1", text=f"leaked {key}", explanation=f"saw {key}"),
               record("m/a", "s2", error=f"HTTP 401 for key {key}")]
    write_report(tmp_path, report_of(records))
    for name in ("report.json", "report.md", "report.html"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert key not in text, name
    assert "redacted" in (tmp_path / "report.json").read_text(encoding="utf-8")


def test_html_escapes_model_output_everywhere() -> None:
    records = [record(f"m/{EVIL}", f"s_{EVIL}", {"completeness": [0, 0, 0]},
                      text=f"The summary {EVIL}", explanation=f"quoted: {EVIL}"),
               record("m/b", f"s_{EVIL}")]
    page = render_html(report_of(records))
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    # only the page's own two scripts, both allowed by hash in the content security policy
    assert page.count("<script>") == 2
    assert len(re.findall(r"sha256-[A-Za-z0-9+/=]{44}", page)) == 2
    assert "default-src &#x27;none&#x27;" in page
    # nothing is fetched: no external URL in any src or href
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)


def test_html_has_charts_grid_and_a_drill_down_per_result() -> None:
    page = render_html(report_of(two_model_run(3)))
    for chart in ("direction_of_effect", "numbers_accurate", "completeness",
                  "inference_time", "bradley_terry"):
        assert f'id="chart-{chart}"' in page
    assert page.count('class="whisker"') >= 8  # 4 bar charts x 2 models
    assert page.count('<details class="study"') == 3
    assert page.count('<div class="result"') == 6
    # each badge in the grid links to its result in the drill-down
    for link in re.findall(r'<a href="#(s\d+-m\d+)">', page):
        assert f'id="{link}"' in page


def test_markdown_escapes_and_summarizes() -> None:
    records = [record(f"m/{EVIL}|x", "s1", {"completeness": [0, 0, 1]},
                      explanation=f"bad | {EVIL}"), record("m/b", "s1")]
    text = render_markdown(report_of(records))
    assert "<script>" not in text and "<img" not in text
    assert "&lt;script&gt;" in text and "\\|x" in text
    assert "Failing summaries (1)" in text
    assert "| rank |" in text


def test_terminal_one_model_shows_raw_means_and_says_normalization_is_undefined() -> None:
    lines = plain(render_summary(report_of([record("m/only", f"s{i}") for i in range(3)])))
    text = "\n".join(lines)
    assert "m/only" in text and "1.00 [1.00, 1.00]" in text
    assert "normalization across models is undefined" in text
    assert not any(line.lstrip().startswith("rank") for line in lines)  # no ranking table


def test_terminal_ranks_models_with_intervals_and_bradley_terry() -> None:
    text = "\n".join(plain(render_summary(report_of(two_model_run()))))
    # numbers is 1.00 for both models: undefined, shown "-"
    assert re.search(r"1\s+m/good\s+1\.00\s+-\s+1\.00\s+1\.00\s+100\.0%\s+\d{4} \[", text)
    assert re.search(r"2\s+m/weak\s+0\.00\s+-\s+0\.00\s+0\.00\s+0\.0%", text)
    assert "numbers_accurate: every model has the same mean" in text
    assert "ranking resolved: m/good ahead of m/weak" in text
    assert "Bradley-Terry: per-study comparisons of quality only" in text
    assert "complete -0.33 [" in text  # paired difference from the top model
    assert "completeness 0.40" in text  # Fleiss' kappa
    assert "badges green/yellow/red: m/good 6/0/0, m/weak 2/1/3" in text
    assert "weight sensitivity" in text


def test_terminal_badge_grid_is_summarized_when_there_are_many_studies() -> None:
    n = max(GRID_LIMIT + 1, 2 * (ROW_LIMIT + 5))
    records = [record("m/a", f"s{i:03d}", {"completeness": [1, 1, 0]} if i % 2 else None)
               for i in range(n)]
    lines = plain(render_summary(report_of(records)))
    text = "\n".join(lines)
    problems = n // 2
    assert f"{problems} of {n} studies are not all green" in text
    assert "s000" not in text  # green rows are left out
    assert f"... {problems - ROW_LIMIT} more (see report.html)" in text
    small = "\n".join(plain(render_summary(report_of(records[:4]))))
    assert "s000" in small  # a small run shows the whole grid


def test_gate_lines_name_model_and_criterion() -> None:
    settings = ReportSettings(resamples=50, bt_resamples=20, minimums={"completeness": 0.8})
    lines = plain(render_gate(report_of(two_model_run(), settings)))
    assert lines[0].startswith("pytest-rwe quality gate FAILED")
    assert lines[1].strip() == "m/weak: completeness mean 0.667 < minimum 0.8"
    assert plain(render_gate(report_of(two_model_run()))) == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"weights": "direction=3"}, "--rwe-weights: unknown key 'direction'"),
    ({"weights": "completeness=-1"}, "--rwe-weights: weight completeness=-1 must be >= 0"),
    ({"weights": "direction_of_effect=0,numbers_accurate=0,completeness=0,inference_time=0"},
     "every weight is 0"),
    ({"normalize_max": "completeness=2"}, "--rwe-normalize-max completeness=2.0 must be"),
    ({"minimums": "completeness=high"}, "--rwe-min: 'high' for completeness is not a number"),
    ({"minimums": "speed=0.5"}, "--rwe-min: unknown criterion 'speed'"),
])
def test_bad_report_options_name_the_option_and_the_fix(kwargs: dict[str, str],
                                                        message: str) -> None:
    with pytest.raises(SettingsError) as info:
        build_report_settings(**kwargs)
    assert message in str(info.value)


def test_report_options_are_parsed() -> None:
    settings = build_report_settings(weights="inference_time=0",
                                     normalize_max="completeness=1.0",
                                     minimums="direction_of_effect=0.9")
    assert settings.weights["inference_time"] == 0.0
    assert settings.weights["direction_of_effect"] == 20.0
    assert settings.normalize_max == {"completeness": 1.0}
    assert settings.minimums == {"direction_of_effect": 0.9}
