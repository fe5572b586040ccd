"""Deprecated path, kept for one release: import ``RweSnapshot`` from ``pytest_rwe``. The
drift fixtures and the baseline gate are registered by the plugin (:mod:`pytest_rwe.plugin`)."""

import warnings

from pytest_rwe.plugin.snapshot import RweSnapshot

warnings.warn("pytest_rwe.drift_plugin is deprecated; import RweSnapshot from pytest_rwe",
              DeprecationWarning, stacklevel=2)

__all__ = ["RweSnapshot"]
