"""Model names to providers. Vendor modules (and their SDKs) are imported only when used."""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pytest_rwe.providers.base import Provider, ProviderConfigError
from pytest_rwe.providers.vendors import VENDORS, add_key_variables, vendor

# provider prefix -> "module:Class" (the vendor table's); a module is imported on first use
_PROVIDERS: dict[str, str | type[Provider]] = {v.prefix: v.target for v in VENDORS}

# bare vendor model names -> provider prefix
_BARE_NAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(v.bare_names), v.prefix) for v in VENDORS if v.bare_names)


def register_provider(prefix: str, target: str | type[Provider], *,
                      key_variables: tuple[str, ...] | None = None) -> None:
    """Register a provider class (or a lazy "module:Class") under a model-name prefix.

    Its key variables (``key_variables``, else the class's own) are redacted by value from
    every output, like the built-in vendors' keys.
    """
    if "/" in prefix or not prefix:
        raise ValueError(f"provider prefix {prefix!r} must be a non-empty name without '/'")
    _PROVIDERS[prefix] = target
    if key_variables is None and not isinstance(target, str):
        key_variables = tuple(target.key_variables)
    if key_variables:
        add_key_variables(prefix, key_variables)


@dataclass(frozen=True)
class ModelName:
    """A resolved model name; ``base_url`` comes from a ``model@URL`` suffix."""

    provider: str
    model: str
    base_url: str | None = None

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}"


def resolve_name(name: str) -> ModelName:
    """Resolve "provider/model" or a bare vendor name ("gemini-2.5-flash")."""
    name = name.strip()
    # "openai/llama3.1@http://127.0.0.1:11434/v1" points one model at its own server.
    name, _, base_url = name.partition("@")
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ProviderConfigError(
            f"{base_url!r} after '@' in model name {name!r} is not a URL; "
            "write provider/model@http://host:port/v1"
        )
    resolved = _resolve_bare(name)
    return ModelName(resolved.provider, resolved.model, base_url or None)


def _resolve_bare(name: str) -> ModelName:
    if "/" in name:
        provider, model = name.split("/", 1)
        if provider not in _PROVIDERS:
            raise ProviderConfigError(
                f"unknown provider {provider!r} in model name {name!r}; "
                f"use one of: {', '.join(sorted(_PROVIDERS))} (as provider/model)"
            )
        if not model:
            raise ProviderConfigError(f"model name {name!r} has no model after '{provider}/'")
        return ModelName(provider, model)
    for pattern, provider in _BARE_NAMES:
        if pattern.match(name):
            return ModelName(provider, name)
    raise ProviderConfigError(
        f"cannot tell which provider serves {name!r}; write it as provider/model, "
        f"e.g. openai/{name}, with provider one of: {', '.join(sorted(_PROVIDERS))}"
    )


def provider_class(prefix: str) -> type[Provider]:
    target = _PROVIDERS[prefix]
    if not isinstance(target, str):
        return target
    module_name, _, class_name = target.partition(":")
    cls: type[Provider] = getattr(importlib.import_module(module_name), class_name)
    return cls


def missing_key(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The variable to set when ``name``'s provider needs a key that is absent, else None."""
    resolved = resolve_name(name)
    env = os.environ if environ is None else environ
    if resolved.base_url:
        return None  # a self-hosted OpenAI-compatible server usually needs no key
    variables = _key_variables(resolved.provider)
    if variables and not any(env.get(v) for v in variables):
        return " or ".join(variables)
    return None


def model_problems(names: Iterable[str], role: str, *, need_keys: bool = True) -> list[str]:
    """Why each of ``names`` cannot be used (unknown provider, missing key), as messages
    naming ``role`` (the option that gave it) and the variable to set."""
    problems = []
    for name in names:
        try:
            variable = missing_key(name)
        except ProviderConfigError as exc:
            problems.append(f"{role} {name}: {exc}")
            continue
        if variable and need_keys:
            problems.append(f"{role} {name} needs an API key: set {variable}")
    return problems


def _key_variables(prefix: str) -> tuple[str, ...]:
    # from the vendor table, so a missing key is caught without importing the vendor SDK
    known = vendor(prefix)
    if known is not None:
        return known.key_variables
    return provider_class(prefix).key_variables


def create_provider(name: str, options: Mapping[str, Any] | None = None, *,
                    timeout_s: float | None = None) -> Provider:
    """Instantiate the provider for a model name; ``timeout_s`` (``--rwe-timeout``) is
    passed to providers that take it, unless ``options`` set their own."""
    resolved = resolve_name(name)
    cls = provider_class(resolved.provider)
    merged = dict(options or {})
    if resolved.base_url:
        merged.setdefault("base_url", resolved.base_url)
    if timeout_s is not None and cls.accepts_timeout:
        merged.setdefault("timeout_s", timeout_s)
    return cls(resolved.model, merged)
