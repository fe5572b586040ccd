"""The core package never imports deepeval, and the integration says how to get it.

Runs with or without deepeval installed: each check runs in a fresh interpreter, and the
"absent" case hides deepeval with an import hook, so it is tested in every environment.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
import textwrap

import pytest

import pytest_rwe

# modules that need deepeval by design; every other module must import without it
NEEDS_DEEPEVAL = {"pytest_rwe.integrations.deepeval", "pytest_rwe.integrations.deepeval_llm"}

HIDE_DEEPEVAL = textwrap.dedent("""
    import importlib.abc, sys

    class HideDeepeval(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "deepeval" or name.startswith("deepeval."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, HideDeepeval())
""")


def core_modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(pytest_rwe.__path__, "pytest_rwe.")]
    return sorted(n for n in names if n not in NEEDS_DEEPEVAL and not n.endswith("__main__"))


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_the_walk_finds_the_core_and_the_integration() -> None:
    names = core_modules()
    assert {"pytest_rwe.engine", "pytest_rwe.plugin", "pytest_rwe.integrations.jury_engine"} \
        <= set(names)
    found = {m.name for m in pkgutil.walk_packages(pytest_rwe.__path__, "pytest_rwe.")}
    assert found >= NEEDS_DEEPEVAL  # the exclusion list names modules that exist


def test_no_core_module_imports_deepeval() -> None:
    code = textwrap.dedent(f"""
        import importlib, json, sys
        loaded = {{}}
        for name in {core_modules()!r}:
            importlib.import_module(name)
            loaded[name] = sorted(m for m in sys.modules
                                  if m == "deepeval" or m.startswith("deepeval."))
        print(json.dumps(loaded))
    """)
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    culprits = {name: mods for name, mods in json.loads(done.stdout).items() if mods}
    assert culprits == {}, f"core modules that pull in deepeval: {culprits}"


@pytest.mark.parametrize("module", sorted(NEEDS_DEEPEVAL))
def test_integration_without_deepeval_says_how_to_install_it(module: str) -> None:
    code = HIDE_DEEPEVAL + textwrap.dedent(f"""
        try:
            import {module}
        except ImportError as exc:
            print(type(exc).__name__ + ": " + str(exc))
        else:
            print("imported")
    """)
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ImportError: "), done.stdout
    assert 'pip install "pytest-rwe[deepeval]"' in done.stdout


def test_the_pytest_plugin_loads_without_deepeval() -> None:
    done = run_python(HIDE_DEEPEVAL + textwrap.dedent("""
        import pytest_rwe.plugin, sys
        assert "deepeval" not in sys.modules
        print("ok")
    """))
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
