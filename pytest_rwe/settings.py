"""Run settings of a pytest-rwe session, parsed from plain values (no pytest import).

The pytest glue reads options and ini keys and hands the raw values here, so the parsing
and its error messages are unit-testable and shared with the ``rwe`` command.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pytest_rwe.criteria import default_thresholds
from pytest_rwe.verdict import CRITERIA, Criterion, check_criterion

# -- the defaults: one home for each (the options' help, the CLI and the integrations read
# -- them from here)
#: the paper's jury, the plugin's default
DEFAULT_JURY: tuple[str, ...] = (
    "openai/o4-mini",
    "anthropic/claude-sonnet-4-20250514",
    "google/gemini-2.5-pro",
)
#: the jury that needs no key and no network (the deepeval integration's default)
DEFAULT_OFFLINE_JURY: tuple[str, ...] = ("builtin/rules",)
#: what the response store does with a call: ``new`` replays what it holds and records the
#: rest, ``none`` replays only (a miss fails), ``all`` calls again and overwrites
StoreMode = Literal["new", "none", "all"]
STORE_MODES: tuple[StoreMode, ...] = ("new", "none", "all")
RECORD_MODES = STORE_MODES  # the option's name (--rwe-record); kept for one release
#: the response store's folder, relative to the rootdir (plugin) or working folder
DEFAULT_STORE = Path(".rwe_cache")
DEFAULT_CONCURRENCY = 16  # the ceiling of calls in flight per provider
DEFAULT_MAX_ATTEMPTS = 6  # per call, on 5xx, timeouts and connection errors
DEFAULT_RETRY_CAP_S = 60.0  # the longest Retry-After honoured
DEFAULT_DEADLINE_S = 900.0  # how long one rate-limited call keeps retrying
DEFAULT_TIMEOUT_S = 180.0  # one attempt
DEFAULT_TEMPERATURE: float | None = 0.0
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


def parse_variants(prompts: Sequence[str], variants: Sequence[str], here: Path, *,
                   variants_from: str = "--rwe-variant",
                   variants_here: Path | None = None) -> tuple[PromptVariant, ...]:
    """The prompt variants of a run from ``--rwe-prompts DIR`` (repeated) and ``--rwe-variant
    NAME=DIR`` values as typed, folders relative to ``here``; () when the run has one prompt
    set (no ``--rwe-variant`` and at most one ``--rwe-prompts``). ``variants_from`` names
    where the NAME=DIR values came from in messages (the ini key ``rwe_variants``, whose
    folders are relative to ``variants_here``, the rootdir).

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
    base = here if variants_here is None else variants_here
    for value in variants:
        name, sep, raw = value.partition("=")
        name = name.strip()
        if not sep or not name or not raw.strip():
            raise SettingsError(f"{variants_from} {value!r} is not NAME=DIR; e.g. "
                                f"{variants_from} terse=prompts/terse")
        found.append(PromptVariant(name, (base / raw.strip()).resolve(),
                                   f"{variants_from} {value}"))
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
class Spelling:
    """How one caller of :func:`engine_settings` names each setting, so that its messages
    name the option as the user typed it: ``--rwe-concurrency`` (the plugin),
    ``--concurrency`` (``rwe calibrate``) or ``concurrency=`` (the deepeval integration)."""

    names: Mapping[str, str]  # EngineSettings field -> the caller's name for it
    keyword: bool = False  # keyword arguments (name=value) rather than command-line options

    def name(self, setting: str) -> str:
        return self.names.get(setting, setting)

    def given(self, setting: str, text: str) -> str:
        """``setting`` with the value it was given, as this caller writes it."""
        name = self.name(setting)
        return f"{name}={text}" if self.keyword else f"{name}: {text}"

    def example(self, setting: str, text: str) -> str:
        """An example of ``setting`` set to ``text``, as this caller writes it."""
        name = self.name(setting)
        return f"{name}={text}" if self.keyword else f"{name} {text}"


PLUGIN = Spelling({"jury": "--rwe-jury", "prompts": "--rwe-prompts", "store": "--rwe-store",
                   "store_mode": "--rwe-record", "concurrency": "--rwe-concurrency",
                   "max_attempts": "--rwe-max-attempts", "retry_cap_s": "--rwe-retry-cap",
                   "deadline_s": "--rwe-deadline", "timeout_s": "--rwe-timeout",
                   # the quorum's messages name the ini key (the option is --rwe-quorum)
                   "quorum": "rwe_quorum"})
CALIBRATE = Spelling({"jury": "--jury", "prompts": "--prompts", "store": "--store",
                      "store_mode": "--record", "concurrency": "--concurrency"})
KEYWORDS = Spelling({"jury": "jurors", "store_mode": "record"}, keyword=True)


