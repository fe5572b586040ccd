"""THE vendor table: which provider serves which prefix, and the environment variables of its
API key and base URL (stdlib only: the core and redaction read it without any SDK).

A security fact with one home: the registry finds a missing key from it, each provider reads
its key from it, and redaction hides the value of every key variable it lists, including
those of providers added later with ``register_provider``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Vendor:
    """One provider prefix (``openai/...``)."""

    prefix: str
    target: str  # "module:Class", imported on first use
    key_variables: tuple[str, ...] = ()  # in the SDK's own order of precedence
    base_url_variable: str | None = None  # where the SDK reads another server's URL
    bare_names: str | None = None  # regex of bare model names it serves ("gpt-4.1")


VENDORS: tuple[Vendor, ...] = (
    Vendor("builtin", "pytest_rwe.providers.builtin:BuiltinProvider"),
    Vendor("openai", "pytest_rwe.providers.openai_provider:OpenAIProvider",
           ("OPENAI_API_KEY",), "OPENAI_BASE_URL", r"^(gpt-|chatgpt-|o1|o3|o4|o5)"),
    Vendor("anthropic", "pytest_rwe.providers.anthropic_provider:AnthropicProvider",
           ("ANTHROPIC_API_KEY",), "ANTHROPIC_BASE_URL", r"^claude-"),
    Vendor("google", "pytest_rwe.providers.google_provider:GoogleProvider",
           ("GOOGLE_API_KEY", "GEMINI_API_KEY"), "GOOGLE_GEMINI_BASE_URL", r"^(gemini-|gemma-)"),
)

_BY_PREFIX = {v.prefix: v for v in VENDORS}
#: key variables of providers registered at run time (register_provider), by prefix
_REGISTERED: dict[str, tuple[str, ...]] = {}


def vendor(prefix: str) -> Vendor | None:
    """The built-in vendor of ``prefix``, or None (a registered or unknown provider)."""
    return _BY_PREFIX.get(prefix)


def known_vendor(prefix: str) -> Vendor:
    """The built-in vendor of ``prefix`` (KeyError for any other)."""
    return _BY_PREFIX[prefix]


def add_key_variables(prefix: str, variables: tuple[str, ...]) -> None:
    """Remember the key variables of a provider registered under ``prefix``."""
    global _ALL_KEY_VARIABLES
    _REGISTERED[prefix] = tuple(variables)
    _ALL_KEY_VARIABLES = None


def all_key_variables() -> tuple[str, ...]:
    """Every key variable to redact by value: the built-in vendors', then registered ones."""
    # computed once per registration (redact() asks for it for every string it is given);
    # kept with the table it was computed from, in case that table is swapped (tests do)
    global _ALL_KEY_VARIABLES
    cached = _ALL_KEY_VARIABLES
    if cached is None or cached[0] is not _REGISTERED:
        names = [name for v in VENDORS for name in v.key_variables]
        names += [name for variables in _REGISTERED.values() for name in variables]
        cached = _ALL_KEY_VARIABLES = (_REGISTERED, tuple(dict.fromkeys(names)))
    return cached[1]


_ALL_KEY_VARIABLES: tuple[dict[str, tuple[str, ...]], tuple[str, ...]] | None = None
