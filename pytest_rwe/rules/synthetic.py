"""Random valid studies and by-construction broken summaries, for testing summarizers and jurors.

``random_study(rng)`` draws any design with any mix of the value forms the study format allows
(HR/OR/RR/MD, with or without interval, p-values exact or "<0.001" or absent, sizes as
strings, integers or null, case-series counts and percentages). The mutations break one
criterion of a correct summary on purpose, so a juror can be tested against a known answer.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from pytest_rwe.study import Study, parse_study

OUTCOME_NAMES = (
    "acute myocardial infarction", "heart failure", "hospitalization with heart failure",
    "stroke", "ischemic stroke", "hemorrhagic stroke", "sudden cardiac death",
    "all cause mortality", "cardiovascular related mortality", "hypokalemia", "hyperkalemia",
    "hyponatremia", "gout", "type 2 diabetes mellitus", "abnormal weight gain", "angioedema",
    "cough", "syncope", "fall", "hip fracture", "acute renal failure", "chronic kidney disease",
    "ip visit for asthma", "ed visit for asthma", "pneumonia", "depression", "dementia",
    "gastrointestinal bleeding", "venous thromboembolic events", "hba1c below 7",
    "severe hypoglycemia", "pancreatic cancer", "acute pancreatitis flare", "sepsis",
    "readmission", "length of stay", "fev1", "systolic blood pressure", "body weight",
)
GROUPS = (("Drug A", "Drug B"), ("Chlorthalidone", "Hydrochlorothiazide"),
          ("ACE inhibitors", "Angiotensin receptor blockers (ARBs)"),
          ("Cannabis use disorder (CUD)", "No cannabis use disorder"),
          ("Shift work", "Daytime work"), ("Dihydropyridine CCBs", "Non-dihydropyridine CCBs"),
          ("Early statin initiation", "Delayed statin initiation"))
BASELINE_NAMES = ("age_mean_years", "female_pct", "systolic_bp_mmhg", "charlson_index_mean",
                  "diabetes_pct", "bmi_mean")
TIMEPOINTS = (None, None, "3yrs", "12mo", "6mo", "1yr", "30d")


def _fmt(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def _estimate(rng: random.Random, ratio: bool) -> tuple[str, float]:
    decimals = rng.choice((1, 2, 2, 3))
    if ratio:
        value = round(rng.choice((rng.uniform(0.2, 0.97), rng.uniform(1.03, 4.0))), decimals)
        if value == 1.0:
            value = 1.0 + 10 ** -decimals
        low = round(value * rng.uniform(0.6, 0.95), decimals)
        high = round(value * rng.uniform(1.05, 1.6), decimals)
    else:
        value = round(rng.choice((-1, 1)) * rng.uniform(0.1, 12), decimals) or 0.5
        width = abs(value) * rng.uniform(0.2, 1.5) + 10 ** -decimals
        low, high = round(value - width, decimals), round(value + width, decimals)
    text = _fmt(value, decimals)
    if rng.random() < 0.75:
        text += f" ({_fmt(low, decimals)}, {_fmt(high, decimals)})"
    return text, value


def _pvalue(rng: random.Random) -> str | None:
    roll = rng.random()
    if roll < 0.15:
        return None
    if roll < 0.35:
        return "<0.001"
    return rng.choice(("0.003", "0.01", "0.02", "0.04", "0.049", "0.058", "0.12", "0.28",
                       "0.4", "0.61", "0.9", "1"))


def random_raw(rng: random.Random, index: int = 0) -> dict[str, object]:
    """A random valid study in the on-disk format."""
    design = rng.choice(("cohort", "cohort", "cross_sectional", "case_series"))
    intervention, control = rng.choice(GROUPS)
    names = rng.sample(OUTCOME_NAMES, rng.randint(1, 7))
    outcomes: dict[str, str] = {}
    for name in names:
        timepoint = rng.choice(TIMEPOINTS)
        prefix = f"outcome_{timepoint}" if timepoint else "outcome"
        sep = rng.choice(("_", "."))
        if design == "case_series" and rng.random() < 0.4:
            stem = f"{prefix}.{name.replace(' ', sep)}_bin"
            total = rng.randint(5, 400)
            if rng.random() < 0.5:
                outcomes[stem + "!N"] = f"{rng.randint(0, total)}/{total}"
            else:
                outcomes[stem + "!PCT"] = _fmt(rng.uniform(0, 100), 1)
            continue
        measure = "MD" if design == "case_series" else rng.choice(("HR", "OR", "RR", "MD"))
        kind = "cont" if measure == "MD" else "bin"
        stem = f"{prefix}.{name.replace(' ', sep)}_{kind}"
        outcomes[stem + f"!{measure}"] = _estimate(rng, measure != "MD")[0]
        p = _pvalue(rng)
        if p is not None:
            outcomes[stem + "!pvalue"] = p
    size_i: object = rng.randint(12, 900_000)
    size_c: object = None if design == "case_series" else rng.randint(12, 900_000)
    if rng.random() < 0.2:
        size_i = str(size_i)
    if rng.random() < 0.1 and design != "case_series":
        size_c = None
    baseline: dict[str, str] = {}
    if design != "case_series":
        for name in rng.sample(BASELINE_NAMES, rng.randint(0, 3)):
            decimals = rng.choice((0, 1, 2, 4))
            a, b = rng.uniform(5, 90), rng.uniform(5, 90)
            baseline[name] = f"control {_fmt(a, decimals)} vs intervention {_fmt(b, decimals)}"
    return {
        "id": f"random_{index}",
        "design": design,
        "question": f"Is {intervention.lower()} associated with {', '.join(names)}?",
        "picot": {
            "population": rng.choice(("Adults in a claims database; propensity-score matched",
                                      "Adults aged 18-44 years in 2017-2018",
                                      "Patients in 25 hospitals")),
            "intervention": intervention,
            "control": "Same patients before" if design == "case_series" else control,
            "outcome": ", ".join(names),
            "timeframe": rng.choice(("3 years", "2001 through 2018", "12 months before and after")),
        },
        "results": {"intervention_size": size_i, "control_size": size_c,
                    "baseline_differences": baseline, "outcomes": outcomes},
    }


def random_study(rng: random.Random, index: int = 0) -> Study:
    """A random valid, parsed study."""
    return parse_study(random_raw(rng, index), f"<random {index}>")


@dataclass(frozen=True)
class Mutation:
    """A broken summary and the criterion it breaks."""

    text: str
    criterion: str
    what: str


_DIRECTION_SWAPS = {"higher": "lower", "lower": "higher", "increase": "decrease",
                    "decrease": "increase"}


def flip_direction(study: Study, summary: str) -> Mutation | None:
    """Swap the first significant direction word ("higher" <-> "lower")."""
    match = re.search(r"\bsignificant(?:ly)? (higher|lower|increase|decrease)\b", summary)
    if match is None:
        return None
    word = match.group(1)
    text = summary[:match.start(1)] + _DIRECTION_SWAPS[word] + summary[match.end(1):]
    return Mutation(text, "direction_of_effect", f"{word} -> {_DIRECTION_SWAPS[word]}")


def change_number(study: Study, summary: str, rng: random.Random) -> Mutation | None:
    """Change one estimate beyond rounding (its first digit after the point, or its units)."""
    candidates = list(re.finditer(r"(?<=\b(?:HR|OR|RR) )\d+\.\d+|(?<=difference )-?\d+\.\d+",
                                  summary))
    if not candidates:
        return None
    match = rng.choice(candidates)
    old = match.group(0)
    value = float(old)
    decimals = len(old.split(".")[1])
    new = f"{value + (0.3 if value < 2 else 1.7):.{decimals}f}"
    return Mutation(summary[:match.start()] + new + summary[match.end():], "numbers_accurate",
                    f"{old} -> {new}")


def swap_sizes(study: Study, summary: str) -> Mutation | None:
    """Swap the two group sizes where they are written."""
    a, b = study.intervention_size, study.control_size
    if a is None or b is None or a == b:
        return None
    sa, sb = f"n = {a:,}", f"n = {b:,}"
    if sa not in summary or sb not in summary:
        return None
    text = summary.replace(sa, "\0").replace(sb, sa).replace("\0", sb)
    return Mutation(text, "numbers_accurate", f"{a} <-> {b}")


def drop_significant(study: Study, summary: str) -> Mutation | None:
    """Remove every significant-outcome phrase of the first outcome with p <= 0.05."""
    for outcome in study.outcomes:
        if not outcome.must_report or not outcome.significant or outcome.effect is None:
            continue
        pattern = re.compile(r"(?:,? and |, )?(?:a )?significant(?:ly)? [^()]*?" +
                             re.escape(outcome.name) + r"[^()]*\([^)]*\)")
        match = pattern.search(summary)
        if match is None:
            continue
        text = summary[:match.start()] + summary[match.end():]
        text = re.sub(r"was associated with\s*(?:and\s*)?\.", "showed no other result.", text)
        text = text.replace("with , ", "with ").replace("with and ", "with ")
        return Mutation(text, "completeness", f"dropped {outcome.name}")
    return None
