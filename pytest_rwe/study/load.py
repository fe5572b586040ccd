"""Reading study files: one study, a folder of them, every problem named with its fix."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from pytest_rwe.study.model import Study, StudyFileError
from pytest_rwe.study.result_keys import parse_outcomes
from pytest_rwe.study.schema import StudyFile, problems_from


def parse_study(data: object, path: Path | str = "<memory>") -> Study:
    """Validate and parse a study mapping; raise :class:`StudyFileError` listing every problem."""
    if not isinstance(data, Mapping):
        raise StudyFileError(path, [("$", "a study file must hold one JSON object")])
    try:
        model = StudyFile.model_validate(data)
    except ValidationError as exc:
        problems = problems_from(exc)
        results = data.get("results")
        if isinstance(results, Mapping) and isinstance(results.get("outcomes"), Mapping):
            problems += parse_outcomes(results["outcomes"])[1]  # report every problem at once
        raise StudyFileError(path, problems) from None
    outcomes, problems = parse_outcomes(model.results.outcomes)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", model.id):
        problems.append(
            ("$.id", "use letters, digits, '_', '-' and '.' only, so it can name a test")
        )
    if model.design == "case_series" and model.results.control_size is not None:
        problems.append(("$.results.control_size", (
            "a case series has no control group; set control_size to null "
            "or change the design"
        )))
    if problems:
        raise StudyFileError(path, problems)
    return Study(
        id=model.id,
        design=model.design,
        question=model.question,
        picot={k: str(v) for k, v in data["picot"].items() if v is not None},
        intervention_size=model.results.intervention_size,
        control_size=model.results.control_size,
        baseline=model.results.baseline_differences,
        outcomes=outcomes,
        raw=data,
        path=Path(path) if not isinstance(path, Path) else path,
    )


def load_study(path: Path | str) -> Study:
    """Read and parse one study file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StudyFileError(path, [("$", f"cannot read the file: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise StudyFileError(path, [("$", "the file is not UTF-8; save it as UTF-8")]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StudyFileError(path, [(
            "$", f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        )]) from None
    return parse_study(data, path)


@dataclass(frozen=True)
class StudyLoad:
    """One file of a suite folder: its study, or the error that keeps it from running."""

    path: Path
    study: Study | None
    error: StudyFileError | None

    @property
    def id(self) -> str:
        return self.study.id if self.study is not None else self.path.stem


def load_folder(folder: Path | str) -> list[StudyLoad]:
    """Load every ``*.json`` under a folder, sorted by path; a bad file never hides the others.

    Two files with one id: the file that was there first (older modification time, then
    path order) keeps it, and the newcomer fails naming both, so adding a file can never
    break an established study.
    """
    return load_paths(sorted(Path(folder).rglob("*.json")))


def load_paths(paths: Iterable[Path | str]) -> list[StudyLoad]:
    """Load the given study files (see :func:`load_folder` for duplicate ids)."""
    loads: list[StudyLoad] = []
    for path in map(Path, paths):
        try:
            loads.append(StudyLoad(path, load_study(path), None))
        except StudyFileError as exc:
            loads.append(StudyLoad(path, None, exc))
    owners: dict[str, Path] = {}
    for load in sorted((x for x in loads if x.study is not None), key=_age):
        assert load.study is not None
        owners.setdefault(load.study.id, load.path)
    for index, load in enumerate(loads):
        if load.study is not None and owners[load.study.id] != load.path:
            first = owners[load.study.id]
            loads[index] = StudyLoad(load.path, None, StudyFileError(load.path, [(
                "$.id",
                f"id {load.study.id!r} is already used by {first} (the older file keeps it); "
                "give this study its own id",
            )]))
    return loads


def _age(load: StudyLoad) -> tuple[int, str]:
    try:
        modified = load.path.stat().st_mtime_ns
    except OSError:
        modified = 0
    return modified, str(load.path)
