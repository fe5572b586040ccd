"""Parsers for the value strings an RWE pipeline writes into a study file.

Each parser takes the raw JSON value and returns a typed value, or raises
``ValueError`` with a message that says what was expected, so the study loader can
turn it into an error naming the file, the JSON path and the fix.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

_NUMBER = r"[-+\u2212]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# The interval separators pipelines write: "," ";" "to" and the dashes "-" "\u2013" "\u2014".
# A dash is safe between two numbers because each number may carry its own sign:
# "-1.2--0.1" is (-1.2, -0.1).
_SEPARATOR = r"(?:,|;|\bto\b|-|\u2013|\u2014)"
# "0.866 (0.665, 1.13)", "0.866 [0.665-1.13]", "0.866 (0.665 to 1.13)", or "0.866" alone.
_ESTIMATE_RE = re.compile(
    rf"^\s*(?P<est>{_NUMBER})\s*(?:(?P<open>[(\[])\s*(?P<lo>{_NUMBER})\s*{_SEPARATOR}\s*"
    rf"(?P<hi>{_NUMBER})\s*(?P<close>[)\]]))?\s*$"
)
_BRACKETS = {"(": ")", "[": "]"}
# Sizes a pipeline writes when a group size is not known.
_UNKNOWN_SIZES = frozenset({"", "na", "n/a", "nr", "not reported", "unknown", "none", "null"})
_PVALUE_RE = re.compile(
    rf"^\s*(?:p\s*)?(?P<op><=|<|>=|>|=)?\s*(?P<num>{_NUMBER})\s*$", re.IGNORECASE
)
_COUNT_RE = re.compile(r"^\s*(?P<k>\d+)\s*/\s*(?P<n>\d+)\s*$")
_PERCENT_RE = re.compile(rf"^\s*(?P<num>{_NUMBER})\s*%?\s*$")
_BASELINE_RE = re.compile(
    rf"^\s*(?P<first>control|intervention)\s*:?\s*(?P<a>{_NUMBER})\s*%?\s*vs\.?\s*"
    rf"(?P<second>control|intervention)\s*:?\s*(?P<b>{_NUMBER})\s*%?\s*$",
    re.IGNORECASE,
)

SIGNIFICANCE_LEVEL = 0.05


def parse_number(text: str) -> float:
    """Parse a plain decimal number, accepting the Unicode minus sign."""
    value = float(text.replace("\u2212", "-"))
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


def decimals_of(text: str) -> int:
    """Number of digits written after the decimal point ("0.50" -> 2, "12" -> 0)."""
    text = text.strip().lower().split("e")[0]
    return len(text.split(".", 1)[1]) if "." in text else 0


@dataclass(frozen=True)
class Estimate:
    """A point estimate with an optional 95% confidence interval.

    ``text`` is the normalized form "est (lo, hi)" with the digits as written (so
    "0.80 [0.70-0.95]" becomes "0.80 (0.70, 0.95)"); ``written`` is the original string.
    """

    value: float
    ci_low: float | None
    ci_high: float | None
    text: str
    written: str = ""

    @property
    def has_interval(self) -> bool:
        return self.ci_low is not None and self.ci_high is not None


def parse_estimate(raw: object) -> Estimate:
    """Parse "est (lo, hi)" or "est" alone (a JSON number is accepted as "est")."""
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise ValueError(f"expected a string like \"0.87 (0.67, 1.13)\", got {raw!r}")
    text = str(raw)
    match = _ESTIMATE_RE.match(text)
    if match is None or (match.group("open") is not None
                         and _BRACKETS[match.group("open")] != match.group("close")):
        raise ValueError(
            f"cannot read {text!r} as an estimate; write \"est (lo, hi)\" such as "
            "\"0.87 (0.67, 1.13)\" (also read: \"0.87 [0.67-1.13]\", \"0.87 (0.67 to 1.13)\"), "
            "or the estimate alone such as \"-0.4\""
        )
    est, lo, hi = match.group("est"), match.group("lo"), match.group("hi")
    normalized = est if lo is None else f"{est} ({lo}, {hi})"
    estimate = Estimate(
        value=parse_number(est),
        ci_low=parse_number(lo) if lo is not None else None,
        ci_high=parse_number(hi) if hi is not None else None,
        text=normalized.replace("\u2212", "-"),
        written=text.strip(),
    )
    low, high = estimate.ci_low, estimate.ci_high
    if low is not None and high is not None and low > high:
        raise ValueError(
            f"interval in {text!r} has its lower bound above its upper bound; "
            "write the interval as (lower, upper)"
        )
    return estimate


PValueOperator = Literal["=", "<", "<=", ">", ">="]


@dataclass(frozen=True)
class PValue:
    """A p-value as reported: exact ("0.28") or bounded ("<0.001")."""

    value: float
    operator: PValueOperator
    text: str

    @property
    def significant(self) -> bool:
        """True when p < 0.05, the summarization prompt's rule."""
        if self.operator in ("<", "<="):
            return self.value <= SIGNIFICANCE_LEVEL
        if self.operator in (">", ">="):
            return False
        return self.value < SIGNIFICANCE_LEVEL

    @property
    def at_most_level(self) -> bool:
        """True when p <= 0.05, the completeness criterion's rule."""
        if self.operator in ("<", "<="):
            return self.value <= SIGNIFICANCE_LEVEL
        if self.operator in (">", ">="):
            return False
        return self.value <= SIGNIFICANCE_LEVEL


