"""The calls of one (model, study) pair, built in one place: the engine makes them, and the
planner (:mod:`pytest_rwe.plan`) looks them up in the store without making them.

:class:`EngineConfig` is what both need besides a caller: the jury, the loaded prompts (and
prompt variants) and the generation settings, made from
:class:`~pytest_rwe.settings.EngineSettings` by :func:`engine_config`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pytest_rwe.caller import CallLabel
from pytest_rwe.prompts import (
    PromptSet,
    judge_request,
    load_prompts,
    load_variants,
    render_summarize_prompt,
    summarize_request,
)
from pytest_rwe.providers.base import GenerationRequest, GenerationSettings
from pytest_rwe.settings import VARIANT_SEPARATOR, EngineSettings
from pytest_rwe.store import CallKind
from pytest_rwe.study import Study
from pytest_rwe.verdict import CRITERIA, Criterion


@dataclass(frozen=True)
class EngineConfig:
    """What the engine needs besides the caller: the jury, the loaded prompts and the
    generation settings (made from :class:`EngineSettings` by :func:`engine_config`)."""

    jury: tuple[str, ...]
    prompts: PromptSet
    summarize_settings: GenerationSettings = field(default_factory=GenerationSettings)
    judge_settings: GenerationSettings = field(default_factory=GenerationSettings)
    #: read each summary's claim diagnostics while its jury is asked (off pytest's thread);
    #: an xdist leader evaluates every pair but tests only its own, so it leaves them to
    #: the tests
    claims: bool = True
    #: prompt variants by name: a pair's model ``model+name`` (see
    #: :func:`pytest_rwe.settings.arm_name`) is ``model`` summarized and judged with that
    #: variant's templates
    variants: Mapping[str, PromptSet] = field(default_factory=dict)

    def arm(self, model: str) -> tuple[str, str | None, PromptSet]:
        """For the pair model ``model`` (a model, or a model+variant arm): the model to
        call, the variant's name (None) and the templates it is summarized and judged with."""
        head, sep, name = model.rpartition(VARIANT_SEPARATOR)
        if sep and name in self.variants:
            return head, name, self.variants[name]
        return model, None, self.prompts


def engine_config(settings: EngineSettings, *, summarize: GenerationSettings | None = None,
                  judge: GenerationSettings | None = None, claims: bool = True,
                  prompts: PromptSet | None = None,
                  variants: Mapping[str, PromptSet] | None = None) -> EngineConfig:
    """The engine's jury, prompts and generation settings from ``settings`` (also what
    ``--rwe-plan`` plans with). Generation settings default to ``settings.temperature``;
    ``prompts`` and ``variants``, when the caller has loaded them already, are used as
    they are (else loaded from ``settings``: PromptFileError, a ValueError, names the file)."""
    default = GenerationSettings(temperature=settings.temperature)
    if variants is None:
        variants = load_variants(settings.variants, settings.prompts)
    if prompts is None:
        # a variant run's reference prompts are its first variant's
        prompts = next(iter(variants.values())) if variants else load_prompts(settings.prompts)
    return EngineConfig(jury=settings.jury, prompts=prompts,
                        summarize_settings=summarize or default, judge_settings=judge or default,
                        claims=claims, variants=variants)


def summary_call(config: EngineConfig, model: str, study: Study, repeat: int
                 ) -> tuple[str, GenerationRequest, CallLabel]:
    """The summary call of a (model, study, repeat): the model to call, request and label
    (a prompt variant's pair calls its model with the variant's templates)."""
    called, variant, prompts = config.arm(model)
    request = summarize_request(study, prompts, config.summarize_settings)
    label = CallLabel(kind="summary", study_id=study.id, criterion=None, model=called,
                      repeat=repeat, variant=variant)
    return called, request, label


def judge_requests(config: EngineConfig, study: Study, summary: str,
                   criteria: Iterable[Criterion] = CRITERIA, *, model: str | None = None
                   ) -> dict[Criterion, GenerationRequest]:
    """Per criterion, the judge request on ``summary`` by ``model`` (the same for every
    juror), with the templates of the model's prompt variant if it has one."""
    prompts = config.prompts if model is None else config.arm(model)[2]
    # rendered once: each of the nine judge prompts embeds it
    shown = render_summarize_prompt(study, prompts)
    return {criterion: judge_request(study, summary, criterion, prompts,
                                     config.judge_settings, shown)
            for criterion in criteria}


def judge_label(config: EngineConfig, kind: CallKind, juror: str, study: Study,
                criterion: Criterion, model: str, repeat: int = 0) -> CallLabel:
    """The label of a judge call or its repair, by ``juror`` on ``model``'s summary of
    ``repeat``: the model under test and its prompt variant apart. The file is filed beside
    that summary (its repeat too); the key leaves the repeat out (:attr:`CallLabel.key_repeat`)."""
    subject, variant, _ = config.arm(model)
    return CallLabel(kind=kind, study_id=study.id, criterion=criterion, model=juror,
                     subject=subject, variant=variant, repeat=repeat)
