"""What the study's results say, read by the rules juror itself from the raw study file.

The template summarizer writes its directions and significance from :mod:`pytest_rwe.study`'s
parsed values; the juror reads them again here, from ``study.raw``, with its own small parser,
so a bug on one side (a p-value bound, a ratio's null, p = 0.05) is caught by the other
instead of passing both. Nothing here imports the study parser's value types.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pytest_rwe.study import Study

LEVEL = 0.05
RATIOS = frozenset({"hr", "or", "rr", "irr"})
Direction = Literal["higher", "lower", "none"]

# "outcome_3yrs.x_bin!HR", "outcome.x_bin!HR", and undotted "outcome_x_bin!HR": the stem is
# everything before the last "!", as the study loader keys its outcomes
_KEY = re.compile(r"^outcome[^!]*!(?P<stat>[^!]+)$")
_N = r"[-+\u2212]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# "0.87 (0.67, 1.13)", "0.87 [0.67-1.13]", "-2.1 (-3.5; -0.7)", "0.87 (0.67 to 1.13)"
_ESTIMATE = re.compile(rf"^\s*(?P<est>{_N})\s*(?:[(\[]\s*(?P<lo>{_N})\s*(?:,|;|\bto\b|-|\u2013|"
                       rf"\u2014)\s*(?P<hi>{_N})\s*[)\]])?\s*$")
_P = re.compile(r"^\s*(?:p\s*)?(?P<op><=|>=|<|>|=|≤|≥)?\s*(?P<num>[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
                r"(?:[eE][-+]?\d+)?)\s*$", re.IGNORECASE)


def _number(text: str) -> float:
    return float(text.replace("\u2212", "-"))


@dataclass(frozen=True)
class Fact:
    """One outcome's result as the juror reads it: estimate, interval, p-value."""

    key: str  # the results key stem, "outcome_3yrs.x_bin"
    measure: str | None  # "HR", "OR", "RR", "IRR", "MD", "RD" (an effect), or None
    point: float | None
    low: float | None
    high: float | None
    p: float | None
    p_operator: str  # "=", "<", "<=", ">", ">=" ("" without a p-value)
    p_text: str
    estimate_text: str

    @property
    def is_ratio(self) -> bool:
        return (self.measure or "").lower() in RATIOS

    @property
    def direction(self) -> Direction | None:
        """The intervention's side of the null (after minus before in a case series)."""
        if self.point is None or self.measure is None:
            return None
        null = 1.0 if self.is_ratio else 0.0
        if self.point > null:
            return "higher"
        if self.point < null:
            return "lower"
        return "none"

    @property
    def significant(self) -> bool | None:
        """p < 0.05 (a bound "<0.05" or "<=0.01" is below it); None without a p-value."""
        if self.p is None:
            return None
        if self.p_operator in ("<", "<="):
            return self.p <= LEVEL
        if self.p_operator in (">", ">="):
            return False
        return self.p < LEVEL

    @property
    def must_report(self) -> bool:
        """Completeness asks for every outcome with p <= 0.05."""
        if self.p is None:
            return False
        if self.p_operator in (">", ">="):
            return False
        return self.p <= LEVEL

    def shown(self) -> str:
        """The result as the study writes it: "HR 0.81 (0.70, 0.94), p = 0.004"."""
        text = f"{self.measure or ''} {self.estimate_text}".strip()
        if self.p_text:
            text += (f", p {self.p_text}" if self.p_operator != "=" else f", p = {self.p_text}")
        return text


_EFFECT_ORDER = ("hr", "or", "rr", "irr", "md", "rd")


def _read_p(raw: object) -> tuple[float | None, str, str]:
    text = str(raw).strip()
    match = _P.match(text)
    if match is None:
        return None, "", text
    operator = {"≤": "<=", "≥": ">="}.get(match.group("op") or "=", match.group("op") or "=")
    return _number(match.group("num")), operator, text


def read_facts(study: Study) -> dict[str, Fact]:
    """Every outcome's fact, by results key stem, from the study file's own strings."""
    results = study.raw.get("results") if isinstance(study.raw, Mapping) else None
    outcomes = results.get("outcomes") if isinstance(results, Mapping) else None
    by_stem: dict[str, dict[str, Any]] = {}
    for key, value in (outcomes or {}).items():
        match = _KEY.match(str(key))
        if match is None:
            continue
        stem = str(key).rsplit("!", 1)[0]
        by_stem.setdefault(stem, {})[match.group("stat").lower()] = value
    facts: dict[str, Fact] = {}
    for stem, stats in by_stem.items():
        measure = next((m for m in _EFFECT_ORDER if m in stats), None)
        point = low = high = None
        text = ""
        if measure is not None:
            text = str(stats[measure]).strip()
            match = _ESTIMATE.match(text)
            if match is not None:
                point = _number(match.group("est"))
                if match.group("lo") is not None:
                    ends = (_number(match.group("lo")), _number(match.group("hi")))
                    low, high = min(ends), max(ends)
        p, operator, p_text = (_read_p(stats["pvalue"]) if "pvalue" in stats
                               else (None, "", ""))
        facts[stem] = Fact(stem, measure.upper() if measure else None, point, low, high, p,
                           operator, p_text, text)
    return facts


def has_pvalues(facts: Mapping[str, Fact]) -> bool:
    return any(f.p is not None for f in facts.values())
