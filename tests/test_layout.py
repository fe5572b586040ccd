"""The layout shows the layers (docs/architecture.md): the top level holds the pure core only."""

from __future__ import annotations

from pathlib import Path

import pytest_rwe

#: old paths kept for one release as warning re-exports (README: "Layout")
DEPRECATED_MODULES = {"fixtures", "drift_plugin", "summarizer", "claims_report"}
CORE = {"criteria", "verdict", "settings", "values", "redact", "escape", "prompts", "replies",
        "jury_rules", "calibrate", "caller", "engine", "pair_calls"}


def test_the_top_level_holds_the_pure_core_only() -> None:
    root = Path(pytest_rwe.__file__).parent
    modules = {p.stem for p in root.glob("*.py")} - {"__init__"} - DEPRECATED_MODULES
    assert modules == CORE
    assert len(modules) <= 13


def test_the_store_lists_its_public_names_once() -> None:
    import importlib

    import pytest_rwe.store as store

    homes = store._HOMES
    assert sorted(homes) == sorted(store.__all__)
    for name, home in homes.items():  # each from the module that defines it
        assert getattr(store, name) is getattr(importlib.import_module(home), name)
    assert not hasattr(importlib.import_module("pytest_rwe.store.response_store"), "__all__")
