"""report.html: a summary with each juror finding highlighted, and the study value beside it.

The rules juror's findings carry their span in the summary, the study field and the study's
value there; an LLM juror's quotes are located in the summary when they can be. Each span
is marked in the summary text and numbered; the table under it gives, per number, the
criterion, the juror, the quoted words, the study field and value, and the message. A quote
the summary does not contain is listed as such.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe import escape

FINDINGS_CSS = """
mark.finding { background: #ffe08a; border-bottom: 2px solid #d18b00; padding: 0 1px; }
mark.quote { background: #d8ecff; border-bottom: 2px solid #2b7bd1; padding: 0 1px; }
mark sup { color: #8a5a00; font-size: 0.7em; margin-left: 1px; }
table.findings { table-layout: fixed; width: 100%; }
table.findings td { overflow-wrap: anywhere; vertical-align: top; }
table.findings td.value code { font-weight: bold; }
table.findings .field { font-size: 0.8em; color: #666; }
td.misquote { color: #b00020; }
"""


e = escape.html  # escaped, quotes too, control sequences removed (as in html.py)


def _marks(criteria: Mapping[str, Any], length: int) -> list[dict[str, Any]]:
    """Every span a juror points at, numbered in text order."""
    marks: list[dict[str, Any]] = []
    for criterion, cell in criteria.items():
        for juror in cell.get("jurors", []):
            for finding in juror.get("findings", []):
                start, end = int(finding.get("start", 0)), int(finding.get("end", 0))
                marks.append({"criterion": criterion, "juror": juror["juror"], "kind": "finding",
                              "start": start, "end": end, "quote": finding.get("quote", ""),
                              "field": finding.get("field", ""), "value": finding.get("value"),
                              "message": finding.get("message", "")})
            for quote in juror.get("quotes", []):
                marks.append({"criterion": criterion, "juror": juror["juror"], "kind": "quote",
                              "start": int(quote.get("start", -1)),
                              "end": int(quote.get("end", -1)), "quote": quote.get("quote", ""),
                              "found": bool(quote.get("found")),
                              "in_study": bool(quote.get("in_study")), "field": "",
                              "value": None, "message": ""})
    spanned = [m for m in marks if 0 <= m["start"] < m["end"] <= length]
    spanned.sort(key=lambda m: (m["start"], -m["end"]))
    for number, mark in enumerate(spanned, start=1):
        mark["n"] = number
    return spanned + [m for m in marks if m not in spanned]


def _highlighted(text: str, marks: list[dict[str, Any]]) -> str:
    """The summary with each span marked; overlapping spans join the first one."""
    out: list[str] = []
    at = 0
    open_end = -1
    for mark in (m for m in marks if "n" in m):
        if mark["start"] < open_end:
            continue  # nested in, or overlapping, the span already marked: listed below only
        out.append(e(text[at:mark["start"]]))
        title = (f"{mark['criterion']} · {mark['juror']}"
                 + (f" · {mark['field']} = {mark['value']}" if mark["value"] is not None
                    else "") + (f": {mark['message']}" if mark["message"] else ""))
        out.append(f'<mark class="{mark["kind"]}" title="{e(title)}">'
                   f"{e(text[mark['start']:mark['end']])}<sup>{mark['n']}</sup></mark>")
        at = open_end = mark["end"]
    out.append(e(text[at:]))
    return "".join(out)


def summary_with_findings(text: str, criteria: Mapping[str, Any]) -> str:
    """The summary block of one result: highlighted text, then the numbered findings."""
    marks = _marks(criteria, len(text))
    block = f'<div class="summary-text">{_highlighted(text, marks)}</div>'
    if not marks:
        return block
    rows = []
    for mark in marks:
        number = mark.get("n", "")
        who = f"{e(mark['criterion'])}<br><code>{e(mark['juror'])}</code>"
        if mark["kind"] == "finding":
            value = "" if mark["value"] is None else f"<code>{e(mark['value'])}</code>"
            rows.append(f"<tr><td>{number}</td><td>{who}</td><td>{e(mark['quote'])}</td>"
                        f'<td class="value">{value}<div class="field">{e(mark["field"])}</div>'
                        f"</td><td>{e(mark['message'])}</td></tr>")
        else:
            where = ("found in the summary" if mark["found"] else
                     "in the study, not the summary" if mark["in_study"] else
                     "not in the summary: a misquote")
            css = "" if mark["found"] or mark["in_study"] else ' class="misquote"'
            rows.append(f"<tr><td>{number}</td><td>{who}</td><td>{e(mark['quote'])}</td>"
                        f"<td{css}>{where}</td><td>quoted in the explanation</td></tr>")
    return (block + '<table class="findings"><colgroup><col style="width:2.5em">'
            '<col style="width:13em"><col style="width:24%"><col style="width:24%"><col>'
            "</colgroup><tr><th>#</th><th>criterion, juror</th><th>quoted</th>"
            "<th>study value (field)</th><th>finding</th></tr>" + "".join(rows) + "</table>")
