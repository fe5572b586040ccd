"""End-to-end runs of the session report with pytester: aggregates under xdist, the
``--rwe-min`` gate, one-model runs, option errors, and report.html in headless Chromium."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from e2e_kit import ROOT, STUDIES, make_suite, xdist_args

DEMO_CONFTEST = (ROOT / "tests" / "report" / "demo_conftest.py").read_text(encoding="utf-8")
# the kit's four designs plus two LEGEND cohorts where the demo models make their mistakes
REPORT_STUDIES = (*STUDIES, "legend_htn_beta_blockers_vs_dihydropyridine_ccbs_cardiovascular",
                  "legend_htn_ace_inhibitors_vs_thiazide_diuretics_cardiovascular")
THREE_MODELS = "builtin/template demo/careless demo/sloppy"
TWO_JURORS = "builtin/rules,demo/hasty"


def _screenshot_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "screenshot_report", ROOT / "scripts" / "screenshot_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("screenshot_report", module)
    spec.loader.exec_module(module)
    return module


def demo_suite(pytester: pytest.Pytester, models: str = THREE_MODELS, jury: str = TWO_JURORS,
               extra_ini: str = "") -> None:
    make_suite(pytester, studies=REPORT_STUDIES, models=models, jury=jury, extra_ini=extra_ini)
    pytester.makeconftest(DEMO_CONFTEST)


def read_report(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return data


def without_timings(value: Any) -> Any:
    """``value`` without anything measured by a clock (latencies and what derives from them)."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if k not in ("inference_time", "latency_s", "created_at")}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def test_report_aggregates_are_identical_with_and_without_xdist(
        pytester: pytest.Pytester) -> None:
    demo_suite(pytester)
    # builtin/template's latency is a real, jittering clock reading; with its weight at 0
    # every aggregate except the inference times themselves must match exactly
    args = ("--rwe-weights", "inference_time=0")
    plain = pytester.runpytest(*args, "--rwe-report", "plain")
    spread = pytester.runpytest(*xdist_args(2), *args, "--rwe-report", "xdist")
    assert plain.ret == spread.ret == pytest.ExitCode.TESTS_FAILED  # the demo models err
    one, two = read_report(pytester.path / "plain"), read_report(pytester.path / "xdist")
    assert len(one["results"]) == len(REPORT_STUDIES) * 3
    assert one["model_names"] == ["builtin/template", "demo/careless", "demo/sloppy"]
    for section in ("models", "rubric", "bradley_terry", "differences_from_top", "sensitivity",
                    "agreement", "abstentions", "badges", "gate", "results", "weights"):
        assert without_timings(one[section]) == without_timings(two[section]), section
    # a real ranking: the careless model misses completeness, the sloppy one directions
    models = one["models"]
    assert models["demo/careless"]["criteria"]["completeness"]["mean"] < 1.0
    assert models["demo/sloppy"]["criteria"]["direction_of_effect"]["mean"] < 1.0
    assert one["rubric"]["ranking"][0] == "builtin/template"
    # only the controller prints the report
    assert spread.stdout.str().count("pytest-rwe report") == 1
    spread.stdout.fnmatch_lines(["*rank*model*norm direction*score*Bradley-Terry*",
                                 "*1*builtin/template*100.0%*"])


@pytest.mark.parametrize("workers", [0, 2])
def test_gate_fails_a_run_whose_tests_pass_and_says_so_last(pytester: pytest.Pytester,
                                                            workers: int) -> None:
    # completeness threshold 0: the careless model's tests pass, but its mean misses the gate
    demo_suite(pytester, models="builtin/template demo/careless", jury="builtin/rules",
               extra_ini="rwe_thresholds = completeness=0\n")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-min",
                                "completeness=0.9,direction_of_effect=0.9")
    result.assert_outcomes(passed=len(REPORT_STUDIES) * 2 * 3)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    lines = [line for line in result.stdout.lines if line.strip()]
    assert lines[-2].startswith("pytest-rwe quality gate FAILED (--rwe-min completeness>=0.9, "
                                "direction_of_effect>=0.9)")
    assert lines[-1].strip().startswith("demo/careless: completeness mean 0.")
    assert lines[-1].endswith("< minimum 0.9")


def test_gate_passes_and_exit_status_stays_zero(pytester: pytest.Pytester) -> None:
    demo_suite(pytester, models="builtin/template", jury="builtin/rules",
               extra_ini="rwe_min = direction_of_effect=0.9\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.OK
    assert result.stdout.lines[-1].startswith(
        "pytest-rwe quality gate passed (--rwe-min direction_of_effect>=0.9)")


def test_one_model_run_shows_raw_means_and_ini_report_folder(pytester: pytest.Pytester) -> None:
    demo_suite(pytester, models="builtin/template", jury="builtin/rules",
               extra_ini="rwe_report = out/run1\nrwe_weights = inference_time=0\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.OK
    text = result.stdout.str()
    assert "builtin/template  6  1.00 [1.00, 1.00]    1.00 [1.00, 1.00]" in text
    assert "one model: min-max normalization across models is undefined" in text
    data = read_report(pytester.path / "out" / "run1")  # ini paths are relative to the rootdir
    assert data["rubric"]["normalization_defined"] is False
    assert data["models"]["builtin/template"]["score"] is None
    assert data["weights"]["inference_time"] == 0.0
    assert data["prompts"]["sha256"] and len(data["prompts"]["templates"]) == 6
    assert "undefined" in (pytester.path / "out" / "run1" / "report.md").read_text("utf-8")


def test_a_bad_weight_is_a_usage_error_naming_the_option(pytester: pytest.Pytester) -> None:
    demo_suite(pytester, models="builtin/template", jury="builtin/rules")
    result = pytester.runpytest("--rwe-weights", "direction=20")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--rwe-weights: unknown key 'direction'; valid keys: "
                                 "direction_of_effect*"])


def test_report_html_loads_clean_in_headless_chromium(pytester: pytest.Pytester) -> None:
    shots = _screenshot_module()
    chromium = shots.find_chromium()
    if chromium is None:
        pytest.skip("chromium is not installed (Debian: apt-get install -y chromium)")
    demo_suite(pytester)
    pytester.runpytest("--rwe-report", "report")
    page = pytester.path / "report" / "report.html"
    dom, console = shots.dump_dom(chromium, page)
    assert shots.page_problems(dom, console, charts=5) == []
    assert dom.count('<details class="study"') == len(REPORT_STUDIES)
    # the check itself can fail: a script injected past escaping is blocked and reported
    broken = pytester.path / "broken.html"
    broken.write_text(page.read_text("utf-8").replace(
        "<h1>", "<script>document.title='pwned'</script><h1>", 1), encoding="utf-8")
    dom, console = shots.dump_dom(chromium, broken)
    problems = shots.page_problems(dom, console, charts=5)
    assert any("blocked by the page policy" in p for p in problems)
    assert "<title>pwned" not in dom
