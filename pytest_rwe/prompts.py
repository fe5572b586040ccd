"""Prompt templates: loading, validation, hashing and rendering of the prompts.

There are six templates, plain text files with :class:`string.Template` ``$placeholders``
(so the JSON braces in them need no escaping; ``$$`` is a literal dollar sign): one
summarization prompt per design and one judge prompt per criterion. The packaged defaults
live in ``pytest_rwe/prompts/``; a folder (the suite's ``cases/prompts/``) overrides any of
them by file name.

Every request is a single user message and no system message: the benchmark's prompts are
single prompts, some models treat system messages differently (or not at all), and one
message means the judge sees exactly the text the summarizer saw, and a template file maps
to one stored text whose hash is the whole story.

Rendering is deterministic: the same study and the same templates give the same bytes
(JSON with ``indent=2``, ``ensure_ascii=False`` and the file's own key order).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pytest_rwe.criteria import TABLE
from pytest_rwe.providers.base import (
    GenerationRequest,
    GenerationSettings,
    JudgeTask,
    Message,
    PromptOrigin,
    SummarizeTask,
)
from pytest_rwe.settings import PromptVariant, SettingsError
from pytest_rwe.study import DESIGNS, Design, Study
from pytest_rwe.verdict import Criterion

SUMMARIZE_TEMPLATES: Mapping[Design, str] = {d: f"summarize_{d}.txt" for d in DESIGNS}
JUDGE_TEMPLATES: Mapping[Criterion, str] = {s.criterion: s.prompt for s in TABLE}
TEMPLATE_NAMES: tuple[str, ...] = (*SUMMARIZE_TEMPLATES.values(), *JUDGE_TEMPLATES.values())

#: placeholders a summarization template may use; every one of them is required
SUMMARIZE_PLACEHOLDERS: tuple[str, ...] = ("question", "design_json", "results_json")
#: placeholders a judge template may use; ``$criterion`` (the criterion key) is optional
JUDGE_PLACEHOLDERS: tuple[str, ...] = ("summarization_prompt", "summary", "criterion")
_JUDGE_REQUIRED = ("summarization_prompt", "summary")

PACKAGE_SOURCE = "package"


class PromptFileError(ValueError):
    """A prompt template (or folder) that cannot be used; names the file and the fix."""

    def __init__(self, path: Path | str, message: str) -> None:
        self.path = Path(path)
        self.message = message
        super().__init__(f"{path}: {message}")


@dataclass(frozen=True)
class PromptTemplate:
    """One template: its file name, its text and where it came from."""

    name: str  # e.g. "summarize_cohort.txt"
    text: str
    source: str  # "package" or the path of the overriding file

    @functools.cached_property
    def sha256(self) -> str:
        """sha256 of the text (UTF-8)."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class PromptSet:
    """The six templates a run uses, in :data:`TEMPLATE_NAMES` order."""

    templates: tuple[PromptTemplate, ...]

    def __getitem__(self, name: str) -> PromptTemplate:
        for template in self.templates:
            if template.name == name:
                return template
        raise KeyError(f"no template {name!r}; templates: {', '.join(TEMPLATE_NAMES)}")

    def summarize(self, design: Design) -> PromptTemplate:
        """The summarization template of ``design``."""
        return self[SUMMARIZE_TEMPLATES[design]]

    def judge(self, criterion: Criterion) -> PromptTemplate:
        """The judge template of ``criterion``."""
        return self[JUDGE_TEMPLATES[criterion]]

    def hashes(self) -> dict[str, str]:
        """sha256 of each template's text, by file name."""
        return {t.name: t.sha256 for t in self.templates}

    def sha256(self) -> str:
        """One hash of the whole set: names and texts (not where they came from)."""
        digest = hashlib.sha256()
        for template in self.templates:
            # NUL separators so that moving text between templates changes the hash
            digest.update(template.name.encode("utf-8") + b"\0")
            digest.update(template.text.encode("utf-8") + b"\0")
        return digest.hexdigest()

    def to_dict(self, root: Path | None = None) -> dict[str, Any]:
        """JSON-able description for report.json; sources below ``root`` are made relative."""

        def source(text: str) -> str:
            if root is None or text == PACKAGE_SOURCE:
                return text
            try:
                return Path(text).resolve().relative_to(root.resolve()).as_posix()
            except ValueError:
                return text

        return {
            "sha256": self.sha256(),
            "templates": {
                t.name: {"sha256": t.sha256, "source": source(t.source)} for t in self.templates
            },
        }


