"""Keys never leave the process: every vendor variable's value and every key-shaped string is
replaced, whatever message it sits in."""

from __future__ import annotations

import pytest

from pytest_rwe.providers.vendors import all_key_variables
from pytest_rwe.redact import redact


@pytest.mark.parametrize("variable", ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY",
                                      "GOOGLE_API_KEY"])
def test_each_vendor_variable_is_redacted(variable: str) -> None:
    assert variable in all_key_variables()
    secret = "plain-secret-value-0123"  # no vendor shape: only the variable can catch it
    text = redact(f"call failed with {secret} in the header", {variable: secret})
    assert secret not in text and f"<{variable} redacted>" in text


@pytest.mark.parametrize("key", [
    "sk-" + "a" * 24, "sk-proj-" + "b1" * 12, "sk-ant-" + "c" * 20,
    "AIza" + "d" * 35, "Bearer " + "e" * 20, "x-api-key: " + "f" * 16,
    "api_key=" + "g" * 14])
def test_key_shapes_are_redacted_without_the_environment(key: str) -> None:
    text = redact(f"request was {key} rejected", {})
    assert key not in text and "<key redacted>" in text


def test_ordinary_text_is_left_alone() -> None:
    text = "HR 0.81 (0.70, 0.94), p = 0.004; ask-me-anything sk-short"
    assert redact(text, {}) == text
