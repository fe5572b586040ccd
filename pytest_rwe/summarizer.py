"""Deprecated path, kept for one release: the template summarizer is
:mod:`pytest_rwe.rules.summarizer`; import ``summarize`` from ``pytest_rwe``."""

import warnings

from pytest_rwe.rules.summarizer import readable, summarize

warnings.warn("pytest_rwe.summarizer is deprecated; import summarize from pytest_rwe",
              DeprecationWarning, stacklevel=2)

__all__ = ["readable", "summarize"]
