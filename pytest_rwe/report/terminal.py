"""The end-of-session summary in the terminal, rendered from the report dict (pure).

A line is a list of (text, colour) segments so the plugin can colour badges; ``plain``
joins them for tests and logs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.criteria import label
from pytest_rwe.report.baseline_text import baseline_lines, gate_lines
from pytest_rwe.report.breakdown_text import breakdown_lines
from pytest_rwe.report.cost_text import cost_note, cost_rows
from pytest_rwe.report.run_section import run_lines
from pytest_rwe.report.study_notes import selection_text, warning_lines
from pytest_rwe.report.variants import variant_lines
from pytest_rwe.stats.pairwise import WEIGHTED_SCORE
from pytest_rwe.stats.rubric import COST
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME

Segment = tuple[str, str | None]
Line = list[Segment]

#: with more studies than this, the badge grid lists only the studies that are not all green
GRID_LIMIT = 20
#: at most this many non-green rows are listed in the terminal (the HTML has them all)
ROW_LIMIT = 25
_BADGE_LETTER = {"green": "G", "yellow": "Y", "red": "R"}
_DIFF_PATTERN = {INFERENCE_TIME: "{:+.3f}", COST: "{:+.4f}"}
SHORT = {**{key: label(key) for key in (*CRITERIA, INFERENCE_TIME)}, COST: "cost",
         WEIGHTED_SCORE: "score"}


def plain(lines: Sequence[Line]) -> list[str]:
    """The text of each line, without colour."""
    return ["".join(text for text, _ in line) for line in lines]


def fmt(value: float | None, pattern: str = "{:.2f}") -> str:
    """A number, or "n/a" for None."""
    return "n/a" if value is None else pattern.format(value)


def fmt_ci(cell: Mapping[str, Any] | None, pattern: str = "{:.2f}") -> str:
    """``mean [low, high]`` of a cell with mean/ci_low/ci_high."""
    if not cell or cell.get("mean") is None:
        return "n/a"
    return (f"{pattern.format(cell['mean'])} [{pattern.format(cell['ci_low'])}, "
            f"{pattern.format(cell['ci_high'])}]")


def fmt_norm(model: Mapping[str, Any], key: str) -> str:
    """A normalized value: "-" when undefined (every model has the same mean), "n/a" when
    the model has none (not scored)."""
    normalized = model.get("normalized") or {}
    if key not in normalized:
        return "n/a"
    return "-" if normalized[key] is None else f"{normalized[key]:.2f}"


def table(rows: Sequence[Sequence[str]], indent: str = "  ") -> list[Line]:
    """Left-aligned columns; the first row is the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [[(indent + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip(),
              None)] for row in rows]


def _means(report: Mapping[str, Any]) -> list[Line]:
    rows = [["model", "n", *CRITERIA, "time/summary (s)"]]
    for name, model in report["models"].items():
        notes = [f"{model['errors']} failed"] if model["errors"] else []
        no_quorum = sum(c.get("no_quorum", 0) for c in model["criteria"].values())
        if no_quorum:
            notes.append(f"{no_quorum} without quorum")
        n = str(model["studies"]) + (f" ({', '.join(notes)})" if notes else "")
        rows.append([name, n, *(fmt_ci(model["criteria"][c]) for c in CRITERIA),
                     fmt_ci(model[INFERENCE_TIME], "{:.3f}")])
    level = round(100 * report["bootstrap"]["level"])
    head = f"criterion means over studies [{level}% bootstrap interval]:"
    return [[(head, "bold")], *table(rows)]


