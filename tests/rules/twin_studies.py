"""One-outcome studies for the construction tests of tests/rules: the same invented outcome
and groups with an effect one way or the other (the twins of the doctors' set, in small)."""

from __future__ import annotations

from typing import Any

from pytest_rwe.rules import judge
from pytest_rwe.study import Study, parse_study


def one_outcome(name: str, md: str, p: str = "0.001", *, intervention: str = "drug A",
                control: str = "placebo") -> Study:
    """A cohort with one continuous outcome ``name``: mean difference ``md``, p-value ``p``."""
    key = f"outcome.{name.replace(' ', '.')}_cont"
    raw: dict[str, Any] = {
        "id": "twins", "design": "cohort", "question": "How does drug A compare?",
        "picot": {"population": "Adults", "intervention": intervention, "control": control,
                  "outcome": name, "timeframe": "12 weeks"},
        "results": {"intervention_size": 40, "control_size": 40, "baseline_differences": {},
                    "outcomes": {f"{key}!MD": md, f"{key}!pvalue": p}}}
    return parse_study(raw)


def twins(name: str, text: str, direction: str, **groups: str) -> tuple[int, int]:
    """The direction_of_effect score of ``text`` for the study that agrees with ``direction``
    ("lower" or "higher", the intervention against the control) and the one that
    contradicts it."""
    agree, contradict = ("-4.1 (-6.0, -2.2)", "4.1 (2.2, 6.0)") if direction == "lower" else (
        "4.1 (2.2, 6.0)", "-4.1 (-6.0, -2.2)")
    return (judge(one_outcome(name, agree, **groups), text, "direction_of_effect").score,
            judge(one_outcome(name, contradict, **groups), text, "direction_of_effect").score)


def binary_study(*outcomes: tuple[str, str, str, str | None], intervention: str = "drug A",
                 control: str = "placebo", study_id: str = "binary") -> Study:
    """A cohort study of (name, measure, estimate, p) binary outcomes."""
    results: dict[str, str] = {}
    for name, measure, estimate, p in outcomes:
        key = f"outcome.{name.replace(' ', '_')}_bin"
        results[f"{key}!{measure}"] = estimate
        if p is not None:
            results[f"{key}!pvalue"] = p
    raw: dict[str, Any] = {
        "id": study_id, "design": "cohort", "question": "How does drug A compare?",
        "picot": {"population": "Adults", "intervention": intervention, "control": control,
                  "outcome": ", ".join(o[0] for o in outcomes), "timeframe": "1 year"},
        "results": {"intervention_size": 400, "control_size": 400, "baseline_differences": {},
                    "outcomes": results}}
    return parse_study(raw)
