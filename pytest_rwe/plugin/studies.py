"""No study, no pass: a run that collects a test of the studies but finds none is a usage
error, not a skip (pytest glue).

An empty parameter set would make pytest skip the tests and exit 0: a mistyped
``--rwe-cases`` in a workflow would give a green check on no evidence. A ``--rwe-select``
that keeps no study, or names a value no study has, is the same problem
(:mod:`pytest_rwe.plugin.selection`). Instead:

- with ``--rwe-cases``, ``--rwe-model`` or ``--rwe-select`` on the command line, the folder
  is checked in ``pytest_configure``, before xdist starts any worker;
- otherwise (ini ``rwe_cases``) the tests are parametrized with one :class:`NoStudy`
  placeholder: a plain run stops at the end of collection with the usage error; an xdist
  worker cannot raise one (it would crash), so its placeholder test fails with the message
  and tells the controller, which ends the session with exit status 4 and the message last.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pytest_rwe.plugin.session import get_session
from pytest_rwe.redact import redact

NO_STUDY_PROPERTY = "rwe_no_study"


@dataclass(frozen=True)
class NoStudy:
    """The parameter of a test of the studies when the cases folder holds none."""

    message: str
    id: str = "no-study-found"


def no_study_problem(config: pytest.Config) -> str | None:
    """Why the cases folder gives no study to test (missing, not a folder, empty, or none
    selected by ``--rwe-select``), or None."""
    session = get_session(config)
    try:
        if session.loads:
            from pytest_rwe.plugin import selection

            problem = selection.problem(config, session.loads)
            return redact(f"pytest-rwe: {problem}") if problem else None
    except pytest.UsageError as exc:  # not a folder
        return redact(f"pytest-rwe: no study found: {exc}")
    folder = session.settings.cases
    return redact(f"pytest-rwe: no study found in {folder} (--rwe-cases, or ini rwe_cases): it "
                  "holds no *.json study file, so there is nothing to evaluate; point "
                  "--rwe-cases at a folder of study JSON files, e.g. cases/studies")


def check_studies(config: pytest.Config) -> None:
    """Raise the usage error of :func:`no_study_problem`, if any."""
    problem = no_study_problem(config)
    if problem:
        raise pytest.UsageError(problem)


def placeholder_problem(items: list[pytest.Item]) -> str | None:
    """The message of the first collected :class:`NoStudy` placeholder, or None."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None:
            continue
        for value in callspec.params.values():
            if isinstance(value, NoStudy):
                return value.message
    return None
