"""Loading the plugin costs nothing until a run evaluates (issue 13): what gets imported.

These tests count modules, never time (the time is measured by benchmarks/plugin_import.py).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: what a run that evaluates nothing must not import (syrupy loads through its own plugin;
#: the xdist controller removes the run's leader notes with store.leader, which is light)
HEAVY = ("pydantic", "openai", "anthropic", "google.genai", "deepeval",
         "pytest_rwe.study", "pytest_rwe.rules", "pytest_rwe.engine", "pytest_rwe.caller",
         "pytest_rwe.store.response_store", "pytest_rwe.store.reservation",
         "pytest_rwe.store.budget", "pytest_rwe.store.entry", "pytest_rwe.drift",
         "pytest_rwe.stats", "pytest_rwe.prompts",
         "pytest_rwe.report.aggregate", "pytest_rwe.report.html", "pytest_rwe.report.terminal",
         "pytest_rwe.report.markdown", "pytest_rwe.providers.registry")

DUMP = '''
import json, sys

def pytest_unconfigure(config):
    with open("modules.json", "w", encoding="utf-8") as handle:
        json.dump(sorted(sys.modules), handle)
'''


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if m.startswith(HEAVY)]


def test_importing_the_entry_point_imports_only_the_hooks(tmp_path: object) -> None:
    code = ("import sys, json; import pytest; before = set(sys.modules); "
            "import pytest_rwe.plugin; print(json.dumps(sorted(set(sys.modules) - before)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=str(tmp_path))
    added = json.loads(done.stdout)
    assert added == ["pytest_rwe", "pytest_rwe.plugin", "pytest_rwe.plugin.hookspecs"]


@pytest.mark.parametrize("args", [(), ("-n", "2")], ids=["plain", "xdist"])
def test_a_run_of_other_tests_loads_nothing_heavy(pytester: pytest.Pytester,
                                                   args: tuple[str, ...]) -> None:
    pytester.makeconftest(DUMP)
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    result.assert_outcomes(passed=1)
    modules = json.loads((pytester.path / "modules.json").read_text(encoding="utf-8"))
    assert "pytest_rwe.plugin" in modules  # the plugin was loaded...
    assert heavy(modules) == []  # ...and cost nothing more


def test_this_repos_ini_keys_alone_load_nothing_heavy(pytester: pytest.Pytester) -> None:
    # a project configured for pytest-rwe, running a test that is not an rwe test
    pytester.makeini("[pytest]\nrwe_models = builtin/template\nrwe_jury = builtin/rules\n"
                     "rwe_cases = studies\n")
    pytester.makeconftest(DUMP)
    pytester.makepyfile(test_plain="def test_one():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    modules = json.loads((pytester.path / "modules.json").read_text(encoding="utf-8"))
    assert heavy(modules) == []
