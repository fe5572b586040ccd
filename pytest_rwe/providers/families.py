"""Vendor families of model names, to see when a juror judges its own family (pure).

LLM judges tend to favour text written by themselves or by their own family; the paper's
default jury (one juror per vendor) puts Gemini 2.5 Pro on the jury of every Gemini model.
A juror and a model of the same family are flagged, and ``--rwe-exclude-self`` drops such a
juror from that model's pairs.

The family is read from the model id first (``gpt-``/``o3`` are OpenAI's, ``claude-``
Anthropic's, ``gemini-``/``gemma-`` Google's, ``llama`` Meta's, ...), so ``openai/llama3.1@URL``
on an OpenAI-compatible server is a Meta model, not an OpenAI one. Otherwise a vendor API
without ``@URL`` serves its own models, and a provider registered by a user is its own
family. ``builtin/*`` (the deterministic template summarizer and rules juror) has no family:
they are not language models, and judging by rules has no self-preference to guard against.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# model id prefix -> family; the first match wins
_ID_FAMILIES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(gpt-|chatgpt-|o\d|text-davinci|davinci)", re.IGNORECASE), "openai"),
    (re.compile(r"^claude", re.IGNORECASE), "anthropic"),
    (re.compile(r"^(gemini|gemma|palm|bison)", re.IGNORECASE), "google"),
    (re.compile(r"^(meta-)?(code)?llama", re.IGNORECASE), "meta"),
    (re.compile(r"^(mistral|mixtral|codestral|ministral|magistral|pixtral)", re.IGNORECASE),
     "mistral"),
    (re.compile(r"^(qwen|qwq)", re.IGNORECASE), "alibaba"),
    (re.compile(r"^deepseek", re.IGNORECASE), "deepseek"),
    (re.compile(r"^grok", re.IGNORECASE), "xai"),
    (re.compile(r"^phi-?\d", re.IGNORECASE), "microsoft"),
    (re.compile(r"^command", re.IGNORECASE), "cohere"),
)
_VENDOR_APIS = ("openai", "anthropic", "google")
_NO_FAMILY = ("builtin",)


def vendor_family(name: str) -> str | None:
    """The vendor family of a model name (``provider/model[@URL]`` or a bare vendor name),
    or None when it has none (builtin models) or cannot be told."""
    name = name.strip()
    base, at, _ = name.partition("@")
    provider, slash, model = base.partition("/")
    if not slash:
        provider, model = "", base
    if provider in _NO_FAMILY:
        return None
    # "org/model" ids on compatible servers ("meta-llama/Llama-3.1-8B"): the last part
    model_id = model.rsplit("/", 1)[-1]
    for pattern, family in _ID_FAMILIES:
        if pattern.match(model_id):
            return family
    if provider in _VENDOR_APIS:
        return None if at else provider
    return provider or None


def same_family_jurors(model: str, jury: Iterable[str]) -> tuple[str, ...]:
    """The jurors of ``jury`` of the same vendor family as ``model`` (a juror that is the
    very same model counts too, family or not)."""
    family = vendor_family(model)
    return tuple(j for j in jury
                 if j == model or (family is not None and vendor_family(j) == family))
