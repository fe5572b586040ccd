"""What a test of the plugin asserts with: :class:`Summary`, :class:`Jury` and
:func:`assert_criterion` (public from ``pytest_rwe``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

import pytest

from pytest_rwe import escape
from pytest_rwe.jury_rules import JuryRules, RepeatedVerdict
from pytest_rwe.redact import redact

if TYPE_CHECKING:
    from pytest_rwe.engine import Engine
    from pytest_rwe.study import Study
    from pytest_rwe.verdict import Criterion, Verdict


@dataclass(frozen=True)
class Summary:
    """The summary a model wrote: its text, latency (seconds) and token usage."""

    text: str
    latency_s: float
    input_tokens: int | None
    output_tokens: int | None
    replayed: bool


class Jury:
    """The session's jury: judge any text as a summary of a study."""

    def __init__(self, engine: Engine, thresholds: Mapping[Criterion, float],
                 rules: JuryRules | None = None) -> None:
        self._engine = engine
        self.thresholds = thresholds
        self.rules = rules or JuryRules()

    @property
    def jurors(self) -> tuple[str, ...]:
        return self._engine.config.jury

    def judge(self, study: Study, summary: str) -> Verdict:
        """Score ``summary`` on every criterion with every juror (the quorum applies).

        Fails the test when a juror could not be asked (an abstention is counted in the
        verdict instead): a jury that silently lost a member would decide alone.
        """
        verdict = self._engine.judge(study, summary)
        errors = [s for v in verdict.criteria.values() for s in v.scores if s.errored]
        if errors:
            lines = "".join(f"\n  - {s.juror} on {s.criterion}: {s.error}" for s in errors)
            fail_test(f"the jury could not judge the summary of {study.id}: {len(errors)} juror "
                  f"call(s) failed{lines}")
        return verdict.with_quorum(self.rules.quorum_for(len(self.jurors)))


def assert_criterion(verdict: Verdict, criterion: Criterion, threshold: float,
                     summary: str | None = None) -> None:
    """Fail with every juror's explanation when ``criterion`` misses its threshold, or its
    quorum, or (a verdict of several repeats) the repeat rule."""
    if isinstance(verdict, RepeatedVerdict):
        passed = verdict.rule_passes(criterion, threshold)
        message = "" if passed else verdict.rule_explain(criterion, threshold)
    else:
        passed = verdict[criterion].passes(threshold)
        message = "" if passed else verdict[criterion].explain(threshold)
    if passed:
        return
    if summary is not None:
        message += "\n  summary: " + summary
    fail_test(message)



def fail_test(message: str) -> NoReturn:
    """Fail the test with ``message`` redacted and stripped of terminal control sequences."""
    pytest.fail(escape.terminal(redact(message)), pytrace=False)