@dataclass(frozen=True)
class EngineSettings:
    """Everything that makes an engine, validated once (:func:`engine_settings`): the
    jury, prompt templates, response store and its mode, and the call limits.

    The one config type of the plugin (:attr:`RweSettings.engine`), ``rwe calibrate`` and
    the deepeval integration; :func:`pytest_rwe.engine.build_engine` makes the engine.
    ``store=None`` calls the models without a response store.
    """

    jury: tuple[str, ...] = DEFAULT_JURY
    prompts: Path | None = None  # a folder over the packaged templates
    #: the run's prompt variants (empty: one prompt set, ``prompts``, which is then also
    #: the default folder beneath every variant's)
    variants: tuple[PromptVariant, ...] = ()
    store: Path | None = DEFAULT_STORE
    store_mode: StoreMode = "new"
    concurrency: int = DEFAULT_CONCURRENCY
    max_attempts: int = DEFAULT_MAX_ATTEMPTS
    retry_cap_s: float = DEFAULT_RETRY_CAP_S
    deadline_s: float = DEFAULT_DEADLINE_S
    timeout_s: float = DEFAULT_TIMEOUT_S
    #: the temperature of every call when the caller gives no generation settings of its own
    temperature: float | None = DEFAULT_TEMPERATURE


def engine_settings(
    *,
    spelling: Spelling = PLUGIN,
    jury: Iterable[str] | str = DEFAULT_JURY,
    prompts: str | Path | None = None,
    variants: tuple[PromptVariant, ...] = (),
    store: str | Path | None = DEFAULT_STORE,
    store_mode: str = "new",
    concurrency: int = DEFAULT_CONCURRENCY,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    retry_cap_s: float = DEFAULT_RETRY_CAP_S,
    deadline_s: float = DEFAULT_DEADLINE_S,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    temperature: float | None = DEFAULT_TEMPERATURE,
) -> EngineSettings:
    """Validate raw values into :class:`EngineSettings`; :class:`SettingsError` (a
    ValueError) names the setting as ``spelling`` spells it, and the fix. Paths become
    absolute (a later change of the working folder moves nothing)."""
    jurors = tuple(split_list([jury] if isinstance(jury, str) else jury))
    if not jurors:
        given = spelling.given("jury", "()") if spelling.keyword else spelling.name("jury")
        example = spelling.example(
            "jury", "('builtin/rules',)" if spelling.keyword else "builtin/rules")
        raise SettingsError(f"{given}: give at least one juror, e.g. {example}")
    if store_mode not in STORE_MODES:
        raise SettingsError(f"{spelling.given('store_mode', repr(store_mode))}; use one of "
                            f"{', '.join(STORE_MODES)}")
    for name, value in (("concurrency", concurrency), ("max_attempts", max_attempts)):
        if value < 1:
            raise SettingsError(f"{spelling.given(name, str(value))} must be 1 or more")
    if retry_cap_s < 0:
        raise SettingsError(f"{spelling.given('retry_cap_s', f'{retry_cap_s:g}')} must be 0 "
                            "or more")
    if not deadline_s > 0:
        raise SettingsError(f"{spelling.given('deadline_s', f'{deadline_s:g}')} must be more "
                            "than 0 seconds (how long one rate-limited call keeps retrying)")
    if not timeout_s > 0:
        raise SettingsError(f"{spelling.given('timeout_s', f'{timeout_s:g}')} must be more "
                            "than 0 seconds (how long one attempt may take)")
    return EngineSettings(
        jury=jurors,
        prompts=None if prompts is None else Path(os.path.abspath(prompts)),
        variants=variants,
        store=None if store is None else Path(os.path.abspath(store)),
        store_mode=store_mode,
        concurrency=concurrency,
        max_attempts=max_attempts,
        retry_cap_s=float(retry_cap_s),
        deadline_s=float(deadline_s),
        timeout_s=float(timeout_s),
        temperature=temperature,
    )


@dataclass(frozen=True)
class RweSettings:
    """Everything a session needs to know to run the suite: what it tests, and the
    settings of the engine that runs it."""

    models: tuple[str, ...]
    cases: Path = Path("cases/studies")
    thresholds: Mapping[Criterion, float] = field(
        default_factory=default_thresholds
    )
    repeat: int = 1
    engine: EngineSettings = field(default_factory=EngineSettings)

    @property
    def store(self) -> Path:
        """The run's response-store folder (a plugin session always has one)."""
        return self.engine.store if self.engine.store is not None else DEFAULT_STORE


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
    merged = default_thresholds()
    if thresholds:
        merged.update(parse_criterion_map(thresholds, "rwe_thresholds"))
    if repeat < 1:
        raise SettingsError(f"--rwe-repeat: {repeat} must be 1 or more")
    engine = engine_settings(
        spelling=PLUGIN, jury=jury or DEFAULT_JURY, prompts=prompts,
        variants=variants, store=store, store_mode=record, concurrency=concurrency,
        max_attempts=max_attempts, retry_cap_s=retry_after_cap_s, deadline_s=deadline_s,
        timeout_s=timeout_s)
    return RweSettings(
        models=tuple(split_list(models)),
        cases=cases,
        thresholds=merged,
        repeat=repeat,
        engine=engine,
    )
