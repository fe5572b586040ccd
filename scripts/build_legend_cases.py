"""Build cohort study cases from the OHDSI LEGEND-HTN blood-pressure results.

Run ``python scripts/build_legend_cases.py`` from the repository root. It reads the vendored
CSVs in ``cases/sources/legend-htn-bp/`` (OHDSI Legend repository, Documents/bpData, commit
4072097, Apache License 2.0) and writes one JSON study per (comparison, outcome group) into
``cases/studies/``. The output is deterministic: same input, same bytes.

Rules (also in cases/README.md and in each study's ``source.notes``):

* Direction: Balance.csv lists each of the 16 comparisons once; its ``targetName`` is the
  intervention and its ``comparatorName`` the control. HrsData_all.csv holds every
  comparison twice (mirrored); only the rows with the same orientation are used, so a hazard
  ratio above 1 means a higher hazard in the intervention group.
* Variant: ``type == "Original"`` (LEGEND's own propensity model, without blood pressure) and
  ``estimate == "Uncalibrated"``. The "Calibrated" rows of this file carry calibrated hazard
  ratios and intervals next to the *uncalibrated* p-value (the ``p`` column is identical in
  both rows of all 3,648 pairs), so their interval and p-value disagree about p < 0.05 in 478
  of 1,824 "Original" rows; a case must be internally consistent for its summary to be judged.
  "Original" is the primary analysis, and its blood-pressure balance (Balance.csv) shows the
  residual blood-pressure difference that the summary should mention.
* Rows skipped: an NA estimate, interval or p-value; an interval and p-value that disagree
  about p < 0.05; a p-value that 3-decimal rounding would move across 0.05.
* Outcome groups: the 57 outcomes are split into 9 fixed thematic groups (``GROUPS``). Per
  comparison i (Balance.csv order) the script writes (a) the first group, in ``GROUPS`` order,
  whose usable outcomes mix p < 0.05 and p >= 0.05; (b) a second mixed group, searching the
  eight non-cardiovascular groups starting at group 1 + (i mod 8) and wrapping; (c) the first
  group, in ``GROUPS`` order, in which no usable outcome has p < 0.05, if there is one. A group
  qualifies only with 4 to 10 usable outcomes.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT / "cases" / "sources" / "legend-htn-bp"
DEFAULT_OUT = ROOT / "cases" / "studies"
BUILT_BY = "scripts/build_legend_cases.py"
COMMIT = "40720974127d0d9ce3eedac0ffa4f7b93232a1bc"
TYPE = "Original"
ESTIMATE = "Uncalibrated"
ALPHA = 0.05

# Balance.csv name -> (id slug, phrase used in the question).
EXPOSURES: dict[str, tuple[str, str]] = {
    "Hydrochlorothiazide": ("hydrochlorothiazide", "hydrochlorothiazide"),
    "Chlorthalidone": ("chlorthalidone", "chlorthalidone"),
    "ACE inhibitors": ("ace_inhibitors", "an ACE inhibitor"),
    "Angiotensin receptor blockers (ARBs)": ("arbs", "an angiotensin receptor blocker (ARB)"),
    "Beta blockers - cardioselective": ("beta_blockers", "a cardioselective beta blocker"),
    "Dihydropyridine calcium channel blockers (dCCB)": (
        "dihydropyridine_ccbs", "a dihydropyridine calcium channel blocker (dCCB)"),
    "Non-dihydropyridine calcium channel blockers (ndCCB)": (
        "non_dihydropyridine_ccbs", "a non-dihydropyridine calcium channel blocker (ndCCB)"),
    "Thiazide or thiazide-like diuretics": (
        "thiazide_diuretics", "a thiazide or thiazide-like diuretic"),
}


@dataclass(frozen=True)
class Group:
    """A fixed thematic set of LEGEND outcomes; ``slug`` ends the study id."""

    slug: str
    phrase: str
    outcomes: tuple[str, ...]


GROUPS: tuple[Group, ...] = (
    Group("cardiovascular", "major cardiovascular events and death", (
        "Acute myocardial infarction", "Hospitalization with heart failure", "Stroke",
        "Ischemic stroke", "Hemorrhagic stroke", "Transient ischemic attack",
        "Sudden cardiac death", "Cardiovascular-related mortality", "All-cause mortality")),
    Group("cardiac", "other cardiac and vascular conditions", (
        "Heart failure", "Coronary heart disease", "Cardiovascular disease",
        "Chest pain or angina", "Hospitalization with preinfarction syndrome",
        "Cardiac arrhythmia", "Bradycardia", "Venous thromboembolic events")),
    Group("metabolic", "metabolic and electrolyte disorders", (
        "Hypokalemia", "Hyperkalemia", "Hyponatremia", "Hypomagnesemia", "Gout",
        "Type 2 diabetes mellitus", "Abnormal weight gain", "Abnormal weight loss")),
    Group("kidney_liver", "kidney, liver and muscle injury", (
        "Acute renal failure", "Chronic kidney disease", "Kidney disease",
        "End stage renal disease", "Hepatic failure", "Rhabdomyolysis")),
    Group("gastrointestinal", "gastrointestinal adverse events", (
        "Abdominal pain", "Diarrhea", "Nausea", "Vomiting", "Gastrointestinal bleeding",
        "Acute pancreatitis")),
    Group("hypotension_falls", "hypotension, syncope, falls and vertigo", (
        "Hypotension", "Syncope", "Fall", "Vertigo")),
    Group("neuropsychiatric", "neuropsychiatric and sexual side effects", (
        "Anxiety", "Depression", "Dementia", "Headache", "Decreased libido", "Impotence")),
    Group("hypersensitivity", "hypersensitivity reactions, cough and edema", (
        "Angioedema", "Anaphylactoid reaction", "Rash", "Cough", "Vasculitis", "Edema")),
    Group("blood_cancer", "blood disorders and cancer", (
        "Anemia", "Neutropenia or agranulocytosis", "Thrombocytopenia", "Malignant neoplasm")),
)

VARIANT_NOTE = (
    "Rows: analysisId 1 (labelled 'Stratification, on-treatment' in the Legend repository's "
    "extras/AdjustForBloodPressure.R), type 'Original' (propensity model without blood "
    "pressure), estimate 'Uncalibrated'. The 'Calibrated' rows pair calibrated intervals with "
    "the uncalibrated p-value, so their interval and p-value can disagree; the uncalibrated rows "
    "are internally consistent."
)


@dataclass(frozen=True)
class Comparison:
    """One Balance.csv comparison: target = intervention, comparator = control."""

    index: int
    target_id: str
    target_name: str
    comparator_id: str
    comparator_name: str
    bp: dict[str, tuple[float, float]]  # covariateName -> (target mean, comparator mean)
    target_with_bp: str
    comparator_with_bp: str


@dataclass(frozen=True)
class Row:
    """One usable HrsData_all.csv row, already checked for consistency."""

    outcome_id: str
    name: str
    hr: float
    lo: float
    hi: float
    p: float
    target: int
    comparator: int


def read_csv(path: Path) -> list[dict[str, str]]:
    """Read a CSV file into dicts (the quoted fields may hold newlines)."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def read_comparisons(path: Path) -> list[Comparison]:
    """Comparisons in Balance.csv order, each with its after-stratification BP means."""
    order: list[tuple[str, str]] = []
    by_key: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in read_csv(path):
        key = (row["targetId"], row["comparatorId"])
        if key not in by_key:
            order.append(key)
        by_key.setdefault(key, []).append(row)
    comparisons = []
    for index, key in enumerate(order):
        rows = by_key[key]
        first = rows[0]
        comparisons.append(Comparison(
            index=index, target_id=key[0], target_name=first["targetName"],
            comparator_id=key[1], comparator_name=first["comparatorName"],
            bp={r["covariateName"]: (float(r["afterMatchingMeanTarget"]),
                                     float(r["afterMatchingMeanComparator"])) for r in rows},
            target_with_bp=first["targetSubjectsWithBp"],
            comparator_with_bp=first["comparatorSubjectsWithBp"],
        ))
    return comparisons


