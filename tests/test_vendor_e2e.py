"""The suite against vendor models through the real SDKs and the local fake server.

The server is selected only by the SDKs' own base-URL variables; the response store is
exercised in every record mode, with and without xdist.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_kit import (
    FAKE_KEYS,
    RECORDER,
    STUDIES,
    VENDOR_MODEL,
    read_records,
    vendor_suite,
    xdist_args,
)

from pytest_rwe.testing.fake_server import FakeServer

WORKERS = [0, 2]
CALLS_PER_PAIR = 1 + 3 * 3  # one summary, then three jurors x three criteria


@pytest.fixture
def server(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    with vendor_suite(pytester, monkeypatch, latency_s=0.01) as fake:
        yield fake


def stored_files(pytester: pytest.Pytester) -> list[Path]:
    return sorted((pytester.path / "store").rglob("*.json"))


@pytest.mark.parametrize("workers", WORKERS)
def test_vendor_suite_through_the_sdks_and_the_store(
    pytester: pytest.Pytester, server: FakeServer, workers: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = pytester.runpytest(*xdist_args(workers))
    result.assert_outcomes(passed=len(STUDIES) * 3)
    calls = len(STUDIES) * CALLS_PER_PAIR
    # every call made exactly once, across workers too, and each one stored
    assert len(server.requests) == calls
    assert server.duplicate_requests() == []
    assert {r.provider for r in server.requests} == {"openai", "anthropic", "google"}
    files = stored_files(pytester)
    assert len(files) == calls
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert all(key not in text for key in FAKE_KEYS.values())
    records = read_records(pytester)
    assert len(records) == len(STUDIES)
    # every juror answered: a call that broke (an SDK import race did once) would abstain
    # and leave the tests green, so this is checked on its own
    assert [j for r in records for v in r["verdict"].values() for j in v["jurors"]
            if j["score"] is None] == []
    assert all(r["summary"]["input_tokens"] and r["summary"]["output_tokens"] for r in records)

    # replay only: nothing is called, the recorded latency is kept, and no key is needed
    # (a pull request from a fork has no secrets)
    server.reset()
    for name in FAKE_KEYS:
        monkeypatch.delenv(name)
    again = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none")
    again.assert_outcomes(passed=len(STUDIES) * 3)
    assert server.requests == []
    replayed = {r["study"]: r["summary"] for r in read_records(pytester)}
    for record in records:
        assert replayed[record["study"]]["replayed"] is True
        assert replayed[record["study"]]["latency_s"] == pytest.approx(
            record["summary"]["latency_s"], abs=1e-4)

    # record all: every call is made again and overwritten, still once each
    for name, value in FAKE_KEYS.items():
        monkeypatch.setenv(name, value)
    again = pytester.runpytest(*xdist_args(workers), "--rwe-record", "all")
    again.assert_outcomes(passed=len(STUDIES) * 3)
    assert len(server.requests) == calls and server.duplicate_requests() == []
    assert len(stored_files(pytester)) == calls


SDK_PROBE = """

def pytest_sessionfinish(session):
    import sys
    worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
    sdks = [name for name in ("openai", "anthropic", "google.genai") if name in sys.modules]
    (session.config.rootpath / f"sdks-{worker}.json").write_text(json.dumps(sdks))
