"""``--rwe-plan`` and the token-and-cost report, end to end through the installed plugin,
the real SDKs and the local fake server; each with and without xdist."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import (
    FAKE_KEYS,
    RECORDER,
    STUDIES,
    VENDOR_JURY,
    VENDOR_MODEL,
    vendor_suite,
    xdist_args,
)

from pytest_rwe.testing.fake_server import FakeServer
from pytest_rwe.testing.fake_wire import count_tokens, prompt_text

WORKERS = [0, 2]
CALLS_PER_PAIR = 1 + 3 * 3  # one summary, then three jurors x three criteria
JURORS = VENDOR_JURY.split(",")


@pytest.fixture
def server(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    with vendor_suite(pytester, monkeypatch, latency_s=0.01) as fake:
        yield fake


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("workers", WORKERS)
def test_the_plan_calls_nothing_and_the_run_makes_exactly_its_new_calls(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    planned = pytester.runpytest(*xdist_args(workers), "--rwe-plan", "--rwe-report", "out")
    assert planned.ret == 0, planned.stdout.str()
    assert server.requests == []
    planned.stdout.fnmatch_lines(["*pytest-rwe plan*", "*provider / model*calls*stored*new*",
                                  "*total*", "plan: *plan.json"])
    plan = read(pytester.path / "out" / "plan.json")
    total = plan["total"]
    assert total["calls"] == total["new"] == len(STUDIES) * CALLS_PER_PAIR
    assert total["stored"] == 0 and total["input_tokens"] > 0 and total["usd"] > 0
    assert set(plan["providers"]) == {"openai", "anthropic", "google"}
    assert plan["providers"]["anthropic"]["new"] == len(STUDIES) * 3
    assert not (pytester.path / "out" / "report.json").exists()  # a plan has no evidence

    ran = pytester.runpytest(*xdist_args(workers), "--rwe-report", "out")
    ran.assert_outcomes(passed=len(STUDIES) * 3)
    assert len(server.requests) == total["new"]

    server.reset()
    again = pytester.runpytest(*xdist_args(workers), "--rwe-plan", "--rwe-report", "out")
    assert again.ret == 0 and server.requests == []
    stored = read(pytester.path / "out" / "plan.json")["total"]
    assert (stored["calls"], stored["stored"], stored["new"]) == (total["calls"],
                                                                   total["calls"], 0)
    assert stored["usd"] == 0


@pytest.mark.parametrize("workers", WORKERS)
def test_report_holds_summary_and_judge_tokens_and_cost(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    pytester.makeconftest(RECORDER)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "out")
    result.assert_outcomes(passed=len(STUDIES) * 3)
    result.stdout.fnmatch_lines(["*tokens and cost:*", f"*{VENDOR_MODEL} summaries*",
                                 f"*{VENDOR_MODEL} judged*", "*total*$*"])
    report = read(pytester.path / "out" / "report.json")
    model = report["models"][VENDOR_MODEL]
    summary, judge = model["usage"]["summary"], model["usage"]["judge"]
    assert summary["calls"] == len(STUDIES) and judge["calls"] == len(STUDIES) * 9
    # the server's own counts, as each SDK read them
    assert summary["input_tokens"] + judge["input_tokens"] == sum(
        count_tokens(prompt_text(r.provider, r.body))  # type: ignore[arg-type]
        for r in server.requests)
    assert summary["usd"] > 0 and judge["usd"] > 0
    assert model["usd"] == pytest.approx(summary["usd"] + judge["usd"])
    assert set(report["cost"]["jurors"]) == set(JURORS)
    assert report["cost"]["total"]["usd"] == pytest.approx(model["usd"])
    assert "### Tokens and cost" in (pytester.path / "out" / "report.md").read_text()
    assert "Tokens and cost" in (pytester.path / "out" / "report.html").read_text()

    # replayed: no call, the same tokens and cost
    server.reset()
    replay = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none",
                                "--rwe-report", "again")
    replay.assert_outcomes(passed=len(STUDIES) * 3)
    assert server.requests == []
    replayed = read(pytester.path / "again" / "report.json")["models"][VENDOR_MODEL]
    assert replayed["usage"]["summary"]["replayed"] == len(STUDIES)
    assert replayed["usd"] == pytest.approx(model["usd"])


OVERRIDE = """
import pytest
from pytest_rwe.providers.base import GenerationSettings


@pytest.fixture(scope="session")
def rwe_summarize_settings():
    return GenerationSettings(temperature=0.0, max_output_tokens=777)
"""


@pytest.mark.parametrize("workers", WORKERS)
def test_the_plan_uses_overridden_settings_and_needs_no_key(
        pytester: pytest.Pytester, server: FakeServer, workers: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makeconftest(OVERRIDE)
    pytester.runpytest(*xdist_args(workers)).assert_outcomes(passed=len(STUDIES) * 3)
    assert all(r.body and r.body.get("max_tokens") == 777  # type: ignore[union-attr]
               for r in server.requests if r.provider == "openai"
               and "<<<SUMMARY" not in prompt_text("openai", r.body or {}))
    for name in FAKE_KEYS:
        monkeypatch.delenv(name)
    server.reset()
    planned = pytester.runpytest(*xdist_args(workers), "--rwe-plan", "--rwe-report", "out")
    assert planned.ret == 0, planned.stdout.str()
    total = read(pytester.path / "out" / "plan.json")["total"]
    # the summaries were asked with the conftest's settings: the plan finds them stored
    assert (total["stored"], total["new"]) == (len(STUDIES) * CALLS_PER_PAIR, 0)
    assert server.requests == []


def test_prices_from_a_file_and_a_bad_price_file(pytester: pytest.Pytester,
                                                 server: FakeServer) -> None:
    (pytester.path / "prices.json").write_text(json.dumps(
        {"date": "2027-01-01", "models": {VENDOR_MODEL: {"input": 0, "output": 1000}}}))
    result = pytester.runpytest("--rwe-prices", "prices.json", "--rwe-report", "out")
    result.assert_outcomes(passed=len(STUDIES) * 3)
    report = read(pytester.path / "out" / "report.json")
    summary = report["models"][VENDOR_MODEL]["usage"]["summary"]
    assert summary["usd"] == pytest.approx(summary["output_tokens"] * 1000 / 1e6)
    assert report["cost"]["prices"]["overrides"] == [str(pytester.path / "prices.json")]

    (pytester.path / "bad.json").write_text('{"models": {"m/x": {"input": 1}}}')
    bad = pytester.runpytest("--rwe-prices", "bad.json")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*bad.json: models.m/x has no 'output' price*"])