def parse_pvalue(raw: object) -> PValue:
    """Parse "0.058", "<0.001", "< 0.0001", "1" or a JSON number."""
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise ValueError(f"expected a p-value such as \"0.058\" or \"<0.001\", got {raw!r}")
    text = str(raw)
    match = _PVALUE_RE.match(text)
    if match is None:
        raise ValueError(
            f"cannot read {text!r} as a p-value; write a number such as \"0.058\" "
            "or a bound such as \"<0.001\""
        )
    value = parse_number(match.group("num"))
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"p-value {text!r} is outside [0, 1]")
    operator: PValueOperator = match.group("op") or "="  # type: ignore[assignment]
    return PValue(value=value, operator=operator, text=text.strip())


@dataclass(frozen=True)
class Count:
    """A descriptive count "k/n" from a case series."""

    events: int
    total: int
    text: str

    @property
    def percent(self) -> float:
        return 100.0 * self.events / self.total if self.total else 0.0


def parse_count(raw: object) -> Count:
    """Parse "k/n" such as "4/13"."""
    text = str(raw)
    match = _COUNT_RE.match(text)
    if match is None or isinstance(raw, bool):
        raise ValueError(f"cannot read {text!r} as a count; write \"k/n\" such as \"4/13\"")
    events, total = int(match.group("k")), int(match.group("n"))
    if events > total:
        raise ValueError(f"count {text!r} has more events than subjects; write \"k/n\" with k <= n")
    return Count(events=events, total=total, text=text.strip())


def parse_percent(raw: object) -> Estimate:
    """Parse a percentage ("30.8" or "30.8%"), optionally with an interval."""
    if isinstance(raw, str) and ("(" in raw or "[" in raw):
        estimate = parse_estimate(raw.replace("%", ""))
        return Estimate(estimate.value, estimate.ci_low, estimate.ci_high, estimate.text,
                        raw.strip())
    text = str(raw)
    match = _PERCENT_RE.match(text)
    if match is None or isinstance(raw, bool):
        raise ValueError(f"cannot read {text!r} as a percentage; write a number such as \"30.8\"")
    number = match.group("num")
    return Estimate(parse_number(number), None, None, number.replace("\u2212", "-"),
                    text.strip())


def parse_size(raw: object) -> int | None:
    """Parse a group size given as an integer, a string ("1,234"), or null / "NA" / "n/a" /
    "" (unknown). "1,23" is refused: a thousands separator takes exactly three digits."""
    if raw is None or (isinstance(raw, str) and raw.strip().lower() in _UNKNOWN_SIZES):
        return None
    if isinstance(raw, bool):
        raise ValueError(f"expected a number of subjects, got {raw!r}")
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    elif isinstance(raw, str) and re.fullmatch(r"\s*\d{1,3}(?:,\d{3})+\s*|\s*\d+\s*", raw):
        value = int(raw.replace(",", "").strip())
    else:
        raise ValueError(
            f"cannot read {raw!r} as a group size; write a whole number such as 1234 "
            "or \"1,234\", or null (or \"NA\") when it is not reported"
        )
    if value < 0:
        raise ValueError(f"group size {raw!r} is negative")
    return value


@dataclass(frozen=True)
class BaselineValues:
    """A baseline characteristic in each group: "control 47.3579 vs intervention 71.2047"."""

    control: float
    intervention: float
    control_text: str
    intervention_text: str
    text: str


def parse_baseline(raw: object) -> BaselineValues:
    """Parse "control X vs intervention Y" (either order)."""
    text = str(raw)
    match = _BASELINE_RE.match(text)
    if (
        match is None
        or not isinstance(raw, str)
        or match.group("first").lower() == match.group("second").lower()
    ):
        raise ValueError(
            f"cannot read {text!r} as a baseline difference; write "
            "\"control 47.36 vs intervention 71.20\""
        )
    a, b = match.group("a"), match.group("b")
    if match.group("first").lower() == "control":
        control_text, intervention_text = a, b
    else:
        control_text, intervention_text = b, a
    return BaselineValues(
        control=parse_number(control_text),
        intervention=parse_number(intervention_text),
        control_text=control_text.replace("\u2212", "-"),
        intervention_text=intervention_text.replace("\u2212", "-"),
        text=text.strip(),
    )
