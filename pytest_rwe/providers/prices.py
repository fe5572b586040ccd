"""Token counts of calls, model prices, and what the calls cost in USD (pure, stdlib only).

The shipped table (``prices.json`` beside this module) holds the list prices of the named
models with their date and source. A user overrides or adds models with a price file (the
same JSON shape) or inline entries (``MODEL input=2.0 output=8.0 cached_input=0.5``), both
through ``--rwe-prices`` / ini ``rwe_prices``. A model without a price has an unknown cost
(None), never 0; so has a set of calls of which one has unknown token counts (an entry
stored before tokens were recorded). Builtin models run locally: they cost 0.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from pytest_rwe.providers.base import ProviderConfigError, Usage
from pytest_rwe.providers.registry import resolve_name

PER_TOKENS = 1_000_000  # prices are USD per million tokens
PRICE_FIELDS = ("input", "output", "cached_input")
_DATED = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8})$")  # gpt-4.1-2025-04-14, claude-...-20250514
_COUNT_FIELDS = ("input_tokens", "output_tokens", "reasoning_tokens", "cached_tokens")


class PriceError(ValueError):
    """A price file or entry that cannot be read; the message names where, what and the fix."""


def _add(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else a + b


@dataclass(frozen=True)
class TokenCounts:
    """The tokens of a set of calls. A count is the sum over the calls that reported it (None:
    none did); ``unknown`` counts the calls whose input or output tokens are not known."""

    calls: int = 0
    #: answered from the response store (recorded earlier, or by another process of this
    #: run): their tokens are those recorded with them
    replayed: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None
    unknown: int = 0

    def add(self, usage: Usage, *, replayed: bool = False) -> TokenCounts:
        """These counts plus one call."""
        known = usage.input_tokens is not None and usage.output_tokens is not None
        return TokenCounts(
            self.calls + 1, self.replayed + int(replayed),
            _add(self.input_tokens, usage.input_tokens),
            _add(self.output_tokens, usage.output_tokens),
            _add(self.reasoning_tokens, usage.reasoning_tokens),
            _add(self.cached_tokens, usage.cached_tokens),
            self.unknown + (0 if known else 1))

    def __add__(self, other: TokenCounts) -> TokenCounts:
        return TokenCounts(
            self.calls + other.calls, self.replayed + other.replayed,
            _add(self.input_tokens, other.input_tokens),
            _add(self.output_tokens, other.output_tokens),
            _add(self.reasoning_tokens, other.reasoning_tokens),
            _add(self.cached_tokens, other.cached_tokens),
            self.unknown + other.unknown)

    def to_dict(self) -> dict[str, int | None]:
        return {"calls": self.calls, "replayed": self.replayed,
                **{n: getattr(self, n) for n in _COUNT_FIELDS}, "unknown": self.unknown}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> TokenCounts:
        """Counts from :meth:`to_dict`'s form (a missing field is unknown)."""
        if not data:
            return cls()

        def count(name: str) -> int | None:
            value = data.get(name)
            return int(value) if isinstance(value, int) and not isinstance(value, bool) else None

        return cls(count("calls") or 0, count("replayed") or 0, count("input_tokens"),
                   count("output_tokens"), count("reasoning_tokens"), count("cached_tokens"),
                   count("unknown") or 0)


@dataclass(frozen=True)
class Price:
    """USD per million tokens; ``cached_input`` None: cached tokens cost the input price."""

    input: float
    output: float
    cached_input: float | None = None
    source: str = ""  # where it comes from, for the report

    @property
    def free(self) -> bool:
        return self.input == 0 and self.output == 0 and not self.cached_input

    def usd(self, counts: TokenCounts) -> float | None:
        """What ``counts`` cost; None when a call's tokens are unknown (a free model: 0)."""
        if self.free:
            return 0.0
        if counts.unknown:
            return None
        prompt = counts.input_tokens or 0
        cached = min(counts.cached_tokens or 0, prompt)
        cached_price = self.input if self.cached_input is None else self.cached_input
        total = ((prompt - cached) * self.input + cached * cached_price
                 + (counts.output_tokens or 0) * self.output)
        return total / PER_TOKENS

    def to_dict(self) -> dict[str, Any]:
        return {"input": self.input, "output": self.output, "cached_input": self.cached_input,
                "source": self.source}


BUILTIN_PRICE = Price(0.0, 0.0, 0.0, source="builtin: runs locally, no vendor bill")


@dataclass(frozen=True)
class PriceTable:
    """Prices by model name, with the shipped table's date and source and the overrides."""

    prices: Mapping[str, Price]
    date: str = ""
    source: str = ""
    overrides: tuple[str, ...] = ()  # the files and entries that changed the shipped table

    def price(self, model: str) -> Price | None:
        """The price of ``model``, or None (unknown). A dated snapshot name finds its model's
        price and an undated name its one dated entry; a ``model@URL`` (another server) only
        has the price given for that exact name."""
        model = _full_name(model)
        if model.startswith("builtin/"):
            return BUILTIN_PRICE
        found = self.prices.get(model)
        if found is None and "+" in model:  # a prompt variant's arm: its model's price
            return self.price(model.rpartition("+")[0])
        if found is not None or "@" in model:
            return found
        base = _DATED.sub("", model)
        if base in self.prices:
            return self.prices[base]
        dated = [name for name in self.prices if _DATED.sub("", name) == base]
        return self.prices[dated[0]] if len(dated) == 1 else None

    def with_prices(self, prices: Mapping[str, Price], where: str) -> PriceTable:
        return replace(self, prices={**self.prices, **prices},
                       overrides=(*self.overrides, where))

    def usd(self, model: str, counts: TokenCounts) -> float | None:
        price = self.price(model)
        return None if price is None else price.usd(counts)

    def to_dict(self, models: Iterable[str] = ()) -> dict[str, Any]:
        """The table's date, source and overrides, and the price used for each of ``models``."""
        used = {}
        for name in dict.fromkeys(models):
            price = self.price(name)
            used[name] = None if price is None else price.to_dict()
        return {"date": self.date, "source": self.source, "currency": "USD",
                "unit": "per 1M tokens", "overrides": list(self.overrides), "models": used}


