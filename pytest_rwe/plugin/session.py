"""Per-process state of a pytest-rwe session, kept in ``config.stash``: settings, studies,
the engine and the jury rules (``--rwe-quorum``, ``--rwe-exclude-self``, ``--rwe-repeat-rule``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from pytest_rwe.plugin import workers
from pytest_rwe.plugin.options import option_text, read_settings
from pytest_rwe.plugin.workers import RUN_ID_KEY as RUN_ID_KEY  # its home: plugin/workers
from pytest_rwe.redact import display_name, redact
from pytest_rwe.settings import RweSettings, SettingsError, arm_name

if TYPE_CHECKING:  # the heavy side: imported where a run evaluates, not to load the plugin
    import concurrent.futures

    from pytest_rwe.engine import Engine, EngineConfig
    from pytest_rwe.jury_rules import JuryRules
    from pytest_rwe.prompts import PromptSet
    from pytest_rwe.providers.base import GenerationSettings
    from pytest_rwe.providers.preload import SdkPreloader
    from pytest_rwe.store.leader import ProcessRole
    from pytest_rwe.study import StudyLoad


@dataclass(frozen=True)
class RweCase:
    """One parametrized (model, study, repeat) of the suite, with its prompt variant in a
    variant run."""

    model: str
    load: StudyLoad
    repeat: int = 0
    variant: str | None = None

    @property
    def arm(self) -> str:
        """The model as the engine, the records and the report name it: ``model+variant``
        in a variant run, else the model."""
        return arm_name(self.model, self.variant)

    @property
    def id(self) -> str:
        suffix = f"#r{self.repeat + 1}" if self.repeat else ""
        # a model@URL may carry a password: test ids reach the terminal and junit XML
        return f"{arm_name(display_name(self.model), self.variant)}::{self.load.id}{suffix}"

    def __repr__(self) -> str:
        return f"RweCase({self.id!r})"


@dataclass
class RweSession:
    """Settings, loaded studies and the engine of one pytest process."""

    config: pytest.Config
    settings: RweSettings
    _loads: list[StudyLoad] | None = None
    _prompts: PromptSet | None = None
    _variant_prompts: dict[str, PromptSet] | None = None
    engine: Engine | None = None
    selected: list[RweCase] = field(default_factory=list)
    usage_problem: str | None = None
    shipped: set[str] = field(default_factory=set)  # case ids whose record was sent
    preloader: SdkPreloader | None = None

    def preload_sdks(self) -> None:
        """Start importing the vendor SDKs this run may call (never for a replay-only run,
        nor on an xdist worker that may not lead: a follower reads the leader's answers)."""
        if (self.preloader is None and self.settings.engine.store_mode != "none"
                and not self.config.getoption("--rwe-plan")
                and self.role in ("alone", "leader")):
            from pytest_rwe.providers.preload import SdkPreloader

            self.preloader = SdkPreloader((*self.settings.models, *self.settings.engine.jury))
            self.preloader.start()

    @property
    def loads(self) -> list[StudyLoad]:
        if self._loads is None:
            from pytest_rwe.study import load_folder

            folder = self.settings.cases
            if not folder.is_dir():
                raise pytest.UsageError(
                    f"rwe_cases: {folder} is not a folder; point --rwe-cases (or ini rwe_cases) "
                    "at a folder of study JSON files"
                )
            self._loads = load_folder(folder)
        return self._loads

    @property
    def prompts(self) -> PromptSet:
        """The run's prompt templates; in a variant run, the reference (first) variant's."""
        if self._prompts is None:
            from pytest_rwe.prompts import load_prompts

            variants = self.variant_prompts
            try:
                self._prompts = (next(iter(variants.values())) if variants
                                 else load_prompts(self.settings.engine.prompts))
            except ValueError as exc:
                raise pytest.UsageError(str(exc)) from None
        return self._prompts

    @property
    def variant_prompts(self) -> dict[str, PromptSet]:
        """Each prompt variant's templates by name, in order (empty: no variant run)."""
        if self._variant_prompts is None:
            from pytest_rwe.prompts import load_variants

            try:
                self._variant_prompts = load_variants(self.settings.engine.variants,
                                                      self.settings.engine.prompts)
            except ValueError as exc:
                raise pytest.UsageError(str(exc)) from None
        return self._variant_prompts

    def cases(self) -> list[RweCase]:
        """Every (model, study, repeat) the suite parametrizes."""
        if not self.settings.models:
            raise pytest.UsageError(
                "pytest-rwe: no model to evaluate; pass --rwe-model MODEL "
                "(e.g. --rwe-model builtin/template) or set ini rwe_models"
            )
        variants: list[str | None] = [v.name for v in self.settings.engine.variants] or [None]
        return [
            RweCase(model, load, repeat, variant)
            for model in self.settings.models
            for variant in variants
            for load in self.loads
            for repeat in range(self.settings.repeat)
        ]

    def check_usable(self) -> None:
        """Fail fast, once, on unknown model names or missing API keys."""
        problem = self.find_usage_problem()
        if problem:
            raise pytest.UsageError(problem)

    def find_usage_problem(self) -> str | None:
        """Why the configured models and jurors cannot be called, or None."""
        from pytest_rwe.providers.registry import model_problems

        # replay-only runs (pull requests from forks) call nothing and need no key
        # a plan (--rwe-plan) calls nothing either
        need_keys = (self.settings.engine.store_mode != "none"
                     and not self.config.getoption("--rwe-plan"))
        problems = [
            *model_problems(self.settings.models, "--rwe-model", need_keys=need_keys),
            *model_problems(self.settings.engine.jury, "--rwe-jury", need_keys=need_keys),
        ]
        if not problems:
            return None
        return redact("pytest-rwe cannot start:\n  " + "\n  ".join(problems)
                      + "\nRun offline with --rwe-model builtin/template --rwe-jury builtin/rules.")

    def engine_config(self, summarize: GenerationSettings, judge: GenerationSettings, *,
                      claims: bool = True) -> EngineConfig:
        """The engine's jury, prompts and settings (also what ``--rwe-plan`` plans with)."""
        from pytest_rwe.engine import engine_config

        return engine_config(self.settings.engine, summarize=summarize, judge=judge,
                             claims=claims, prompts=self.prompts,
                             variants=self.variant_prompts)

    def start_engine(self, summarize: GenerationSettings, judge: GenerationSettings) -> Engine:
        """Create the engine; queue every selected pair, or follow the run's leader."""
        if self.engine is None:
            from pytest_rwe.caller import RunSharing
            from pytest_rwe.engine import build_engine
            from pytest_rwe.store.budget import StoreBudget
            from pytest_rwe.store.leader import RunLeader

            settings, role = self.settings, self.role
            calls = settings.engine.store_mode != "none"
            run_id = workers.run_id(self.config)
            # every process that may call registers in the store, so that all of them (xdist
            # workers, or separate runs on one store) share one budget per provider
            registry = StoreBudget(settings.store, run_id) if calls else None
            leader = RunLeader(settings.store, run_id,
                               hung=registry.hung if registry is not None else None)
            if role == "first" and calls:
                role = "leader" if leader.take_lead() else "follower"
            sharing = RunSharing(run_id, shared=calls, budget=registry,
                                 leader=leader if role == "leader" else None)
            config = self.engine_config(summarize, judge, claims=role != "leader")
            self.engine = engine = build_engine(settings.engine, config=config, sharing=sharing)
            pairs = [(case.arm, case.load.study, case.repeat) for case in self.selected
                     if case.load.study is not None]
            if role == "alone":
                engine.submit_many(pairs)
            elif settings.engine.store_mode == "none":
                pass  # nothing is called: each worker replays what its tests ask for
            elif role == "leader":
                leader.announce("working")
                _when_all_done([engine.submit(*pair) for pair in pairs], leader.finish)
            else:
                engine.follow(pairs, leader)
        return self.engine

    @property
    def role(self) -> ProcessRole:
        """This process's part in calling models (see :mod:`pytest_rwe.store.leader`)."""
        return workers.process_role(self.config)


def _when_all_done(futures: list[concurrent.futures.Future[Any]],
                   callback: Callable[[], None]) -> None:
    """Run ``callback`` once every future is done (cancelled or failed counts as done)."""
    remaining = len(futures)
    lock = threading.Lock()

    def one_done(_: object) -> None:
        nonlocal remaining
        with lock:
            remaining -= 1
            last = remaining == 0
        if last:
            callback()

    if not futures:
        callback()
    for future in futures:
        future.add_done_callback(one_done)


SESSION_KEY = pytest.StashKey[RweSession]()
RULES_KEY = pytest.StashKey["JuryRules"]()


def get_session(config: pytest.Config) -> RweSession:
    """The process's :class:`RweSession`, created on first use."""
    session = config.stash.get(SESSION_KEY, None)
    if session is None:
        session = RweSession(config, read_settings(config))
        config.stash[SESSION_KEY] = session
    return session


def jury_rules_given(config: pytest.Config) -> bool:
    """Whether this run names models, jurors or jury rules itself (then they are checked
    in ``pytest_configure``, before xdist starts workers)."""
    return bool(config.getoption("--rwe-model") or config.getoption("--rwe-jury")
                or config.getoption("--rwe-quorum") or config.getoption("--rwe-exclude-self")
                or config.getoption("--rwe-repeat-rule") or config.getini("rwe_quorum")
                or config.getini("rwe_exclude_self")
                or str(config.getini("rwe_repeat_rule") or "all") != "all")


def jury_rules(config: pytest.Config) -> JuryRules:
    """The session's :class:`JuryRules`; a bad value is a usage error that names the fix."""
    rules = config.stash.get(RULES_KEY, None)
    if rules is not None:
        return rules
    from pytest_rwe.jury_rules import build_jury_rules

    settings = get_session(config).settings
    exclude = config.getoption("--rwe-exclude-self")
    try:
        rules = build_jury_rules(
            quorum=option_text(config, "--rwe-quorum", "rwe_quorum") or "",
            exclude_self=bool(config.getini("rwe_exclude_self") if exclude is None else exclude),
            repeat_rule=option_text(config, "--rwe-repeat-rule", "rwe_repeat_rule") or "all",
            models=settings.models, jury=settings.engine.jury)
    except SettingsError as exc:
        raise pytest.UsageError(redact(str(exc))) from None
    config.stash[RULES_KEY] = rules
    return rules
