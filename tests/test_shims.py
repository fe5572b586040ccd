"""The old public import paths (one release): the same objects as the new paths, one warning."""

from __future__ import annotations

import asyncio
import importlib
import sys
import warnings
from pathlib import Path

import pytest

import pytest_rwe

# old module -> {name: new module}
SHIMS = {
    "pytest_rwe.fixtures": {name: "pytest_rwe.plugin.asserts"
                            for name in ("Summary", "Jury", "assert_criterion")},
    "pytest_rwe.drift_plugin": {"RweSnapshot": "pytest_rwe.plugin.snapshot"},
    "pytest_rwe.summarizer": {"summarize": "pytest_rwe.rules.summarizer"},
    "pytest_rwe.claims_report": {"claim_diagnostics": "pytest_rwe.rules.diagnostics"},
}


@pytest.mark.parametrize("old", sorted(SHIMS))
def test_an_old_module_warns_once_and_serves_the_same_objects(old: str) -> None:
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert len(deprecations) == 1, [str(w.message) for w in caught]
    assert old in str(deprecations[0].message) and "pytest_rwe" in str(deprecations[0].message)
    for name, new in SHIMS[old].items():
        assert getattr(module, name) is getattr(importlib.import_module(new), name)
        assert getattr(pytest_rwe, name) is getattr(module, name)  # the public path


def test_the_fixtures_shim_does_not_reexport_fixture_functions() -> None:
    # a `from pytest_rwe.fixtures import *` conftest would register every fixture twice
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        module = importlib.import_module("pytest_rwe.fixtures")
    assert not [name for name in vars(module) if name.startswith("rwe_")]


@pytest.mark.parametrize("name", ["compare_reports", "gate_section", "parse_max_drop"])
def test_the_baseline_names_warn_from_drift(name: str) -> None:
    import pytest_rwe.drift as drift
    from pytest_rwe.report import baseline

    with pytest.warns(DeprecationWarning, match=f"pytest_rwe.drift.{name} is deprecated"):
        value = getattr(drift, name)
    assert value is getattr(baseline, name)


def test_every_public_name_resolves() -> None:
    for name in pytest_rwe.__all__:
        assert getattr(pytest_rwe, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'Typo'"):
        pytest_rwe.Typo  # type: ignore[attr-defined]  # noqa: B018


#: (module, old name, new name): renamed, the old name kept for one release
RENAMED = [
    ("pytest_rwe.store", "Claim", "Reservation"),
    ("pytest_rwe.store.response_store", "Claim", "pytest_rwe.store.reservation:Reservation"),
    ("pytest_rwe.store.reservation", "Claim", "Reservation"),
    ("pytest_rwe.store.leader", "Role", "ProcessRole"),
    ("pytest_rwe.providers.base", "Role", "MessageRole"),
]


@pytest.mark.parametrize(("module", "old", "new"), RENAMED)
def test_a_renamed_name_warns_and_serves_the_new_object(module: str, old: str,
                                                        new: str) -> None:
    home = importlib.import_module(module)
    new_home, _, new_name = new.rpartition(":")
    with pytest.warns(DeprecationWarning, match=f"{module}.{old} is deprecated; use "
                                                f"{new_home or module}.{new_name}"):
        value = getattr(home, old)
    assert value is getattr(importlib.import_module(new_home or module), new_name)
    with pytest.raises(AttributeError, match="no attribute 'Typo'"):
        getattr(home, "Typo")  # noqa: B009


def test_the_store_s_old_claim_methods_warn_and_reserve(tmp_path: Path) -> None:
    from store_testkit import SUMMARY, key_of

    from pytest_rwe.store import ResponseStore

    store = ResponseStore(tmp_path, "new")
    with pytest.warns(DeprecationWarning, match="ResponseStore.claim_blocking is deprecated"):
        reservation = store.claim_blocking(SUMMARY, key_of())
    assert reservation.must_call
    reservation.release()
    with pytest.warns(DeprecationWarning, match="ResponseStore.claim is deprecated"):
        again = asyncio.run(store.claim(SUMMARY, key_of()))
    assert again.must_call
    again.release()


def test_the_leader_s_old_claim_warns_and_takes_the_lead(tmp_path: Path) -> None:
    from pytest_rwe.store.leader import RunLeader

    with pytest.warns(DeprecationWarning, match="RunLeader.claim is deprecated; use "
                                                "RunLeader.take_lead"):
        assert RunLeader(tmp_path, "run-1").claim()
    assert not RunLeader(tmp_path, "run-1").take_lead()


def test_to_record_is_to_dict_and_warns_for_one_release() -> None:
    from pytest_rwe import CriterionVerdict, JurorScore, Verdict
    from pytest_rwe.providers.base import GenerationResult

    score = JurorScore("builtin/rules", "completeness", 1, "all reported")
    verdict = Verdict({"completeness": CriterionVerdict("completeness", (score,))})
    result = GenerationResult("text", 0.5)
    for obj in (score, verdict.criteria["completeness"], verdict, result):
        with pytest.warns(DeprecationWarning, match=r"to_record is deprecated; use .*to_dict"):
            assert obj.to_record() == obj.to_dict()
