"""A Markdown table from cells already escaped (:func:`pytest_rwe.escape.markdown`): the one
builder of report.md's tables, so every section writes them alike."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def md_row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def md_table(header: Sequence[str], rows: Iterable[Iterable[str]]) -> list[str]:
    """The header line, its ``---`` line, then one line a row."""
    return [md_row(header), md_row(["---"] * len(header)), *(md_row(r) for r in rows)]
