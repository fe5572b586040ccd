"""Reading a suite's configuration, or collecting it, with pytest itself (no test runs).

``rwe keys`` and ``rwe store prune`` must see the models, jurors, studies and store exactly as
a run of the same arguments would: the same ini file, ``-o`` overrides, ``--rwe-*`` options
and conftest files. So they run pytest in this process with a small plugin that reads the
settings (and, for prune, the collected cases) and stops before anything is called.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_rwe.settings import RweSettings


class SuiteError(Exception):
    """pytest could not read the configuration or collect the suite; holds its output."""


@dataclass
class Suite:
    """What a run with the given arguments would use."""

    settings: RweSettings
    #: (model, study id, repeat, prompt variant) of every collected case (empty unless
    #: collected); the variant is None outside a run of prompt variants
    cases: list[tuple[str, str, int, str | None]] = field(default_factory=list)


class _ReadSettings:
    def __init__(self) -> None:
        self.settings: RweSettings | None = None
        self.error: str | None = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_cmdline_main(self, config: pytest.Config) -> int:
        # before collection (and before any plugin starts a session): settings only
        from pytest_rwe.plugin.options import read_settings

        try:
            self.settings = read_settings(config)
        except pytest.UsageError as exc:
            self.error = str(exc)
            return int(pytest.ExitCode.USAGE_ERROR)
        return 0


class _CollectCases:
    def __init__(self) -> None:
        self.settings: RweSettings | None = None
        self.cases: list[tuple[str, str, int, str | None]] = []

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        from pytest_rwe.plugin.session import get_session

        self.settings = get_session(session.config).settings
        for item in session.items:
            callspec: Any = getattr(item, "callspec", None)
            case = callspec.params.get("rwe_case") if callspec is not None else None
            study = getattr(getattr(case, "load", None), "study", None)
            if case is not None and study is not None:
                variant = getattr(case, "variant", None)  # a run of prompt variants
                entry = (str(case.model), str(study.id), int(case.repeat),
                         str(variant) if variant else None)
                if entry not in self.cases:
                    self.cases.append(entry)


def read_suite(args: Sequence[str], *, collect: bool = False) -> Suite:
    """The settings of a run with ``args`` (and its cases when ``collect``); SuiteError with
    pytest's output when it cannot tell."""
    base = ["-p", "no:cacheprovider", "--rwe-record", "none"]
    if importlib.util.find_spec("xdist") is not None:
        base += ["-n", "0"]  # a controller collects nothing: the cases must be collected here
    plugin: _ReadSettings | _CollectCases
    if collect:
        plugin = _CollectCases()
        base += ["--collect-only", "-q"]
    else:
        plugin = _ReadSettings()
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        code = pytest.main([*base, *args], plugins=[plugin])
    if isinstance(plugin, _ReadSettings) and plugin.error:
        raise SuiteError(plugin.error)
    if plugin.settings is None or code not in (pytest.ExitCode.OK,
                                               pytest.ExitCode.NO_TESTS_COLLECTED):
        raise SuiteError(f"pytest {' '.join([*base, *args])} exited with {code}:\n"
                         + output.getvalue()[-4000:])
    cases = plugin.cases if isinstance(plugin, _CollectCases) else []
    return Suite(plugin.settings, cases)


def pytest_args(args: Any) -> list[str]:
    """The pytest arguments a subcommand was given (a leading ``--`` left out)."""
    rest = list(getattr(args, "pytest_args", None) or [])
    return rest[1:] if rest[:1] == ["--"] else rest


def store_of(suite: Suite, given: str | None) -> Path:
    """The store folder: ``--store`` when given, else the suite's (``--rwe-store``/ini)."""
    return Path(given).resolve() if given else suite.settings.store
