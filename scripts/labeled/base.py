"""Study values as summary text, and this script's own correct one-sentence-per-outcome summary.

Used by scripts/build_labeled_set.py; see cases/golden/labeled/README.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from pytest_rwe import summarize
from pytest_rwe.study import Outcome, Study

CRITERIA = ("direction_of_effect", "numbers_accurate", "completeness")
FLIP = {"higher": "lower", "lower": "higher", "increase": "decrease", "decrease": "increase"}
DIRECTION_RE = re.compile(r"\b(higher|lower|increase|decrease)\b")

_NUM = r"\d+(?:\.\d+)?"
_NAME_OVERRIDES = {
    "outcome.history_of_mi_bin": "a history of MI",
    "outcome.history_of_mi.use_more_than_4_times_per_month_bin":
        "a history of MI among those using cannabis more than 4 times per month",
    "outcome.history_of_mi.smoking_as_primary_method_bin":
        "a history of MI among those smoking cannabis as the primary method",
    "outcome.death_any_cause_bin": "death from any cause",
    "outcome.in_hospital_death_bin": "in-hospital death",
    "outcome_12mo.hba1c_mean_cont": "mean HbA1c",
    "outcome_12mo.hba1c_below_7_pctpoints": "percentage of patients with HbA1c below 7%",
    "outcome_12mo.hba1c_below_8_pctpoints": "percentage of patients with HbA1c below 8%",
    "outcome_12mo.hba1c_above_9_pctpoints": "percentage of patients with HbA1c above 9%",
    "outcome_12mo.severe_hypoglycemia_pctpoints": "percentage of patients with severe hypoglycemia",
}
_BASELINE_NAMES = {
    "systolic_bp_mmhg": "mean systolic blood pressure (mmHg)",
    "diastolic_bp_mmhg": "mean diastolic blood pressure (mmHg)",
    "age_median_years": "median age (years)",
    "age_mean_years": "mean age (years)",
    "female_pct": "the percentage of women",
    "black_pct": "the percentage of Black patients",
    "hba1c_mean_pct_prebaseline": "pre-baseline mean HbA1c (%)",
    "hba1c_below_7_pct_of_patients_prebaseline":
        "the pre-baseline percentage of patients with HbA1c below 7%",
}
_WORDS = {"hba1c": "HbA1c", "mi": "MI"}
_UNITS = {"mo": "months", "m": "months", "yrs": "years", "yr": "years", "y": "years",
          "wk": "weeks", "w": "weeks", "d": "days"}

# ---------------------------------------------------------------- study values as text

def numbers_of(text: str) -> list[str]:
    """The numbers written in an estimate string, in order: ["1.15", "1.03", "1.30"]."""
    return re.findall(r"[-\u2212]?" + _NUM, text)


def outcome_numbers(o: Outcome) -> list[str]:
    """Estimate, interval bounds and p-value number of an outcome, as written in the study."""
    found = numbers_of(o.effect.text) if o.effect is not None else []
    return found + (numbers_of(o.p.text) if o.p is not None else [])


def number_re(num: str) -> str:
    """A pattern matching the number ``num`` as a whole token (not inside a longer number)."""
    body = re.escape(num.lstrip("-\u2212"))
    sign = "[-\u2212]" if num[:1] in "-\u2212" else ""
    return rf"(?<![\w.]){sign}{body}(?![\d]|\.\d)"


def prompt_numbers(study: Study) -> set[float]:
    """Every number the summarization prompt shows for the study (question, design, results)."""
    blob = json.dumps([study.question, dict(study.picot), study.raw.get("results")])
    return {float(n) for n in re.findall(_NUM, blob)}


def display_name(o: Outcome) -> str:
    name = _NAME_OVERRIDES.get(o.key) or " ".join(_WORDS.get(w, w) for w in o.name.split())
    return name + timepoint_phrase(o.timepoint)


def p_text(o: Outcome) -> str:
    """'p = 0.28' or 'p <0.001', for notes."""
    if o.p is None:
        return "no p-value"
    return f"p {o.p.text}" if o.p.text[:1] in "<>" else f"p = {o.p.text}"


def timepoint_phrase(tp: str | None) -> str:
    match = re.fullmatch(r"(\d+)([a-z]+)", tp or "")
    if match is None or match.group(2) not in _UNITS:
        return ""
    return f" at {match.group(1)} {_UNITS[match.group(2)]}"


def group_name(name: str) -> str:
    """'Beta blockers - cardioselective' -> 'cardioselective beta blockers'."""
    low = name[0].lower() + name[1:] if name[1:2].islower() else name
    if " - " in low:
        head, tail = low.split(" - ", 1)
        return f"{tail} {head}"
    return low


# ---------------------------------------------------------------- the base summary

def _interval(o: Outcome) -> str:
    assert o.effect is not None
    nums = numbers_of(o.effect.text)
    if len(nums) < 3:
        return ""
    sep = " to " if any(n.startswith("-") for n in nums[1:]) else "-"
    return f", 95% CI {nums[1]}{sep}{nums[2]}"


def numbers_clause(study: Study, o: Outcome) -> str:
    assert o.effect is not None and o.effect_measure is not None
    est = numbers_of(o.effect.text)[0]
    if o.effect_measure.is_ratio:
        head = f"{o.effect_measure.value} {est}"
    elif o.kind == "pctpoints":
        head = f"difference {est} percentage points"
    else:
        head = f"mean {'change' if study.design == 'case_series' else 'difference'} {est}"
    p = f", p {o.p.operator} {numbers_of(o.p.text)[0]}" if o.p is not None else ""
    return f"({head}{_interval(o)}{p})"


_LONG = {"HR": "hazard ratio", "OR": "odds ratio", "RR": "risk ratio", "MD": "mean difference"}


def effect_claim(study: Study, o: Outcome, direction: str, significant: bool) -> str:
    """The words of a sentence that claims a (significant) difference in ``direction``."""
    assert o.effect_measure is not None
    sig = "significant " if significant else ""
    if study.design == "case_series":
        change = "increase" if direction == "higher" else "decrease"
        return f"{cap(display_name(o))} showed a {sig}{change} from baseline"
    who = "Participants" if study.design == "cross_sectional" else "Patients"
    who += f" in the {group_name(study.picot['intervention'])} group had"
    adverb = "significantly " if significant else ""
    if o.effect_measure.value == "OR":
        return f"{who} {adverb}{direction} odds of {display_name(o)}"
    if o.effect_measure.is_ratio:
        return f"{who} a {adverb}{direction} risk of {display_name(o)}"
    return f"{who} a {adverb}{direction} {display_name(o)}"


def outcome_sentence(study: Study, o: Outcome) -> str | None:
    """One sentence reporting an outcome correctly, or None when it has no effect estimate."""
    if o.effect is None or o.effect_measure is None or o.direction is None:
        return None
    name, nums = display_name(o), numbers_clause(study, o)
    if o.significant is False:
        if study.design == "case_series":
            return f"There was no significant change in {name} {nums}."
        word = "odds" if o.effect_measure.value == "OR" else "risk"
        what = f"the {word} of {name}" if o.effect_measure.is_ratio else f"the {name}"
        return f"There was no significant difference in {what} {nums}."
    null = 1.0 if o.effect_measure.is_ratio else 0.0
    e = o.effect
    crosses = e.ci_low is not None and e.ci_high is not None and e.ci_low <= null <= e.ci_high
    if o.direction == "none" or (o.significant is None and crosses):
        # Without a p-value and with an interval across the null, state the numbers only.
        est = numbers_of(o.effect.text)[0]
        return f"For {name}, the {_LONG[o.effect_measure.value]} was {est}{_interval(o)}."
    return f"{effect_claim(study, o, o.direction, bool(o.significant))} {nums}."


def cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _ps_phrase(study: Study) -> str:
    text = study.picot.get("population", "").lower()
    if "propensity" not in text:
        return ""
    for key, phrase in (("matched", "matching"), ("overlap weighting", "overlap weighting"),
                        ("weight", "weighting"), ("stratification", "stratification"),
                        ("adjusted", "adjustment")):
        if key in text:
            return f" Results are after propensity-score {phrase}."
    return ""


def script_summary(study: Study) -> str:
    """A plain, correct summary of every outcome, one sentence each."""
    inter = group_name(study.picot["intervention"])
    parts: list[str] = []
    if study.design == "case_series":
        parts.append(f"This case series followed {study.intervention_size:,} patients before and "
                     f"after the intervention ({inter}).")
    else:
        control = group_name(study.picot.get("control", "control"))
        kind = "cohort study" if study.design == "cohort" else "cross-sectional study"
        parts.append(f"This {kind} compared {study.intervention_size:,} participants in the "
                     f"{inter} group with {study.control_size:,} in the {control} group.")
        for key, values in study.baseline.items():
            label = _BASELINE_NAMES.get(key) or (
                f"the percentage with {key.removesuffix('_pct').replace('_', ' ')}"
                if key.endswith("_pct") else key.replace("_", " "))
            parts.append(f"At baseline, {label} was {values.intervention_text} in the {inter} "
                         f"group and {values.control_text} in the {control} group.")
        if ps := _ps_phrase(study):
            parts.append(ps.strip())
    parts += [s for o in study.outcomes if (s := outcome_sentence(study, o)) is not None]
    return " ".join(parts)


# Two correct base styles: the builtin template summarizer (outcomes grouped in lists) and
# this script's one-sentence-per-outcome summaries; every mutation works on both.
BASES: dict[str, Callable[[Study], str]] = {"template": summarize, "script": script_summary}
BASE_NAMES = {"template": "pytest_rwe.summarizer.summarize",
              "script": "scripts/labeled/base.py script_summary"}