def format_ratio(value: float) -> str:
    return f"{value:.2f}"


def format_p(p: float) -> str:
    """"<0.001" below 0.001, else three decimals ("0.034")."""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def skip_reason(raw: dict[str, str]) -> str | None:
    """Why a row cannot be used as it stands, or None when it can."""
    if "NA" in (raw["rr"], raw["ci95lb"], raw["ci95ub"], raw["p"]):
        return "NA estimate"
    lo, hi, p = float(raw["ci95lb"]), float(raw["ci95ub"]), float(raw["p"])
    if (lo > 1.0 or hi < 1.0) != (p < ALPHA):
        return f"95% CI and p = {p:.4f} disagree about significance"
    if p >= 0.001 and (float(format_p(p)) < ALPHA) != (p < ALPHA):
        return f"p = {p:.4f} would round across 0.05"
    return None


Pair = tuple[str, str]  # (targetId, comparatorId)


def read_rows(path: Path, comparisons: Sequence[Comparison]
              ) -> tuple[dict[Pair, dict[str, Row]], dict[Pair, dict[str, str]]]:
    """Usable rows of the chosen variant and direction, and the reasons others were skipped."""
    keys = {(c.target_id, c.comparator_id) for c in comparisons}
    usable: dict[Pair, dict[str, Row]] = {k: {} for k in keys}
    skipped: dict[Pair, dict[str, str]] = {k: {} for k in keys}
    for raw in read_csv(path):
        key = (raw["targetId"], raw["comparatorId"])
        if key not in keys or raw["type"] != TYPE or raw["estimate"] != ESTIMATE:
            continue
        name = raw["outcomeName"].strip()
        if name in usable[key] or name in skipped[key]:
            raise ValueError(f"{path}: outcome {name!r} appears twice for {key}")
        reason = skip_reason(raw)
        if reason is not None:
            skipped[key][name] = reason
            continue
        usable[key][name] = Row(
            outcome_id=raw["outcomeId"], name=name, hr=float(raw["rr"]),
            lo=float(raw["ci95lb"]), hi=float(raw["ci95ub"]), p=float(raw["p"]),
            target=int(raw["target"]), comparator=int(raw["comparator"]),
        )
    return usable, skipped


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def group_rows(group: Group, rows: dict[str, Row]) -> list[Row]:
    return [rows[name] for name in group.outcomes if name in rows]


