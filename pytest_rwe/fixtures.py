"""Deprecated path, kept for one release: import ``Summary``, ``Jury`` and
``assert_criterion`` from ``pytest_rwe``. The fixtures themselves are registered by the plugin
(:mod:`pytest_rwe.plugin.fixtures`) and are deliberately not re-exported here."""

import warnings

from pytest_rwe.plugin.asserts import Jury, Summary, assert_criterion

warnings.warn("pytest_rwe.fixtures is deprecated; import Summary, Jury and assert_criterion "
              "from pytest_rwe", DeprecationWarning, stacklevel=2)

__all__ = ["Jury", "Summary", "assert_criterion"]
