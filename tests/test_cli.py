"""The ``rwe`` command: validate a folder of studies."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_rwe.cli import main

SUITE = Path(__file__).resolve().parent.parent / "cases" / "studies"


def test_the_public_suite_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(SUITE)]) == 0
    out = capsys.readouterr().out
    count = len(list(SUITE.glob("*.json")))
    assert f"{count} of {count} study files valid" in out and "case_series" in out


def test_a_broken_file_is_named_with_its_field_and_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("iscgm_t2d_basal_or_oral_therapy_case_series",
                 "hospital_shift_work_metabolic_syndrome"):
        shutil.copy(SUITE / f"{name}.json", tmp_path)
    raw = json.loads((SUITE / "hospital_shift_work_metabolic_syndrome.json").read_text("utf-8"))
    raw["id"] = "broken"
    raw["results"]["control_size"] = "eighty"
    (tmp_path / "broken.json").write_text(json.dumps(raw), encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert f"{tmp_path / 'broken.json'}: invalid study file" in captured.err
    assert "$.results.control_size: cannot read 'eighty' as a group size" in captured.err
    assert "2 of 3 study files valid" in captured.out


def test_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["validate", str(tmp_path / "nope")]) == 2


def test_the_console_script_lists_its_commands() -> None:
    script = shutil.which("rwe", path=str(Path(sys.executable).parent))
    assert script is not None, "the rwe console script is not installed beside this Python"
    result = subprocess.run([script, "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0
    for command in ("validate", "rescore", "calibrate"):
        assert command in result.stdout


def test_files_and_folders_are_accepted_and_warnings_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = SUITE / "hospital_shift_work_metabolic_syndrome.json"
    raw = json.loads(one.read_text("utf-8"))
    raw["id"] = "odd"
    key = next(k for k in raw["results"]["outcomes"] if not k.endswith("!pvalue"))
    raw["results"]["outcomes"] = {key: "1.50 (0.70, 0.95)"}
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["validate", str(one), str(odd)]) == 0  # a warning alone does not fail
    captured = capsys.readouterr()
    assert f"warning: {odd}: $.results.outcomes[" in captured.err
    assert "outside its own interval" in captured.err
    assert "2 of 2 study files valid (2 cross_sectional); 1 warning(s)" in captured.out
    assert main(["validate", "--strict", str(odd)]) == 1
