"""report.html: one self-contained page (inline CSS, JS and SVG; opens offline), rendered
from the report dict (pure).

Every value from the run (model output, explanations, names, ids) is HTML-escaped; element
ids are positional (``s3``, ``s3-m1``), never taken from the data. A Content-Security-Policy
allows no network at all and only the page's own two scripts (by hash), so even a summary
that slipped through escaping could not run code or load anything.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe import escape
from pytest_rwe.report.breakdown_text import breakdown_html
from pytest_rwe.report.cost_text import cost_html
from pytest_rwe.report.html_assets import CSS, ERROR_HOOK, SCRIPT
from pytest_rwe.report.html_charts import Bar, bar_chart, colour, point_chart
from pytest_rwe.report.html_findings import FINDINGS_CSS, summary_with_findings
from pytest_rwe.report.run_section import run_html
from pytest_rwe.report.study_notes import selection_text, warning_html
from pytest_rwe.report.terminal import (
    SHORT,
    bt_basis,
    fmt,
    fmt_ci,
    fmt_norm,
    resolution_text,
)
from pytest_rwe.report.variants import variant_html
from pytest_rwe.stats.pairwise import WEIGHTED_SCORE
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME

e = escape.html  # HTML-escaped, quotes too (safe in attributes), controls removed


def _script_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src "
       + _script_hash(ERROR_HOOK) + " " + _script_hash(SCRIPT))


def _badge(badge: str | None, title: str = "") -> str:
    kind = badge if badge in ("green", "yellow", "red") else "none"
    return f'<span class="badge {kind}" title="{e(title or kind)}"></span>'


def _swatch(index: int) -> str:
    return f'<span class="swatch" style="background:{colour(index)}"></span>'


def _header(report: Mapping[str, Any]) -> str:
    commit = report.get("git_commit")
    prompts = report.get("prompts") or {}
    jury = ", ".join(f"<code>{e(j)}</code>" for j in report["jury"])
    weights = ", ".join(f"{e(k)}={v:g}" for k, v in report["weights"].items())
    maxima = ", ".join(f"{e(k)}={v:g}" for k, v in (report.get("normalize_max") or {}).items())
    selection = selection_text(report)
    return (
        "<h1>pytest-rwe report</h1>"
        f'<div class="meta">{len(report["studies"])} studies &times; {len(report["models"])} '
        f"model(s) &middot; jury {jury} &middot; {e(report['created_at'])}"
        + (f" &middot; commit <code>{e(str(commit)[:12])}</code>" if commit else "")
        + f" &middot; pytest-rwe {e(report['plugin_version'])}"
        + (f" &middot; prompts <code>{e(str(prompts.get('sha256', ''))[:12])}</code>"
           if prompts else "")
        + f"<br>weights {weights}" + (f" &middot; normalize-max {maxima}" if maxima else "")
        + (f"<br>studies selected with <code>{e(selection)}</code>" if selection else "")
        + "</div>"
    )


def _gate(report: Mapping[str, Any]) -> str:
    gate = report["gate"]
    if not gate["minimums"]:
        return ""
    wanted = ", ".join(f"{e(c)} &ge; {v:g}" for c, v in gate["minimums"].items())
    if gate["passed"]:
        return f'<div class="banner pass">Quality gate passed ({wanted}).</div>'
    items = "".join(
        f"<li><code>{e(f['model'])}</code>: {e(f['criterion'])} "
        + (f"has no evaluation: {e(f.get('cause') or 'no value')}" if f["mean"] is None
           else f"{f['mean']:.3f} &lt; {f['minimum']:g}") + "</li>" for f in gate["failures"])
    return f'<div class="banner fail">Quality gate failed ({wanted}):<ul>{items}</ul></div>'


def _model_cell(name: str, index: Mapping[str, int]) -> str:
    return f'<td class="model">{_swatch(index[name])}<code>{e(name)}</code></td>'


def _means_table(report: Mapping[str, Any], index: Mapping[str, int]) -> str:
    level = round(100 * report["bootstrap"]["level"])
    head = ["model", *(f"{e(c)} [{level}% CI]" for c in CRITERIA), "time/summary (s)",
            "summaries", "tokens in/out"]
    rows = []
    for name, m in report["models"].items():
        tokens = m["tokens"]
        failed = f' <span class="error">({m["errors"]} failed)</span>' if m["errors"] else ""
        no_quorum = sum(c.get("no_quorum", 0) for c in m["criteria"].values())
        if no_quorum:
            failed += f' <span class="error">({no_quorum} verdicts without quorum)</span>'
        rows.append(
            "<tr>" + _model_cell(name, index)
            + "".join(f'<td class="num">{e(fmt_ci(m["criteria"][c]))}</td>' for c in CRITERIA)
            + f'<td class="num">{e(fmt_ci(m[INFERENCE_TIME], "{:.3f}"))}</td>'
            + f'<td class="num">{m["summaries"]}{failed}</td>'
            + f'<td class="num">{fmt(tokens["input"], "{}")} / {fmt(tokens["output"], "{}")}'
            "</td></tr>")
    return ("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
            + "".join(rows) + "</table>")


def _ranking(report: Mapping[str, Any], index: Mapping[str, int]) -> str:
    rubric = report["rubric"]
    means = "<h2>Means over studies</h2>" + _means_table(report, index)
    if not rubric["normalization_defined"]:
        return means + (f'<h2>Ranking</h2><div class="banner note">{e(rubric["note"])} '
                        "(no normalized values, weighted score or rank).</div>")
    head = ["rank", "model", *(f"norm {SHORT[k]}" for k in (*CRITERIA, INFERENCE_TIME)),
            "score", "Bradley-Terry [CI]", "weighted diff vs top [CI]"]
    top = (report.get("differences_from_top") or {}).get("top")
    ordered = sorted(report["models"].items(),
                     key=lambda kv: (kv[1]["rank"] is None, kv[1]["rank"] or 0))
    rows = []
    for name, m in ordered:
        bt = m.get("bradley_terry")
        diff = (m.get("difference_from_top") or {}).get(WEIGHTED_SCORE)
        score = fmt(None if m["score"] is None else 100 * m["score"], "{:.1f}%")
        rating = "n/a" if not bt else fmt_ci(
            {"mean": bt["rating"], "ci_low": bt["ci_low"], "ci_high": bt["ci_high"]}, "{:.0f}")
        rows.append(
            "<tr>" + f'<td class="num">{"-" if m["rank"] is None else m["rank"]}</td>'
            + _model_cell(name, index)
            + "".join(f'<td class="num">{fmt_norm(m, k)}</td>'
                      for k in (*CRITERIA, INFERENCE_TIME))
            + f'<td class="num"><b>{score}</b></td><td class="num">{e(rating)}</td>'
            + f'<td class="num">{"top" if name == top else e(fmt_ci(diff))}</td></tr>')
    weights = ", ".join(f"{e(k)}={v:g}" for k, v in report["weights"].items())
    note = f'<div class="banner note">Note: {e(rubric["note"])}</div>' if rubric["note"] else ""
    note += "".join(f'<div class="banner note">{e(text.strip())}</div>'
                    for text, _ in resolution_text(report))
    if report.get("bradley_terry"):
        note += f'<p class="meta">Bradley-Terry: {e(bt_basis(report["bradley_terry"]))}.</p>'
    return (means + "<h2>Ranking</h2>" + note
            + f'<p class="meta">Weighted rubric ({weights}): each mean min-max normalized '
            "across the models (time reversed), weighted, summed and normalized again. "
            "Bradley-Terry ratings come from per-study pairwise comparisons and do not depend "
            "on which other models are in the run; the last column is the paired-bootstrap "
            "difference of per-study weighted scores from the top model.</p>"
            + "<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
            + "".join(rows) + "</table>")


def _charts(report: Mapping[str, Any], index: Mapping[str, int]) -> str:
    models = report["models"]
    figures: list[tuple[str, str]] = []
    for criterion in CRITERIA:
        bars = [Bar(n, index[n], m["criteria"][criterion]["mean"],
                    m["criteria"][criterion]["ci_low"], m["criteria"][criterion]["ci_high"])
                for n, m in models.items()]
        figures.append((criterion, bar_chart(criterion, bars, lo=0.0, hi=1.0,
                                             chart_id=f"chart-{criterion}")))
    times = [Bar(n, index[n], m[INFERENCE_TIME]["mean"], m[INFERENCE_TIME]["ci_low"],
                 m[INFERENCE_TIME]["ci_high"]) for n, m in models.items()]
    figures.append(("inference time per summary (s)",
                    bar_chart("inference time", times, pattern="{:.3f}",
                              chart_id="chart-inference_time")))
    rated = [(n, m["bradley_terry"]) for n, m in models.items() if m.get("bradley_terry")]
    if rated:
        points = [Bar(n, index[n], bt["rating"], bt["ci_low"], bt["ci_high"])
                  for n, bt in sorted(rated, key=lambda item: -item[1]["rating"])]
        figures.append(("Bradley-Terry rating (centre 1500)",
                        point_chart("Bradley-Terry", points, chart_id="chart-bradley_terry",
                                    centre=1500.0)))
    body = "".join(f"<figure><figcaption>{e(title)}</figcaption>{svg}</figure>"
                   for title, svg in figures)
    level = round(100 * report["bootstrap"]["level"])
    return (f"<h2>Criteria ({level}% bootstrap intervals over studies)</h2>"
            f'<div class="charts">{body}</div>')


def _agreement(report: Mapping[str, Any]) -> str:
    by_juror = report["abstentions"]["by_juror"]
    errors = (report.get("juror_errors") or {"by_juror": {}})["by_juror"]
    rows = "".join(
        f"<tr><td>{e(c)}</td><td class=\"num\">{fmt(cell['kappa'])}</td>"
        f"<td class=\"num\">{fmt(cell['observed'])}</td><td class=\"num\">{cell['subjects']}"
        f"</td><td class=\"num\">{sum(counts[c] for counts in by_juror.values())}</td>"
        f"<td class=\"num\">{sum(counts[c] for counts in errors.values())}</td>"
        f"<td>{e(cell['note'] or '')}</td></tr>"
        for c, cell in report["agreement"].items())
    return ("<h2>Jury agreement</h2><table><tr><th>criterion</th><th>Fleiss' kappa</th>"
            "<th>observed agreement</th><th>summaries</th><th>abstentions</th>"
            "<th>errors (could not be asked)</th><th>note</th></tr>"
            + rows + "</table>" + _by_juror("abstentions by juror", by_juror)
            + _by_juror("errors by juror (could not be asked)", errors))


def _by_juror(title: str, counts: Mapping[str, Mapping[str, int]]) -> str:
    rows = "".join(
        f"<tr><td><code>{e(j)}</code></td>"
        + "".join(f'<td class="num">{by.get(c, 0)}</td>' for c in CRITERIA) + "</tr>"
        for j, by in counts.items())
    return (f"<table><tr><th>{e(title)}</th>" + "".join(f"<th>{e(c)}</th>" for c in CRITERIA)
            + "</tr>" + rows + "</table>")


def _self_judging(report: Mapping[str, Any]) -> str:
    section = report.get("self_judging") or {}
    if not section:
        return ""
    items = "".join(
        f"<li><code>{e(model)}</code> ({e(cell.get('family') or 'same model')}): "
        + ", ".join(f"<code>{e(j)}</code>" for j in cell["jurors"]) + ": "
        + ("dropped from its pairs (--rwe-exclude-self)" if cell.get("excluded")
           else "judges it (--rwe-exclude-self drops such jurors)") + "</li>"
        for model, cell in section.items())
    return ('<h2>Self-judging</h2><div class="banner note">A juror of the model\'s own vendor '
            f"family may favour its output.<ul>{items}</ul></div>")


def _repeats(report: Mapping[str, Any]) -> str:
    section = report.get("repeats")
    if not section:
        return ""
    k = section["repeats"]
    head = ["model", *(f"{e(c)} pass share / pass^{k}" for c in CRITERIA),
            f"all criteria pass^{k}", "studies where repeats disagree"]
    rows = "".join(
        "<tr>" + f"<td><code>{e(model)}</code></td>"
        + "".join(f'<td class="num">{e(fmt_ci(cell["criteria"][c]["pass_share"]))} / '
                  f'{e(fmt_ci(cell["criteria"][c]["pass_all"]))}</td>' for c in CRITERIA)
        + f'<td class="num">{e(fmt_ci(cell["all_criteria"]["pass_all"]))}</td>'
        + f'<td class="num">{cell["disagreeing_count"]}</td></tr>'
        for model, cell in section["models"].items())
    return (f"<h2>Repeats</h2><p class=\"meta\">{k} summaries per (model, study); "
            f"rwe_repeat_rule {e(section['rule'])}. Share of repeats passing each criterion, "
            f"and pass^{k} (every repeat passes), with 95% bootstrap intervals over studies.</p>"
            "<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>" + rows
            + "</table>")


def _sensitivity(report: Mapping[str, Any]) -> str:
    section = report.get("sensitivity") or {}
    if not section:
        return ""
    rows = "".join(
        f"<tr><td>{e(k)}</td><td class=\"num\">{s['weight']:g}</td>"
        f"<td>{e(', '.join(s['top']))}</td><td class=\"num\">{s['low']:.3g} &ndash; "
        f"{s['high']:.3g}{'+' if s['high'] >= s['scan_end'] else ''}</td>"
        f"<td>{e(', '.join(s['below'] or []) or '-')}</td>"
        f"<td>{e(', '.join(s['above'] or []) or '-')}</td></tr>"
        for k, s in section.items())
    return ("<h2>Weight sensitivity</h2><p class=\"meta\">For each weight, with the others fixed: "
            "the range over which the top model stays on top, and who wins outside it.</p>"
            "<table><tr><th>weight</th><th>now</th><th>top</th><th>stable range</th>"
            "<th>top below</th><th>top above</th></tr>" + rows + "</table>")


def _grid(report: Mapping[str, Any], models: Sequence[str]) -> str:
    grid = report["badges"]
    rows = []
    for i, study in enumerate(report["studies"]):
        badges = grid.get(study, {})
        green = all(b == "green" for b in badges.values())
        cells = "".join(
            f'<td class="cell"><a href="#s{i}-m{j}">'
            f"{_badge(badges.get(m), m + ': ' + badges.get(m, 'no result'))}</a></td>"
            for j, m in enumerate(models))
        rows.append(f'<tr class="{"all-green" if green else "problem"}"><td>'
                    f'<a href="#s{i}"><code>{e(study)}</code></a></td>{cells}</tr>')
    head = "".join(f"<th>{_swatch(j)}<code>{e(m)}</code></th>" for j, m in enumerate(models))
    return ("<h2>Badges</h2><p class=\"meta\">green: every criterion unanimous and passing; "
            "yellow: passes with dissent; red: fails. Click a badge for the summary and the "
            "jurors' explanations.</p><label><input type=\"checkbox\" id=\"only-problems\"> "
            "only studies that are not all green</label>"
            f'<table class="grid"><tr><th>study</th>{head}</tr>{"".join(rows)}</table>')


def _result(result: Mapping[str, Any], anchor: str) -> str:
    summary = result.get("summary")
    parts = [f'<div class="result" id="{anchor}"><h4>{_badge(result["badge"])} '
             f"<code>{e(result['model'])}</code>"
             + (f" repeat {result['repeat'] + 1}" if result["repeat"] else "") + "</h4>"]
    if summary is not None:
        tokens = f"{fmt(summary['input_tokens'], '{}')} / {fmt(summary['output_tokens'], '{}')}"
        parts.append(f'<div class="meta">{fmt(summary["latency_s"], "{:.3f}")} s &middot; '
                     f"tokens in/out {tokens}"
                     + (" &middot; replayed" if summary.get("replayed") else "") + "</div>"
                     + summary_with_findings(summary["text"] or "", result["criteria"]))
    if result.get("error"):
        parts.append(f'<div class="error">error: {e(result["error"])}</div>')
    rows = []
    for criterion, cell in result["criteria"].items():
        for k, juror in enumerate(cell["jurors"]):
            score = juror["score"]
            head = ""
            if k == 0:
                status = "pass" if cell["passed"] else "FAIL"
                if not cell.get("quorum_met", True):
                    status += f" (no quorum: {cell.get('quorum')} needed)"
                head = (f'<td rowspan="{len(cell["jurors"])}">{e(criterion)}<br>'
                        f'<span class="meta">mean {fmt(cell["mean"])} &middot; {status}'
                        "</span></td>")
            rows.append(f"<tr>{head}<td><code>{e(juror['juror'])}</code></td>"
                        f'<td class="score-{"none" if score is None else score}">'
                        f"{juror.get('status', 'abstained') if score is None else score}</td>"
                        f'<td class="explanation">{e(juror["explanation"])}</td></tr>')
    if rows:
        parts.append("<table><tr><th>criterion</th><th>juror</th><th>score</th>"
                     "<th>explanation</th></tr>" + "".join(rows) + "</table>")
    parts.append("</div>")
    return "".join(parts)


def _drilldown(report: Mapping[str, Any], models: Sequence[str]) -> str:
    by_study: dict[str, list[Mapping[str, Any]]] = {}
    for result in report["results"]:
        by_study.setdefault(result["study"], []).append(result)
    column = {m: j for j, m in enumerate(models)}
    blocks = []
    for i, study in enumerate(report["studies"]):
        badges = "".join(_badge(report["badges"].get(study, {}).get(m), m) for m in models)
        seen: set[str] = set()
        results = []
        for result in by_study.get(study, []):
            anchor = f"s{i}-m{column[result['model']]}"
            if result["repeat"] or anchor in seen:
                anchor += f"-r{result['repeat']}"
            seen.add(anchor)
            results.append(_result(result, anchor))
        blocks.append(f'<details class="study" id="s{i}"><summary>{badges} '
                      f"<code>{e(study)}</code></summary>{''.join(results)}</details>")
    return ("<h2>Studies</h2><button type=\"button\" id=\"expand-all\">expand all</button>"
            + "".join(blocks))


def render_html(report: Mapping[str, Any]) -> str:
    """report.html text."""
    models = list(report["models"])
    index = {m: j for j, m in enumerate(models)}
    body = "".join([
        _header(report), _gate(report), warning_html(report), _ranking(report, index),
        variant_html(report), breakdown_html(report), _charts(report, index),
        _self_judging(report), _repeats(report), _agreement(report), _sensitivity(report),
        cost_html(report), _grid(report, models),
        _drilldown(report, models), run_html(report)])
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f'<meta http-equiv="Content-Security-Policy" content="{e(CSP)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>pytest-rwe report</title><script>{ERROR_HOOK}</script>"
        f"<style>{CSS}{FINDINGS_CSS}</style></head><body>"
        '<div id="rwe-errors"></div>'
        f"{body}<script>{SCRIPT}</script></body></html>\n"
    )