def kind(rows: Sequence[Row]) -> str | None:
    """"mixed", "all_non_significant", or None when the group cannot be a study."""
    if not 4 <= len(rows) <= 10:
        return None
    significant = sum(r.p < ALPHA for r in rows)
    if significant == 0:
        return "all_non_significant"
    return "mixed" if significant < len(rows) else None


def choose_groups(index: int, rows: dict[str, Row]) -> list[tuple[Group, str]]:
    """The (group, kind) pairs of one comparison, by the rule in the module docstring."""
    kinds = [kind(group_rows(g, rows)) for g in GROUPS]
    chosen: list[int] = []
    first = next((i for i, k in enumerate(kinds) if k == "mixed"), None)
    if first is not None:
        chosen.append(first)
    others = len(GROUPS) - 1
    for step in range(others):
        candidate = 1 + (index + step) % others
        if kinds[candidate] == "mixed" and candidate not in chosen:
            chosen.append(candidate)
            break
    negative = next((i for i, k in enumerate(kinds) if k == "all_non_significant"), None)
    if negative is not None:
        chosen.append(negative)
    return [(GROUPS[i], str(kinds[i])) for i in chosen]


def build_study(comparison: Comparison, group: Group, selection: str, rows: Sequence[Row],
                all_rows: dict[str, Row], skipped: dict[str, str]) -> dict[str, Any]:
    """One study in the format of docs/study-format.md, every number taken from the source rows."""
    intervention, control = comparison.target_name, comparison.comparator_name
    i_slug, i_phrase = EXPOSURES[intervention]
    c_slug, c_phrase = EXPOSURES[control]
    outcomes: dict[str, str] = {}
    for row in rows:
        stem = f"outcome.{slug(row.name)}_bin"
        outcomes[f"{stem}!HR"] = (
            f"{format_ratio(row.hr)} ({format_ratio(row.lo)}, {format_ratio(row.hi)})")
        outcomes[f"{stem}!pvalue"] = format_p(row.p)
    # Sizes at risk differ by outcome (prior events are excluded); report the largest.
    intervention_size = max(r.target for r in all_rows.values())
    control_size = max(r.comparator for r in all_rows.values())
    sys_t, sys_c = comparison.bp["BP systolic"]
    dia_t, dia_c = comparison.bp["BP diastolic"]
    group_skips = [f"{name} ({skipped[name]})" for name in group.outcomes if name in skipped]
    notes = [
        f"Direction: Balance.csv lists {intervention} as target, so it is the intervention; "
        "HR > 1 means a higher hazard with the intervention.",
        VARIANT_NOTE,
        f"Outcome group '{group.slug}' ({selection.replace('_', ' ')}): the usable outcomes of "
        "a fixed thematic group; rows are skipped when an estimate is NA, when the interval and "
        "p-value disagree about p < 0.05, or when rounding p to 3 decimals would cross 0.05.",
        "Skipped here: " + ("; ".join(group_skips) if group_skips else "none") + ".",
        "Sizes: the largest per-outcome numbers at risk of this comparison (HrsData_all.csv "
        "target/comparator columns; they vary by outcome because subjects with the outcome "
        f"before treatment are excluded); for this study's outcomes they range "
        f"{min(r.target for r in rows)}-{max(r.target for r in rows)} (intervention) and "
        f"{min(r.comparator for r in rows)}-{max(r.comparator for r in rows)} (control).",
        "Baseline: mean blood pressure (mmHg) after propensity-score stratification "
        "(Balance.csv afterMatchingMean*), among the "
        f"{comparison.target_with_bp} intervention and {comparison.comparator_with_bp} "
        "control subjects with a blood-pressure measurement.",
        "Numbers rounded for display: hazard ratios and intervals to 2 decimals, p-values to 3 "
        "decimals (<0.001 below that), blood pressure to 1 decimal.",
    ]
    names = ", ".join(r.name.lower() if r.name[1:].islower() else r.name for r in rows)
    return {
        "id": f"legend_htn_{i_slug}_vs_{c_slug}_{group.slug}",
        "design": "cohort",
        "question": (
            "Among patients with hypertension starting first-line antihypertensive treatment, "
            f"is starting {i_phrase} rather than {c_phrase} associated with a different risk "
            f"of {group.phrase}?"),
        "picot": {
            "population": (
                "Patients with hypertension newly starting a first-line antihypertensive drug "
                "(new users) in the Optum PanTher US electronic health record database (OHDSI "
                "LEGEND-HTN); groups balanced by large-scale propensity-score stratification"),
            "intervention": intervention,
            "control": control,
            "outcome": (
                f"Hazard ratios (Cox models after propensity-score stratification) for "
                f"{group.phrase}: {names}"),
            "timeframe": (
                "On-treatment time at risk from the start of treatment (follow-up ends when the "
                "treatment stops); calendar period not stated in the source files (results "
                "posted to the OHDSI Legend repository in February 2019)"),
        },
        "results": {
            "intervention_size": intervention_size,
            "control_size": control_size,
            "baseline_differences": {
                "systolic_bp_mmhg": f"control {sys_c:.1f} vs intervention {sys_t:.1f}",
                "diastolic_bp_mmhg": f"control {dia_c:.1f} vs intervention {dia_t:.1f}",
            },
            "outcomes": outcomes,
        },
        "source": {
            "title": "LEGEND-HTN blood-pressure sensitivity analysis results (Optum PanTher)",
            "publisher": "OHDSI (Observational Health Data Sciences and Informatics)",
            "repository": "https://github.com/OHDSI/Legend",
            "files": ["Documents/bpData/HrsData_all.csv", "Documents/bpData/Balance.csv"],
            "commit": COMMIT,
            "license": "Apache License 2.0",
            "therapeutic_area": "cardiology",
            "rows": {
                "analysisId": 1,
                "targetId": int(comparison.target_id),
                "comparatorId": int(comparison.comparator_id),
                "type": TYPE,
                "estimate": ESTIMATE,
                "outcomeIds": [int(r.outcome_id) for r in rows],
            },
            "outcome_group": group.slug,
            "selection": selection,
            "built_by": BUILT_BY,
            "notes": " ".join(notes),
            "verified": {
                "by": "tests/test_case_suite.py",
                "checked": "every size, baseline difference, hazard ratio, interval and p-value",
                "against": ["cases/sources/legend-htn-bp/HrsData_all.csv",
                            "cases/sources/legend-htn-bp/Balance.csv"],
                "how": ("each test run rebuilds this file from the vendored CSV rows named in "
                        "'rows' and fails on any byte of difference; directions are checked "
                        "against known pharmacology"),
            },
        },
    }


