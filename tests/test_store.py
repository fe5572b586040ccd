"""The response store: keys, the on-disk record, record modes, damaged files."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from store_testkit import JUDGE, MESSAGES, SETTINGS, SUMMARY, key_of, result, save

from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationResult,
    GenerationSettings,
    Message,
    Provider,
    Usage,
)
from pytest_rwe.store import (
    CallLabel,
    ResponseStore,
    StoreMissError,
    StoreWarning,
    prompt_sha256,
    request_key,
    store_key,
)
from pytest_rwe.store.keys import canonical_json

# -- keys ------------------------------------------------------------------------------------


def test_key_follows_the_documented_recipe() -> None:
    payload = {
        "v": 1,
        "provider": "openai",
        "model": "gpt-4.1",
        "messages": [{"role": m.role, "content": m.content} for m in MESSAGES],
        "settings": {"max_output_tokens": 2048, "temperature": 0},
        "repeat": 0,
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert key_of() == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert key_of() == key_of()  # stable


@pytest.mark.parametrize(
    "change",
    [
        {"provider": "anthropic"},
        {"model": "gpt-4.1-mini"},
        {"messages": (Message("user", MESSAGES[0].content), MESSAGES[1])},  # role
        {"messages": (MESSAGES[0], Message("user", MESSAGES[1].content + " "))},  # content
        {"messages": (MESSAGES[1], MESSAGES[0])},  # order
        {"messages": MESSAGES[:1]},
        {"settings": {"temperature": 0.2, "max_output_tokens": 2048}},
        {"settings": {"temperature": 0.0, "max_output_tokens": 2048, "top_p": 1}},
        {"settings": {"max_output_tokens": 2048}},
        {"repeat": 1},
    ],
)
def test_every_part_changes_the_key(change: dict[str, Any]) -> None:
    assert key_of(**change) != key_of()


def test_key_ignores_mapping_order_and_number_spelling() -> None:
    reordered = {"max_output_tokens": 2048.0, "temperature": 0}
    assert key_of(settings=reordered) == key_of()
    nested_a = {"thinking": {"type": "enabled", "budget_tokens": 1024}, "stop": ("a", "b")}
    nested_b = {"stop": ["a", "b"], "thinking": {"budget_tokens": 1024, "type": "enabled"}}
    assert key_of(settings=nested_a) == key_of(settings=nested_b)
    # messages given as mappings hash like Message objects
    as_dicts = [{"content": m.content, "role": m.role} for m in MESSAGES]
    assert key_of(messages=as_dicts) == key_of()
    assert canonical_json({"b": 1.5, "a": "é"}) == '{"a":"é","b":1.5}'


def test_key_refuses_what_cannot_be_hashed_canonically() -> None:
    with pytest.raises(ValueError, match=r"settings\.temperature .*finite"):
        key_of(settings={"temperature": float("nan")})
    with pytest.raises(TypeError, match=r"settings\.stop is a set"):
        key_of(settings={"stop": {"x"}})
    with pytest.raises(ValueError, match="repeat"):
        key_of(repeat=-1)
    with pytest.raises(TypeError, match=r"messages\[0\]"):
        key_of(messages=[{"role": "user"}])


class _DropsTemperature(Provider):
    name = "fake"

    def effective_settings(self, settings: GenerationSettings) -> Mapping[str, Any]:
        return {"max_output_tokens": settings.max_output_tokens or 4096}

    async def generate(self, request: GenerationRequest) -> GenerationResult:
        raise NotImplementedError


def test_request_key_uses_the_settings_the_provider_really_sends() -> None:
    provider = _DropsTemperature("reasoner-1")
    cold = GenerationRequest(MESSAGES, GenerationSettings(temperature=0.0))
    warm = GenerationRequest(MESSAGES, GenerationSettings(temperature=0.7))
    # The provider drops temperature, so it cannot change the answer nor the key.
    assert request_key(provider, cold) == request_key(provider, warm)
    expected = store_key(
        provider="fake",
        model="reasoner-1",
        messages=MESSAGES,
        settings={"max_output_tokens": 4096},
    )
    assert request_key(provider, cold) == expected
    assert request_key(provider, cold, repeat=2) != expected


def test_prompt_sha256_covers_role_and_content() -> None:
    assert prompt_sha256(MESSAGES) == prompt_sha256(list(MESSAGES))
    assert prompt_sha256(MESSAGES) != prompt_sha256(MESSAGES[:1])
    assert len(prompt_sha256(MESSAGES)) == 64


# -- the record on disk -----------------------------------------------------------------------


def test_round_trip_keeps_text_latency_and_tokens(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new", run_id="run-1")
    key = key_of()
    path = save(store, SUMMARY, key, result())
    assert path == tmp_path / "openai__gpt-4.1" / "demo_cohort" / "summary.json"
    replayed = ResponseStore(tmp_path, "new").lookup(SUMMARY, key)
    assert replayed is not None
    assert replayed.text == "Drug A was associated with fewer visits."
    assert replayed.latency_s == pytest.approx(1.2346)
    assert replayed.usage == Usage(812, 95)
    assert replayed.replayed is True
    # git ignores the transient files, not the entries
    assert ".locks/" in (tmp_path / ".gitignore").read_text()


def test_record_is_pretty_sorted_and_complete(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new", run_id="run-1")
    key = key_of()
    text = save(store, SUMMARY, key, result()).read_text(encoding="utf-8")
    assert text.endswith("}\n") and text.startswith("{\n  ")
    data = json.loads(text)
    assert list(data) == sorted(data)
    assert data["format"] == 2
    assert data["key"] == key
    request = data["request"]
    assert request["provider"] == "openai" and request["model"] == "gpt-4.1"
    assert request["settings"] == {"max_output_tokens": 2048, "temperature": 0}
    assert request["repeat"] == 0 and request["key_version"] == 1
    assert request["prompt_sha256"] == prompt_sha256(MESSAGES)
    assert data["call"] == {
        "kind": "summary",
        "study": "demo_cohort",
        "criterion": None,
        "model": "openai/gpt-4.1",
        "subject": None,
        "repeat": 0,
    }
    assert data["response"] == {
        "text": "Drug A was associated with fewer visits.",
        "latency_s": 1.2346,
        **{name: None for name in Usage.__dataclass_fields__},
        "input_tokens": 812,
        "output_tokens": 95,
    }
    assert data["run_id"] == "run-1"
    assert data["recorded_at"].endswith("+00:00")


def test_stored_text_keeps_c1_controls_as_escapes(tmp_path: Path) -> None:
    """A reply holding C1 controls (U+009B is an 8-bit CSI) is stored as JSON escapes, so
    ``cat`` or ``git diff`` of the store cannot drive a terminal; the text replays exact and
    every other character (here an accent and an emoji) stays as it was written."""
    store = ResponseStore(tmp_path, "new", run_id="run-1")
    text = "caf\u00e9 \U0001f600 \x9b2J\x85\x7f end"
    raw = save(store, SUMMARY, key_of(), result(text)).read_bytes()
    assert b"\xc2\x9b" not in raw and b"\xc2\x85" not in raw and b"\x7f" not in raw
    assert "café 😀 \\u009b2J\\u0085\\u007f end".encode() in raw
    replayed = ResponseStore(tmp_path, "none").lookup(SUMMARY, key_of())
    assert replayed is not None and replayed.text == text


def test_file_names_say_what_the_call_was(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path)
    key = key_of()
    study = tmp_path / "openai__gpt-4.1" / "demo_cohort"
    assert store.path_for(SUMMARY, key) == study / "summary.json"
    # a judge call is filed under the model whose summary it judges, then the juror
    of = CallLabel("judge", "demo_cohort", "completeness", JUDGE.model, 2, "openai/gpt-4.1")
    assert store.path_for(of, key) == (study / "anthropic__claude-sonnet-4"
                                       / "completeness.r2.json")
    repair = CallLabel("repair", "demo_cohort", "numbers_accurate", JUDGE.model,
                       subject="openai/gpt-4.1")
    assert store.path_for(repair, key).name == "numbers_accurate.repair.json"
    repeat = CallLabel("summary", "demo_cohort", None, "openai/gpt-4.1", repeat=3)
    assert store.path_for(repeat, key).name == "summary.r3.json"
    variant = CallLabel("summary", "demo_cohort", None, "openai/gpt-4.1", variant="terse")
    assert store.path_for(variant, key) == (tmp_path / "openai__gpt-4.1" / "variant-terse"
                                            / "demo_cohort" / "summary.json")
    # the name holds no key: another prompt for the same call is the same file
    assert store.path_for(SUMMARY, key_of(model="gpt-4.1-mini")) == study / "summary.json"
    # a judgement of no model's summary (free-form) is named by its key
    assert store.path_for(JUDGE, key) == (tmp_path / "anthropic__claude-sonnet-4"
                                          / "demo_cohort" / "free"
                                          / f"judge-completeness-{key[:12]}.json")
    # an odd study id stays inside the store
    evil = CallLabel("summary", "../../etc", None, "openai/gpt-4.1")
    assert tmp_path in store.path_for(evil, key).parents
    with pytest.raises(ValueError, match="64 lowercase hex"):
        store.path_for(SUMMARY, "../x")


def test_labels_are_validated() -> None:
    with pytest.raises(ValueError, match="criterion is required"):
        CallLabel("judge", "s", None, "m")
    with pytest.raises(ValueError, match="must be None"):
        CallLabel("summary", "s", "completeness", "m")
    with pytest.raises(ValueError, match="kind"):
        CallLabel("critique", "s", None, "m")  # type: ignore[arg-type]


def test_no_secret_is_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-proj-TESTKEY0123456789abcdefXYZ"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    store = ResponseStore(tmp_path, "new")
    key = key_of()
    path = store.save(
        SUMMARY,
        key,
        result(f"Here is my key: {secret}. Drug A lowered visits."),
        provider="openai",
        model="gpt-4.1",
        settings={"temperature": 0, "api_key": "plainsecretvalue", "extra_headers": {"a": "b"}},
        prompt_sha256=prompt_sha256(MESSAGES),
    )
    text = path.read_text(encoding="utf-8")
    assert secret not in text
    assert "plainsecretvalue" not in text
    assert "<OPENAI_API_KEY redacted>" in text
    replayed = store.lookup(SUMMARY, key)
    assert replayed is not None and secret not in replayed.text


def test_only_successes_are_stored(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path)
    with pytest.raises(TypeError, match="GenerationResult"):
        store.save(
            SUMMARY,
            key_of(),
            RuntimeError("500"),  # type: ignore[arg-type]
            provider="openai",
            model="gpt-4.1",
            settings=SETTINGS,
            prompt_sha256="0" * 64,
        )
    assert not list(tmp_path.rglob("*.json"))


# -- record modes -----------------------------------------------------------------------------


def test_mode_new_calls_once_then_replays(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new")
    key = key_of()
    assert store.lookup(SUMMARY, key) is None
    reservation = asyncio.run(store.reserve(SUMMARY, key))
    assert reservation.must_call and reservation.locked
    save(store, SUMMARY, key, result())
    assert not reservation.locked  # saving released the reservation
    assert store.locks.held([key]) == set()
    again = asyncio.run(store.reserve(SUMMARY, key))
    assert again.result is not None and again.result.replayed
    stats = store.stats
    assert (stats.hits, stats.misses, stats.writes) == (1, 2, 1)


def test_mode_none_with_nothing_stored_names_model_study_and_call(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "none")
    with pytest.raises(StoreMissError) as info:
        asyncio.run(store.reserve(JUDGE, key_of()))
    message = str(info.value)
    assert "anthropic/claude-sonnet-4" in message
    assert "demo_cohort" in message
    assert "judge call 'completeness'" in message
    assert "never recorded" in message
    assert "--rwe-record new" in message
    assert info.value.path == store.path_for(JUDGE, key_of())
    with pytest.raises(ValueError, match="replay-only"):
        save(store, SUMMARY, key_of(), result())


def test_mode_none_says_when_the_prompt_changed(tmp_path: Path) -> None:
    old = save(ResponseStore(tmp_path, "new"), SUMMARY, key_of(), result())
    store = ResponseStore(tmp_path, "none")
    assert store.reserve_blocking(SUMMARY, key_of()).result is not None  # replays
    changed = key_of(messages=(MESSAGES[0], Message("user", "an edited prompt")))
    with pytest.raises(StoreMissError, match=f"{old} holds the response to another request"):
        store.reserve_blocking(SUMMARY, changed)


def test_mode_all_recalls_older_entries_but_not_this_runs(tmp_path: Path) -> None:
    key = key_of()
    save(ResponseStore(tmp_path, "new", run_id="yesterday"), SUMMARY, key, result("old"))
    worker_a = ResponseStore(tmp_path, "all", run_id="today")
    worker_b = ResponseStore(tmp_path, "all", run_id="today")
    assert worker_a.lookup(SUMMARY, key) is None
    reservation = asyncio.run(worker_a.reserve(SUMMARY, key))
    assert reservation.must_call
    save(worker_a, SUMMARY, key, result("new"))
    # written during this run (by another worker): done, not called again
    hit = asyncio.run(worker_b.reserve(SUMMARY, key))
    assert hit.result is not None and hit.result.text == "new"
    assert ResponseStore(tmp_path, "all", run_id="tomorrow").lookup(SUMMARY, key) is None


# -- crashes and damaged files ----------------------------------------------------------------


def test_leftover_temp_file_and_torn_entry_are_misses(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, "new")
    key = key_of()
    path = store.path_for(SUMMARY, key)
    path.parent.mkdir(parents=True)
    # a run killed mid-write leaves only a hidden temp file: not an entry
    (path.parent / f".{path.name}.999.abcd.tmp").write_text('{"key": "')
    assert store.lookup(SUMMARY, key) is None
    assert store.stats.corrupt == 0
    # a truncated entry (e.g. copied by hand) is reported once and treated as missing
    full = json.dumps({"key": key, "response": {"text": "x", "latency_s": 1.0}})
    path.write_text(full[: len(full) // 2])
    with pytest.warns(StoreWarning, match=r"summary.json: it is not a complete stored response"):
        assert store.lookup(SUMMARY, key) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert store.lookup(SUMMARY, key) is None  # no second warning
    assert store.stats.corrupt == 1
    reservation = store.reserve_blocking(SUMMARY, key)
    assert reservation.must_call
    save(store, SUMMARY, key, result())
    assert store.lookup(SUMMARY, key) is not None


def test_failed_write_leaves_the_old_entry_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ResponseStore(tmp_path, "all")
    key = key_of()
    path = save(store, SUMMARY, key, result("first"))

    def killed(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        save(store, SUMMARY, key, result("second"))
    monkeypatch.undo()
    assert json.loads(path.read_text())["response"]["text"] == "first"
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_entry_of_another_key_with_the_same_prefix_is_not_replayed(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path)
    key = key_of()
    path = save(store, SUMMARY, key, result())
    data = json.loads(path.read_text())
    data["key"] = key[:12] + "0" * 52
    path.write_text(json.dumps(data))
    assert store.lookup(SUMMARY, key) is None


def test_an_unshared_store_claims_without_lock_files(tmp_path: Path) -> None:
    store = ResponseStore(tmp_path, shared=False)
    key = key_of()
    reservation = store.reserve_blocking(SUMMARY, key)
    assert reservation.must_call and not reservation.locked
    assert not (tmp_path / ".locks").exists() or not any((tmp_path / ".locks").iterdir())


def test_a_model_on_its_own_server_has_its_own_keys() -> None:
    from pytest_rwe.providers.base import GenerationRequest, Message
    from pytest_rwe.providers.registry import create_provider
    from pytest_rwe.store import request_key

    request = GenerationRequest((Message("user", "Summarize."),))
    keys = {request_key(create_provider(name), request) for name in (
        "openai/llama3.1@http://127.0.0.1:11434/v1",
        "openai/llama3.1@http://127.0.0.1:8000/v1",
    )}
    assert len(keys) == 2
    # a model without a server of its own keeps the key it always had
    plain = create_provider("openai/gpt-4.1")
    assert plain.key_extras() == {}


def test_request_hashes_are_the_key_and_the_prompt_hash() -> None:
    from pytest_rwe.providers.base import GenerationRequest, GenerationSettings, Message
    from pytest_rwe.providers.registry import create_provider
    from pytest_rwe.store.keys import prompt_sha256, request_hashes, request_key

    texts = ["plain", 'quotes " and \\\\ backslash', "ünïcödé ✓ and \u2028", "{\"json\": [1]}"]
    for name in ("openai/gpt-4.1", "openai/o4-mini", "anthropic/claude-sonnet-4-20250514",
                 "google/gemini-2.5-pro", "openai/llama3.1@http://127.0.0.1:11434/v1"):
        provider = create_provider(name)
        for i, text in enumerate(texts):
            request = GenerationRequest(
                messages=(Message("user", text), Message("assistant", text[::-1])),
                settings=GenerationSettings(temperature=0.5 if i % 2 else 0.0,
                                            max_output_tokens=None if i < 2 else 100))
            for repeat in (0, 3):
                assert request_hashes(provider, request, repeat) == (
                    request_key(provider, request, repeat), prompt_sha256(request.messages))

