"""Where a stored call lives: one file per logical call, named by what the call is for.

Layout (format 2)::

    <root>/<model>/<study>/summary.json                        # the summary, repeat 0
    <root>/<model>/<study>/summary.r<N>.json                   # repeat N (--rwe-repeat)
    <root>/<model>/<study>/<juror>/<criterion>[.r<N>].json     # a juror's judgement of it
    <root>/<model>/<study>/<juror>/<criterion>[.r<N>].repair.json   # its one repair
    <root>/<model>/variant-<name>/<study>/...                  # a prompt variant's calls
    <root>/<called model>/<label>/free/<kind>-<name>-<key12>.json   # free-form calls

``<model>`` is the model under test and ``<juror>`` the judging model, each by its canonical
name (``gpt-4.1`` and ``openai/gpt-4.1`` are one folder, ``openai__gpt-4.1``; a ``model@URL``
by its server's host and port only, never its credentials). The names hold no key: a changed
prompt or setting rewrites the same file, so a pull-request diff shows the old and the new
output side by side. A *free-form* call (a judgement of a text no model under test wrote: the
``rwe_jury`` fixture on your own summary, deepeval's prompts) has no identity beyond its
prompt, so it is named by the first 12 hex digits of its key.

The layout before format 2 (``<root>/<study>/<model>/<stem>-<key12>.json``) is still read
(:func:`legacy_relative_path`); ``rwe store migrate`` rewrites it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pytest_rwe.redact import path_name

CallKind = Literal["summary", "judge", "repair"]

#: the folder of free-form calls; a model folder always holds "__", so it never clashes
FREE_FOLDER = "free"
VARIANT_PREFIX = "variant-"

_KEY_RE = re.compile(r"^[0-9a-f]{64}$")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
#: a file named by key: the free-form files and every file of the old layout
KEYED_NAME = re.compile(r"-[0-9a-f]{12}\.json$")


def slug(name: str) -> str:
    """``name`` as one safe path component: "/" becomes "__", other odd characters "-"."""
    text = _UNSAFE.sub("-", name.replace("/", "__")).strip(".-")
    return text or "_"


def model_folder(model: str) -> str:
    """The folder of a model: its name with "/" as "__", a ``@URL`` by host and port."""
    return slug(path_name(model))


def check_key(key: str) -> None:
    """Raise ValueError unless ``key`` looks like a store key (it becomes part of a path)."""
    if not isinstance(key, str) or not _KEY_RE.match(key):
        raise ValueError(f"store key {key!r} is not 64 lowercase hex digits; use store_key()")


@dataclass(frozen=True)
class CallLabel:
    """What a call is for; it names the stored file but is not part of the key.

    ``model`` is the called model (``provider/model``); ``subject`` the model under test
    whose summary a judge or repair call is about: the file is filed under it. A judge call
    without a subject is free-form (named by key). ``repeat`` is the sample of the model
    under test the call belongs to; only a summary's repeat is part of its key
    (:attr:`key_repeat`): the same text judged twice is one judge request. ``variant`` names
    the prompt variant the call was made under (None: the run's only prompts).
    The caller (:class:`pytest_rwe.caller.Caller`) writes both model names canonically.
    """

    kind: CallKind
    study_id: str
    criterion: str | None
    model: str
    repeat: int = 0
    subject: str | None = None
    variant: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("summary", "judge", "repair"):
            raise ValueError(f"CallLabel.kind is {self.kind!r}; use summary, judge or repair")
        if self.kind == "summary" and self.criterion is not None:
            raise ValueError("CallLabel.criterion must be None for a summary call")
        if self.kind != "summary" and not self.criterion:
            raise ValueError(f"CallLabel.criterion is required for a {self.kind} call")
        if isinstance(self.repeat, bool) or not isinstance(self.repeat, int) or self.repeat < 0:
            raise ValueError(f"CallLabel.repeat is {self.repeat!r}; use an integer >= 0")

    @property
    def free_form(self) -> bool:
        """Whether the call has no logical identity (see the module docstring)."""
        return self.kind != "summary" and self.subject is None

    @property
    def key_repeat(self) -> int:
        """The repeat index that goes into the store key (a summary's only)."""
        return self.repeat if self.kind == "summary" else 0

    def describe(self) -> str:
        """The call in words, for messages: "summary", "judge call 'completeness'", ..."""
        if self.kind == "summary":
            text = "summary"
        elif self.kind == "judge":
            text = f"judge call '{self.criterion}'"
        else:
            text = f"repair of the judge reply '{self.criterion}'"
        if self.subject:
            text += f" on the summary by {self.subject}"
        if self.repeat:
            text += f" (repeat {self.repeat})"
        if self.variant:
            text += f" (prompt variant {self.variant})"
        return text

    def relative_path(self, key: str) -> Path:
        """Where this call is stored, relative to the store root (see the module docstring);
        ``key`` names only a free-form call's file."""
        check_key(key)
        if self.free_form:
            return Path(model_folder(self.model), slug(self.study_id), FREE_FOLDER,
                        f"{self.kind}-{slug(self.criterion or '')}-{key[:12]}.json")
        return logical_path(self.subject or self.model, self.study_id, self.repeat,
                            juror=None if self.kind == "summary" else self.model,
                            criterion=self.criterion, repair=self.kind == "repair",
                            variant=self.variant)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "study": self.study_id,
            "criterion": self.criterion,
            "model": self.model,
            "subject": self.subject,
            "repeat": self.repeat,
            # only in a variant run: a run without variants writes no variant field
            **({"variant": self.variant} if self.variant else {}),
        }

    @classmethod
    def from_dict(cls, data: Any, repeat: int = 0) -> CallLabel:
        """The label a stored record names (``repeat`` when the record's label has none)."""
        if not isinstance(data, dict):
            raise ValueError("field label is not an object")
        try:
            return cls(kind=data["kind"], study_id=str(data["study"]),
                       criterion=data.get("criterion"), model=str(data["model"]),
                       repeat=int(data.get("repeat", repeat)), subject=data.get("subject"),
                       variant=data.get("variant"))
        except KeyError as exc:
            raise ValueError(f"field label.{exc.args[0]} is missing") from None


def logical_path(model: str, study_id: str, repeat: int = 0, *, juror: str | None = None,
                 criterion: str | None = None, repair: bool = False,
                 variant: str | None = None) -> Path:
    """The file of a logical call: a summary when ``juror`` is None, else a judgement."""
    base = Path(model_folder(model))
    if variant:
        base /= VARIANT_PREFIX + slug(variant)
    base /= slug(study_id)
    suffix = f".r{repeat}" if repeat else ""
    if juror is None:
        return base / f"summary{suffix}.json"
    kind = ".repair" if repair else ""
    return base / model_folder(juror) / f"{slug(criterion or '')}{suffix}{kind}.json"


def expected_paths(cases: Iterable[tuple[str, str, int, str | None]], jury: Iterable[str],
                   criteria: Iterable[str]) -> set[Path]:
    """Every file the (model, study, repeat, prompt variant) ``cases`` can use: each summary
    and each juror's judgement and repair per criterion (relative paths; canonical names)."""
    jurors, wanted = list(jury), list(criteria)
    paths: set[Path] = set()
    for model, study_id, repeat, variant in cases:
        paths.add(logical_path(model, study_id, repeat, variant=variant))
        for juror in jurors:
            for criterion in wanted:
                for repair in (False, True):
                    paths.add(logical_path(model, study_id, repeat, juror=juror,
                                           criterion=criterion, repair=repair,
                                           variant=variant))
    return paths


def legacy_relative_path(call: CallLabel, key: str) -> Path:
    """Where the layout before format 2 kept ``call`` under ``key``."""
    check_key(key)
    if call.kind == "summary":
        stem = f"summary-r{call.repeat}"
    else:
        stem = "-".join([call.kind, slug(call.criterion or ""),
                         *([f"r{call.key_repeat}"] if call.key_repeat else [])])
    return Path(slug(call.study_id), model_folder(call.model), f"{stem}-{key[:12]}.json")


def is_legacy_file(relative: Path) -> bool:
    """Whether a stored file's path (relative to the root) is of the layout before format 2."""
    return bool(KEYED_NAME.search(relative.name)) and relative.parent.name != FREE_FOLDER


def entry_files(root: Path) -> list[Path]:
    """Every stored response under ``root`` (``*.json``, not in a dot folder), sorted."""
    if not root.is_dir():
        return []
    return sorted(
        path for path in root.rglob("*.json")
        if not any(part.startswith(".") for part in path.relative_to(root).parts)
    )
