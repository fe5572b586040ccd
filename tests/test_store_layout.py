"""The store's layout: one file per logical call, what changed on a mismatch, prune, migrate."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from store_testkit import MESSAGES, SETTINGS, SUMMARY, key_of, result

from pytest_rwe.caller import filed_label
from pytest_rwe.providers.base import GenerationResult, PromptOrigin
from pytest_rwe.providers.registry import canonical_name, create_provider, needed_keys
from pytest_rwe.store import CallLabel, ResponseStore, StoreMissError, prompt_sha256
from pytest_rwe.store.changes import what_changed
from pytest_rwe.store.entry import RequestInfo
from pytest_rwe.store.keys import request_key
from pytest_rwe.store.layout import expected_paths, legacy_relative_path
from pytest_rwe.store.maintenance import StoreLayoutError, migrate, prune

JUDGED = CallLabel("judge", "demo_cohort", "completeness", "anthropic/claude-sonnet-4",
                   subject="openai/gpt-4.1")


def origin(template_sha: str = "a" * 64, **inputs: str) -> dict[str, object]:
    return PromptOrigin((("summarize_cohort.txt", template_sha, "cases/prompts/x.txt"),),
                        tuple(inputs.items())).to_dict()


def request(**changes: object) -> RequestInfo:
    parts: dict[str, object] = {"provider": "openai", "model": "gpt-4.1", "settings": SETTINGS,
                                "prompt_sha256": prompt_sha256(MESSAGES), "prompt": origin()}
    parts.update(changes)
    return RequestInfo(**parts)  # type: ignore[arg-type]


# -- names ------------------------------------------------------------------------------------


def test_an_alias_and_its_full_name_are_one_folder() -> None:
    assert canonical_name("gpt-4.1") == canonical_name("openai/gpt-4.1") == "openai/gpt-4.1"
    assert canonical_name("claude-sonnet-4") == "anthropic/claude-sonnet-4"
    assert canonical_name("(user summary)") is None
    bare = filed_label(CallLabel("judge", "s", "completeness", "claude-sonnet-4",
                                 subject="gpt-4.1"))
    full = filed_label(CallLabel("judge", "s", "completeness", "anthropic/claude-sonnet-4",
                                 subject="openai/gpt-4.1"))
    assert bare == full
    assert bare.relative_path(key_of()) == Path(
        "openai__gpt-4.1/s/anthropic__claude-sonnet-4/completeness.json")
    # a judgement of your own text is free-form: named by its key
    own = filed_label(CallLabel("judge", "s", "completeness", "anthropic/claude-sonnet-4",
                                subject="(user summary)"))
    assert own.free_form and own.relative_path(key_of()).parent.name == "free"


def test_a_base_url_password_is_neither_in_the_key_nor_in_the_folder() -> None:
    plain = create_provider("openai/llama@http://127.0.0.1:9/v1")
    secret = create_provider("openai/llama@http://user:PASSWORD@127.0.0.1:9/v1")
    other = create_provider("openai/llama@http://user:OTHER@127.0.0.1:9/v1")
    from pytest_rwe.providers.base import GenerationRequest
    ask = GenerationRequest(MESSAGES)
    # the password is left out of the key: rotating it keeps the store
    assert request_key(secret, ask) == request_key(other, ask)
    assert request_key(secret, ask) != request_key(plain, ask)  # (user info marked as hidden)
    label = filed_label(CallLabel("summary", "s", None, secret.full_name + "@x"))
    assert "PASSWORD" not in str(label.relative_path(key_of()))


def test_the_judge_key_leaves_the_repeat_out_and_the_file_keeps_it() -> None:
    r2 = CallLabel("judge", "s", "completeness", "openai/o4-mini", 2, "openai/gpt-4.1")
    assert r2.key_repeat == 0 and r2.relative_path(key_of()).name == "completeness.r2.json"
    assert CallLabel("summary", "s", None, "openai/gpt-4.1", 2).key_repeat == 2


# -- what changed -------------------------------------------------------------------------------


def test_what_changed_names_model_parameters_template_and_data() -> None:
    stored = request().to_dict()
    assert what_changed(stored, request()) == []
    assert what_changed(stored, request(model="gpt-4.1-mini")) == [
        "the model changed (openai/gpt-4.1 -> openai/gpt-4.1-mini)"]
    [change] = what_changed(stored, request(settings={**SETTINGS, "temperature": 0.2}))
    assert change == "the generation parameters changed (temperature 0 -> 0.2)"
    [change] = what_changed(stored, request(prompt_sha256="0" * 64,
                                            prompt=origin(template_sha="b" * 64)))
    assert change.startswith("the prompt changed: the template summarize_cohort.txt changed "
                             "(sha256 aaaaaaaaaaaa -> bbbbbbbbbbbb, cases/prompts/x.txt)")
    # the same templates rendered another text: the study's data changed
    [change] = what_changed(stored, request(prompt_sha256="0" * 64))
    assert change == ("the prompt changed: the study's data changed (its file under the "
                      "cases folder)")
    judged = request(prompt=origin(summary_sha256="1", summarization_prompt_sha256="2"))
    [change] = what_changed(judged.to_dict(), request(
        prompt_sha256="0" * 64, prompt=origin(summary_sha256="3",
                                              summarization_prompt_sha256="2")))
    assert change == ("the prompt changed: the summary it judges changed (see that model's "
                      "summary file)")
    [change] = what_changed(judged.to_dict(), request(
        prompt_sha256="0" * 64, prompt=origin("b" * 64, summary_sha256="1",
                                              summarization_prompt_sha256="4")))
    assert "the study's data" not in change  # the template explains the embedded prompt
    [change] = what_changed(stored, request(server={"base_url": "http://h:1/v1"}))
    assert change.startswith("the server changed")


def test_replay_only_refuses_a_changed_request_and_says_what_changed(tmp_path: Path) -> None:
    async def produce() -> GenerationResult:
        return result("old output")

    async def record(store: ResponseStore, key: str, info: RequestInfo) -> GenerationResult:
        return await store.get_or_call(
            SUMMARY, key, produce, provider=info.provider, model=info.model,
            settings=info.settings, prompt_sha256=info.prompt_sha256, prompt=info.prompt)

    asyncio.run(record(ResponseStore(tmp_path, "new"), key_of(), request()))
    replay = ResponseStore(tmp_path, "none")
    assert asyncio.run(record(replay, key_of(), request())).text == "old output"
    changed = request(settings={**SETTINGS, "temperature": 0.5})
    with pytest.raises(StoreMissError) as info:
        asyncio.run(record(replay, key_of(settings=changed.settings), changed))
    message = str(info.value)
    assert "summary.json holds the response to another request, and replay refuses it" in message
    assert "the generation parameters changed (temperature 0 -> 0.5)" in message
    assert "--rwe-record new" in message


def test_a_changed_prompt_rewrites_the_same_file(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new")
    old = store.save(SUMMARY, key_of(), result("old output"), provider="openai",
                     model="gpt-4.1", settings=SETTINGS, prompt_sha256="a" * 64)
    new_key = key_of(settings={**SETTINGS, "temperature": 0.3})
    assert store.lookup(SUMMARY, new_key) is None  # another request: not replayed
    new = store.save(SUMMARY, new_key, result("new output"), provider="openai",
                     model="gpt-4.1", settings=SETTINGS, prompt_sha256="b" * 64)
    assert new == old and [p.name for p in old.parent.iterdir()] == ["summary.json"]
    data = json.loads(new.read_text())
    assert data["key"] == new_key and data["response"]["text"] == "new output"


def test_one_request_for_two_calls_is_filed_under_both(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new")
    r0 = JUDGED
    r1 = CallLabel("judge", "demo_cohort", "completeness", JUDGED.model, 1, JUDGED.subject)
    store.save(r0, key_of(), result("judged"), provider="anthropic", model="claude-sonnet-4",
               settings=SETTINGS, prompt_sha256="a" * 64)
    # repeat 1 wrote the same summary: the same judge request, answered from repeat 0's file
    hit = store.lookup(r1, key_of())
    assert hit is not None and hit.text == "judged"
    copy = json.loads(store.path_for(r1, key_of()).read_text())
    assert copy["call"]["repeat"] == 1 and copy["key"] == key_of()


# -- the old layout -----------------------------------------------------------------------------


def legacy_record(label: CallLabel, key: str, text: str, when: str) -> str:
    return json.dumps({
        "format": 1, "key": key, "provider": "openai", "model": "gpt-4.1",
        "settings": {"temperature": 0}, "repeat": label.repeat,
        "label": {"kind": label.kind, "study": label.study_id, "criterion": label.criterion,
                  "model": label.model, "subject": label.subject},
        "prompt_sha256": "a" * 64,
        "response": {"text": text, "latency_s": 1.0, "input_tokens": 3, "output_tokens": 4},
        "run_id": "old", "recorded_at": when,
    })


def write_legacy(root: Path, label: CallLabel, key: str, text: str,
                 when: str = "2026-01-01T00:00:00+00:00") -> Path:
    path = root / legacy_relative_path(label, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(legacy_record(label, key, text, when))
    return path


def test_the_old_layout_is_read_and_copied_to_the_new_place(tmp_path: Path) -> None:
    old = write_legacy(tmp_path, SUMMARY, key_of(), "from the old layout")
    assert old.relative_to(tmp_path).parts[0] == "demo_cohort"  # <study>/<model>/...
    assert ResponseStore(tmp_path, "none").lookup(SUMMARY, key_of()) is not None
    assert not (tmp_path / "openai__gpt-4.1").exists()  # replay-only writes nothing
    hit = ResponseStore(tmp_path, "new").lookup(SUMMARY, key_of())
    assert hit is not None and hit.text == "from the old layout"
    new = json.loads((tmp_path / "openai__gpt-4.1" / "demo_cohort" / "summary.json").read_text())
    assert new["format"] == 2 and new["request"]["model"] == "gpt-4.1"


def test_migrate_moves_each_call_and_keeps_the_newest_recording(tmp_path: Path) -> None:
    stale = write_legacy(tmp_path, SUMMARY, key_of(model="old"), "stale", "2026-01-01T00:00:00")
    write_legacy(tmp_path, SUMMARY, key_of(), "current", "2026-02-01T00:00:00")
    bare = CallLabel("judge", "demo_cohort", "completeness", "claude-sonnet-4", 0, "gpt-4.1")
    write_legacy(tmp_path, bare, key_of(repeat=0), "judged")
    with pytest.raises(StoreLayoutError, match="rwe store migrate"):
        prune(tmp_path, set())
    done = migrate(tmp_path, canonical_name)
    assert done.moved == 2 and done.dropped == [stale] and done.skipped == []
    summary = tmp_path / "openai__gpt-4.1" / "demo_cohort" / "summary.json"
    assert json.loads(summary.read_text())["response"]["text"] == "current"
    judge = summary.parent / "anthropic__claude-sonnet-4" / "completeness.json"
    assert json.loads(judge.read_text())["call"]["subject"] == "openai/gpt-4.1"
    assert not (tmp_path / "demo_cohort").exists()  # the old folders are gone
    assert ResponseStore(tmp_path, "none").lookup(SUMMARY, key_of()) is not None


# -- prune --------------------------------------------------------------------------------------


def test_prune_removes_only_the_files_no_case_uses(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new")
    jury = ["anthropic/claude-sonnet-4", "openai/o4-mini"]

    def record(label: CallLabel) -> Path:
        return store.save(label, key_of(), result(), provider="openai", model="gpt-4.1",
                          settings=SETTINGS, prompt_sha256="a" * 64)

    kept = [record(CallLabel("summary", s, None, "openai/gpt-4.1")) for s in ("a", "b")]
    kept += [record(CallLabel("judge", "a", c, j, subject="openai/gpt-4.1"))
             for j in jury for c in ("completeness", "numbers_accurate")]
    kept.append(record(CallLabel("repair", "a", "completeness", jury[0],
                                 subject="openai/gpt-4.1")))
    free = record(CallLabel("judge", "a", "completeness", jury[0]))
    gone = [record(CallLabel("summary", "left_the_suite", None, "openai/gpt-4.1")),
            record(CallLabel("summary", "a", None, "openai/gpt-4.1", repeat=1)),
            record(CallLabel("judge", "a", "completeness", "google/gemini-2.5-pro",
                             subject="openai/gpt-4.1")),
            record(CallLabel("summary", "a", None, "openai/gpt-3.5"))]
    variant = record(CallLabel("summary", "a", None, "openai/gpt-4.1", variant="terse"))
    kept.append(variant)
    gone.append(record(CallLabel("summary", "a", None, "openai/gpt-4.1", variant="old")))
    used = expected_paths([("openai/gpt-4.1", "a", 0, None), ("openai/gpt-4.1", "b", 0, None),
                           ("openai/gpt-4.1", "a", 0, "terse")], jury,
                          ("completeness", "numbers_accurate"))
    dry = prune(tmp_path, used, dry_run=True)
    assert sorted(dry.removed) == sorted(gone) and all(p.exists() for p in gone)
    done = prune(tmp_path, used)
    assert sorted(done.removed) == sorted(gone) and done.kept == len(kept)
    assert done.free_form == 1 and free.exists()
    assert all(p.exists() for p in kept) and not any(p.exists() for p in gone)
    assert not (tmp_path / "openai__gpt-3.5").exists()  # its emptied folder too
    assert (tmp_path / ".gitignore").exists()


# -- keys ---------------------------------------------------------------------------------------


def test_needed_keys_are_the_vendors_of_the_models_and_jurors() -> None:
    needs = needed_keys(["gpt-4.1", "builtin/template"],
                        ["openai/o4-mini", "google/gemini-2.5-pro", "builtin/rules",
                         "openai/llama@http://127.0.0.1:1/v1"])
    assert [n.variables for n in needs] == [("OPENAI_API_KEY",),
                                            ("GOOGLE_API_KEY", "GEMINI_API_KEY")]
    assert needs[0].users == ("model openai/gpt-4.1", "juror openai/o4-mini")
    assert needed_keys(["builtin/template"], ["builtin/rules"]) == []


def test_rwe_store_migrate_rewrites_a_store_then_prune_accepts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pytest_rwe.cli import main

    write_legacy(tmp_path, SUMMARY, key_of(), "current")
    assert main(["store", "migrate", "--store", str(tmp_path), "--dry-run"]) == 0
    assert "would rewrite 1 file(s)" in capsys.readouterr().out
    assert (tmp_path / legacy_relative_path(SUMMARY, key_of())).exists()
    assert main(["store", "migrate", "--store", str(tmp_path)]) == 0
    assert "rewrote 1 file(s)" in capsys.readouterr().out
    assert not (tmp_path / legacy_relative_path(SUMMARY, key_of())).exists()
    assert prune(tmp_path, expected_paths([("openai/gpt-4.1", "demo_cohort", 0, None)], [],
                                          [])).kept == 1