def _placeholders_of(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(allowed, required) placeholders of the template ``name``."""
    if name.startswith("judge_"):
        return JUDGE_PLACEHOLDERS, _JUDGE_REQUIRED
    return SUMMARIZE_PLACEHOLDERS, SUMMARIZE_PLACEHOLDERS


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def validate_template(name: str, text: str, where: Path | str) -> None:
    """Raise :class:`PromptFileError` if ``text`` cannot serve as the template ``name``."""
    allowed, required = _placeholders_of(name)
    valid = ", ".join("$" + p for p in allowed)
    used: set[str] = set()
    # Template.get_identifiers() is 3.11+; the pattern works on 3.10 too.
    for match in string.Template.pattern.finditer(text):
        identifier = match.group("named") or match.group("braced")
        if identifier is not None:
            if identifier not in allowed:
                raise PromptFileError(where, (
                    f"unknown placeholder ${identifier}; the valid placeholders are {valid} "
                    "(write $$ for a literal dollar sign)"
                ))
            used.add(identifier)
        elif match.group("invalid") is not None:
            line, col = _line_col(text, match.start())
            raise PromptFileError(where, (
                f"a '$' at line {line}, column {col} starts no placeholder; write $$ for a "
                f"literal dollar sign, or use one of {valid}"
            ))
    missing = [p for p in required if p not in used]
    if missing:
        raise PromptFileError(where, (
            "the template never uses " + ", ".join("$" + p for p in missing)
            + f"; without it the model does not see that data (valid placeholders: {valid})"
        ))
    if name.startswith("judge_"):
        criterion = name[len("judge_"):-len(".txt")]
        if criterion not in text and "$criterion" not in text and "${criterion}" not in text:
            raise PromptFileError(where, (
                f"the judge template never names its criterion key {criterion!r}; ask for "
                f'{{"{criterion}": {{"score": 0 or 1, "explanation": "..."}}}} '
                "(or write $criterion) so replies can be read"
            ))


def _read(path: Path) -> str:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise PromptFileError(path, f"cannot read the file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise PromptFileError(path, "the file is not UTF-8; save it as UTF-8") from None
    return _normalize(text)


def _normalize(text: str) -> str:
    # One text whatever the platform wrote (CRLF after a Windows checkout), so hashes and
    # rendered bytes agree across machines.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _package_text(name: str) -> str:
    resource = resources.files("pytest_rwe").joinpath("prompts").joinpath(name)
    return _normalize(resource.read_text(encoding="utf-8"))


def _overrides(folder: Path) -> dict[str, Path]:
    if not folder.is_dir():
        raise PromptFileError(folder, (
            "no such folder; point the prompts option at a folder of template files, "
            "or leave it unset to use the packaged defaults"
        ))
    overrides: dict[str, Path] = {}
    for path in sorted(folder.glob("*.txt")):
        if path.name not in TEMPLATE_NAMES:
            raise PromptFileError(path, (
                f"unknown template name {path.name!r}; the templates are: "
                + ", ".join(TEMPLATE_NAMES) + " (rename or remove the file)"
            ))
        overrides[path.name] = path
    return overrides


def load_prompts(folder: Path | str | None = None, *,
                 base: Path | str | None = None) -> PromptSet:
    """Load the six templates: the packaged defaults, each overridden by ``base/<name>``,
    then by ``folder/<name>``.

    ``None`` means no override. ``base`` is the run's default folder beneath a prompt
    variant's ``folder``, which may then hold only the templates it changes. Every ``*.txt``
    in either folder must be one of :data:`TEMPLATE_NAMES`; other files (a README) are
    ignored.
    """
    overrides: dict[str, Path] = {}
    for layer in (base, folder):
        if layer is not None:
            overrides.update(_overrides(Path(layer)))
    templates = []
    for name in TEMPLATE_NAMES:
        if name in overrides:
            text, source = _read(overrides[name]), str(overrides[name])
        else:
            text, source = _package_text(name), PACKAGE_SOURCE
        validate_template(name, text, source if name in overrides else f"pytest_rwe/prompts/{name}")
        templates.append(PromptTemplate(name, text, source))
    return PromptSet(tuple(templates))


def load_variants(variants: Sequence[PromptVariant],
                  base: Path | None) -> dict[str, PromptSet]:
    """Each prompt variant's templates: its folder over ``base`` (the run's default folder)
    over the packaged defaults. Raises :class:`SettingsError` naming the option as typed."""
    loaded: dict[str, PromptSet] = {}
    for variant in variants:
        try:
            loaded[variant.name] = load_prompts(variant.folder, base=base)
        except PromptFileError as exc:
            raise SettingsError(f"{variant.given}: {exc}") from None
    return loaded


def _to_json(value: object) -> str:
    # The user's key order is kept (no sort_keys): the prompt shows the file as written.
    return json.dumps(value, indent=2, ensure_ascii=False)


def design_json(study: Study) -> str:
    """The design as JSON without the id (the id can give the answer away): design, picot."""
    raw = study.raw
    return _to_json({"design": raw.get("design", study.design), "picot": raw["picot"]})


def results_json(study: Study) -> str:
    """The study's original ``results`` mapping, rendered back unchanged."""
    return _to_json(study.raw["results"])


