"""The syrupy extension that stores verdict profiles as golden JSON files.

Layout: ``<test dir>/golden/<test file stem>/<provider>__<model>/<study>.json`` (the test
function's name is an extra folder when it differs from the file stem; a repeat adds
``.r<N>``). One small file per (model, study): a pull request's diff shows exactly which
verdicts moved, and xdist workers never write the same file.

Unused-snapshot accounting (syrupy reports unused snapshots and deletes them on
``--snapshot-update``) is narrowed on purpose: only the folders of the models this run
evaluates are scanned, and within them only files whose study is no longer in the suite
count as unused. So a run of another model never touches these files, and a test that
errored before its assertion (e.g. a response missing in a replay-only run) does not lose
its golden file.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from syrupy.data import SnapshotCollection, SnapshotCollections
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from pytest_rwe.drift.profile import VerdictProfile
from pytest_rwe.redact import path_name
from pytest_rwe.store.entry import slug
from pytest_rwe.store.files import atomic_write_text

if TYPE_CHECKING:
    from syrupy.location import PyTestLocation
    from syrupy.types import (
        PropertyFilter,
        PropertyMatcher,
        SerializableData,
        SerializedData,
        SnapshotIndex,
    )

GOLDEN_DIRNAME = "golden"
# "test_drift[openai/gpt-4.1::some_study#r2]": the id the plugin gives a (model, study) case
_ID_RE = re.compile(r"\[(?P<model>[^\[\]]+?)::(?P<study>[^\[\]#]+?)(?:#r(?P<repeat>\d+))?\]$")


class CaseRef(NamedTuple):
    """The (model, study, repeat) a test location evaluates."""

    model: str
    study: str
    repeat: int


def case_of(test_location: PyTestLocation) -> CaseRef | None:
    """The case of a test: from its ``rwe_case`` parameter, else parsed from its id."""
    callspec = getattr(test_location.item, "callspec", None)
    case = callspec.params.get("rwe_case") if callspec is not None else None
    if case is not None and hasattr(case, "model") and hasattr(case, "load"):
        # a prompt variant's model is its arm (model+variant): its own snapshots
        return CaseRef(str(getattr(case, "arm", case.model)), str(case.load.id),
                       int(case.repeat))
    # xdist's controller only has a stand-in item with the test's name
    match = _ID_RE.search(str(getattr(test_location.item, "name", "")))
    if match is None:
        return None
    repeat = int(match.group("repeat")) - 1 if match.group("repeat") else 0
    return CaseRef(match.group("model"), match.group("study"), repeat)


def snapshot_stem(study: str, repeat: int = 0) -> str:
    """The golden file's name (without ``.json``) of a study and repeat."""
    return slug(study) + (f".r{repeat + 1}" if repeat else "")


class DriftSnapshotExtension(SingleFileSnapshotExtension):
    """Verdict profiles as pretty-printed JSON, one file per (model, study)."""

    file_extension = "json"
    _write_mode = WriteMode.TEXT
    #: (model slug, snapshot stem) of every case in the suite, set by the plugin per process;
    #: None means unknown (then every file counts, as syrupy would have it)
    live: frozenset[tuple[str, str]] | None = None

    def serialize(self, data: SerializableData, *, exclude: PropertyFilter | None = None,
                  include: PropertyFilter | None = None,
                  matcher: PropertyMatcher | None = None) -> SerializedData:
        facts = data.facts if isinstance(data, VerdictProfile) else data
        return json.dumps(facts, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def matches(self, *, serialized_data: SerializableData,
                snapshot_data: SerializableData) -> bool:
        # compare the data, not its formatting: a hand-edited file with other whitespace
        # or key order is still the same profile
        try:
            return bool(json.loads(str(serialized_data)) == json.loads(str(snapshot_data)))
        except ValueError:
            return False

    @classmethod
    def _base(cls, test_location: PyTestLocation) -> Path:
        base = Path(test_location.filepath).parent / GOLDEN_DIRNAME / test_location.basename
        function = str(test_location.methodname or "")
        return base / function if function and function != test_location.basename else base

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        case = case_of(test_location)
        base = cls._base(test_location)
        return str(base / slug(path_name(case.model)) if case else base)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        # only the folder of this test's model: other models' files are not this run's
        return cls.dirname(test_location=test_location)

    @classmethod
    def get_snapshot_name(cls, *, test_location: PyTestLocation,
                          index: SnapshotIndex = 0) -> str:
        case = case_of(test_location)
        if case is None:
            return super().get_snapshot_name(test_location=test_location, index=index)
        name = snapshot_stem(case.study, case.repeat)
        if isinstance(index, str):
            name += f".{slug(index)}"
        elif index:
            name += f".{index}"
        return name

    @classmethod
    def matches_test_location(cls, *, test_location: PyTestLocation,
                              snapshot_location: str) -> bool:
        expected = Path(cls.dirname(test_location=test_location))
        location = Path(snapshot_location)
        name = cls.get_snapshot_name(test_location=test_location)
        return location.parent == expected and (location.stem == name
                                                or location.stem.startswith(name + "."))

    def discover_snapshots(self, *, test_location: PyTestLocation,
                           ignore_extensions: list[str] | None = None) -> SnapshotCollections:
        found = super().discover_snapshots(test_location=test_location,
                                           ignore_extensions=ignore_extensions)
        live = type(self).live
        if live is None:
            return found
        kept = SnapshotCollections()
        for collection in found:
            location = Path(collection.location)
            model, stem = location.parent.name, location.stem
            # "<stem>.<index>" belongs to a second assertion of the same case
            if (model, stem) not in live and (model, stem.rsplit(".", 1)[0]) not in live:
                kept.add(collection)  # its study left the suite: unused
        return kept

    @classmethod
    def write_snapshot(cls, *, snapshot_location: str,
                       snapshots: list[tuple[SerializedData, PyTestLocation, SnapshotIndex]],
                       name_order: dict[str, int] | None = None) -> None:
        # syrupy warns when a snapshot's name does not start with the test's name; ours are
        # named after the study on purpose (see the module docstring)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"\s*Can not relate snapshot name")
            super().write_snapshot(snapshot_location=snapshot_location, snapshots=snapshots,
                                   name_order=name_order)

    @classmethod
    def write_snapshot_collection(cls, *, snapshot_collection: SnapshotCollection,
                                  name_order: dict[str, int] | None = None) -> None:
        # atomic: a killed run leaves the old golden file or the new one, never half of one
        path = Path(snapshot_collection.location)
        data: Any = next(iter(snapshot_collection)).data
        atomic_write_text(path, str(data), fsync=True)
