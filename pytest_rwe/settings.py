"""Run settings of a pytest-rwe session, parsed from plain values (no pytest import).

The pytest glue reads options and ini keys and hands the raw values here, so the parsing
and its error messages are unit-testable and shared with the ``rwe`` command.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pytest_rwe.criteria import default_thresholds
from pytest_rwe.verdict import CRITERIA, Criterion, check_criterion

DEFAULT_JURY: tuple[str, ...] = (
    "openai/o4-mini",
    "anthropic/claude-sonnet-4-20250514",
    "google/gemini-2.5-pro",
)
RECORD_MODES = ("new", "none", "all")
DEFAULT_CONCURRENCY = 16
DEFAULT_DEADLINE_S = 900.0  # how long one rate-limited call keeps retrying
DEFAULT_TIMEOUT_S = 180.0  # one attempt
# what a criterion test asserts over --rwe-repeat N (see pytest_rwe.jury_rules)
RepeatRule = Literal["all", "majority", "mean"]
REPEAT_RULES: tuple[RepeatRule, ...] = ("all", "majority", "mean")


class SettingsError(ValueError):
    """A bad option or ini value; the message names the option and the fix."""


#: joins a model and a prompt variant into the name the run gives the pair ("arm"):
#: ``openai/gpt-4.1+terse`` in test ids, records and the report
VARIANT_SEPARATOR = "+"
DEFAULT_VARIANT = "default"
_VARIANT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class PromptVariant:
    """One prompt variant of a run: its name, its folder (None: the run's default prompts
    only) and the option that gave it, as typed (for messages)."""

    name: str
    folder: Path | None
    given: str


def arm_name(model: str, variant: str | None) -> str:
    """The name of ``model`` run with prompt ``variant`` (the model itself without one)."""
    return model if variant is None else f"{model}{VARIANT_SEPARATOR}{variant}"


def parse_variants(prompts: Sequence[str], variants: Sequence[str],
                   here: Path) -> tuple[PromptVariant, ...]:
    """The prompt variants of a run from ``--rwe-prompts DIR`` (repeated) and ``--rwe-variant
    NAME=DIR`` values as typed, folders relative to ``here``; () when the run has one prompt
    set (no ``--rwe-variant`` and at most one ``--rwe-prompts``).

    Each ``--rwe-prompts`` folder is a variant named after the folder. With ``--rwe-variant``
    alone the run's default prompts join first, as variant ``default``. The first variant
    is the reference the others are compared with. Raises :class:`SettingsError` naming the
    option, the value and the fix.
    """
    if not variants and len(prompts) < 2:
        return ()
    found: list[PromptVariant] = []
    if not prompts:
        found.append(PromptVariant(DEFAULT_VARIANT, None, "the run's default prompts"))
    for value in prompts:
        folder = (here / value).resolve()
        found.append(PromptVariant(folder.name, folder, f"--rwe-prompts {value}"))
    for value in variants:
        name, sep, raw = value.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            raise SettingsError(f"--rwe-variant {value!r} is not NAME=DIR; e.g. "
                                "--rwe-variant terse=prompts/terse")
        found.append(PromptVariant(name, (here / raw.strip()).resolve(),
                                   f"--rwe-variant {value}"))
    seen: dict[str, PromptVariant] = {}
    for variant in found:
        if not _VARIANT_NAME.fullmatch(variant.name):
            raise SettingsError(
                f"{variant.given}: the variant name {variant.name!r} may hold only letters, "
                "digits, '_', '.' and '-', starting with a letter or digit (it becomes part "
                "of test ids); name it with --rwe-variant NAME=DIR")
        if variant.name in seen:
            raise SettingsError(
                f"{variant.given}: the variant name {variant.name!r} is already taken by "
                f"{seen[variant.name].given}; give each variant its own name with "
                f"--rwe-variant NAME=DIR (a --rwe-prompts folder is named after itself)")
        seen[variant.name] = variant
        if variant.folder is not None and not variant.folder.is_dir():
            raise SettingsError(
                f"{variant.given}: no such folder {variant.folder}; create it with the "
                "prompt templates this variant changes (e.g. summarize_cohort.txt; the "
                "others come from the default prompts), or fix the path")
    return tuple(found)


def split_list(values: Iterable[str]) -> list[str]:
    """Flatten repeated and comma-separated values, dropping blanks, keeping order and dupes out."""
    items: list[str] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if item and item not in items:
                items.append(item)
    return items


@dataclass(frozen=True)
class Assignment:
    """One ``key=value`` part of an option value (``key!=value`` where negation is allowed)."""

    part: str  # as typed, stripped (for messages)
    key: str
    op: str  # "=" or "!="
    raw: str  # the value, stripped


@dataclass(frozen=True)
class Wording:
    """How one ``key=value`` reader words its errors: ``str.format`` templates over
    ``option``, ``part`` (as typed), ``key``, ``raw`` (the value, stripped), ``value`` (the
    number), ``keys`` (the valid ones, joined) and ``example``. Each reader keeps its own
    wording because suites and tests read the messages; the checks are the same."""

    malformed: str = "{option}: {part!r} is not key=value; e.g. {example}"
    unknown: str = "{option}: unknown key {key!r}; valid keys: {keys}"
    twice: str = "{option}: {key} is given twice"
    not_number: str = "{option}: {key}={raw!r} is not a number"
    out_of_range: str = "{option}: {key}={raw!r} must be a finite number"


#: what a number read by :func:`read_numbers` must be: within 0..1, >= 0 (infinity allowed)
#: or finite
NumberCheck = Literal["unit", "non_negative", "finite"]
_IN_RANGE: dict[NumberCheck, Callable[[float], bool]] = {
    "unit": lambda value: 0.0 <= value <= 1.0,
    "non_negative": lambda value: value >= 0.0,
    "finite": math.isfinite,
}


def read_assignments(text: str, *, option: str, example: str, keys: Sequence[str] | None = None,
                     negation: bool = False, unique: bool = False, lower: bool = False,
                     wording: Wording = Wording(),
                     error: type[ValueError] = SettingsError) -> list[Assignment]:
    """The one reader of ``key=value,...`` option values: split at commas, blank parts skipped.

    A part needs a key, ``=`` (or ``!=`` with ``negation``) and a value; its key must be one
    of ``keys`` (when given) and, with ``unique``, given once. ``lower`` lowers the keys.
    Anything else raises ``error`` worded by ``wording``, naming ``option`` and giving
    ``example``.
    """
    found: list[Assignment] = []
    for piece in text.split(","):
        part = piece.strip()
        if not part:
            continue
        op = "!=" if negation and "!=" in part else "="
        key, sep, raw = part.partition(op)
        key, raw = key.strip(), raw.strip()
        key = key.lower() if lower else key
        fields = {"option": option, "part": part, "key": key, "raw": raw, "example": example,
                  "keys": ", ".join(keys or ())}
        if not sep or not key or not raw:
            raise error(wording.malformed.format(**fields))
        if keys is not None and key not in keys:
            raise error(wording.unknown.format(**fields))
        if unique and any(earlier.key == key for earlier in found):
            raise error(wording.twice.format(**fields))
        found.append(Assignment(part, key, op, raw))
    return found


def read_numbers(text: str, *, option: str, example: str, keys: Sequence[str],
                 check: NumberCheck, unique: bool = False, wording: Wording = Wording(),
                 error: type[ValueError] = SettingsError) -> dict[str, float]:
    """``key=number,...`` read by :func:`read_assignments` into {key: number} (a key given
    again replaces the earlier value unless ``unique``), each number passing ``check``."""
    numbers: dict[str, float] = {}
    for assignment in read_assignments(text, option=option, example=example, keys=keys,
                                       unique=unique, wording=wording, error=error):
        fields = {"option": option, "part": assignment.part, "key": assignment.key,
                  "raw": assignment.raw, "example": example, "keys": ", ".join(keys)}
        try:
            value = float(assignment.raw)
        except ValueError:
            raise error(wording.not_number.format(**fields)) from None
        if not _IN_RANGE[check](value):  # NaN fails every check
            raise error(wording.out_of_range.format(value=value, **fields))
        numbers[assignment.key] = value
    return numbers


_CRITERION_MAP = Wording(
    malformed="{option}: {part!r} is not criterion=value, e.g. completeness=0.5",
    unknown="{option}: unknown criterion {key!r}; use one of {keys}",
    not_number="{option}: {raw!r} for {key} is not a number",
    out_of_range="{option}: {key}={value:g} is outside 0..1",
)


def parse_criterion_map(text: str, option: str) -> dict[Criterion, float]:
    """Parse "direction_of_effect=0.5,completeness=1" into a mapping, naming ``option`` on error."""
    values = read_numbers(text, option=option, example="completeness=0.5", keys=CRITERIA,
                          check="unit", wording=_CRITERION_MAP)
    return {check_criterion(name): value for name, value in values.items()}


def parse_thresholds(text: str | None, option: str) -> dict[Criterion, float]:
    """Pass thresholds from a bare number (every criterion) or ``criterion=value,...`` (the
    others keep their defaults); None: the defaults."""
    if text is None:
        return default_thresholds()
    text = text.strip()
    if "=" in text:
        return {**default_thresholds(), **parse_criterion_map(text, option)}
    try:
        value = float(text)
    except ValueError:
        raise SettingsError(f"{option}: {text!r} is not a number; e.g. {option} 0.5 "
                            f"or {option} completeness=0.67") from None
    if not 0.0 <= value <= 1.0:
        raise SettingsError(f"{option}: {value:g} is outside 0..1")
    return dict.fromkeys(CRITERIA, value)


@dataclass(frozen=True)
class RweSettings:
    """Everything a session needs to know to run the suite."""

    models: tuple[str, ...]
    jury: tuple[str, ...] = DEFAULT_JURY
    cases: Path = Path("cases/studies")
    prompts: Path | None = None
    #: the run's prompt variants (empty: one prompt set, ``prompts``, which is then also
    #: the default folder beneath every variant's)
    variants: tuple[PromptVariant, ...] = ()
    thresholds: Mapping[Criterion, float] = field(
        default_factory=default_thresholds
    )
    repeat: int = 1
    record: str = "new"
    store: Path = Path(".rwe_cache")
    concurrency: int = DEFAULT_CONCURRENCY
    max_attempts: int = 6
    retry_after_cap_s: float = 60.0
    deadline_s: float = DEFAULT_DEADLINE_S
    timeout_s: float = DEFAULT_TIMEOUT_S


def build_settings(
    *,
    models: Iterable[str],
    jury: str | None,
    cases: Path,
    prompts: Path | None,
    thresholds: str | None,
    repeat: int,
    record: str,
    store: Path,
    concurrency: int,
    max_attempts: int,
    retry_after_cap_s: float,
    deadline_s: float = DEFAULT_DEADLINE_S,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    variants: tuple[PromptVariant, ...] = (),
) -> RweSettings:
    """Validate raw option values into :class:`RweSettings`."""
    jurors = tuple(split_list([jury])) if jury else DEFAULT_JURY
    if not jurors:
        raise SettingsError("--rwe-jury: give at least one juror, e.g. --rwe-jury builtin/rules")
    merged = default_thresholds()
    if thresholds:
        merged.update(parse_criterion_map(thresholds, "rwe_thresholds"))
    if repeat < 1:
        raise SettingsError(f"--rwe-repeat: {repeat} must be 1 or more")
    if record not in RECORD_MODES:
        raise SettingsError(f"--rwe-record: {record!r}; use one of {', '.join(RECORD_MODES)}")
    if concurrency < 1:
        raise SettingsError(f"--rwe-concurrency: {concurrency} must be 1 or more")
    if max_attempts < 1:
        raise SettingsError(f"--rwe-max-attempts: {max_attempts} must be 1 or more")
    if retry_after_cap_s < 0:
        raise SettingsError(f"--rwe-retry-cap: {retry_after_cap_s:g} must be 0 or more")
    if not deadline_s > 0:
        raise SettingsError(f"--rwe-deadline: {deadline_s:g} must be more than 0 seconds "
                            "(how long one rate-limited call keeps retrying)")
    if not timeout_s > 0:
        raise SettingsError(f"--rwe-timeout: {timeout_s:g} must be more than 0 seconds "
                            "(how long one attempt may take)")
    return RweSettings(
        models=tuple(split_list(models)),
        jury=jurors,
        cases=cases,
        prompts=prompts,
        variants=variants,
        thresholds=merged,
        repeat=repeat,
        record=record,
        store=store,
        concurrency=concurrency,
        max_attempts=max_attempts,
        retry_after_cap_s=retry_after_cap_s,
        deadline_s=deadline_s,
        timeout_s=timeout_s,
    )
