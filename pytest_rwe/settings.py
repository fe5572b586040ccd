"""Run settings of a pytest-rwe session, parsed from plain values (no pytest import).

The pytest glue reads options and ini keys and hands the raw values here, so the parsing
and its error messages are unit-testable and shared with the ``rwe`` command.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pytest_rwe.criteria import default_thresholds
from pytest_rwe.verdict import Criterion, check_criterion

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


def split_list(values: Iterable[str]) -> list[str]:
    """Flatten repeated and comma-separated values, dropping blanks, keeping order and dupes out."""
    items: list[str] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if item and item not in items:
                items.append(item)
    return items


def parse_criterion_map(text: str, option: str) -> dict[Criterion, float]:
    """Parse "direction_of_effect=0.5,completeness=1" into a mapping, naming ``option`` on error."""
    values: dict[Criterion, float] = {}
    for part in split_list([text]):
        name, sep, raw = part.partition("=")
        if not sep:
            raise SettingsError(f"{option}: {part!r} is not criterion=value, e.g. completeness=0.5")
        try:
            criterion = check_criterion(name.strip())
        except ValueError as exc:
            raise SettingsError(f"{option}: {exc}") from None
        try:
            value = float(raw)
        except ValueError:
            raise SettingsError(f"{option}: {raw!r} for {criterion} is not a number") from None
        if not 0.0 <= value <= 1.0:
            raise SettingsError(f"{option}: {criterion}={value:g} is outside 0..1")
        values[criterion] = value
    return values


@dataclass(frozen=True)
class RweSettings:
    """Everything a session needs to know to run the suite."""

    models: tuple[str, ...]
    jury: tuple[str, ...] = DEFAULT_JURY
    cases: Path = Path("cases/studies")
    prompts: Path | None = None
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
