"""Shared helpers of the provider tests (keys, model names, requests)."""

from __future__ import annotations

from pytest_rwe.providers.base import GenerationRequest, Message, Provider
from pytest_rwe.providers.registry import create_provider

KEYS = {
    "OPENAI_API_KEY": "sk-proj-TESTKEYopenai0123456789abcdef",
    "ANTHROPIC_API_KEY": "sk-ant-TESTKEYanthropic0123456789abc",
    "GEMINI_API_KEY": "AIzaTESTKEYgemini0123456789abcdefghijklm",
}
# One ordinary model per vendor (temperature accepted).
MODELS = {
    "openai": "openai/gpt-4.1",
    "anthropic": "anthropic/claude-sonnet-4-6",
    "google": "google/gemini-2.5-flash",
}
VENDORS = tuple(MODELS)


def request(text: str = "Summarize this study.", system: str | None = None) -> GenerationRequest:
    messages = (Message("system", system),) if system else ()
    return GenerationRequest(messages=(*messages, Message("user", text)))


def provider(vendor_or_name: str, **options: object) -> Provider:
    return create_provider(MODELS.get(vendor_or_name, vendor_or_name), options)
