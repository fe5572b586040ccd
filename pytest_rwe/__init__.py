"""pytest-rwe: a pytest plugin and regression suite for LLM summaries of RWE studies.

The public API. Every name but ``__version__`` is imported on first use (PEP 562), so that
loading the pytest plugin, which imports this package, costs nothing until a run evaluates.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"


def lazy_attributes(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A PEP 562 ``__getattr__`` for ``package``: each name of ``homes`` (name -> module) is
    imported from its module on first use, then kept on the package."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)  # once: later lookups do not come here
        return value

    return __getattr__


def renamed_attributes(module: str, renames: Mapping[str, str],
                       fallback: Callable[[str], Any] | None = None) -> Callable[[str], Any]:
    """A PEP 562 ``__getattr__`` for ``module`` that serves each old name of ``renames``
    (old -> the new name in ``module``, or ``"other.module:Name"``) with a
    :class:`DeprecationWarning`, for one release; any other name goes to ``fallback`` (an
    AttributeError without one)."""

    def __getattr__(name: str) -> Any:
        new = renames.get(name)
        if new is None:
            if fallback is not None:
                return fallback(name)
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home, _, new_name = new.rpartition(":")
        warnings.warn(f"{module}.{name} is deprecated; use {home or module}.{new_name}",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home or module), new_name)

    return __getattr__


def deprecated_method(old: str, new: str) -> None:
    """Warn that method ``old`` was renamed ``new`` (one release)."""
    warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=3)


if TYPE_CHECKING:
    from pytest_rwe.drift.profile import VerdictProfile
    from pytest_rwe.engine import build_engine
    from pytest_rwe.plugin.asserts import Jury, Summary, assert_criterion
    from pytest_rwe.plugin.snapshot import RweSnapshot
    from pytest_rwe.providers.base import GenerationRequest, GenerationResult, Provider
    from pytest_rwe.providers.registry import register_provider
    from pytest_rwe.rules.diagnostics import claim_diagnostics
    from pytest_rwe.rules.summarizer import summarize
    from pytest_rwe.settings import EngineSettings, engine_settings
    from pytest_rwe.study import (
        Outcome,
        Study,
        StudyFileError,
        load_folder,
        load_study,
        parse_study,
    )
    from pytest_rwe.verdict import CRITERIA, Criterion, CriterionVerdict, JurorScore, Verdict

#: public name -> the module that defines it
_HOMES = {
    **dict.fromkeys(["CRITERIA", "Criterion", "CriterionVerdict", "JurorScore", "Verdict"],
                    "pytest_rwe.verdict"),
    **dict.fromkeys(["Outcome", "Study", "StudyFileError", "load_folder", "load_study",
                     "parse_study"], "pytest_rwe.study"),
    **dict.fromkeys(["Jury", "Summary", "assert_criterion"], "pytest_rwe.plugin.asserts"),
    "RweSnapshot": "pytest_rwe.plugin.snapshot",
    "VerdictProfile": "pytest_rwe.drift.profile",
    "summarize": "pytest_rwe.rules.summarizer",
    "claim_diagnostics": "pytest_rwe.rules.diagnostics",
    **dict.fromkeys(["GenerationRequest", "GenerationResult", "Provider"],
                    "pytest_rwe.providers.base"),
    "register_provider": "pytest_rwe.providers.registry",
    **dict.fromkeys(["EngineSettings", "engine_settings"], "pytest_rwe.settings"),
    "build_engine": "pytest_rwe.engine",
}

__all__ = [
    "CRITERIA",
    "Criterion",
    "CriterionVerdict",
    "EngineSettings",
    "GenerationRequest",
    "GenerationResult",
    "JurorScore",
    "Jury",
    "Outcome",
    "Provider",
    "RweSnapshot",
    "Study",
    "StudyFileError",
    "Summary",
    "Verdict",
    "VerdictProfile",
    "__version__",
    "assert_criterion",
    "build_engine",
    "claim_diagnostics",
    "engine_settings",
    "load_folder",
    "load_study",
    "parse_study",
    "register_provider",
    "summarize",
]

if not TYPE_CHECKING:  # hidden from mypy, which would otherwise type any typo as Any
    __getattr__ = lazy_attributes(__name__, _HOMES)

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
