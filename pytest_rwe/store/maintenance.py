"""Keeping a store tidy (pure: files only): prune the files no case uses, migrate the old layout.

``prune`` is given the files the current cases use (:func:`pytest_rwe.store.layout.expected_paths`
over the collected suite: ``rwe store prune``) and removes every other file of a logical
call. Free-form files (named by key: :mod:`pytest_rwe.store.layout`) are kept: no collection
can tell which of them a test still makes. A store still in the old layout is refused, with
the migration command, since its files would all look unused.

``migrate`` rewrites a store of the layout before format 2 in place: each old file goes to
the file of its logical call; when several old files are the same call (a prompt changed
and the old layout kept both), the newest recording is kept.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pytest_rwe.store.entry import FORMAT_VERSION, decode_entry, dump_entry
from pytest_rwe.store.files import atomic_write_text
from pytest_rwe.store.layout import FREE_FOLDER, CallLabel, entry_files, is_legacy_file


class StoreLayoutError(Exception):
    """A store that cannot be maintained as asked (old layout, unreadable files)."""


@dataclass
class PruneResult:
    """What :func:`prune` removed (or would remove, dry run) and what it kept."""

    removed: list[Path] = field(default_factory=list)
    kept: int = 0
    free_form: int = 0  # free-form files, kept


def prune(root: Path, used: Iterable[Path], *, dry_run: bool = False) -> PruneResult:
    """Remove the files under ``root`` of logical calls not in ``used`` (relative paths),
    then empty folders; ``dry_run`` only lists them."""
    wanted = {Path(p) for p in used}
    files = entry_files(root)
    legacy = [p for p in files if is_legacy_file(p.relative_to(root))]
    if legacy:
        raise StoreLayoutError(
            f"{root}: {len(legacy)} file(s) of the old store layout (named by key, e.g. "
            f"{legacy[0].relative_to(root)}), which prune cannot match to a case; rewrite "
            f"them first with: rwe store migrate --store {root}")
    result = PruneResult()
    for path in files:
        relative = path.relative_to(root)
        if relative.parent.name == FREE_FOLDER:
            result.free_form += 1
        elif relative in wanted:
            result.kept += 1
        else:
            result.removed.append(path)
    if not dry_run:
        for path in result.removed:
            path.unlink(missing_ok=True)
        remove_empty_folders(root)
    return result


@dataclass
class MigrateResult:
    """What :func:`migrate` did: files moved, older duplicates dropped, files left."""

    moved: int = 0
    dropped: list[Path] = field(default_factory=list)  # older recordings of the same call
    skipped: list[tuple[Path, str]] = field(default_factory=list)  # unreadable: why


def migrate(root: Path, canonical: Callable[[str], str | None], *,
            dry_run: bool = False) -> MigrateResult:
    """Rewrite the old-layout files under ``root`` into this layout (``canonical`` spells a
    model name canonically, None when it names no model: see
    :func:`pytest_rwe.providers.registry.canonical_name`)."""
    result = MigrateResult()
    chosen: dict[Path, tuple[str, Path, dict[str, object]]] = {}
    for path in entry_files(root):
        if not is_legacy_file(path.relative_to(root)):
            continue
        try:
            stored = decode_entry(path.read_text(encoding="utf-8"))
            if stored.format >= FORMAT_VERSION:
                continue
            label = CallLabel.from_dict(stored.data.get("label"),
                                          int(stored.data.get("repeat") or 0))
        except (OSError, UnicodeDecodeError, ValueError, TypeError) as exc:
            result.skipped.append((path, str(exc)))
            continue
        model = canonical(label.model) or label.model
        subject = canonical(label.subject) if label.subject else None
        label = CallLabel(label.kind, label.study_id, label.criterion, model, label.repeat,
                          subject, label.variant)
        target = root / label.relative_path(stored.key)
        record: dict[str, object] = {
            "format": FORMAT_VERSION, "call": label.to_dict(), "key": stored.key,
            "request": dict(stored.request()), "response": stored.data.get("response"),
            "run_id": stored.data.get("run_id"), "recorded_at": stored.data.get("recorded_at"),
        }
        when = str(stored.data.get("recorded_at") or "")
        previous = chosen.get(target)
        if previous is None or when >= previous[0]:
            if previous is not None:
                result.dropped.append(previous[1])
            chosen[target] = (when, path, record)
        else:
            result.dropped.append(path)
    for target, (_, source, record) in sorted(chosen.items()):
        result.moved += 1
        if dry_run:
            continue
        if target.exists():
            try:
                current = json.loads(target.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                current = {}
            if str(current.get("recorded_at") or "") > str(record.get("recorded_at") or ""):
                result.dropped.append(source)  # a newer recording is already in place
                result.moved -= 1
                source.unlink(missing_ok=True)
                continue
        atomic_write_text(target, dump_entry(record))
        source.unlink(missing_ok=True)
    if not dry_run:
        for path in result.dropped:
            path.unlink(missing_ok=True)
        remove_empty_folders(root)
    return result


def remove_empty_folders(root: Path) -> None:
    """Remove the empty folders below ``root`` (not dot folders, not ``root`` itself)."""
    for folder, _, _ in sorted(os.walk(root), key=lambda item: -len(item[0])):
        path = Path(folder)
        if path == root or any(p.startswith(".") for p in path.relative_to(root).parts):
            continue
        with contextlib.suppress(OSError):  # not empty
            path.rmdir()
