"""The session report: aggregation of the run's records and its renderings.

Pure (no pytest import): ``build_report`` turns evaluation records into the report dict
(the content of report.json); the terminal, Markdown and HTML renderers read only that dict.
The names below are imported on first use, so that a light submodule (``progress``,
``config``) does not load the renderers. ``aggregate`` is not among them: it names the
submodule :mod:`pytest_rwe.report.aggregate` (import the function from there), since a name
shared by a submodule and a lazy attribute would change meaning once the submodule loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_rwe import lazy_attributes

if TYPE_CHECKING:
    from pytest_rwe.report.config import ReportSettings, build_report_settings
    from pytest_rwe.report.html import render_html
    from pytest_rwe.report.markdown import render_markdown
    from pytest_rwe.report.report_json import build_report, write_atomic, write_report
    from pytest_rwe.report.terminal import plain, render_gate, render_summary

_HOMES = {
    "ReportSettings": "config",
    "build_report_settings": "config",
    "render_html": "html",
    "render_markdown": "markdown",
    "build_report": "report_json",
    "write_atomic": "report_json",
    "write_report": "report_json",
    "plain": "terminal",
    "render_gate": "terminal",
    "render_summary": "terminal",
}

__all__ = [
    "ReportSettings",
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

if not TYPE_CHECKING:  # hidden from mypy, which would otherwise type any typo as Any
    __getattr__ = lazy_attributes(__name__, {name: f"{__name__}.{module}"
                                             for name, module in _HOMES.items()})
