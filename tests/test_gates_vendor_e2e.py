"""End to end through the vendors' SDKs and the local fake server, with and without xdist:
repeats and the repeat rule, self-judging, credentials in a model URL, hostile text."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import FAKE_KEYS, RECORDER, STUDIES, make_suite, read_records, xdist_args

from pytest_rwe.rules.summarizer import summarize
from pytest_rwe.study import load_folder
from pytest_rwe.testing.fake_server import FakeServer

WORKERS = [0, 2]
MODEL = "openai/gpt-4.1-mini"
SWAP = {"higher": "lower", "lower": "higher", "increase": "decrease", "decrease": "increase"}


def flip(text: str) -> str:
    """The first direction word swapped: a direction error the rules juror catches."""
    return re.sub(r"\b(higher|lower|increase|decrease)\b", lambda m: SWAP[m.group(1)], text,
                  count=1)


class Summaries:
    """A responder: the builtin summary of the study asked for; the second request for each
    study gets its first direction flipped (so of three repeats, exactly one is wrong, in
    whichever order the calls come)."""

    def __init__(self, studies: Path, *, flip_second: bool = False) -> None:
        self.by_question = {load.study.question: summarize(load.study)
                            for load in load_folder(studies) if load.study is not None}
        self.flip_second = flip_second
        self.seen: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, provider: str, model: str, prompt: str) -> str | None:
        if "<<<SUMMARY" in prompt:
            return None  # a judge call: the server's passing verdict
        for question, summary in self.by_question.items():
            if question in prompt:
                with self.lock:
                    self.seen[question] += 1
                    second = self.seen[question] == 2
                return flip(summary) if self.flip_second and second else summary
        return None


def serve(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, responder: Summaries
          ) -> FakeServer:
    server = FakeServer(responder=responder).start()
    for name, value in {**FAKE_KEYS, **server.env()}.items():
        monkeypatch.setenv(name, value)
    return server


Start = Callable[[Summaries], FakeServer]


@pytest.fixture
def fake(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[Start]:
    """Start a fake server answering with a responder; stopped after the test."""
    servers: list[FakeServer] = []

    def start(responder: Summaries) -> FakeServer:
        servers.append(serve(pytester, monkeypatch, responder))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def report_of(pytester: pytest.Pytester) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((pytester.path / "rep" / "report.json").read_text("utf-8"))
    return data


# -- repeats ----------------------------------------------------------------------------------

@pytest.mark.parametrize("workers", WORKERS)
def test_repeats_report_consistency_and_the_rule_decides_what_a_test_asserts(
        pytester: pytest.Pytester, fake: Start, workers: int) -> None:
    folder = make_suite(pytester, models=MODEL)
    pytester.makeconftest(RECORDER)
    responder = Summaries(folder, flip_second=True)
    server = fake(responder)
    flippable = sum(flip(s) != s for s in responder.by_question.values())
    assert flippable == 3  # the case series, the LEGEND and the TriNetX cohorts

    # rule all (the default): the one wrong repeat of each flippable study fails
    result = pytester.runpytest(*xdist_args(workers), "--rwe-repeat", "3", "--rwe-report", "rep")
    result.assert_outcomes(passed=len(STUDIES) * 3 * 3 - flippable, failed=flippable)
    assert len(read_records(pytester)) == len(STUDIES) * 3
    repeats = report_of(pytester)["repeats"]
    assert (repeats["repeats"], repeats["rule"]) == (3, "all")
    direction = repeats["models"][MODEL]["criteria"]["direction_of_effect"]
    assert direction["pass_share"]["mean"] == pytest.approx((1 + 3 * 2 / 3) / 4)
    assert direction["pass_all"]["mean"] == pytest.approx(1 / 4)
    assert direction["pass_all"]["ci_low"] <= direction["pass_all"]["mean"]
    assert direction["consistent"] == 1
    assert repeats["models"][MODEL]["disagreeing_count"] == flippable
    result.stdout.fnmatch_lines(["*repeats (3 per study; rwe_repeat_rule all)*",
                                 "*openai/gpt-4.1-mini: direction 0.75 [*pass^3 0.25 [*",
                                 "*repeats disagree on 3 studies*"])

    # majority: 2 of 3 repeats pass everywhere, so every test passes (replayed: no new call)
    calls = len(server.requests)
    majority = pytester.runpytest(*xdist_args(workers), "--rwe-repeat", "3",
                                  "--rwe-repeat-rule", "majority", "--rwe-report", "rep")
    majority.assert_outcomes(passed=len(STUDIES) * 3 * 3)
    assert report_of(pytester)["repeats"]["rule"] == "majority"
    assert len(server.requests) == calls
    # mean: direction (1 + 0 + 1) / 3 = 0.67 reaches 0.5, not 0.7
    mean = pytester.runpytest(*xdist_args(workers), "--rwe-repeat", "3", "-o",
                              "rwe_repeat_rule=mean")
    mean.assert_outcomes(passed=len(STUDIES) * 3 * 3)
    strict = pytester.runpytest(*xdist_args(workers), "--rwe-repeat", "3", "-o",
                                "rwe_repeat_rule=mean", "-o",
                                "rwe_thresholds=direction_of_effect=0.7")
    strict.assert_outcomes(passed=len(STUDIES) * 3 * 3 - 3 * flippable, failed=3 * flippable)
    strict.stdout.fnmatch_lines(["*direction_of_effect: mean over 3 of 3 repeats 0.67, "
                                 "threshold 0.7 (rwe_repeat_rule mean)*"])


# -- self-judging -----------------------------------------------------------------------------

@pytest.mark.parametrize("workers", WORKERS)
def test_a_juror_of_the_models_own_family_is_flagged_and_can_be_dropped(
        pytester: pytest.Pytester, fake: Start, workers: int) -> None:
    model, jury = "google/gemini-2.5-flash", "builtin/rules,google/gemini-2.5-pro"
    folder = make_suite(pytester, models=model, jury=jury)
    pytester.makeconftest(RECORDER)
    fake(Summaries(folder))
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "rep")
    result.assert_outcomes(passed=len(STUDIES) * 3)
    result.stdout.fnmatch_lines([
        "self-judging: google/gemini-2.5-flash is judged by its own vendor family (google): "
        "google/gemini-2.5-pro; judges it (use --rwe-exclude-self to drop such jurors)"])
    assert report_of(pytester)["self_judging"][model] == {
        "family": "google", "jurors": ["google/gemini-2.5-pro"], "excluded": []}
    assert "### Self-judging" in (pytester.path / "rep" / "report.md").read_text("utf-8")
    records = read_records(pytester)
    assert {j["juror"] for r in records for j in r["verdict"]["completeness"]["jurors"]} == {
        "builtin/rules", "google/gemini-2.5-pro"}
    assert {tuple(r["self_jurors"]) for r in records} == {("google/gemini-2.5-pro",)}

    dropped = pytester.runpytest(*xdist_args(workers), "--rwe-exclude-self",
                                 "--rwe-report", "rep")
    dropped.assert_outcomes(passed=len(STUDIES) * 3)
    dropped.stdout.fnmatch_lines([
        "self-judging: google/gemini-2.5-flash is judged by its own vendor family (google): "
        "google/gemini-2.5-pro; dropped from its pairs (--rwe-exclude-self): "
        "google/gemini-2.5-pro"])
    records = read_records(pytester)
    assert {j["juror"] for r in records for c in r["verdict"].values()
            for j in c["jurors"]} == {"builtin/rules"}
    assert {tuple(r["excluded_jurors"]) for r in records} == {("google/gemini-2.5-pro",)}
    report = report_of(pytester)
    assert report["exclude_self"] is True
    assert report["self_judging"][model]["excluded"] == ["google/gemini-2.5-pro"]
    assert all(r["excluded_jurors"] == ["google/gemini-2.5-pro"] for r in report["results"])


# -- secrets and control characters ----------------------------------------------------------

DRIFT_TEST = """
def test_drift(rwe_verdict_profile, rwe_snapshot):
    rwe_snapshot.assert_match(rwe_verdict_profile)
