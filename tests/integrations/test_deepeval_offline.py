"""The deepeval example runs offline: no connection leaves the machine.

The example runs in a fresh interpreter with ``netguard/sitecustomize.py`` loaded first,
which refuses and logs every non-loopback connection and name lookup (so imports are
watched too). Skipped when deepeval is absent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("deepeval")

ROOT = Path(__file__).resolve().parents[2]
GUARD = Path(__file__).resolve().parent / "netguard"
OFFLINE = {"DEEPEVAL_TELEMETRY_OPT_OUT": "1", "DEEPEVAL_DISABLE_DOTENV": "1"}


def guarded_env(log: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DEEPEVAL_", "CONFIDENT_", "OPENAI_", "ANTHROPIC_", "GEMINI_",
                                "GOOGLE_"))}
    env.update(PYTHONPATH=str(GUARD), RWE_NETGUARD_LOG=str(log), **extra)
    return env


def attempts(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_the_guard_catches_a_connection(tmp_path: Path) -> None:
    log = tmp_path / "net.log"
    code = ("import socket\n"
            "try:\n    socket.create_connection(('192.0.2.1', 80), timeout=1)\n"
            "except OSError as e:\n    print('refused', e)\n")
    done = subprocess.run([sys.executable, "-c", code], env=guarded_env(log),
                          capture_output=True, text=True, timeout=60)
    assert "refused" in done.stdout and "netguard" in done.stdout, done.stderr
    assert len(attempts(log)) == 1 and "192.0.2.1" in attempts(log)[0]


def run_example(log: Path, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    # run from a scratch folder: deepeval keeps its cache folder (.deepeval) in the cwd
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(ROOT / "examples" / "deepeval"), "-q",
         "-p", "no:cacheprovider"],
        cwd=home.parent, env=guarded_env(log, DEEPEVAL_HOME=str(home), **env),
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "5 passed" in done.stdout
    return done


def test_the_example_makes_no_network_attempt(tmp_path: Path) -> None:
    log, home = tmp_path / "net.log", tmp_path / "home"
    run_example(log, home, **OFFLINE)
    assert attempts(log) == []
    # opted out: not even an anonymous telemetry id or a cache folder is written
    assert not home.exists() and not (tmp_path / ".deepeval").exists()


def test_without_the_opt_out_the_guard_sees_telemetry(tmp_path: Path) -> None:
    # proof that the guard watches deepeval: the same run, telemetry on, is caught
    log, home = tmp_path / "net.log", tmp_path / "home"
    run_example(log, home, DEEPEVAL_DISABLE_DOTENV="1")
    assert attempts(log), "no attempt seen with telemetry on: the guard proves nothing"
