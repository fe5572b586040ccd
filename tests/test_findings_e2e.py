"""Findings as data through a real run of the installed plugin, with and without xdist: the
demo summarizers' mistakes reach report.json as spans of their summaries."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_kit import xdist_args
from test_report_e2e import demo_suite


@pytest.mark.parametrize("workers", [0, 2])
def test_report_json_locates_every_finding(pytester: pytest.Pytester, workers: int) -> None:
    demo_suite(pytester)
    result = pytester.runpytest(*xdist_args(workers), "--rwe-report", "out")
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the demo models make mistakes
    report: dict[str, Any] = json.loads((pytester.path / "out" / "report.json").read_text())
    findings = quotes = 0
    for entry in report["results"]:
        text = entry["summary"]["text"]
        for criterion, cell in entry["criteria"].items():
            for juror in cell["jurors"]:
                if juror["juror"] == "builtin/rules" and juror["score"] is not None:
                    assert (juror["score"] == 0) == bool(juror["findings"]), (criterion, juror)
                    for finding in juror["findings"]:
                        assert set(finding) == {"quote", "start", "end", "field", "value",
                                                "message"}
                        assert text[finding["start"]:finding["end"]] == finding["quote"]
                        assert finding["field"].startswith("results.")
                        findings += 1
                for quote in juror.get("quotes", []):
                    if quote["found"]:
                        assert text[quote["start"]:quote["end"]].lower() == \
                            " ".join(quote["quote"].split()).lower()
                    quotes += 1
    assert findings > 0 and quotes > 0
    page = (pytester.path / "out" / "report.html").read_text(encoding="utf-8")
    assert page.count('<mark class="finding"') > 0

