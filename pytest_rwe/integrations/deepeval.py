"""The RWE jury as deepeval metrics, and pytest-rwe models as a deepeval judge model.

Needs ``pip install "pytest-rwe[deepeval]"``. Nothing else in pytest-rwe imports this module.

Test-case convention: ``input`` is the summarization prompt the model saw, ``actual_output``
the summary, and ``metadata["rwe_study"]`` the study as its JSON mapping (the file's content).
:func:`rwe_test_case` builds one::

    case = rwe_test_case(study, summary)           # a Study, a mapping or a study file path
    assert_test(case, [DirectionOfEffect(), NumbersAccurate(), Completeness()])

There is a metric per criterion of the criterion table (:mod:`pytest_rwe.criteria`):
the three named classes, and ``RweJuryMetric.for_criterion(name)`` for any criterion of the
table (a criterion added there has its metric here). Each metric asks every juror about its
one criterion (one call per juror). ``score`` is the jury mean, ``success`` is
``score >= threshold`` (default: the criterion's threshold in the table), ``reason`` quotes
every juror. A juror that abstains (its reply stayed unreadable after one repair) is named
in the reason and left out of the mean. The plugin's quorum rule applies
(:class:`pytest_rwe.jury_rules.JuryRules`): ``quorum`` jurors (default: a majority of the
jury) must answer, else the metric raises :class:`JuryQuorumError` with ``score=None`` and
``error`` set (deepeval's convention for a metric that could not be computed), never a
made-up 0 or 1; when every juror abstains, it raises :class:`JuryAbstainedError` (a
JuryQuorumError). A juror that could not be asked (its call failed for good, or provider
code raised) raises :class:`JurorCallError` the same way: a score from the jurors left
would hide that the jury shrank.

Jurors default to ``builtin/rules`` (offline, deterministic). Metrics with the same jury
configuration share one engine (event-loop thread, provider clients, response store), closed
at interpreter exit or by :func:`close_shared_engines`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

try:
    from deepeval.errors import MissingTestCaseParamsError
    from deepeval.metrics import BaseMetric
    from deepeval.test_case import LLMTestCase
except ImportError as exc:  # the optional dependency is absent: say how to get it
    raise ImportError(
        "pytest_rwe.integrations.deepeval needs deepeval, an optional dependency: "
        'pip install "pytest-rwe[deepeval]"'
    ) from exc

from pytest_rwe.criteria import TABLE, spec
from pytest_rwe.engine import Engine
from pytest_rwe.integrations.deepeval_llm import RweDeepEvalLLM
from pytest_rwe.integrations.jury_engine import (
    SUBJECT,
    JuryConfig,
    close_shared_engines,
    jury_settings,
    shared_engine,
)
from pytest_rwe.jury_rules import build_jury_rules
from pytest_rwe.prompts import PromptSet, load_prompts, render_summarize_prompt
from pytest_rwe.settings import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_OFFLINE_JURY,
    DEFAULT_STORE,
    KEYWORDS,
    StoreMode,
)
from pytest_rwe.study import Study, StudyFileError, load_study, parse_study
from pytest_rwe.verdict import Criterion, CriterionVerdict, Verdict

__all__ = [
    "METRICS",
    "STUDY_KEY",
    "Completeness",
    "DirectionOfEffect",
    "JurorCallError",
    "JuryAbstainedError",
    "JuryConfig",
    "JuryError",
    "JuryQuorumError",
    "NumbersAccurate",
    "RweDeepEvalLLM",
    "RweJuryMetric",
    "close_shared_engines",
    "rwe_test_case",
    "study_of",
]

#: the metadata key of a test case that holds the study mapping
STUDY_KEY = "rwe_study"


class JuryError(RuntimeError):
    """The jury gave no score to report (see the subclasses)."""


class JuryQuorumError(JuryError):
    """Fewer jurors answered than the quorum: their mean is not the jury's verdict."""


class JuryAbstainedError(JuryQuorumError):
    """Every juror abstained on a criterion: there is no score to report."""


class JurorCallError(JuryError):
    """A juror could not be asked (its call failed for good): the metric is not computed."""


def rwe_test_case(
    study: Study | Mapping[str, Any] | str | Path,
    summary: str,
    *,
    prompts: PromptSet | None = None,
    **fields: Any,
) -> Any:
    """An ``LLMTestCase`` for ``summary`` of ``study`` in the convention the metrics read.

    ``study`` is a parsed :class:`Study`, the study's JSON mapping, or the path of a study
    file. ``input`` is the summarization prompt (packaged templates unless ``prompts``);
    other ``LLMTestCase`` fields (``name``, ``tags``, ``expected_output``...) pass through.
    """
    parsed = _as_study(study, "rwe_test_case(study=...)")
    metadata = dict(fields.pop("metadata", None) or {})
    # a JSON round trip: deepeval serializes metadata, so it must be plain JSON data
    metadata[STUDY_KEY] = json.loads(json.dumps(parsed.raw))
    fields.setdefault("name", parsed.id)
    return LLMTestCase(
        input=render_summarize_prompt(parsed, prompts or load_prompts()),
        actual_output=summary,
        metadata=metadata,
        **fields,
    )


