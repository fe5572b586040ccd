"""Hostile text and secrets: control sequences stripped per format, URL credentials hidden."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pytest_rwe import escape
from pytest_rwe.redact import (
    HIDDEN,
    display_name,
    path_name,
    redact,
    redact_deep,
    remember_url_secrets,
    url_secrets,
)
from pytest_rwe.store.entry import CallLabel

# every family of terminal control: CSI (colour, clear screen, cursor), OSC (title, OSC 8
# hyperlink, OSC 52 clipboard) ended by BEL and by ST, DCS, a bare ESC sequence (RIS),
# 8-bit CSI and OSC, C0 controls (BEL, BS, CR, NUL), DEL and a lone trailing ESC
HOSTILE = ("ok \x1b[31mred\x1b[0m \x1b[2J\x1b[H\x1b]0;pwned\x07 \x1b]8;;http://x\x1b\\link"
           "\x1b]8;;\x1b\\ \x1b]52;c;ZXZpbA==\x07 \x1bP1$r0m\x1b\\ \x1bc \x9b31m\x9d2;t\x9c "
           "\x07bell\x08\rover\x00 \x7f end\x1b")


def _controls(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]


def test_terminal_strips_every_control_sequence_and_keeps_the_words() -> None:
    safe = escape.terminal(HOSTILE)
    assert _controls(safe) == []
    assert "pwned" not in safe and "ZXZpbA" not in safe and "http://x" not in safe
    assert safe.split() == ["ok", "red", "link", "bell", "over", "end"]
    assert escape.terminal("two\nlines\tkept") == "two\nlines\tkept"
    assert escape.terminal("a\n b", one_line=True) == "a b"


def test_markdown_and_html_escape_and_strip() -> None:
    # (a sequence may swallow the printable byte after an ESC, as a terminal would)
    md = escape.markdown(HOSTILE + "\n <b>|x|</b>\nnext")
    assert _controls(md) == [] and "\n" not in md
    assert "&lt;b&gt;\\|x\\|&lt;/b&gt; next" in md
    page = escape.html(HOSTILE + '\n "<script>')
    assert _controls(page) == [] and "&quot;&lt;script&gt;" in page


def test_json_text_keeps_the_data_but_no_raw_c1_control() -> None:
    text = escape.json_text(json.dumps({"s": "a\x9bb\x1bc\x7f"}, ensure_ascii=False))
    assert _controls(text) == []
    assert json.loads(text) == {"s": "a\x9bb\x1bc\x7f"}  # exact, escaped as \\u


MODEL = "openai/gpt-x@http://user:PASSWORD@host:8080/v1"


def test_url_credentials_are_hidden_in_any_text() -> None:
    assert redact(f"cannot reach {MODEL[13:]}: refused") == \
        f"cannot reach http://{HIDDEN}@host:8080/v1: refused"
    assert redact("https://h/v1?api_key=abc123&x=1&token=t0k") == \
        f"https://h/v1?api_key={HIDDEN}&x=1&token={HIDDEN}"
    assert redact("see https://example.org/a@b") == "see https://example.org/a@b"  # a path @
    assert redact("no url here: user@host") == "no url here: user@host"


def test_display_and_path_names_of_a_model_url() -> None:
    assert display_name(MODEL) == f"openai/gpt-x@http://{HIDDEN}@host:8080/v1"
    assert path_name(MODEL) == "openai/gpt-x@host-8080"
    assert path_name("openai/llama@http://127.0.0.1/v1") == "openai/llama@127.0.0.1"
    assert path_name("openai/gpt-4.1") == display_name("openai/gpt-4.1") == "openai/gpt-4.1"
    # the store folder of such a model: host and port only
    label = CallLabel(kind="summary", study_id="s1", criterion=None, model=MODEL)
    path = str(label.relative_path("0" * 64))
    assert path == "openai__gpt-x-host-8080/s1/summary.json"
    assert "PASSWORD" not in path and "user" not in path


def test_remembered_passwords_are_redacted_on_their_own() -> None:
    assert url_secrets(MODEL) == ["user", "PASSWORD"]
    assert url_secrets("openai/x@http://h/v1?token=s3cr3tvalue") == ["s3cr3tvalue"]
    assert url_secrets("openai/gpt-4.1") == []
    remember_url_secrets(["openai/m@http://bob:hunter2-long@h/v1"])
    assert redact("server said: bad password hunter2-long") == \
        f"server said: bad password {HIDDEN}"
    assert redact("bob is fine") == "bob is fine"  # too short to replace on its own


def test_redact_deep_reaches_keys_and_nested_values() -> None:
    data = {MODEL: [{"model": MODEL}], "n": 1}
    assert "PASSWORD" not in json.dumps(redact_deep(data))
    assert redact_deep(data)["n"] == 1


@pytest.mark.parametrize("text", ["", "plain", "ünïcödé ✓ 95% CI"])
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert escape.terminal(text) == text
    assert redact(text) == text


def test_only_escape_py_calls_the_standard_html_escape() -> None:
    """Every format has one escape helper: a renderer calling ``html.escape`` itself keeps
    control sequences a model wrote (escape.html removes them)."""
    root = Path(escape.__file__).parent
    offenders = [f"{path.relative_to(root)}:{number}"
                 for path in sorted(root.rglob("*.py")) if path.name != "escape.py"
                 or path.parent != root
                 for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                 if re.search(r"\bhtml\.escape\(|^\s*from html import", line)]
    assert offenders == [], "call pytest_rwe.escape.html/markdown instead: " + ", ".join(offenders)
