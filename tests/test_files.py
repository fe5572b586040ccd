"""One atomic write: whole files or none, fsync'ed for user artifacts only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytest_rwe.report.report_json import write_atomic
from pytest_rwe.store import files
from pytest_rwe.store.files import atomic_write_text


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = os.fsync

    def counted(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(files.os, "fsync", counted)
    return calls


def test_a_file_is_replaced_whole_and_its_folder_created(tmp_path: Path,
                                                         fsyncs: list[int]) -> None:
    target = tmp_path / "new" / "entry.json"
    atomic_write_text(target, "first")
    atomic_write_text(target, "second é")
    assert target.read_text(encoding="utf-8") == "second é"
    assert [p.name for p in target.parent.iterdir()] == ["entry.json"]  # no temporary left
    assert fsyncs == []  # store entries: transient or re-recordable, never fsync'ed


def test_user_artifacts_are_flushed_to_disk(tmp_path: Path, fsyncs: list[int]) -> None:
    write_atomic(tmp_path / "report.json", "{}\n")
    assert len(fsyncs) == 2  # the file's data, then the folder's entry (the rename)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.md"
    target.write_text("old", encoding="utf-8")

    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "write", full)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]