def _rubric(report: Mapping[str, Any]) -> list[Line]:
    rubric = report["rubric"]
    weights = ", ".join(f"{SHORT[k]}={v:g}" for k, v in report["weights"].items())
    maxima = report.get("normalize_max") or {}
    extra = ("; normalize-max " + ", ".join(f"{SHORT[k]}={v:g}" for k, v in maxima.items())
             if maxima else "")
    lines: list[Line] = [[(f"weighted rubric (weights {weights}{extra}):", "bold")]]
    if not rubric["normalization_defined"]:
        lines.append([(f"  {rubric['note']} (no normalized values, weighted score or rank)",
                       "yellow")])
        return lines
    rows = [["rank", "model", *(f"norm {SHORT[k]}" for k in (*CRITERIA, INFERENCE_TIME)),
             "score", "Bradley-Terry [CI]", "weighted diff vs top [CI]"]]
    ranked = sorted(report["models"].items(),
                    key=lambda kv: (kv[1]["rank"] is None, kv[1]["rank"] or 0))
    for name, model in ranked:
        bt = model.get("bradley_terry")
        diff = (model.get("difference_from_top") or {}).get(WEIGHTED_SCORE)
        top = (report.get("differences_from_top") or {}).get("top")
        rows.append([
            "-" if model["rank"] is None else str(model["rank"]), name,
            *(fmt_norm(model, k) for k in (*CRITERIA, INFERENCE_TIME)),
            fmt(None if model["score"] is None else 100 * model["score"], "{:.1f}%"),
            "n/a" if not bt else fmt_ci({"mean": bt["rating"], "ci_low": bt["ci_low"],
                                         "ci_high": bt["ci_high"]}, "{:.0f}"),
            "(top)" if name == top else fmt_ci(diff) + _excludes_zero(diff),
        ])
    lines += table(rows)
    if rubric.get("note"):
        lines.append([(f"  note: {rubric['note']}", "yellow")])
    lines += [[(text, colour)] for text, colour in resolution_text(report)]
    bt = report.get("bradley_terry")
    if bt:
        lines.append([(f"  Bradley-Terry: {bt_basis(bt)}", None)])
    return lines