def _full_name(model: str) -> str:
    """``provider/model`` for a bare vendor name ("gpt-4.1"); other names unchanged."""
    if "/" in model.partition("@")[0]:
        return model
    try:
        resolved = resolve_name(model.partition("@")[0])
    except ProviderConfigError:  # not a name any provider serves: it has no price either
        return model
    return f"{resolved}{'@' if '@' in model else ''}{model.partition('@')[2]}"


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value) or value < 0:
        raise PriceError(f"{where} is {value!r}; write a number of USD per million tokens "
                         ">= 0, e.g. 2.5")
    return float(value)


def _price(entry: Any, where: str, source: str) -> Price:
    if not isinstance(entry, Mapping):
        raise PriceError(f"{where} is not an object; write "
                         '{"input": 2.0, "output": 8.0, "cached_input": 0.5}')
    unknown = sorted(set(entry) - {*PRICE_FIELDS, "source"})
    if unknown:
        raise PriceError(f"{where} has unknown field(s) {', '.join(unknown)}; "
                         f"use {', '.join(PRICE_FIELDS)} (and source)")
    for name in ("input", "output"):
        if name not in entry:
            raise PriceError(f"{where} has no {name!r} price; give both input and output "
                             "(USD per million tokens)")
    cached = entry.get("cached_input")
    return Price(_number(entry["input"], f"{where}.input"),
                 _number(entry["output"], f"{where}.output"),
                 None if cached is None else _number(cached, f"{where}.cached_input"),
                 source=str(entry.get("source") or source))


def parse_price_data(data: Any, where: str) -> tuple[dict[str, Price], str, str]:
    """(prices, date, source) of a price file's JSON; PriceError names ``where`` and field."""
    if not isinstance(data, Mapping) or not isinstance(data.get("models"), Mapping):
        raise PriceError(f"{where}: a price file is a JSON object with a \"models\" object, e.g. "
                         '{"date": "2026-12-01", "source": "...", "models": {"openai/gpt-4.1": '
                         '{"input": 2.0, "output": 8.0}}}')
    date, source = str(data.get("date") or ""), str(data.get("source") or "")
    origin = f"{where} ({date})" if date else where
    prices = {str(name): _price(entry, f"{where}: models.{name}", origin)
              for name, entry in data["models"].items()}
    return prices, date, source


def read_price_file(path: Path) -> dict[str, Price]:
    """The prices of a user's price file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PriceError(f"rwe_prices: cannot read the price file {path}: {exc.strerror or exc}; "
                         "give the path of a JSON price file (see docs/usage.md)") from None
    except json.JSONDecodeError as exc:
        raise PriceError(f"rwe_prices: {path} line {exc.lineno} column {exc.colno} is not valid "
                         f"JSON ({exc.msg})") from None
    return parse_price_data(data, str(path))[0]


def parse_price_entry(text: str, where: str = "rwe_prices") -> tuple[str, Price]:
    """``MODEL input=2.0 output=8.0 [cached_input=0.5]`` as (model, price)."""
    model, *parts = text.split()
    entry: dict[str, Any] = {}
    for part in parts:
        name, sep, raw = part.partition("=")
        try:
            entry[name] = float(raw) if sep else None
        except ValueError:
            entry[name] = raw
        if not sep:
            raise PriceError(f"{where}: {part!r} in {text!r} is not name=price; write "
                             f"{model} input=2.0 output=8.0 [cached_input=0.5]")
    return model, _price(entry, f"{where}: {model}", where)


def default_prices() -> PriceTable:
    """The shipped table."""
    text = resources.files("pytest_rwe.providers").joinpath("prices.json").read_text("utf-8")
    prices, date, source = parse_price_data(json.loads(text), "pytest_rwe/providers/prices.json")
    origin = f"shipped table ({date})"
    return PriceTable({name: replace(p, source=origin) for name, p in prices.items()},
                      date=date, source=source)


def load_prices(entries: Iterable[str], root: Path) -> PriceTable:
    """The shipped table with each entry applied in order: a ``MODEL name=price ...`` line, or
    the path (relative to ``root``) of a price file."""
    table = default_prices()
    for raw in entries:
        entry = raw.strip()
        if not entry:
            continue
        if "=" in entry:
            model, price = parse_price_entry(entry)
            table = table.with_prices({model: price}, f"rwe_prices: {model}")
        else:
            path = Path(entry) if Path(entry).is_absolute() else root / entry
            table = table.with_prices(read_price_file(path), str(path))
    return table


__all__ = [
    "BUILTIN_PRICE",
    "Price",
    "PriceError",
    "PriceTable",
    "TokenCounts",
    "default_prices",
    "load_prices",
    "parse_price_data",
    "parse_price_entry",
    "read_price_file",
]
