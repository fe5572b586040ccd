"""Wire formats of the three vendors, as the fake server speaks them.

Pure functions: request bodies in, prompt text out; reply text in, the vendor's response or
error JSON out. Shapes follow the vendors' public API references (OpenAI chat completions,
Anthropic messages, Gemini generateContent), including the usage blocks the providers read.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

Vendor = Literal["openai", "anthropic", "google"]
VENDORS: tuple[Vendor, ...] = ("openai", "anthropic", "google")

#: ``responder(provider, model, prompt_text) -> reply text``; None falls back to the defaults
Responder = Callable[[str, str, str], "str | None"]

# The judge prompt asks for {"<criterion>": {"score": 0 or 1, ...}}; the prompt may show it
# with escaped quotes when the request JSON is embedded, hence the optional backslashes.
_JUDGE_SHAPE = re.compile(r'\{\s*\\?"([A-Za-z_][A-Za-z0-9_]*)\\?"\s*:\s*\{\s*\\?"score\\?"')

DEFAULT_SUMMARY = (
    "This observational study compared patients who received the intervention with a "
    "matched control group. After propensity-score matching, baseline characteristics were "
    "broadly similar. The reported outcomes did not differ significantly between the groups, "
    "and no outcome reached statistical significance at the 0.05 level."
)
NOT_JSON_JUDGE_REPLY = "I think this summary is mostly fine, but I would rather not say."


def prompt_text(vendor: Vendor, body: Mapping[str, Any]) -> str:
    """All text of a request's messages (system included), joined by blank lines."""
    parts: list[str] = []
    if vendor == "openai":
        for message in body.get("messages") or ():
            parts.extend(_texts(message.get("content")))
    elif vendor == "anthropic":
        parts.extend(_texts(body.get("system")))
        for message in body.get("messages") or ():
            parts.extend(_texts(message.get("content")))
    else:
        system = body.get("systemInstruction") or body.get("system_instruction") or {}
        parts.extend(str(p.get("text", "")) for p in system.get("parts") or ())
        for content in body.get("contents") or ():
            parts.extend(str(p.get("text", "")) for p in content.get("parts") or ())
    return "\n\n".join(p for p in parts if p)


def _texts(content: Any) -> list[str]:
    if content is None:
        return []
    if isinstance(content, str):
        return [content]
    return [str(block.get("text", "")) for block in content if isinstance(block, dict)]


def judge_criterion(prompt: str) -> str | None:
    """The criterion a judge prompt asks about, or None for any other prompt."""
    match = _JUDGE_SHAPE.search(prompt)
    return match.group(1) if match else None


def default_reply(prompt: str) -> str:
    """A deterministic, sensible answer: a passing judge verdict, or a plausible summary."""
    criterion = judge_criterion(prompt)
    if criterion is not None:
        return json.dumps(
            {criterion: {"score": 1, "explanation": "Every claim matches the study results."}}
        )
    return DEFAULT_SUMMARY


def count_tokens(text: str) -> int:
    """A deterministic stand-in for a tokenizer: about four characters per token."""
    return max(1, (len(text) + 3) // 4)


def body_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def success_body(
    vendor: Vendor, model: str, text: str, prompt: str, *, empty: bool = False,
    reasoning_tokens: int = 0, cached_tokens: int = 0,
) -> dict[str, Any]:
    """The vendor's success response; ``empty`` leaves out the choices/content/candidates.

    ``reasoning_tokens`` (thought before answering) and ``cached_tokens`` (of the prompt,
    read from the vendor's cache) are reported each in the vendor's own way when not 0: for
    every vendor the prompt then still counts ``count_tokens(prompt)`` tokens in all and the
    output ``count_tokens(text) + reasoning_tokens``.
    """
    usage_in, usage_out = count_tokens(prompt), count_tokens(text) + reasoning_tokens
    cached_tokens = min(cached_tokens, usage_in)
    digest = hashlib.sha256(f"{model}\0{prompt}".encode()).hexdigest()[:24]
    if vendor == "openai":
        choices = [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ]
        return {
            "id": f"chatcmpl-{digest}",
            "object": "chat.completion",
            "created": 1_760_000_000,
            "model": model,
            "choices": [] if empty else choices,
            "usage": _openai_usage(usage_in, usage_out, reasoning_tokens, cached_tokens),
        }
    if vendor == "anthropic":
        return {
            "id": f"msg_{digest}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [] if empty else [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": _anthropic_usage(usage_in, usage_out, reasoning_tokens, cached_tokens),
        }
    candidate = {
        "content": {"role": "model", "parts": [{"text": text}]},
        "finishReason": "STOP",
        "index": 0,
    }
    return {
        "candidates": [] if empty else [candidate],
        "usageMetadata": _google_usage(usage_in, usage_out, reasoning_tokens, cached_tokens),
        "modelVersion": model,
        "responseId": digest,
    }


def _openai_usage(usage_in: int, usage_out: int, reasoning: int, cached: int) -> dict[str, Any]:
    # the totals include the details
    usage: dict[str, Any] = {"prompt_tokens": usage_in, "completion_tokens": usage_out,
                             "total_tokens": usage_in + usage_out}
    if reasoning:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning}
    if cached:
        usage["prompt_tokens_details"] = {"cached_tokens": cached}
    return usage


def _anthropic_usage(usage_in: int, usage_out: int, reasoning: int,
                     cached: int) -> dict[str, Any]:
    # input_tokens leaves out the cache reads; output_tokens includes the thinking
    usage: dict[str, Any] = {"input_tokens": usage_in - cached, "output_tokens": usage_out}
    if cached:
        usage["cache_read_input_tokens"] = cached
        usage["cache_creation_input_tokens"] = 0
    if reasoning:
        usage["output_tokens_details"] = {"thinking_tokens": reasoning}
    return usage


def _google_usage(usage_in: int, usage_out: int, reasoning: int, cached: int) -> dict[str, Any]:
    # promptTokenCount includes the cached tokens; candidatesTokenCount leaves out thoughts
    usage: dict[str, Any] = {"promptTokenCount": usage_in,
                             "candidatesTokenCount": usage_out - reasoning,
                             "totalTokenCount": usage_in + usage_out}
    if reasoning:
        usage["thoughtsTokenCount"] = reasoning
    if cached:
        usage["cachedContentTokenCount"] = cached
    return usage


_OPENAI_TYPES = {429: "rate_limit_exceeded", 500: "server_error", 503: "server_error"}
_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}
_GOOGLE_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


def error_body(
    vendor: Vendor, status: int, message: str, *, retry_after_s: float | None = None
) -> dict[str, Any]:
    """The vendor's error JSON for ``status``.

    Gemini states the wait in a ``google.rpc.RetryInfo`` detail rather than (only) a header.
    """
    if vendor == "openai":
        kind = _OPENAI_TYPES.get(status, "invalid_request_error")
        return {"error": {"message": message, "type": kind, "param": None, "code": kind}}
    if vendor == "anthropic":
        return {
            "type": "error",
            "error": {"type": _ANTHROPIC_TYPES.get(status, "api_error"), "message": message},
            "request_id": "req_fake",
        }
    error: dict[str, Any] = {
        "code": status,
        "message": message,
        "status": _GOOGLE_STATUS.get(status, "UNKNOWN"),
    }
    if retry_after_s is not None:
        error["details"] = [
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{retry_after_s}s"}
        ]
    return {"error": error}
