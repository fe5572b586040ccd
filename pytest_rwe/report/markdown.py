"""report.md: the run in GitHub-flavoured Markdown, for a pull-request comment or
``$GITHUB_STEP_SUMMARY``. Rendered from the report dict (pure).

Model output and names are escaped (terminal control sequences removed, HTML special
characters, table pipes, line breaks), since GitHub renders inline HTML: a summary cannot
inject markup into the comment, nor drive the terminal of whoever prints the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe import escape
from pytest_rwe.report.baseline_text import baseline_markdown
from pytest_rwe.report.breakdown_text import breakdown_markdown
from pytest_rwe.report.cost_text import cost_note, cost_rows
from pytest_rwe.report.md_table import md_table
from pytest_rwe.report.run_section import run_markdown
from pytest_rwe.report.study_notes import selection_text, warning_markdown
from pytest_rwe.report.terminal import SHORT, bt_basis, fmt, fmt_ci, resolution_text
from pytest_rwe.report.variants import variant_markdown
from pytest_rwe.stats.pairwise import WEIGHTED_SCORE
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME

_EMOJI = {"green": "🟢", "yellow": "🟡", "red": "🔴"}
#: explanations are cut to this many characters in the Markdown (report.html has them whole)
EXPLANATION_LIMIT = 300
#: at most this many failing results are detailed
DETAIL_LIMIT = 30


esc = escape.markdown  # no control characters, HTML-escaped, pipes escaped, one line


def _ranking(report: Mapping[str, Any]) -> list[str]:
    rubric = report["rubric"]
    models = report["models"]
    level = round(100 * report["bootstrap"]["level"])
    header = ["model", *(f"{SHORT[c]} [{level}% CI]" for c in CRITERIA), "time/summary (s)"]
    if rubric["normalization_defined"]:
        header = ["rank", *header, "score", "Bradley-Terry [CI]", "weighted diff vs top [CI]"]
    ordered = sorted(models.items(), key=lambda kv: (kv[1]["rank"] is None, kv[1]["rank"] or 0))
    top = (report.get("differences_from_top") or {}).get("top")
    rows = []
    for name, model in ordered:
        cells = [f"`{esc(name)}`", *(fmt_ci(model["criteria"][c]) for c in CRITERIA),
                 fmt_ci(model[INFERENCE_TIME], "{:.3f}")]
        if rubric["normalization_defined"]:
            bt = model.get("bradley_terry")
            diff = (model.get("difference_from_top") or {}).get(WEIGHTED_SCORE)
            cells = ["-" if model["rank"] is None else str(model["rank"]), *cells,
                     fmt(None if model["score"] is None else 100 * model["score"], "{:.1f}%"),
                     "n/a" if not bt else fmt_ci({"mean": bt["rating"], "ci_low": bt["ci_low"],
                                                  "ci_high": bt["ci_high"]}, "{:.0f}"),
                     "top" if name == top else fmt_ci(diff)]
        rows.append(cells)
    lines = md_table(header, rows)
    weights = ", ".join(f"{k}={v:g}" for k, v in report["weights"].items())
    lines.append("")
    lines.append(f"Weights: {weights}.")
    if not rubric["normalization_defined"]:
        lines.append(f"\n> {esc(rubric['note'])} (no normalized values, weighted score or "
                     "rank).")
    elif rubric.get("note"):
        lines.append(f"\n> Note: {esc(rubric['note'])}")
    for text, _ in resolution_text(report):
        lines.append(f"\n> {esc(text.strip())}")
    if report.get("bradley_terry"):
        lines.append(f"\nBradley-Terry: {esc(bt_basis(report['bradley_terry']))}.")
    return lines


def _self_judging(report: Mapping[str, Any]) -> list[str]:
    section = report.get("self_judging") or {}
    if not section:
        return []
    lines = ["### Self-judging", "",
             "A juror of the model's own vendor family may favour its output.", ""]
    for model, cell in section.items():
        jurors = ", ".join(f"`{esc(j)}`" for j in cell["jurors"])
        what = ("dropped from its pairs (`--rwe-exclude-self`)" if cell.get("excluded")
                else "judges it (`--rwe-exclude-self` drops such jurors)")
        lines.append(f"- `{esc(model)}` ({esc(cell.get('family') or 'same model')}): "
                     f"{jurors}: {what}")
    return [*lines, ""]


def _repeats(report: Mapping[str, Any]) -> list[str]:
    section = report.get("repeats")
    if not section:
        return []
    k = section["repeats"]
    header = ["model", *(f"{SHORT[c]} pass share / pass^{k}" for c in CRITERIA),
              f"all criteria pass^{k}", "studies where repeats disagree"]
    rows = []
    for model, cell in section["models"].items():
        rows.append([f"`{esc(model)}`",
                     *(f"{fmt_ci(cell['criteria'][c]['pass_share'])} / "
                       f"{fmt_ci(cell['criteria'][c]['pass_all'])}" for c in CRITERIA),
                     fmt_ci(cell["all_criteria"]["pass_all"]),
                     str(cell["disagreeing_count"])])
    return ["### Repeats", "",
            f"{k} summaries per (model, study); `rwe_repeat_rule` {esc(section['rule'])}. Share "
            f"of repeats passing each criterion, and pass^{k} (every repeat passes), over "
            "studies with 95% bootstrap intervals.", "", *md_table(header, rows), ""]


def _agreement(report: Mapping[str, Any]) -> list[str]:
    rows = []
    for criterion, cell in report["agreement"].items():
        kappa = fmt(cell["kappa"]) if cell["kappa"] is not None else "n/a"
        abstained = sum(counts[criterion] for counts in report["abstentions"]["by_juror"].values())
        errors = report.get("juror_errors") or {"by_juror": {}}
        errored = sum(counts[criterion] for counts in errors["by_juror"].values())
        rows.append([criterion, kappa, str(cell["subjects"]), str(abstained), str(errored),
                     esc(cell["note"] or "")])
    return md_table(["criterion", "Fleiss' kappa", "summaries", "abstentions",
                   "errors (could not be asked)", "note"], rows)


def _badges(report: Mapping[str, Any]) -> list[str]:
    models = list(report["models"])
    counts = [[f"`{esc(m)}`", *(str(report["models"][m]["badges"][b]) for b in _EMOJI)]
              for m in models]
    lines = md_table(["model", "🟢 green", "🟡 yellow", "🔴 red"], counts)
    grid = report["badges"]
    shown = [s for s in report["studies"] if any(b != "green" for b in grid[s].values())]
    if shown:
        lines += ["", f"<details><summary>{len(shown)} of {len(report['studies'])} studies "
                  "not all green</summary>", ""]
        lines += md_table(["study", *(f"`{esc(m)}`" for m in models)],
                        [[f"`{esc(s)}`", *(_EMOJI.get(grid[s].get(m, ""), "-") for m in models)]
                         for s in shown])
        lines += ["", "</details>"]
    return lines


def _failures(report: Mapping[str, Any]) -> list[str]:
    failing = [r for r in report["results"] if r["badge"] == "red"]
    if not failing:
        return []
    lines = ["", f"<details><summary>Failing summaries ({len(failing)})</summary>", ""]
    for result in failing[:DETAIL_LIMIT]:
        lines.append(f"- `{esc(result['model'])}` on `{esc(result['study'])}`"
                     + (f" (repeat {result['repeat'] + 1})" if result["repeat"] else ""))
        if result["error"]:
            lines.append(f"  - error: {esc(result['error'])[:EXPLANATION_LIMIT]}")
        for criterion, cell in result["criteria"].items():
            if cell["passed"]:
                continue
            for juror in cell["jurors"]:
                if juror["score"] == 1:
                    continue
                said = esc(juror["explanation"])
                if len(said) > EXPLANATION_LIMIT:
                    said = said[:EXPLANATION_LIMIT] + "…"
                lines.append(f"  - {criterion}, `{esc(juror['juror'])}`: {said}")
    if len(failing) > DETAIL_LIMIT:
        lines.append(f"- … {len(failing) - DETAIL_LIMIT} more in report.html")
    lines += ["", "</details>"]
    return lines


def _gate(report: Mapping[str, Any]) -> list[str]:
    gate = report["gate"]
    if not gate["minimums"]:
        return []
    wanted = ", ".join(f"{c} ≥ {v:g}" for c, v in gate["minimums"].items())
    if gate["passed"]:
        return [f"**Quality gate passed** ({wanted})."]
    lines = [f"**Quality gate failed** ({wanted}):", ""]
    for f in gate["failures"]:
        if f["mean"] is None:
            lines.append(f"- `{esc(f['model'])}`: {f['criterion']} has no evaluation: "
                         f"{esc(f.get('cause') or 'no value')}")
            continue
        lines.append(f"- `{esc(f['model'])}`: {f['criterion']} {f['mean']:.3f} < "
                     f"{f['minimum']:g}")
    return lines


def _claims(report: Mapping[str, Any]) -> list[str]:
    rows = []
    for model, stats in report["models"].items():
        claims = stats.get("claims") or {}
        if not claims.get("summaries"):
            continue
        rows.append([f"`{esc(model)}`", _share(claims["significance_match_rate"],
                                               claims["significance_checked"]),
                     _share(claims["direction_agreement_rate"], claims["direction_checked"]),
                     str(claims["outcomes_mentioned"])])
    if not rows:
        return []
    return ["### Claims about outcomes", "",
            "Read from each summary by the rules juror's claim extraction: the summary calls an "
            "outcome significant exactly when p < 0.05; the direction it states agrees with the "
            "estimate.", "",
            *md_table(["model", "significance match", "direction agreement",
                     "outcomes mentioned"], rows), ""]


def _cost(report: Mapping[str, Any]) -> list[str]:
    rows = cost_rows(report)
    if not rows:
        return []
    header, *body = rows
    return ["### Tokens and cost", "", esc(cost_note(report)), "",
            *md_table(["", *header[1:]], [[esc(row[0]), *row[1:]] for row in body]), ""]


def _share(rate: float | None, n: int) -> str:
    return "n/a" if rate is None else f"{100 * rate:.1f}% of {n}"


def render_markdown(report: Mapping[str, Any]) -> str:
    """report.md text."""
    commit = report.get("git_commit")
    head = [
        "## pytest-rwe report",
        "",
        f"{len(report['studies'])} studies &times; {len(report['models'])} model(s); jury: "
        + ", ".join(f"`{esc(j)}`" for j in report["jury"])
        + f"; {report['created_at']}"
        + (f"; commit `{esc(commit[:12])}`" if commit else "")
        + f"; pytest-rwe {esc(report['plugin_version'])}.",
        "",
    ]
    selection = selection_text(report)
    if selection:
        head += [f"Studies selected with `{esc(selection)}`.", ""]
    gate = _gate(report)
    body = [*head, *([*gate, ""] if gate else []), *baseline_markdown(report),
            *warning_markdown(report), *_ranking(report), "", *variant_markdown(report),
            *breakdown_markdown(report), *_self_judging(report), *_repeats(report),
            "### Jury agreement", "", *_agreement(report), "", *_claims(report), *_cost(report),
            "### Badges", "",
            *_badges(report), *_failures(report), "", *run_markdown(report)]
    return "\n".join(body)
