"""Criteria, juror scores and the jury's verdict on one summary."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pytest_rwe import deprecated_method
from pytest_rwe.criteria import CRITERIA as CRITERIA  # re-exported: one home, criteria.py
from pytest_rwe.criteria import INFERENCE_TIME as INFERENCE_TIME
from pytest_rwe.criteria import Criterion as Criterion
from pytest_rwe.criteria import check_criterion as check_criterion

Badge = Literal["green", "yellow", "red"]


JurorStatus = Literal["scored", "abstained", "error"]


@dataclass(frozen=True)
class JurorScore:
    """One juror's answer on one criterion.

    ``score`` is None when the juror gave none. Two reasons are kept apart: the juror
    *abstained* (it answered, but its reply could not be read after one repair), or it is an
    *error* (it could not be asked: rate-limit deadline passed, 5xx after retries, provider
    code raised); ``error`` then holds the redacted cause.
    """

    juror: str
    criterion: Criterion
    score: int | None
    explanation: str
    error: str | None = None

    @property
    def status(self) -> JurorStatus:
        if self.error is not None:
            return "error"
        return "abstained" if self.score is None else "scored"

    @property
    def abstained(self) -> bool:
        return self.status == "abstained"

    @property
    def errored(self) -> bool:
        return self.error is not None

    def to_record(self) -> dict[str, Any]:
        """The old name of :meth:`to_dict`, for one release."""
        deprecated_method("JurorScore.to_record", "JurorScore.to_dict")
        return self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        record: dict[str, Any] = {"juror": self.juror, "score": self.score,
                                  "explanation": self.explanation, "status": self.status}
        if self.error is not None:
            record["error"] = self.error
        return record


def majority(jurors: int) -> int:
    """The smallest number of jurors that is more than half of ``jurors`` (at least 1)."""
    return max(1, jurors // 2 + 1)


@dataclass(frozen=True)
class CriterionVerdict:
    """The jury on one criterion: the mean over jurors that answered, and every answer.

    ``quorum`` is how many jurors must answer (score) for the mean to be a verdict; below
    it the criterion does not pass, whatever the mean (see :meth:`has_quorum`).
    """

    criterion: Criterion
    scores: tuple[JurorScore, ...]
    quorum: int = 1

    @property
    def answered(self) -> tuple[JurorScore, ...]:
        return tuple(s for s in self.scores if s.score is not None)

    @property
    def abstentions(self) -> int:
        """Jurors that answered unreadably (errors are counted apart, in ``errors``)."""
        return sum(1 for s in self.scores if s.abstained)

    @property
    def errors(self) -> int:
        """Jurors that could not be asked."""
        return sum(1 for s in self.scores if s.errored)

    @property
    def mean(self) -> float | None:
        """Mean score of the jurors that answered; None when every juror abstained."""
        answered = self.answered
        if not answered:
            return None
        return sum(s.score or 0 for s in answered) / len(answered)

    @property
    def has_quorum(self) -> bool:
        """Whether at least ``quorum`` jurors answered."""
        return len(self.answered) >= self.quorum

    @property
    def missing(self) -> tuple[JurorScore, ...]:
        """The jurors that gave no score: errors (could not be asked) and abstentions."""
        return tuple(s for s in self.scores if s.score is None)

    @property
    def unanimous(self) -> bool:
        return (len({s.score for s in self.answered}) <= 1 and self.abstentions == 0
                and self.errors == 0)

    def passes(self, threshold: float) -> bool:
        """A criterion passes when a quorum answered and their mean reaches the threshold."""
        mean = self.mean
        return mean is not None and self.has_quorum and mean >= threshold

    def explain(self, threshold: float | None = None) -> str:
        """A readable account of every juror's answer, for a failing assertion."""
        mean = self.mean
        if mean is None:
            shown = ("n/a (every juror abstained)" if self.errors == 0 else
                     f"n/a (no juror answered: {self.errors} error(s), "
                     f"{self.abstentions} abstention(s))")
        else:
            shown = f"{mean:.2f}"
        head = f"{self.criterion}: jury mean {shown}"
        if threshold is not None:
            head += f", threshold {threshold:g}"
        if not self.has_quorum:
            missing = ", ".join(f"{s.juror} ({'error' if s.errored else 'abstained'})"
                                for s in self.missing)
            head = (f"{self.criterion}: no quorum: {len(self.answered)} of {len(self.scores)} "
                    f"juror(s) answered, {self.quorum} needed (--rwe-quorum or ini rwe_quorum), "
                    f"so the jury mean {shown} is not a verdict; missing: {missing or 'none'}")
        lines = [head]
        for s in self.scores:
            if s.error is not None:
                lines.append(f"  - {s.juror}: error (could not be asked): {s.error}")
            elif s.score is None:
                why = s.explanation.removeprefix("abstained: ")
                lines.append(f"  - {s.juror}: abstained: {why}")
            else:
                lines.append(f"  - {s.juror}: score {s.score}: {s.explanation}")
        return "\n".join(lines)

    def to_record(self) -> dict[str, Any]:
        """The old name of :meth:`to_dict`, for one release."""
        deprecated_method("CriterionVerdict.to_record", "CriterionVerdict.to_dict")
        return self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "abstentions": self.abstentions,
            "errors": self.errors,
            "quorum": self.quorum,
            "quorum_met": self.has_quorum,
            "jurors": [s.to_dict() for s in self.scores],
        }


@dataclass(frozen=True)
class Verdict:
    """The jury's verdict on one summary, per criterion."""

    criteria: Mapping[Criterion, CriterionVerdict]

    def __getitem__(self, criterion: Criterion) -> CriterionVerdict:
        return self.criteria[criterion]

    def badge(self, thresholds: Mapping[Criterion, float]) -> Badge:
        """green: every criterion unanimous and passing; yellow: passes with dissent; red: fails."""
        if not all(v.passes(thresholds[c]) for c, v in self.criteria.items()):
            return "red"
        if all(v.unanimous for v in self.criteria.values()):
            return "green"
        return "yellow"

    def to_record(self) -> dict[str, Any]:
        """The old name of :meth:`to_dict`, for one release."""
        deprecated_method("Verdict.to_record", "Verdict.to_dict")
        return self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {c: v.to_dict() for c, v in self.criteria.items()}

    def with_quorum(self, quorum: int | None = None) -> Verdict:
        """This verdict with a quorum on every criterion (None: a majority of its jurors)."""
        return dataclasses.replace(self, criteria={
            c: dataclasses.replace(v, quorum=majority(len(v.scores)) if quorum is None
                                   else quorum)
            for c, v in self.criteria.items()})

    def without_jurors(self, jurors: Collection[str]) -> Verdict:
        """This verdict without the answers of ``jurors`` (e.g. a model's own vendor)."""
        if not jurors:
            return self
        return dataclasses.replace(self, criteria={
            c: dataclasses.replace(v, scores=tuple(s for s in v.scores if s.juror not in jurors))
            for c, v in self.criteria.items()})

    @classmethod
    def from_scores(cls, scores: Sequence[JurorScore], quorum: int = 1) -> Verdict:
        by_criterion: dict[Criterion, list[JurorScore]] = {c: [] for c in CRITERIA}
        for score in scores:
            by_criterion[score.criterion].append(score)
        return cls({c: CriterionVerdict(c, tuple(s), quorum)
                    for c, s in by_criterion.items() if s})