def build_all(source: Path) -> list[dict[str, Any]]:
    """Every study, in a fixed order."""
    comparisons = read_comparisons(source / "Balance.csv")
    usable, skipped = read_rows(source / "HrsData_all.csv", comparisons)
    studies = []
    for comparison in comparisons:
        key = (comparison.target_id, comparison.comparator_id)
        for group, selection in choose_groups(comparison.index, usable[key]):
            rows = group_rows(group, usable[key])
            studies.append(build_study(comparison, group, selection, rows, usable[key],
                                       skipped[key]))
    return studies


def render(study: dict[str, Any]) -> str:
    return json.dumps(study, indent=2, ensure_ascii=False) + "\n"


def is_built(path: Path) -> bool:
    """True for a study file this script wrote (so a rebuild may replace or remove it)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    source = data.get("source") if isinstance(data, dict) else None
    return isinstance(source, dict) and source.get("built_by") == BUILT_BY


def write_all(studies: Iterable[dict[str, Any]], out: Path) -> list[Path]:
    """Write the studies and remove stale files of earlier builds; return the written paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for study in studies:
        path = out / f"{study['id']}.json"
        path.write_text(render(study), encoding="utf-8", newline="\n")
        written.append(path)
    for path in sorted(out.glob("*.json")):
        if path not in written and is_built(path):
            path.unlink()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE,
                        help="folder with HrsData_all.csv and Balance.csv")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the studies")
    args = parser.parse_args(argv)
    written = write_all(build_all(args.source), args.out)
    print(f"wrote {len(written)} studies to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