def _substitute(template: PromptTemplate, values: Mapping[str, str]) -> str:
    # substitute() is single-pass: a "$" inside a value (a summary) is never expanded.
    return string.Template(template.text).substitute(values).rstrip() + "\n"


def render_summarize_prompt(study: Study, prompts: PromptSet) -> str:
    """The summarization prompt for ``study`` from its design's template."""
    return _substitute(prompts.summarize(study.design), {
        "question": str(study.raw.get("question", study.question)),
        "design_json": design_json(study),
        "results_json": results_json(study),
    })


# The judge prompt wraps its data in <<<NAME ... NAME>>> blocks; a data text holding such
# a marker could close its block early and pass itself off as instructions, so markers
# inside data are broken up (visibly, and without touching any number or word).
def _defang(data: str) -> str:
    return data.replace("<<<", "<< <").replace(">>>", "> >>")


def render_judge_prompt(
    study: Study,
    summary: str,
    criterion: Criterion,
    prompts: PromptSet,
    summarization_prompt: str | None = None,
) -> str:
    """The judge prompt for one criterion: the full summarization prompt and the summary.

    ``summarization_prompt`` may pass the study's already rendered prompt (nine judge calls
    share it); it must be what :func:`render_summarize_prompt` gives.
    """
    if summarization_prompt is None:
        summarization_prompt = render_summarize_prompt(study, prompts)
    return _substitute(prompts.judge(criterion), {
        "summarization_prompt": _defang(summarization_prompt.rstrip()),
        "summary": _defang(summary.strip()),
        "criterion": criterion,
    })


def summarize_request(
    study: Study, prompts: PromptSet, settings: GenerationSettings
) -> GenerationRequest:
    """One user message asking for a summary of ``study``."""
    return GenerationRequest(
        messages=(Message("user", render_summarize_prompt(study, prompts)),),
        settings=settings,
        task=SummarizeTask(study),
        # its one other input is the study's data: a changed prompt with the same template
        # is a changed study
        origin=prompt_origin([prompts.summarize(study.design)]),
    )


def judge_request(
    study: Study,
    summary: str,
    criterion: Criterion,
    prompts: PromptSet,
    settings: GenerationSettings,
    summarization_prompt: str | None = None,
) -> GenerationRequest:
    """One user message asking a juror to score ``summary`` on ``criterion``."""
    shown = (summarization_prompt if summarization_prompt is not None
             else render_summarize_prompt(study, prompts))
    text = render_judge_prompt(study, summary, criterion, prompts, shown)
    return GenerationRequest(
        messages=(Message("user", text),),
        settings=settings,
        task=JudgeTask(study, summary, criterion),
        # the judge prompt embeds the summarization prompt: both templates are its origin,
        # and the hashes of the two texts it embeds tell the study's data from the summary
        origin=prompt_origin([prompts.judge(criterion), prompts.summarize(study.design)],
                             summarization_prompt_sha256=_sha256(shown),
                             summary_sha256=_sha256(summary)),
    )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prompt_origin(templates: list[PromptTemplate], **inputs: str) -> PromptOrigin:
    """The store's reference to the templates (and data hashes) a request was rendered from.

    A template's source is written relative to the current folder (a suite's
    ``cases/prompts/...``), or ``package`` for the packaged default: never an absolute path,
    which would differ between machines and change every stored file.
    """
    return PromptOrigin(
        templates=tuple((t.name, t.sha256, _portable(t.source)) for t in templates),
        inputs=tuple(sorted(inputs.items())),
    )


def _portable(source: str) -> str:
    if source == PACKAGE_SOURCE:
        return source
    return _relative_to(source, os.getcwd())


@functools.lru_cache(maxsize=256)
def _relative_to(source: str, folder: str) -> str:
    # resolving costs system calls, and every request of a run names the same few files
    path = Path(source)
    try:
        return path.resolve().relative_to(Path(folder).resolve()).as_posix()
    except (ValueError, OSError):
        return path.name