"""


@pytest.mark.parametrize("dist", ["load", "loadfile"])
def test_under_xdist_one_worker_calls_and_the_others_read_its_answers(
    pytester: pytest.Pytester, server: FakeServer, dist: str
) -> None:
    pytester.makeconftest(RECORDER + SDK_PROBE)
    # loadfile hands each file to one worker: whichever starts the engine first leads
    pytester.makepyfile(test_other="def test_unrelated():\n    pass\n")
    # nothing is answered before 4 judge calls are in flight together: the whole budget of 4
    # (a worker's share would have been 2, and then this times out and the count is short)
    server.hold("anthropic", until_in_flight=4)
    result = pytester.runpytest("-n", "3", "--dist", dist, "--rwe-concurrency", "4")
    result.assert_outcomes(passed=len(STUDIES) * 3 + 1)
    assert len(server.requests) == len(STUDIES) * CALLS_PER_PAIR
    assert server.duplicate_requests() == []
    # one worker imported the SDKs and made every call, with the whole budget of 4 per
    # provider (a worker's share would have been 2); under --dist load it is gw0
    imported = {path.stem.removeprefix("sdks-"): json.loads(path.read_text())
                for path in pytester.path.glob("sdks-gw*.json")}  # not the controller: it
    # runs in this process here (pytester in-process), where earlier tests imported SDKs
    callers = [worker for worker, sdks in imported.items() if sdks]
    assert len(callers) == 1 and imported[callers[0]] == ["openai", "anthropic", "google.genai"]
    assert set(imported) == {"gw0", "gw1", "gw2"}
    if dist == "load":
        assert callers == ["gw0"]
    assert server.max_in_flight("anthropic") == 4
    # the leader's note is gone once the run is over
    assert not list((pytester.path / "store" / ".locks").glob("run-*.leader"))


@pytest.mark.parametrize("workers", WORKERS)
def test_replay_only_with_nothing_stored_fails_naming_model_and_study(
    pytester: pytest.Pytester, server: FakeServer, workers: int
) -> None:
    result = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none")
    # a pair without its summary errors at setup, naming what to do
    result.assert_outcomes(errors=len(STUDIES) * 3)
    assert server.requests == []
    result.stdout.fnmatch_lines([
        f"*no recorded response for the summary of model {VENDOR_MODEL} on study "
        "trinetx_cud_pancreatic_cancer_chronic_pancreatitis*--rwe-record new*",
    ])


def test_a_prompt_edit_under_replay_only_names_the_studies_it_touches(
    pytester: pytest.Pytester, server: FakeServer
) -> None:
    pytester.runpytest().assert_outcomes(passed=len(STUDIES) * 3)
    prompts = pytester.path / "cases" / "prompts"
    prompts.mkdir()
    (prompts / "summarize_case_series.txt").write_text(
        (Path(__file__).resolve().parent.parent / "cases" / "prompts" /
         "summarize_case_series.txt").read_text(encoding="utf-8") + "\nBe brief.\n",
        encoding="utf-8",
    )
    result = pytester.runpytest("--rwe-record", "none")
    # only the case series uses that template: its tests fail, the others replay and pass
    result.assert_outcomes(passed=(len(STUDIES) - 1) * 3, errors=3)
    result.stdout.fnmatch_lines([
        "*no recorded response for the summary*iscgm_t2d_basal_or_oral_therapy_case_series*"
        "*replay refuses it: the prompt changed: the template summarize_case_series.txt "
        "changed*cases/prompts/summarize_case_series.txt*",
    ])


@pytest.mark.parametrize("workers", WORKERS)
def test_a_failing_call_fails_only_its_own_tests_and_is_never_stored(
    pytester: pytest.Pytester, server: FakeServer, workers: int
) -> None:
    question = json.loads(
        (pytester.path / "cases" / "studies" / f"{STUDIES[2]}.json").read_text("utf-8")
    )["question"]
    server.add_fault("status", provider="openai", model="gpt-4.1-mini", contains=question,
                     status=400, text="Invalid request: the prompt is too long", times=-1)
    result = pytester.runpytest(*xdist_args(workers))
    result.assert_outcomes(passed=(len(STUDIES) - 1) * 3, errors=3)
    result.stdout.fnmatch_lines([
        f"*{VENDOR_MODEL} could not summarize {STUDIES[2]}*the prompt is too long*",
    ])
    study = pytester.path / "store" / VENDOR_MODEL.replace("/", "__") / STUDIES[2]
    assert not (study / "summary.json").exists()
    assert (study.parent / STUDIES[0] / "summary.json").exists()  # the others are stored
    # called once: under xdist the other worker gets the leader's error without calling
    assert len([r for r in server.requests if r.status == 400]) == 1


@pytest.mark.parametrize("workers", WORKERS)
def test_rate_limits_are_retried_without_failing_a_test(
    pytester: pytest.Pytester, server: FakeServer, workers: int
) -> None:
    server.set_cap("anthropic", 2)  # far below the engine's concurrency: 429s will come
    server.retry_after_s = 0.05
    # answered only once the cap is full and a call beyond it was refused
    server.hold("anthropic", until_in_flight=2, until_refused=1)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-concurrency", "8")
    result.assert_outcomes(passed=len(STUDIES) * 3)
    assert server.rate_limited("anthropic") > 0
    assert server.duplicate_requests() == []