"""

# a juror whose explanations and a summarizer whose summaries carry terminal controls
HOSTILE = "\x1b[2J\x1b[31mRED\x1b[0m \x1b]0;pwned-title\x07 \x1b]52;c;ZXZpbA==\x07 \x9b1m \x07"
HOSTILE_PROVIDERS = f"""
import json
import os
from pytest_rwe.providers.base import GenerationResult, Provider
from pytest_rwe.providers.registry import register_provider

HOSTILE = {HOSTILE!r}


class Evil(Provider):
    name = "evil"
    uses_store = False

    async def generate(self, request):
        from pytest_rwe.rules.summarizer import summarize
        task = request.task
        if self.model == "writer":
            extra = os.environ.get("EVIL_EXTRA", "")
            return GenerationResult(summarize(task.study) + " " + HOSTILE + extra, 0.1)
        return GenerationResult(json.dumps({{task.criterion: {{
            "score": 0, "explanation": "wrong " + HOSTILE}}}}), 0.0)


register_provider("evil", Evil)
"""


def _raw_controls(text: str) -> list[str]:
    return [c for c in text if c in "\x1b\x07" or 0x80 <= ord(c) <= 0x9F]


@pytest.mark.parametrize("workers", WORKERS)
def test_credentials_in_a_model_url_appear_nowhere(
        pytester: pytest.Pytester, fake: Start, workers: int) -> None:
    folder = make_suite(pytester, models="builtin/template")
    pytester.makepyfile(test_drift=DRIFT_TEST)
    server = fake(Summaries(folder))
    url = server.base_urls["openai"].replace("http://", "http://user:PASSWORD@")
    model = f"openai/gpt-x@{url}"
    # one summary call fails, with the URL (and its password) quoted back in the error
    server.add_fault("status", provider="openai", status=400, contains="pancreatic",
                     text=f"bad upstream {url}", times=-1)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-model", model,
                                "--rwe-report", "rep", "--junitxml", "junit.xml",
                                "--snapshot-update", "-v")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the failing call
    # test ids name the model by its URL without the credentials
    assert f"openai/gpt-x@http://***@127.0.0.1:{server.url.rsplit(':', 1)[1]}/v1::" in (
        result.stdout.str())
    outputs = {"terminal": result.stdout.str() + result.stderr.str()}
    for path in pytester.path.rglob("*"):  # every file: store, locks, golden, reports, junit
        where = str(path.relative_to(pytester.path))
        outputs[f"path {where}"] = where
        if path.is_file():
            outputs[where] = path.read_bytes().decode("utf-8", errors="replace")
    assert any(name.startswith("store/") for name in outputs)  # the store was written
    assert "junit.xml" in outputs and "rep/report.html" in outputs
    leaked = [where for where, text in outputs.items() if "PASSWORD" in text]
    assert leaked == []
    folders = {p.name for p in (pytester.path / "store").glob("*") if p.is_dir()}
    assert any(re.fullmatch(r"openai__gpt-x-127\.0\.0\.1-\d+", name) for name in folders)
    golden = {p.parent.name for p in (pytester.path / "golden").rglob("*.json")}
    assert any(name.startswith("openai__gpt-x-127.0.0.1-") for name in golden)
    report = report_of(pytester)
    assert report["model_names"] == [f"openai/gpt-x@{url.replace('user:PASSWORD', '***')}"]


@pytest.mark.parametrize("workers", WORKERS)
def test_hostile_text_reaches_no_output_raw(pytester: pytest.Pytester, workers: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    make_suite(pytester, models="evil/writer", jury="builtin/rules,evil/judge",
               extra_ini="rwe_thresholds = direction_of_effect=0.75\n")
    pytester.makeconftest(HOSTILE_PROVIDERS)
    pytester.makepyfile(test_drift=DRIFT_TEST)
    assert pytester.runpytest("test_drift.py", "--snapshot-update").ret == pytest.ExitCode.OK
    # the writer now cites a new number: every drift test fails, quoting the hostile summary
    monkeypatch.setenv("EVIL_EXTRA", "In total 12345 patients.")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "rep",
                                "--junitxml", "junit.xml", "--color=no")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # evil/judge scores 0: 0.5 < 0.75
    result.stdout.fnmatch_lines(["*evil/judge: score 0: wrong RED*"])  # the words stay
    result.stdout.fnmatch_lines(["*number 12345 is newly cited*"])
    outputs = {"terminal": result.stdout.str() + result.stderr.str()}
    for name in ("junit.xml", "rep/report.md", "rep/report.html", "rep/report.json"):
        outputs[name] = (pytester.path / name).read_text("utf-8")
    raw = {where: _raw_controls(text) for where, text in outputs.items()}
    assert [where for where, found in raw.items() if found] == []
    assert "pwned-title" not in outputs["terminal"] + outputs["rep/report.md"]
    # report.json keeps the model's exact text, its controls escaped as \\u
    report = json.loads(outputs["rep/report.json"])
    assert HOSTILE in report["results"][0]["summary"]["text"]
