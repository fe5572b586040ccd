"""Report settings (weights, normalizing maxima, the quality gate, the output folder), parsed
from plain option values so parsing and its messages are unit-testable without pytest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pytest_rwe.providers.prices import PriceTable
from pytest_rwe.report.rescore import parse_criterion_values, parse_weights
from pytest_rwe.settings import SettingsError, parse_criterion_map
from pytest_rwe.stats.bootstrap import DEFAULT_LEVEL, DEFAULT_RESAMPLES
from pytest_rwe.stats.bradley_terry import BT_RESAMPLES
from pytest_rwe.stats.pairwise import TIME_TOLERANCE
from pytest_rwe.stats.rubric import DEFAULT_WEIGHTS, check_normalize_max, resolve_weights
from pytest_rwe.verdict import Criterion


@dataclass(frozen=True)
class ReportSettings:
    """How the session report scores, gates and where it writes.

    ``weights`` is complete (every rubric key); ``minimums`` is the ``--rwe-min`` gate on
    each model's criterion mean; ``directory`` is where ``--rwe-report`` writes (None: no
    files). Bootstrap settings are fixed so a report is reproducible from its records.
    """

    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    normalize_max: Mapping[str, float] = field(default_factory=dict)
    minimums: Mapping[Criterion, float] = field(default_factory=dict)
    directory: Path | None = None
    #: Bradley-Terry compares quality only unless this weight is given: then being faster
    #: by more than ``time_tolerance`` (a share of the slower time) on a study adds it
    bt_time_weight: float = 0.0
    time_tolerance: float = TIME_TOLERANCE
    #: the session's rwe_repeat_rule, recorded in the repeats section
    repeat_rule: str = "all"
    resamples: int = DEFAULT_RESAMPLES
    bt_resamples: int = BT_RESAMPLES
    level: float = DEFAULT_LEVEL
    seed: int = 0
    #: the prices costs are computed with (None: the shipped table)
    prices: PriceTable | None = None


def build_report_settings(*, weights: str | None = None, normalize_max: str | None = None,
                          minimums: str | None = None, directory: Path | None = None,
                          bt_time_weight: str | None = None) -> ReportSettings:
    """Validate raw ``--rwe-weights``/``--rwe-normalize-max``/``--rwe-min`` text.

    Raises :class:`SettingsError` naming the option, the key and the fix.
    """
    try:
        parsed_weights = parse_weights(weights, option="--rwe-weights") if weights else {}
        resolved = resolve_weights(parsed_weights)
        maxima: dict[str, float] = {}
        if normalize_max:
            maxima = parse_criterion_values(normalize_max, option="--rwe-normalize-max")
            check_normalize_max(maxima)
    except ValueError as exc:
        message = str(exc)
        if message.startswith("normalize-max "):
            message = "--rwe-" + message
        raise SettingsError(message) from None
    if not any(resolved.values()):
        raise SettingsError("--rwe-weights: every weight is 0, so nothing is scored; give at "
                            "least one key a positive weight, e.g. direction_of_effect=20")
    gate = parse_criterion_map(minimums, "--rwe-min") if minimums else {}
    time_weight = 0.0
    if bt_time_weight:
        try:
            time_weight = float(bt_time_weight)
        except ValueError:
            time_weight = -1.0
        if not 0 <= time_weight < float("inf"):
            raise SettingsError(f"--rwe-bt-time-weight: {bt_time_weight!r} is not a number "
                                ">= 0; e.g. --rwe-bt-time-weight 3 (0 compares quality only)")
    return ReportSettings(weights=resolved, normalize_max=maxima, minimums=gate,
                          directory=directory, bt_time_weight=time_weight)