def study_of(test_case: Any, who: str = "pytest-rwe") -> Study:
    """The study a test case is about, from ``metadata["rwe_study"]``."""
    metadata = getattr(test_case, "metadata", None) or {}
    raw = metadata.get(STUDY_KEY) if isinstance(metadata, Mapping) else None
    if raw is None:
        raise MissingTestCaseParamsError(
            f"{who}: the test case has no metadata[{STUDY_KEY!r}], so the jury does not know "
            "which study the summary is about; build the case with "
            "pytest_rwe.integrations.deepeval.rwe_test_case(study, summary), or pass "
            f"metadata={{{STUDY_KEY!r}: <the study JSON as a dict>}} to LLMTestCase"
        )
    return _as_study(raw, f"test case metadata[{STUDY_KEY!r}]")


def _as_study(value: Study | Mapping[str, Any] | str | Path, where: str) -> Study:
    if isinstance(value, Study):
        return value
    try:
        if isinstance(value, Path):
            return load_study(value)
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("{"):
                return parse_study(json.loads(text), where)
            return load_study(Path(value))
        return parse_study(value, where)
    except StudyFileError as exc:
        raise ValueError(exc.render()) from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not valid study JSON ({exc})") from None


class RweJuryMetric(BaseMetric):  # type: ignore[misc]
    """A deepeval metric scoring one RWE criterion with the pytest-rwe jury.

    ``threshold`` applies to the jury mean (None: the criterion's default threshold in
    :mod:`pytest_rwe.criteria`; ``strict_mode`` makes it 1.0: every answering juror must
    agree); ``quorum`` is how many jurors must answer (None: a majority of the jury, as in
    the plugin). Jury options: ``jurors`` (model names, default offline ``builtin/rules``),
    ``store`` (response-store folder, ``None`` for none), ``record`` (``new`` | ``none`` |
    ``all``), ``concurrency`` (calls in flight per provider), ``max_attempts`` (per call, for
    429/5xx), ``prompts`` (folder overriding the judge templates); or an ``engine`` of your
    own. Attribute names match the parameters because deepeval copies metrics by reading
    them back.
    """

    #: the criterion this metric scores; its display name and docstring come from its row
    #: of the criterion table (set on every subclass that names a criterion)
    criterion: ClassVar[Criterion]
    display_name: ClassVar[str]
    _for_criterion: ClassVar[dict[str, type[RweJuryMetric]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "criterion" in cls.__dict__:
            row = spec(cls.criterion)
            cls.display_name = f"RWE {row.title}"
            if cls.__doc__ is None:
                cls.__doc__ = f"The RWE jury's {row.title}: {row.meaning}."
            RweJuryMetric._for_criterion.setdefault(row.name, cls)

    @classmethod
    def for_criterion(cls, name: str) -> type[RweJuryMetric]:
        """The metric class of criterion ``name`` of the criterion table (the named class
        when there is one; ValueError naming the valid criteria when it is unknown)."""
        row = spec(name)
        found = RweJuryMetric._for_criterion.get(row.name)
        if found is None:
            title = row.title.replace(" ", "")
            found = type(title, (RweJuryMetric,), {"criterion": row.criterion,
                                                  "__module__": __name__})
        return found
    # deepeval's result fields (declared for the type checker; BaseMetric holds the defaults)
    score: float | None
    success: bool | None
    reason: str | None
    error: str | None
    score_breakdown: dict[str, int | None] | None
    verbose_logs: str | None

    def __init__(
        self,
        threshold: float | None = None,
        *,
        jurors: Sequence[str] = DEFAULT_OFFLINE_JURY,
        store: str | Path | None = DEFAULT_STORE,
        record: StoreMode = "new",
        concurrency: int = DEFAULT_CONCURRENCY,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        prompts: str | Path | None = None,
        quorum: int | None = None,
        engine: Engine | None = None,
        strict_mode: bool = False,
        async_mode: bool = True,
        include_reason: bool = True,
        verbose_mode: bool = False,
    ) -> None:
        if threshold is None:
            threshold = spec(self.criterion).threshold
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"{type(self).__name__}(threshold={threshold}): use 0 to 1 "
                             "(the jury mean is the share of jurors that scored 1)")
        self.threshold = 1.0 if strict_mode else float(threshold)
        self.jurors = (jurors,) if isinstance(jurors, str) else tuple(jurors)
        self.store = store
        self.record = record
        self.concurrency = concurrency
        self.max_attempts = max_attempts
        self.prompts = prompts
        self.quorum = quorum
        self.engine = engine
        self.strict_mode = strict_mode
        self.async_mode = async_mode
        self.include_reason = include_reason
        self.verbose_mode = verbose_mode
        self.jury_config = jury_settings(jurors=self.jurors, store=store, record=record,
                                         concurrency=concurrency, max_attempts=max_attempts,
                                         prompts=prompts)
        jury = engine.config.jury if engine is not None else self.jury_config.jury
        # the plugin's quorum rule, validated as the plugin validates rwe_quorum
        self.rules = build_jury_rules(quorum=quorum, exclude_self=False, repeat_rule=None,
                                      models=(), jury=jury, spelling=KEYWORDS)
        self.evaluation_model = "pytest-rwe jury: " + ", ".join(jury)
        self.verdict: CriterionVerdict | None = None

    @property
    def __name__(self) -> str:  # deepeval names metrics by this property
        return self.display_name

    def measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        """Score ``test_case`` (blocks until every juror answered)."""
        future = self._submit(test_case)
        return self._finish(future.result())

    async def a_measure(self, test_case: Any, *args: Any, **kwargs: Any) -> float:
        """Score ``test_case`` without blocking the caller's event loop."""
        future = self._submit(test_case)
        return self._finish(await asyncio.wrap_future(future))

    def is_successful(self) -> bool:
        if self.error is not None or self.score is None:
            self.success = False
        else:
            self.success = self.score >= self.threshold
        return bool(self.success)

    # -- internals --------------------------------------------------------------------------
    def _submit(self, test_case: Any) -> Any:
        self.score = None
        self.success = None
        self.reason = None
        self.error = None
        self.verdict = None
        study = study_of(test_case, self.display_name)
        summary = getattr(test_case, "actual_output", None)
        if not isinstance(summary, str) or not summary.strip():
            raise MissingTestCaseParamsError(
                f"{self.display_name}: the test case has no actual_output; put the summary "
                "to judge in LLMTestCase(actual_output=...)"
            )
        engine = self.engine or shared_engine(self.jury_config)
        return engine.submit_judge(study, summary, (self.criterion,), subject=SUBJECT)

    def _finish(self, verdict: Verdict) -> float:
        jury = [s.juror for s in verdict[self.criterion].scores]
        judged = self.rules.apply(verdict, SUBJECT, jury)[self.criterion]
        self.verdict = judged
        self.score_breakdown = {s.juror: s.score for s in judged.scores}
        self.reason = _reason(judged, self.threshold) if self.include_reason else None
        if judged.errors:
            self.success = False
            self.error = (f"{judged.errors} of {len(judged.scores)} jurors could not be asked "
                          f"on {self.criterion} (see the reason for each cause), so there is "
                          "no score from the whole jury")
            self.reason = _reason(judged, self.threshold)
            raise JurorCallError(f"{self.display_name}: {self.error}\n{self.reason}")
        mean = judged.mean
        if mean is None:
            self.success = False
            self.error = (f"every juror abstained on {self.criterion}, so there is no score; "
                          "see the reason for why each juror abstained")
            self.reason = _reason(judged, self.threshold)
            raise JuryAbstainedError(f"{self.display_name}: {self.error}\n{self.reason}")
        if not judged.has_quorum:
            self.success = False
            self.error = (f"{len(judged.answered)} of {len(judged.scores)} jurors answered on "
                          f"{self.criterion}, fewer than the quorum of {judged.quorum} "
                          "(quorum=), so their mean is not the jury's verdict; see the reason "
                          "for why the others abstained")
            self.reason = _reason(judged, self.threshold)
            raise JuryQuorumError(f"{self.display_name}: {self.error}\n{self.reason}")
        self.score = mean
        self.is_successful()
        if self.verbose_mode:
            self.verbose_logs = judged.explain(self.threshold)
        return mean


def _reason(judged: CriterionVerdict, threshold: float) -> str:
    text = judged.explain(threshold)
    if judged.abstentions and judged.answered:
        text += (f"\n({judged.abstentions} of {len(judged.scores)} jurors abstained; the mean "
                 "counts only the jurors that answered)")
    return text


# The named metrics of the table's criteria (public API); their display names and
# docstrings come from the table. Any other criterion: RweJuryMetric.for_criterion(name).
class DirectionOfEffect(RweJuryMetric):
    criterion = "direction_of_effect"


class NumbersAccurate(RweJuryMetric):
    criterion = "numbers_accurate"


class Completeness(RweJuryMetric):
    criterion = "completeness"


#: one metric class per criterion of the table, in its order
METRICS: tuple[type[RweJuryMetric], ...] = tuple(
    RweJuryMetric.for_criterion(row.name) for row in TABLE)
