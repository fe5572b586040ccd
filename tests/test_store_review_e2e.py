"""A store that reviews like code, end to end: the real SDKs against the local fake server.

A prompt change rewrites the stored files in place; an alias and the model's full name are one
folder; ``rwe store prune`` removes only what no collected case uses; ``rwe keys`` lists the
key variables of the configured vendors. Each run is also made under ``-n 2``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_kit import (
    FAKE_KEYS,
    ROOT,
    STUDIES,
    VENDOR_MODEL,
    make_suite,
    summarizing_responder,
    vendor_suite,
    xdist_args,
)

from pytest_rwe.testing.fake_server import FakeServer

WORKERS = [0, 2]
CALLS_PER_PAIR = 1 + 3 * 3  # one summary, then three jurors x three criteria
CASE_SERIES = "iscgm_t2d_basal_or_oral_therapy_case_series"
TEMPLATE = "summarize_case_series.txt"
BRIEF = "Answer in one paragraph."


@pytest.fixture
def server(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    with vendor_suite(pytester, monkeypatch, latency_s=0.01) as fake:
        # a summary asked for briefly reads differently: the new output differs from the old
        plain = summarizing_responder(pytester.path / "cases" / "studies")

        def respond(provider: str, model: str, prompt: str) -> str | None:
            text = plain(provider, model, prompt)
            if text is not None and BRIEF in prompt and "<<<SUMMARY" not in prompt:
                return "In brief: " + text
            return text

        fake.responder = respond
        yield fake


def snapshot(pytester: pytest.Pytester) -> dict[str, str]:
    store = pytester.path / "store"
    return {str(p.relative_to(store)): p.read_text(encoding="utf-8")
            for p in sorted(store.rglob("*.json")) if ".locks" not in p.parts}


def edit_template(pytester: pytest.Pytester, extra: str) -> None:
    prompts = pytester.path / "cases" / "prompts"
    prompts.mkdir(exist_ok=True)
    original = (ROOT / "cases" / "prompts" / TEMPLATE).read_text(encoding="utf-8")
    (prompts / TEMPLATE).write_text(original + extra, encoding="utf-8")


@pytest.mark.parametrize("workers", WORKERS)
def test_a_prompt_change_rewrites_the_stored_files_in_place(
    pytester: pytest.Pytester, server: FakeServer, workers: int
) -> None:
    edit_template(pytester, "")
    pytester.runpytest(*xdist_args(workers)).assert_outcomes(passed=len(STUDIES) * 3)
    before = snapshot(pytester)
    assert len(before) == len(STUDIES) * CALLS_PER_PAIR
    summary = f"{VENDOR_MODEL.replace('/', '__')}/{CASE_SERIES}/summary.json"
    assert summary in before

    server.reset()
    edit_template(pytester, f"\n{BRIEF}\n")
    pytester.runpytest(*xdist_args(workers)).assert_outcomes(passed=len(STUDIES) * 3)
    after = snapshot(pytester)
    # the same files, no new one beside the old: a diff shows each output changing
    assert sorted(after) == sorted(before)
    changed = sorted(name for name in after if after[name] != before[name])
    # only the case series' calls were made again: its summary and the nine judgements
    assert len(server.requests) == CALLS_PER_PAIR
    assert changed == sorted(name for name in before if f"/{CASE_SERIES}/" in name)
    old, new = json.loads(before[summary]), json.loads(after[summary])
    assert new["response"]["text"] == "In brief: " + old["response"]["text"]
    assert new["key"] != old["key"]
    sha = {d["request"]["prompt"]["templates"][TEMPLATE]["sha256"] for d in (old, new)}
    assert len(sha) == 2
    assert new["request"]["prompt"]["templates"][TEMPLATE]["source"] == (
        f"cases/prompts/{TEMPLATE}")
    # the judge files hold the new summary's hash: the judgement of the new output
    juror = f"{VENDOR_MODEL.replace('/', '__')}/{CASE_SERIES}/openai__o4-mini/completeness.json"
    judged = json.loads(after[juror])["request"]["prompt"]["inputs"]
    assert judged["summary_sha256"] != json.loads(before[juror])["request"]["prompt"][
        "inputs"]["summary_sha256"]
    assert all(key not in text for text in after.values() for key in FAKE_KEYS.values())

    # back to the old prompt under replay only: refused, naming the template that changed
    server.reset()
    edit_template(pytester, "")
    result = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none")
    result.assert_outcomes(passed=(len(STUDIES) - 1) * 3, errors=3)
    assert server.requests == []
    result.stdout.fnmatch_lines([
        f"*{summary} holds the response to another request, and replay refuses it: the "
        f"prompt changed: the template {TEMPLATE} changed (sha256 *cases/prompts/{TEMPLATE})*",
    ])


@pytest.mark.parametrize("workers", WORKERS)
def test_an_alias_and_the_full_name_share_one_folder(
    pytester: pytest.Pytester, server: FakeServer, workers: int
) -> None:
    bare_jury = "o4-mini,claude-sonnet-4-20250514,gemini-2.5-pro"
    bare = pytester.runpytest(*xdist_args(workers), "--rwe-model", "gpt-4.1-mini",
                              "--rwe-jury", bare_jury)
    bare.assert_outcomes(passed=len(STUDIES) * 3)
    store = pytester.path / "store"
    assert sorted(p.name for p in store.iterdir() if not p.name.startswith(".")) == [
        "openai__gpt-4.1-mini"]
    jurors = {p.name for p in store.glob("*/*/*") if p.is_dir()}
    assert jurors == {"openai__o4-mini", "anthropic__claude-sonnet-4-20250514",
                      "google__gemini-2.5-pro"}
    # the full names (the ini's) replay every call from those files
    server.reset()
    full = pytester.runpytest(*xdist_args(workers), "--rwe-record", "none")
    full.assert_outcomes(passed=len(STUDIES) * 3)
    assert server.requests == []
    # and the plan, given the aliases, finds every one of them stored
    pytester.runpytest(*xdist_args(workers), "--rwe-plan", "--rwe-report", "out",
                       "--rwe-model", "gpt-4.1-mini", "--rwe-jury", bare_jury)
    total = json.loads((pytester.path / "out" / "plan.json").read_text())["total"]
    assert (total["stored"], total["new"]) == (len(STUDIES) * CALLS_PER_PAIR, 0)


def rwe(pytester: pytest.Pytester, *args: str) -> subprocess.CompletedProcess[str]:
    binary = Path(sys.executable).parent / "rwe"
    return subprocess.run([str(binary), *args], cwd=pytester.path, capture_output=True,
                          text=True, timeout=300, check=False)


def test_prune_removes_only_the_files_no_current_case_uses(
    pytester: pytest.Pytester, server: FakeServer
) -> None:
    pytester.runpytest().assert_outcomes(passed=len(STUDIES) * 3)
    store = pytester.path / "store"
    free = store / "openai__o4-mini" / "notes" / "free" / "judge-text-0123456789ab.json"
    free.parent.mkdir(parents=True)
    free.write_text("{}", encoding="utf-8")
    before = set(snapshot(pytester))
    # a study leaves the suite, and the jury loses a juror
    gone_study = STUDIES[0]
    (pytester.path / "cases" / "studies" / f"{gone_study}.json").unlink()
    jury = "openai/o4-mini,anthropic/claude-sonnet-4-20250514"
    ini = pytester.path / "tox.ini"
    ini.write_text(ini.read_text().replace(
        "rwe_jury = openai/o4-mini,anthropic/claude-sonnet-4-20250514,google/gemini-2.5-pro",
        f"rwe_jury = {jury}"), encoding="utf-8")
    unused = {name for name in before
              if f"/{gone_study}/" in name or "/google__gemini-2.5-pro/" in name}
    assert len(unused) == CALLS_PER_PAIR + (len(STUDIES) - 1) * 3

    dry = rwe(pytester, "store", "prune", "--dry-run")
    assert dry.returncode == 0, dry.stdout + dry.stderr
    listed = {line.removeprefix("would remove ") for line in dry.stdout.splitlines()
              if line.startswith("would remove ")}
    assert listed == unused and set(snapshot(pytester)) == before
    done = rwe(pytester, "store", "prune")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"removed {len(unused)} unused file(s)" in done.stdout
    assert "and 1 free-form" in done.stdout
    assert set(snapshot(pytester)) == before - unused and free.exists()
    assert not (store / VENDOR_MODEL.replace("/", "__") / gone_study).exists()
    # everything the suite still uses is there: a replay calls nothing
    server.reset()
    pytester.runpytest("-n", "2", "--rwe-record", "none").assert_outcomes(
        passed=(len(STUDIES) - 1) * 3)
    assert server.requests == []


def test_prune_refuses_a_collection_without_cases(pytester: pytest.Pytester) -> None:
    make_suite(pytester, test="def test_plain():\n    pass\n")
    (pytester.path / "store").mkdir()
    kept = pytester.path / "store" / "openai__x" / "s" / "summary.json"
    kept.parent.mkdir(parents=True)
    kept.write_text("{}", encoding="utf-8")
    done = rwe(pytester, "store", "prune")
    assert done.returncode == 2 and "holds no rwe case" in done.stderr and kept.exists()
    broken = rwe(pytester, "store", "prune", "--rwe-cases", "nowhere")
    assert broken.returncode == 2 and "nothing is removed" in broken.stderr and kept.exists()


def test_rwe_keys_lists_the_key_variables_of_the_configured_vendors(
    pytester: pytest.Pytester,
) -> None:
    make_suite(pytester, models="gpt-4.1-mini", jury="builtin/rules")
    only_openai = rwe(pytester, "keys")
    assert only_openai.returncode == 0, only_openai.stderr
    assert only_openai.stdout.splitlines() == ["OPENAI_API_KEY"]
    full = rwe(pytester, "keys", "--explain", "--rwe-jury",
               "openai/o4-mini,claude-sonnet-4-20250514,google/gemini-2.5-pro")
    assert full.stdout.splitlines() == [
        "OPENAI_API_KEY: model openai/gpt-4.1-mini, juror openai/o4-mini",
        "ANTHROPIC_API_KEY: juror anthropic/claude-sonnet-4-20250514",
        "GOOGLE_API_KEY (or GEMINI_API_KEY): juror google/gemini-2.5-pro",
    ]
    offline = rwe(pytester, "keys", "-o", "rwe_models=builtin/template")
    assert offline.returncode == 0 and offline.stdout == ""
    wrong = rwe(pytester, "keys", "--rwe-model", "nope/x")
    assert wrong.returncode == 2 and "unknown provider 'nope'" in wrong.stderr
