"""The ``variants`` section: prompt variants of the same model compared (pure).

In a variant run every (model, variant) is its own entry of the report (``model+variant``,
its "arm"); its records carry ``variant`` (the name) and ``variant_of`` (the model). Every
other variant of a model is compared with the model's *reference* variant (the first one
of the run) per criterion, on the weighted quality score and on inference time, by
:func:`pytest_rwe.stats.variants.compare_variants`.

Builtin models read the study, not the prompt (``builtin/template`` writes the same summary
whatever the templates say, ``builtin/rules`` judges the same way): their variants cannot
differ, and the section says so rather than let "not resolved" read as evidence.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe import escape
from pytest_rwe.report.config import ReportSettings
from pytest_rwe.stats.pairwise import WEIGHTED_SCORE
from pytest_rwe.stats.variants import (
    NOT_RESOLVED,
    REAL,
    VARIANT_KEYS,
    KeyDifference,
    compare_variants,
    min_paired_studies,
)
from pytest_rwe.verdict import INFERENCE_TIME

Record = Mapping[str, Any]
PerStudy = Mapping[str, Mapping[str, Mapping[str, float | None]]]

SHORT = {"direction_of_effect": "direction", "numbers_accurate": "numbers",
         "completeness": "complete", WEIGHTED_SCORE: "score", INFERENCE_TIME: "time"}
BUILTIN_NOTE = ("{model} reads the study, not the prompt: its variants cannot differ "
                "(configure a real model to compare prompts)")
BUILTIN_TIME_NOTE = "a builtin model's time differences are measurement noise"
SAME_PROMPTS_NOTE = "{variant} has the same prompt templates as {reference}: it cannot differ"
JURY_NOTE = ("every juror is builtin and ignores the judge templates: only the summarization "
             "templates can make variants differ")


def _arms(records: Sequence[Record]) -> dict[str, dict[str, str]]:
    """model -> variant -> arm (the model's name in the rest of the report)."""
    arms: dict[str, dict[str, str]] = {}
    for record in records:
        variant, model = record.get("variant"), record.get("variant_of")
        if variant is not None and model is not None:
            arms.setdefault(str(model), {})[str(variant)] = str(record["model"])
    return arms


def _diff_dict(diff: KeyDifference) -> dict[str, Any]:
    ci = diff.difference
    return {"mean": None if ci is None else ci.mean, "ci_low": None if ci is None else ci.low,
            "ci_high": None if ci is None else ci.high, "studies": diff.studies,
            "verdict": diff.verdict, "note": diff.note}


def variants_section(records: Sequence[Record], per_study: PerStudy, settings: ReportSettings,
                     *, variants: Sequence[str] = (), jury: Sequence[str] = (),
                     prompts: Mapping[str, Mapping[str, Any]] | None = None,
                     ) -> dict[str, Any] | None:
    """report.json's ``variants`` block, or None for a run without variants.

    ``variants`` is the configured order (its first present name is the reference);
    ``prompts`` each variant's prompt record (its ``sha256`` tells identical sets apart).
    """
    arms = _arms(records)
    if not arms:
        return None
    present = {v for by_variant in arms.values() for v in by_variant}
    names = [v for v in variants if v in present] + sorted(present - set(variants))
    reference = names[0]
    hashes = {name: (prompts or {}).get(name, {}).get("sha256") for name in names}
    comparisons = []
    for model in sorted(arms):
        by_variant = arms[model]
        if reference not in by_variant:
            continue
        base = by_variant[reference]
        ours = {s: by_arm[base] for s, by_arm in per_study.items() if base in by_arm}
        for name in names[1:]:
            if name not in by_variant:
                continue
            arm = by_variant[name]
            theirs = {s: by_arm[arm] for s, by_arm in per_study.items() if arm in by_arm}
            diffs = compare_variants(ours, theirs, weights=settings.weights,
                                     resamples=settings.resamples, level=settings.level,
                                     seed=f"{settings.seed}:variants:{model}:{name}")
            notes = []
            if model.startswith("builtin/"):
                notes.append(BUILTIN_NOTE.format(model=model))
                # its summaries are the same bytes: a time difference is this machine's
                # noise (warm-up, call order), not the prompt's doing
                diffs[INFERENCE_TIME] = dataclasses.replace(
                    diffs[INFERENCE_TIME], verdict=NOT_RESOLVED, note=BUILTIN_TIME_NOTE)
            if hashes[name] is not None and hashes[name] == hashes[reference]:
                notes.append(SAME_PROMPTS_NOTE.format(variant=name, reference=reference))
            comparisons.append({
                "model": model, "reference": reference, "variant": name,
                "reference_arm": base, "variant_arm": arm,
                "studies": len(set(ours) & set(theirs)),
                "differences": {k: _diff_dict(d) for k, d in diffs.items()},
                "real": [k for k, d in diffs.items() if d.verdict == REAL],
                "notes": notes,
            })
    return {
        "names": names, "reference": reference, "keys": list(VARIANT_KEYS),
        "resamples": settings.resamples, "level": settings.level, "seed": settings.seed,
        "min_studies": min_paired_studies(settings.level),
        "weighted_score": ("per study, the weighted sum of the criterion scores divided by "
                           "the sum of their weights (0..1); inference time is its own key"),
        "jury_note": JURY_NOTE if jury and all(j.startswith("builtin/") for j in jury)
        else None,
        "comparisons": comparisons,
    }


def _fmt(cell: Mapping[str, Any], key: str) -> str:
    if cell["mean"] is None:
        return "n/a"
    pattern = "{:+.3f}s" if key == INFERENCE_TIME else "{:+.2f}"
    low, high = pattern.format(cell["ci_low"]), pattern.format(cell["ci_high"])
    return f"{pattern.format(cell['mean'])} [{low}, {high}]"


def _verdict(cell: Mapping[str, Any]) -> str:
    return "REAL" if cell["verdict"] == REAL else "not resolved"


def _head(section: Mapping[str, Any]) -> str:
    return (f"prompt variants: each variant minus {section['reference']} on the same studies "
            f"(paired bootstrap, {round(100 * section['level'])}%, {section['resamples']} "
            f"resamples; real = the interval excludes 0, from {section['min_studies']} paired "
            "studies up)")


def variant_lines(report: Mapping[str, Any]) -> list[list[tuple[str, str | None]]]:
    """Terminal lines of the section (nothing for a run without variants)."""
    section = report.get("variants")
    if not section:
        return []
    lines: list[list[tuple[str, str | None]]] = [[(_head(section) + ":", "bold")]]
    for comp in section["comparisons"]:
        real = comp["real"]
        lines.append([(f"  {comp['model']}: {comp['variant']} vs {comp['reference']} over "
                       f"{comp['studies']} studies: ", None),
                      ("real differences on " + ", ".join(SHORT.get(k, k) for k in real)
                       if real else "no difference resolved", "green" if real else "yellow")])
        parts = [f"{SHORT.get(k, k)} {_fmt(cell, k)} {_verdict(cell)}"
                 for k, cell in comp["differences"].items()]
        lines.append([("    " + "; ".join(parts), None)])
        lines += [[(f"    note: {note}", "yellow")] for note in comp["notes"]]
    if section.get("jury_note"):
        lines.append([(f"  note: {section['jury_note']}", "yellow")])
    return lines


def variant_markdown(report: Mapping[str, Any]) -> list[str]:
    """report.md lines of the section."""
    section = report.get("variants")
    if not section:
        return []
    lines = ["### Prompt variants", "", escape.markdown(_head(section)) + ".", "",
             "| model | variant | vs | studies | "
             + " | ".join(SHORT.get(k, k) for k in section["keys"]) + " |",
             "|" + "---|" * (4 + len(section["keys"]))]
    for comp in section["comparisons"]:
        cells = [f"{_fmt(c, k)} **{_verdict(c)}**" if c["verdict"] == REAL
                 else f"{_fmt(c, k)} {_verdict(c)}" for k, c in comp["differences"].items()]
        lines.append("| " + " | ".join([
            f"`{escape.markdown(comp['model'])}`", escape.markdown(comp["variant"]),
            escape.markdown(comp["reference"]), str(comp["studies"]), *cells]) + " |")
    notes = [n for comp in section["comparisons"] for n in comp["notes"]]
    if section.get("jury_note"):
        notes.append(section["jury_note"])
    if notes:
        lines += ["", *(f"- note: {escape.markdown(n)}" for n in notes)]
    return [*lines, ""]


def variant_html(report: Mapping[str, Any]) -> str:
    """report.html's section."""
    section = report.get("variants")
    if not section:
        return ""
    e = escape.html
    head = "".join(f"<th>{e(SHORT.get(k, k))}</th>" for k in section["keys"])
    rows = []
    for comp in section["comparisons"]:
        cells = "".join(
            f'<td title="{e(c["note"] or "")}">{e(_fmt(c, k))} '
            + (f"<strong>{e(_verdict(c))}</strong>" if c["verdict"] == REAL
               else e(_verdict(c))) + "</td>"
            for k, c in comp["differences"].items())
        rows.append(f"<tr><td><code>{e(comp['model'])}</code></td><td>{e(comp['variant'])}"
                    f"</td><td>{e(comp['reference'])}</td><td>{comp['studies']}</td>{cells}"
                    "</tr>")
    notes = [n for comp in section["comparisons"] for n in comp["notes"]]
    if section.get("jury_note"):
        notes.append(section["jury_note"])
    return (f"<h2>Prompt variants</h2><p>{e(_head(section))}.</p><table><tr><th>model</th>"
            f"<th>variant</th><th>vs</th><th>studies</th>{head}</tr>{''.join(rows)}</table>"
            + "".join(f'<p class="note">note: {e(n)}</p>' for n in notes))
