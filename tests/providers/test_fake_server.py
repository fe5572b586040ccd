"""The fake server on its own: replies, faults, records, the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

import pytest

from pytest_rwe.testing import FakeServer
from pytest_rwe.testing.fake_wire import judge_criterion

JUDGE_PROMPT = (
    "Score the summary. Answer only with JSON: "
    '{"numbers_accurate": {"score": 0 or 1, "explanation": "..."}}'
)


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(req, timeout=5) as response:
        return json.loads(response.read())


def openai_body(text: str, model: str = "gpt-4.1") -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": text}]}


def test_judge_prompt_gets_a_json_verdict() -> None:
    with FakeServer() as server:
        reply = post(f"{server.base_urls['openai']}/chat/completions", openai_body(JUDGE_PROMPT))
    verdict = json.loads(reply["choices"][0]["message"]["content"])
    assert verdict["numbers_accurate"]["score"] == 1
    assert judge_criterion(json.dumps(JUDGE_PROMPT)) == "numbers_accurate"  # escaped form


def test_responder_and_scripted_reply_by_prompt_text() -> None:
    def responder(provider: str, model: str, prompt: str) -> str | None:
        return f"{provider}:{model}:{prompt}" if "study 7" in prompt else None

    with FakeServer(responder=responder) as server:
        server.add_fault("reply", contains="study 9", text="scripted")
        url = f"{server.base_urls['openai']}/chat/completions"
        texts = [
            post(url, openai_body(f"Summarize study {i}."))["choices"][0]["message"]["content"]
            for i in (7, 8, 9, 9)
        ]
    assert texts[0] == "openai:gpt-4.1:Summarize study 7."
    assert texts[1].startswith("This observational study")
    assert texts[2] == "scripted" and texts[3] != "scripted"  # times=1 by default


def test_records_redact_keys_and_find_duplicates() -> None:
    with FakeServer() as server:
        url = f"{server.base_urls['openai']}/chat/completions"
        auth = {"Authorization": "Bearer sk-proj-SECRET0123456789abcdef"}
        post(url, openai_body("a"), auth)
        post(url, openai_body("a"), auth)
        post(url, openai_body("b"), auth)
        records = server.requests
    assert all(r.headers["authorization"] == "<redacted>" for r in records)
    assert "SECRET" not in repr(records)
    assert server.duplicate_requests() == [records[0].body_hash]


@pytest.mark.parametrize(
    ("vendor", "path", "body", "shape"),
    [
        ("openai", "/v1/chat/completions", openai_body("x"), ["error", "type"]),
        (
            "anthropic",
            "/v1/messages",
            {"model": "claude-x", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}]},
            ["error", "type"],
        ),
        (
            "google",
            "/v1beta/models/gemini-2.5-flash:generateContent",
            {"contents": [{"role": "user", "parts": [{"text": "x"}]}]},
            ["error", "status"],
        ),
    ],
)
def test_cap_answers_429_with_retry_after_and_vendor_json(
    vendor: str, path: str, body: dict[str, Any], shape: list[str]
) -> None:
    with FakeServer(concurrency_cap=0, retry_after_s=2) as server:
        with pytest.raises(urllib.error.HTTPError) as info:
            post(server.url + path, body)
        assert server.rate_limited(vendor) == 1
    error = info.value
    assert error.code == 429 and error.headers["Retry-After"] == "2"
    payload = json.loads(error.read())
    assert shape[1] in payload[shape[0]]


def test_runs_from_the_command_line() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "pytest_rwe.testing.fake_server", "--port", "0", "--latency", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline().strip()
        assert first.startswith("export OPENAI_BASE_URL=http://127.0.0.1:")
        url = first.split("=", 1)[1]
        reply = post(f"{url}/chat/completions", openai_body("hello"))
        assert reply["object"] == "chat.completion"
    finally:
        process.terminate()
        process.wait(timeout=5)
