"""The session report: aggregation of the run's records and its renderings.

Pure (no pytest import): ``build_report`` turns evaluation records into the report dict
(the content of report.json); the terminal, Markdown and HTML renderers read only that dict.
"""

from pytest_rwe.report.aggregate import aggregate
from pytest_rwe.report.config import ReportSettings, build_report_settings
from pytest_rwe.report.html import render_html
from pytest_rwe.report.markdown import render_markdown
from pytest_rwe.report.report_json import build_report, write_atomic, write_report
from pytest_rwe.report.terminal import plain, render_gate, render_summary

__all__ = [
    "ReportSettings",
    "aggregate",
    "build_report",
    "build_report_settings",
    "plain",
    "render_gate",
    "render_html",
    "render_markdown",
    "render_summary",
    "write_atomic",
    "write_report",
]
