"""The plugin under real provider limits, end to end: the SDKs against the fake server.

Rate limits ridden out (Retry-After absent, present, huge), overloads, the per-call deadline
and timeout options, and juror errors kept apart from abstentions in every output. Each also
under ``-n 2``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_kit import (
    FAKE_KEYS,
    RECORDER,
    STUDIES,
    VENDOR_JURY,
    VENDOR_MODEL,
    read_records,
    vendor_suite,
    xdist_args,
)

from pytest_rwe.providers.retry import RetryPolicy
from pytest_rwe.testing.fake_server import FakeServer

WORKERS = [0, 2]
TESTS = len(STUDIES) * 3


@pytest.fixture
def server(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    with vendor_suite(pytester, monkeypatch, latency_s=0.02) as fake:
        yield fake


def question_of(pytester: pytest.Pytester, study: str) -> str:
    path = pytester.path / "cases" / "studies" / f"{study}.json"
    return str(json.loads(path.read_text(encoding="utf-8"))["question"])


def add_ini(pytester: pytest.Pytester, line: str) -> None:
    ini = pytester.path / "tox.ini"
    ini.write_text(ini.read_text(encoding="utf-8").rstrip("\n") + f"\n{line}\n",
                   encoding="utf-8")


def report_of(pytester: pytest.Pytester) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pytester.path / "out" / "report.json").read_text("utf-8"))
    return data


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("retry_after", [None, 0.05, 3600.0], ids=["absent", "present", "huge"])
def test_a_stretch_of_429s_is_ridden_out(pytester: pytest.Pytester, server: FakeServer,
                                         workers: int, retry_after: float | None) -> None:
    # every anthropic request is refused for a while, then the provider recovers
    server.add_fault("rate_limit", provider="anthropic", times=25, retry_after_s=retry_after)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-retry-cap", "0.1",
                                "--rwe-report", "out")
    result.assert_outcomes(passed=TESTS)
    assert server.rate_limited("anthropic") == 25
    assert server.duplicate_requests() == []
    assert len([r for r in server.requests if r.status == 200]) == len(STUDIES) * 10
    run = report_of(pytester)["run"]
    (anthropic,) = [v for k, v in run["endpoints"].items() if k.startswith("anthropic@")]
    assert anthropic["rate_limited"] == 25 and anthropic["waits"] == 25
    # a huge Retry-After is capped (--rwe-retry-cap 0.1, plus at most 50 ms of jitter); with
    # none, each wait is a jittered backoff whose size depends on how often the same call was
    # refused, which depends on scheduling: bound it by the backoff's own ceiling only
    assert anthropic["wait_s"] > 0
    assert anthropic["wait_s"] <= 25 * (RetryPolicy().max_delay_s if retry_after is None else 0.15)
    assert run["errors"] == 0 and report_of(pytester)["juror_errors"]["total"] == 0


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("status", [503, 529])
def test_an_overloaded_provider_is_followed_down_and_every_call_made_once(
        pytester: pytest.Pytester, server: FakeServer, workers: int, status: int) -> None:
    server.latency_s = 0.1
    server.overload_status, server.retry_after_s = status, 0.05
    server.set_cap("google", 2)  # the engine is told nothing: its ceiling stays 16
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "out")
    result.assert_outcomes(passed=TESTS)
    assert server.max_in_flight("google") <= 2 and server.duplicate_requests() == []
    run = report_of(pytester)["run"]
    (google,) = [v for k, v in run["endpoints"].items() if k.startswith("google@")]
    assert google["overloads"] > 0 and google["rate_limited"] == 0  # not counted as 429s
    # followed down from its ceiling; how far in one run depends on how the calls overlapped
    # (a busy machine overlaps fewer), so the exact descent is the limiter's unit tests'
    assert google["lowest"] < google["ceiling"]


@pytest.mark.parametrize("workers", WORKERS)
def test_a_call_rate_limited_past_its_deadline_is_a_juror_error_naming_the_option(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    question = question_of(pytester, STUDIES[1])
    server.add_fault("rate_limit", provider="google", contains=question, times=-1,
                     retry_after_s=0.2)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-deadline", "0.5")
    # the pair whose juror could not be asked errors; the others pass
    result.assert_outcomes(passed=TESTS - 3, errors=3)
    result.stdout.fnmatch_lines([
        f"*the jury could not judge {VENDOR_MODEL}'s summary of {STUDIES[1]}: 3 juror call(s) "
        "failed*",
        "*google/gemini-2.5-pro on *still rate-limited after * attempts*--rwe-deadline*"
        "rwe_deadline*",
        "*juror errors (could not be asked): 3 (google/gemini-2.5-pro direction 1, numbers 1,"
        " complete 1)*",
    ])
    (record,) = [r for r in read_records(pytester) if r["study"] == STUDIES[1]]
    google = [j for v in record["verdict"].values() for j in v["jurors"]
              if j["juror"] == "google/gemini-2.5-pro"]
    assert [j["status"] for j in google] == ["error"] * 3
    assert all(v["errors"] == 1 and v["abstentions"] == 0 for v in record["verdict"].values())


@pytest.mark.parametrize("workers", WORKERS)
@pytest.mark.parametrize("where", ["option", "ini"])
def test_the_timeout_option_bounds_each_attempt(pytester: pytest.Pytester, server: FakeServer,
                                                workers: int, where: str) -> None:
    # 3 s, not 0.5: every other call must answer within it on a slow, busy CI machine (at
    # 0.5 s a fresh run on a slow machine timed out 12 pairs instead of the hanging one)
    question = question_of(pytester, STUDIES[0])
    server.add_fault("hang", provider="openai", model="gpt-4.1-mini", contains=question,
                     times=-1, hang_s=30)
    args = ["--rwe-max-attempts", "2"]
    if where == "option":
        args += ["--rwe-timeout", "3"]
    else:
        add_ini(pytester, "rwe_timeout = 3")
    result = pytester.runpytest(*xdist_args(workers), *args)
    result.assert_outcomes(passed=TESTS - 3, errors=3)
    result.stdout.fnmatch_lines([
        f"*{VENDOR_MODEL} could not summarize {STUDIES[0]}: *no answer within 3 s; raise "
        "--rwe-timeout (ini rwe_timeout)*gave up after 2 attempts; raise --rwe-max-attempts*",
    ])
    assert len([r for r in server.requests if r.fault == "hang"]) == 2  # once, across workers


@pytest.mark.parametrize(("args", "ini", "message"), [
    (["--rwe-timeout", "0"], "", "*--rwe-timeout: 0 must be more than 0 seconds*"),
    (["--rwe-deadline", "-5"], "", "*--rwe-deadline: -5 must be more than 0 seconds*"),
    ([], "rwe_timeout = soon", "*ini rwe_timeout = 'soon' is not a number of seconds*"),
    ([], "rwe_max_attempts = many", "*ini rwe_max_attempts = 'many' is not a whole number*"),
])
def test_bad_limit_values_are_usage_errors_naming_the_option(
        pytester: pytest.Pytester, server: FakeServer, args: list[str], ini: str,
        message: str) -> None:
    add_ini(pytester, ini)
    result = pytester.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert server.requests == []


@pytest.mark.parametrize("workers", WORKERS)
def test_juror_errors_and_abstentions_are_counted_apart_in_every_output(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    key = FAKE_KEYS["GEMINI_API_KEY"]
    # google cannot be asked about study 2 (a 500 whose message holds a key)...
    server.add_fault("status", provider="google", contains=question_of(pytester, STUDIES[2]),
                     status=500, times=-1, text=f"backend failure for key {key}")
    # ...and anthropic answers study 3's completeness unreadably, repair included: it abstains
    question, summaries = question_of(pytester, STUDIES[3]), server.responder
    assert summaries is not None

    def respond(provider: str, model: str, prompt: str) -> str | None:
        if provider == "anthropic" and question in prompt and "completeness" in prompt:
            return "I would rather not say."
        return summaries(provider, model, prompt)

    server.responder = respond
    result = pytester.runpytest(*xdist_args(workers), "--rwe-max-attempts", "2",
                                "--rwe-report", "out")
    # an error errors the pair's tests; an abstention is counted and the jury decides
    result.assert_outcomes(passed=TESTS - 3, errors=3)
    out = result.stdout.str()
    assert key not in out and "<GEMINI_API_KEY redacted>" in out
    result.stdout.fnmatch_lines([
        "*abstentions: 1 (anthropic/claude-sonnet-4-20250514 *1)*",
        "*juror errors (could not be asked): 3 (google/gemini-2.5-pro direction 1, numbers 1, "
        "complete 1)*",
    ])
    report = report_of(pytester)
    assert report["abstentions"]["total"] == 1 and report["juror_errors"]["total"] == 3
    assert report["juror_errors"]["by_juror"]["google/gemini-2.5-pro"] == {
        "direction_of_effect": 1, "numbers_accurate": 1, "completeness": 1}
    statuses = {(r["study"], j["juror"], c): j["status"] for r in report["results"]
                for c, cell in r["criteria"].items() for j in cell["jurors"]}
    assert statuses[(STUDIES[2], "google/gemini-2.5-pro", "completeness")] == "error"
    assert list(statuses.values()).count("abstained") == 1
    markdown = (pytester.path / "out" / "report.md").read_text(encoding="utf-8")
    assert "| abstentions | errors (could not be asked) |" in markdown
    page = (pytester.path / "out" / "report.html").read_text(encoding="utf-8")
    assert "errors by juror (could not be asked)" in page and ">error</td>" in page
    assert key not in markdown + page + json.dumps(report)


BUGGY_PROVIDER = """
from pytest_rwe.providers.base import Provider
from pytest_rwe.providers.registry import register_provider


class Buggy(Provider):
    name = "buggy"
    uses_store = False

    async def generate(self, request):
        return self.answer_of(request).text  # there is no answer_of: a bug


register_provider("buggy", Buggy)
"""


@pytest.mark.parametrize("workers", WORKERS)
def test_a_bug_in_provider_code_errors_the_tests_with_its_traceback(
        pytester: pytest.Pytester, server: FakeServer, workers: int) -> None:
    pytester.makeconftest(RECORDER + BUGGY_PROVIDER)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-jury", f"{VENDOR_JURY},buggy/judge")
    result.assert_outcomes(errors=TESTS)  # never swallowed as an abstention
    result.stdout.fnmatch_lines([
        "*buggy/judge on direction_of_effect: AttributeError: 'Buggy' object has no attribute "
        "'answer_of' (raised while calling buggy/judge: not a failed call*",
        "*Traceback (most recent call last):*",
        "*in generate*",
        "*return self.answer_of(request).text*",
    ])
    statuses = {j["status"] for r in read_records(pytester) for v in r["verdict"].values()
                for j in v["jurors"] if j["juror"] == "buggy/judge"}
    assert statuses == {"error"}