def resolution_text(report: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """Whether the top two models' scores are apart beyond bootstrap noise."""
    res = (report.get("rubric") or {}).get("resolution")
    if not res:
        return []
    level = round(100 * res["level"])
    detail = (f"score difference {100 * res['difference']:+.1f} points "
              f"[{100 * res['ci_low']:+.1f}, {100 * res['ci_high']:+.1f}] ({level}% bootstrap "
              f"over studies, {res['resamples']} resamples); {res['top']} alone on top in "
              f"{100 * res['top_share']:.0f}% of them")
    if res["resolved"]:
        return [(f"  ranking resolved: {res['top']} ahead of {res['runner_up']}: {detail}",
                 None)]
    return [(f"  ranking NOT resolved: {res['top']} and {res['runner_up']} are within "
             f"bootstrap noise: {detail}", "yellow")]


def bt_basis(bt: Mapping[str, Any]) -> str:
    """What the Bradley-Terry comparisons count."""
    criteria = ", ".join(SHORT.get(c, c) for c in bt.get("criteria") or CRITERIA)
    if not bt.get("time_weight"):
        return f"per-study comparisons of quality only ({criteria}); time not counted"
    return (f"per-study comparisons of quality ({criteria}) plus time weight "
            f"{bt['time_weight']:g} for taking less than "
            f"{100 * (1 - bt['time_tolerance']):.0f}% of the other's time")


def _excludes_zero(cell: Mapping[str, Any] | None) -> str:
    if not cell or cell.get("mean") is None:
        return ""
    return " *" if cell["ci_low"] > 0 or cell["ci_high"] < 0 else ""


def _differences(report: Mapping[str, Any]) -> list[Line]:
    section = report.get("differences_from_top")
    if not section:
        return []
    lines: list[Line] = [[(f"differences from {section['top']} per criterion (paired bootstrap; "
                           "* = interval excludes 0):", "bold")]]
    for name, model in report["models"].items():
        diffs = model.get("difference_from_top")
        if not diffs:
            continue
        parts = [f"{SHORT[k]} {fmt_ci(diffs.get(k), _DIFF_PATTERN.get(k, '{:+.2f}'))}"
                 f"{_excludes_zero(diffs.get(k))}" for k in (*CRITERIA, INFERENCE_TIME)]
        lines.append([(f"  {name}: " + "; ".join(parts), None)])
    return lines


def _agreement(report: Mapping[str, Any]) -> list[Line]:
    parts = []
    for criterion, cell in report["agreement"].items():
        value = fmt(cell["kappa"]) if cell["kappa"] is not None else "n/a"
        parts.append(f"{criterion} {value}")
    notes = {cell["note"] for cell in report["agreement"].values() if cell["note"]}
    jurors = len(report["jury"])
    lines: list[Line] = [[("jury agreement, Fleiss' kappa over summaries "
                           f"({jurors} juror{'s' if jurors != 1 else ''}): ", "bold"),
                          ("; ".join(parts), None)]]
    lines += [[(f"  n/a: {note}", None)] for note in sorted(notes)]
    lines.append(_juror_counts("abstentions", report["abstentions"], "yellow"))
    errors = report.get("juror_errors")
    if errors is not None:
        lines.append(_juror_counts("juror errors (could not be asked)", errors, "red"))
    return lines


def _juror_counts(title: str, counts: Mapping[str, Any], colour: str) -> Line:
    """``title: N (juror criterion n, ...)``, or ``title: none``."""
    if not counts["total"]:
        return [(f"{title}: ", "bold"), ("none", None)]
    detail = "; ".join(
        f"{juror} " + ", ".join(f"{SHORT[c]} {n}" for c, n in by_criterion.items() if n)
        for juror, by_criterion in counts["by_juror"].items() if any(by_criterion.values()))
    return [(f"{title}: ", "bold"), (f"{counts['total']} ({detail})", colour)]


def _badges(report: Mapping[str, Any]) -> list[Line]:
    models = list(report["models"])
    counts = ", ".join(
        f"{m} {'/'.join(str(report['models'][m]['badges'][b]) for b in _BADGE_LETTER)}"
        for m in models)
    lines: list[Line] = [[("badges green/yellow/red: ", "bold"), (counts, None)]]
    grid = report["badges"]
    studies = list(report["studies"])
    shown = studies
    if len(studies) > GRID_LIMIT:
        shown = [s for s in studies if any(b != "green" for b in grid.get(s, {}).values())]
        lines.append([(f"  {len(shown)} of {len(studies)} studies are not all green"
                       + (":" if shown else ""), None)])
    if not shown:
        return lines
    width = max(len(s) for s in shown[:ROW_LIMIT])
    legend = "  ".join(f"[{i + 1}] {m}" for i, m in enumerate(models))
    lines.append([(f"  {'study'.ljust(width)}  " + " ".join(str(i + 1) for i in
                                                         range(len(models))) + f"   {legend}",
                   None)])
    for study in shown[:ROW_LIMIT]:
        line: Line = [(f"  {study.ljust(width)}  ", None)]
        for i, model in enumerate(models):
            badge = grid.get(study, {}).get(model)
            letter = _BADGE_LETTER.get(badge or "", "-")
            line.append((letter, badge if badge in _BADGE_LETTER else None))
            if i < len(models) - 1:
                line.append((" ", None))
        lines.append(line)
    if len(shown) > ROW_LIMIT:
        lines.append([(f"  ... {len(shown) - ROW_LIMIT} more (see report.html)", None)])
    return lines


def _sensitivity(report: Mapping[str, Any]) -> list[Line]:
    section = report.get("sensitivity") or {}
    if not section:
        return []
    lines: list[Line] = [[("weight sensitivity (range of each weight keeping the top model):",
                           "bold")]]
    for key, s in section.items():
        high = f"{s['high']:.3g}" + ("+" if s["high"] >= s["scan_end"] else "")
        text = f"  {SHORT[key]} {s['weight']:g}: {', '.join(s['top'])} on [{s['low']:.3g}, {high}]"
        if s["below"]:
            text += f"; below: {', '.join(s['below'])}"
        if s["above"]:
            text += f"; above: {', '.join(s['above'])}"
        lines.append([(text, None)])
    return lines


def _self_judging(report: Mapping[str, Any]) -> list[Line]:
    section = report.get("self_judging") or {}
    lines: list[Line] = []
    for model, cell in section.items():
        jurors = ", ".join(cell["jurors"])
        family = cell.get("family") or "the same model"
        if cell.get("excluded"):
            what = (f"dropped from its pairs (--rwe-exclude-self): "
                    f"{', '.join(cell['excluded'])}")
            colour = None
        else:
            what = "judges it (use --rwe-exclude-self to drop such jurors)"
            colour = "yellow"
        lines.append([("self-judging: ", "bold"),
                      (f"{model} is judged by its own vendor family ({family}): {jurors}; "
                       f"{what}", colour)])
    return lines


def _repeats(report: Mapping[str, Any]) -> list[Line]:
    section = report.get("repeats")
    if not section:
        return []
    k = section["repeats"]
    lines: list[Line] = [[(f"repeats ({k} per study; rwe_repeat_rule {section['rule']}): share "
                           f"of repeats passing, and pass^{k} (every repeat passes) "
                           "[95% bootstrap]:", "bold")]]
    for model, cell in section["models"].items():
        parts = [f"{SHORT[c]} {fmt_ci(v['pass_share'])} pass^{k} {fmt_ci(v['pass_all'])}"
                 for c, v in cell["criteria"].items()]
        every = fmt_ci(cell["all_criteria"]["pass_all"])
        lines.append([(f"  {model}: " + "; ".join(parts) + f"; all criteria pass^{k} {every}",
                       None)])
        if cell["disagreeing_count"]:
            shown = ", ".join(
                f"{d['study']} ("
                + ", ".join(f"{SHORT[c]} {n}/{d['repeats']}" for c, n in d["passed"].items()
                            if 0 < n < d["repeats"]) + ")"
                for d in cell["disagreeing"][:5])
            more = cell["disagreeing_count"] - min(5, len(cell["disagreeing"]))
            lines.append([(f"    repeats disagree on {cell['disagreeing_count']} studies: "
                           f"{shown}" + (f", and {more} more" if more > 0 else ""), "yellow")])
    return lines


def _claims(report: Mapping[str, Any]) -> list[Line]:
    parts = []
    for model, stats in report["models"].items():
        claims = stats.get("claims") or {}
        if not claims.get("summaries"):
            continue
        sig, agree = claims["significance_match_rate"], claims["direction_agreement_rate"]
        parts.append(f"{model} significance {_pct(sig)} of {claims['significance_checked']}, "
                     f"direction {_pct(agree)} of {claims['direction_checked']}")
    if not parts:
        return []
    return [[("claims about outcomes (significance match, direction agreement): ", "bold"),
             ("; ".join(parts), None)]]


def _cost(report: Mapping[str, Any]) -> list[Line]:
    rows = cost_rows(report)
    if not rows:
        return []
    return [[("tokens and cost:", "bold")], *table(rows), [("  " + cost_note(report), None)]]


def _pct(rate: float | None) -> str:
    return "n/a" if rate is None else f"{100 * rate:.0f}%"


def render_summary(report: Mapping[str, Any]) -> list[Line]:
    """Every section of the terminal summary except the gate (see :func:`render_gate`)."""
    models = len(report["models"])
    head = (f"pytest-rwe: {len(report['studies'])} studies x {models} model"
            f"{'s' if models != 1 else ''}, jury {', '.join(report['jury'])}")
    selection = selection_text(report)
    lines: list[Line] = [[(head + (f"; {selection}" if selection else ""), "bold")]]
    if not report["models"]:
        return [*lines, [("  no evaluation in this run: nothing to report (see the gate below)",
                          "red")], *baseline_lines(report)]
    for part in (warning_lines, _means, breakdown_lines, _rubric, _differences, variant_lines,
                 _agreement, _self_judging, _claims, _repeats, _badges, _sensitivity, _cost,
                 baseline_lines, run_lines):
        lines += part(report)
    return lines


def render_gate(report: Mapping[str, Any]) -> list[Line]:
    """The gates' verdicts, printed last: ``--rwe-min``, then the baseline's (drift.render)."""
    return _min_gate(report) + gate_lines(report)


def _min_gate(report: Mapping[str, Any]) -> list[Line]:
    """The ``--rwe-min`` verdict: nothing when no gate is set, else passed or each failure."""
    gate = report["gate"]
    if not gate["minimums"]:
        return []
    wanted = ", ".join(f"{c}>={v:g}" for c, v in gate["minimums"].items())
    if gate["passed"]:
        return [[(f"pytest-rwe quality gate passed (--rwe-min {wanted})", "green")]]
    lines: list[Line] = [[(f"pytest-rwe quality gate FAILED (--rwe-min {wanted}); exit status 1:",
                           "red")]]
    for failure in gate["failures"]:
        if failure["mean"] is None:
            lines.append([(f"  {failure['model']}: {failure['criterion']} has no evaluation: "
                           f"{failure.get('cause') or 'no value'}", "red")])
            continue
        lines.append([(f"  {failure['model']}: {failure['criterion']} mean "
                       f"{failure['mean']:.3f} < minimum {failure['minimum']:g}", "red")])
    return lines
