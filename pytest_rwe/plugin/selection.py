"""``--rwe-select`` in collection: the tests of the studies that do not match are deselected
(pytest glue over :mod:`pytest_rwe.study.selection`).

The expression is read once per process, from ``--rwe-select`` (or, without it, ini
``rwe_select``, one expression a line; every one must hold). Syntax and unknown keys are
usage errors on the controller before xdist starts a worker. A value no study has, or a
selection that leaves no study, is a "no study" problem (:mod:`pytest_rwe.plugin.studies`):
with ``--rwe-select`` on the command line it stops the run at configure time; from the ini
it surfaces like an empty cases folder, at collection (a worker's placeholder test fails).
A study file that cannot be read has no tags: it is never deselected, so its tests still
fail and name the file and the fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from pytest_rwe.plugin.session import RweCase
from pytest_rwe.study import StudyLoad
from pytest_rwe.study.selection import (
    Condition,
    SelectError,
    describe,
    parse_select,
    selected,
    selection_problem,
    study_tags,
)

_CONDITIONS = pytest.StashKey[tuple[str, list[Condition]]]()


def select_option(config: pytest.Config) -> tuple[str, list[str]]:
    """Where the expressions come from (``--rwe-select`` or ``ini rwe_select``) and them."""
    given = [str(e) for e in config.getoption("--rwe-select") or ()]
    if given:
        return "--rwe-select", given
    return "ini rwe_select", [str(e) for e in config.getini("rwe_select") or ()]


def conditions(config: pytest.Config) -> list[Condition]:
    """The parsed selection (empty: every study); a bad expression is a usage error."""
    cached = config.stash.get(_CONDITIONS, None)
    if cached is None:
        option, expressions = select_option(config)
        try:
            cached = (option, parse_select(expressions, option=option))
        except SelectError as exc:
            raise pytest.UsageError(str(exc)) from None
        config.stash[_CONDITIONS] = cached
    return cached[1]


def problem(config: pytest.Config, loads: Sequence[StudyLoad]) -> str | None:
    """Why the selection keeps no study of ``loads`` (see
    :func:`~pytest_rwe.study.selection.selection_problem`), or None."""
    found = conditions(config)
    if not found:
        return None
    tag_sets = [study_tags(load.study) for load in loads if load.study is not None]
    option = config.stash[_CONDITIONS][0]
    return selection_problem(found, tag_sets, option=option)


def kept(config: pytest.Config, loads: Sequence[StudyLoad]) -> set[str]:
    """The ids of the studies the selection keeps (a file that cannot be read included)."""
    found = conditions(config)
    return {load.id for load in loads if load.study is None or selected(load.study, found)}


def load_of(item: pytest.Item) -> StudyLoad | None:
    """The study of a test of the studies (``rwe_case`` or ``rwe_study_load``), or None."""
    callspec: Any = getattr(item, "callspec", None)
    if callspec is None:
        return None
    case = callspec.params.get("rwe_case")
    if isinstance(case, RweCase):
        return case.load
    load = callspec.params.get("rwe_study_load")
    return load if isinstance(load, StudyLoad) else None


def deselect(config: pytest.Config, items: list[pytest.Item],
             loads: Sequence[StudyLoad]) -> None:
    """Drop the tests of studies the selection leaves out, telling pytest (and its
    ``N deselected``) through ``pytest_deselected``."""
    if not conditions(config):
        return
    keep = kept(config, loads)
    remaining: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        load = load_of(item)
        (dropped if load is not None and load.id not in keep else remaining).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = remaining


def selection_section(config: pytest.Config, loads: Sequence[StudyLoad],
                      ) -> dict[str, Any] | None:
    """report.json's ``selection``: the expression and how many studies it kept."""
    found = conditions(config)
    if not found:
        return None
    studies = [load.study for load in loads if load.study is not None]
    count = sum(1 for study in studies if selected(study, found))
    return {"expression": describe(found), "selected": count, "studies": len(studies),
            "deselected": len(studies) - count}
