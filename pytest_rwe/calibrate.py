"""Calibrate a jury against labeled summaries: load and check the labels, judge, measure.

A labeled file is JSON Lines, one summary per line::

    {"study_id": "...", "summary_id": "...", "text": "...",
     "labels": {"direction_of_effect": 0, "numbers_accurate": 1, "completeness": 1},
     "origin": "...", "note": "..."}

A label of 0 means the summary is wrong on that criterion; "wrong" is the positive class, so
sensitivity is the share of real errors a juror catches and specificity the share of correct
summaries it passes. Every juror and the jury as a whole (its verdict against the pass
threshold) are measured per criterion; agreement among the jurors is Fleiss' kappa.

No network and no pytest here: the caller passes the function that judges one summary.
"""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_rwe.criteria import default_thresholds
from pytest_rwe.stats import confusion, fleiss_kappa
from pytest_rwe.study import Study
from pytest_rwe.verdict import CRITERIA, Criterion, Verdict

__all__ = [
    "Calibration",
    "CriterionMetrics",
    "LabeledSetError",
    "LabeledSummary",
    "by_origin",
    "calibrate",
    "disagreements",
    "judge_labeled",
    "load_labeled",
    "parse_labeled_line",
    "to_json",
]

_REQUIRED = ("study_id", "summary_id", "text", "labels")
_OPTIONAL = ("origin", "note")


class LabeledSetError(ValueError):
    """A bad labeled line; the message names the file, the line and the field."""

    def __init__(self, file: str, line: int, field: str | None, message: str) -> None:
        self.file, self.line, self.field = file, line, field
        where = f"{file}:{line}" + (f": {field}" if field else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class LabeledSummary:
    """One labeled summary and where it was read from."""

    study_id: str
    summary_id: str
    text: str
    labels: Mapping[Criterion, int]  # criteria without a label are not scored for this line
    origin: str
    note: str
    file: str
    line: int


def _string(data: Mapping[str, Any], field: str, where: tuple[str, int], *,
            required: bool = True) -> str:
    value = data.get(field)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        shown = "missing" if field not in data else f"{type(value).__name__} {value!r:.40}"
        raise LabeledSetError(*where, field, f"expected a non-empty string, got {shown}")
    return value


def parse_labeled_line(text: str, *, file: str, line: int,
                       study_ids: Collection[str]) -> LabeledSummary:
    """Parse one JSON line; raise :class:`LabeledSetError` naming the file, line and field."""
    where = (file, line)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LabeledSetError(file, line, None, f"not valid JSON (column {error.colno}: "
                              f"{error.msg}); write one JSON object per line") from None
    if not isinstance(data, dict):
        raise LabeledSetError(file, line, None, f"expected a JSON object, got "
                              f"{type(data).__name__}")
    unknown = sorted(set(data) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise LabeledSetError(file, line, unknown[0], "unknown field; a line has "
                              + ", ".join(_REQUIRED + _OPTIONAL))
    study_id = _string(data, "study_id", where)
    if study_id not in study_ids:
        known = ", ".join(sorted(study_ids)[:3]) + (", ..." if len(study_ids) > 3 else "")
        raise LabeledSetError(file, line, "study_id", (
            f"no study with id {study_id!r} in the cases folder (known: {known or 'none'}); "
            "fix the id or point --cases at the folder holding that study"))
    summary_id = _string(data, "summary_id", where)
    summary = _string(data, "text", where)
    labels = data.get("labels")
    if not isinstance(labels, dict) or not labels:
        raise LabeledSetError(file, line, "labels", (
            "expected an object of 0/1 labels, e.g. "
            '{"direction_of_effect": 1, "numbers_accurate": 0, "completeness": 1}'))
    parsed: dict[Criterion, int] = {}
    for name, value in labels.items():
        if name not in CRITERIA:
            raise LabeledSetError(file, line, f"labels.{name}",
                                  f"unknown criterion; use {', '.join(CRITERIA)}")
        if isinstance(value, bool) or value not in (0, 1):
            raise LabeledSetError(file, line, f"labels.{name}", (
                f"expected 0 (wrong) or 1 (right), got {value!r}"))
        parsed[name] = int(value)
    return LabeledSummary(study_id, summary_id, summary,
                          {c: parsed[c] for c in CRITERIA if c in parsed},
                          _string(data, "origin", where, required=False),
                          _string(data, "note", where, required=False), file, line)


def load_labeled(paths: Iterable[Path | str], study_ids: Collection[str]
                 ) -> list[LabeledSummary]:
    """Every labeled line of ``paths`` (blank lines skipped); summary ids must be unique."""
    items: list[LabeledSummary] = []
    seen: dict[str, tuple[str, int]] = {}
    for path in paths:
        name = str(path)
        try:
            content = Path(path).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise LabeledSetError(name, 0, None, f"cannot read the file: {error}") from None
        for number, raw in enumerate(content.splitlines(), start=1):
            if not raw.strip():
                continue
            item = parse_labeled_line(raw, file=name, line=number, study_ids=study_ids)
            if item.summary_id in seen:
                first = seen[item.summary_id]
                raise LabeledSetError(name, number, "summary_id", (
                    f"{item.summary_id!r} is already used at {first[0]}:{first[1]}; "
                    "summary ids must be unique across the labeled files"))
            seen[item.summary_id] = (name, number)
            items.append(item)
    if not items:
        raise LabeledSetError(", ".join(str(p) for p in paths) or "(no file)", 0, None,
                              "no labeled summaries; give at least one JSONL file with lines")
    return items


JudgeFn = Callable[[Study, str], Verdict]


def judge_labeled(items: Sequence[LabeledSummary], studies: Mapping[str, Study],
                  judge: JudgeFn, *, workers: int = 1) -> list[Verdict]:
    """The jury's verdict on every item, in order; ``workers`` > 1 judges in threads."""
    def one(item: LabeledSummary) -> Verdict:
        return judge(studies[item.study_id], item.text)

    if workers <= 1 or len(items) <= 1:
        return [one(item) for item in items]
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, items))


@dataclass(frozen=True)
class CriterionMetrics:
    """One rater (a juror or the jury) against the labels on one criterion.

    ``n`` counts the labeled summaries; ``abstained`` those the rater answered without a
    readable score, ``errors`` those it could not be asked about (for the jury: a juror of
    it could not be asked); the shares and kappa are over the rest. A share is None when its
    denominator is empty.
    """

    n: int
    accuracy: float | None
    sensitivity: float | None
    specificity: float | None
    kappa: float | None
    kappa_ci: tuple[float, float] | None
    abstained: int
    caught: int
    missed: int
    passed: int
    false_alarms: int
    errors: int = 0

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form: exactly the documented keys."""
        return {"n": self.n, "accuracy": self.accuracy, "sensitivity": self.sensitivity,
                "specificity": self.specificity, "kappa": self.kappa,
                "kappa_ci": list(self.kappa_ci) if self.kappa_ci else None,
                "abstained": self.abstained, "errors": self.errors}


@dataclass(frozen=True)
class Calibration:
    """Per-juror and jury metrics per criterion, and Fleiss' kappa among the jurors."""

    jurors: Mapping[str, Mapping[Criterion, CriterionMetrics]]
    jury: Mapping[Criterion, CriterionMetrics]
    agreement: Mapping[Criterion, float | None]
    thresholds: Mapping[Criterion, float]
    summaries: int


def _metrics(labels: Sequence[int], predictions: Sequence[int | None], *, resamples: int,
             seed: int | str, errors: int = 0) -> CriterionMetrics:
    result = confusion(labels, predictions, resamples=resamples, seed=seed)
    ci = (result.kappa_ci.low, result.kappa_ci.high) if result.kappa_ci else None
    return CriterionMetrics(len(labels), result.accuracy, result.sensitivity,
                            result.specificity, result.kappa, ci, result.abstained - errors,
                            result.caught, result.missed, result.passed, result.false_alarms,
                            errors)


def _juror_score(verdict: Verdict, criterion: Criterion, juror: str) -> int | None:
    if criterion not in verdict.criteria:
        return None
    for score in verdict[criterion].scores:
        if score.juror == juror:
            return score.score
    return None


def _juror_error(verdict: Verdict, criterion: Criterion, juror: str | None = None) -> bool:
    """A juror (``None``: any juror) could not be asked about this summary and criterion."""
    return criterion in verdict.criteria and any(
        score.error is not None for score in verdict[criterion].scores
        if juror is None or score.juror == juror)


def _jury_score(verdict: Verdict, criterion: Criterion, threshold: float) -> int | None:
    if criterion not in verdict.criteria or verdict[criterion].mean is None:
        return None  # every juror abstained: the jury gave no verdict
    if _juror_error(verdict, criterion):
        return None  # a jury short of a juror that could not be asked is not the jury
    return 1 if verdict[criterion].passes(threshold) else 0


def _limits(thresholds: Mapping[Criterion, float] | None) -> dict[Criterion, float]:
    """Each criterion's pass threshold: the given one, else the criterion table's."""
    return {**default_thresholds(), **{c: float(t) for c, t in (thresholds or {}).items()}}


def calibrate(items: Sequence[LabeledSummary], verdicts: Sequence[Verdict],
              jurors: Sequence[str], *,
              thresholds: Mapping[Criterion, float] | float | None = None,
              resamples: int = 2000, seed: int | str = 0) -> Calibration:
    """Measure each juror and the jury against the labels (seeded bootstrap for kappa CIs).

    Every rater's bootstrap on one criterion uses the same seed, so a jury that agrees with a
    juror on every summary gets exactly that juror's interval.
    """
    if len(items) != len(verdicts):
        raise ValueError(f"calibrate: {len(items)} items but {len(verdicts)} verdicts")
    limits = (dict.fromkeys(CRITERIA, float(thresholds)) if isinstance(thresholds, (int, float))
              else _limits(thresholds))
    per_juror: dict[str, dict[Criterion, CriterionMetrics]] = {j: {} for j in jurors}
    jury: dict[Criterion, CriterionMetrics] = {}
    agreement: dict[Criterion, float | None] = {}
    for criterion in CRITERIA:
        rows = [(item, verdict) for item, verdict in zip(items, verdicts, strict=True)
                if criterion in item.labels]
        if not rows:
            continue
        labels = [item.labels[criterion] for item, _ in rows]
        for juror in jurors:
            predictions = [_juror_score(v, criterion, juror) for _, v in rows]
            per_juror[juror][criterion] = _metrics(
                labels, predictions, resamples=resamples, seed=f"{seed}:{criterion}",
                errors=sum(_juror_error(v, criterion, juror) for _, v in rows))
        jury_predictions = [_jury_score(v, criterion, limits[criterion]) for _, v in rows]
        jury[criterion] = _metrics(labels, jury_predictions, resamples=resamples,
                                   seed=f"{seed}:{criterion}",
                                   errors=sum(_juror_error(v, criterion) for _, v in rows))
        ratings = [[_juror_score(v, criterion, j) for j in jurors] for _, v in rows]
        agreement[criterion] = fleiss_kappa(ratings).kappa if len(jurors) > 1 else None
    return Calibration(per_juror, jury, agreement, limits, len(items))


def to_json(result: Calibration) -> dict[str, Any]:
    """``{"jurors": {juror: {criterion: {...}}}, "jury": {criterion: {...}}, "agreement"}``."""
    return {
        "jurors": {j: {c: m.to_json() for c, m in per.items()} for j, per in result.jurors.items()},
        "jury": {c: m.to_json() for c, m in result.jury.items()},
        "agreement": dict(result.agreement),
    }


def by_origin(items: Sequence[LabeledSummary], verdicts: Sequence[Verdict],
              thresholds: Mapping[Criterion, float]) -> dict[str, dict[str, dict[str, int]]]:
    """The jury's verdicts counted per ``origin`` and criterion: ``n``, ``caught`` and
    ``missed`` (label 0), ``passed`` and ``false_alarms`` (label 1), ``abstained``,
    ``errors`` (a juror could not be asked).

    A labeled set built of several kinds of lines (mutation kinds, agreeing and
    contradicting twins) says here which kind a jury gets wrong.
    """
    limits = _limits(thresholds)
    out: dict[str, dict[str, dict[str, int]]] = {}
    for item, verdict in zip(items, verdicts, strict=True):
        for criterion, label in item.labels.items():
            cell = out.setdefault(item.origin or "(none)", {}).setdefault(criterion, {
                "n": 0, "caught": 0, "missed": 0, "passed": 0, "false_alarms": 0,
                "abstained": 0, "errors": 0})
            cell["n"] += 1
            score = _jury_score(verdict, criterion, limits[criterion])
            if _juror_error(verdict, criterion):
                cell["errors"] += 1
            elif score is None:
                cell["abstained"] += 1
            elif label == 0:
                cell["caught" if score == 0 else "missed"] += 1
            else:
                cell["passed" if score == 1 else "false_alarms"] += 1
    return {origin: out[origin] for origin in sorted(out)}


def disagreements(items: Sequence[LabeledSummary], verdicts: Sequence[Verdict],
                  thresholds: Mapping[Criterion, float]) -> list[dict[str, Any]]:
    """Where the jury's verdict differs from the label: for auditing jurors and labels."""
    limits = _limits(thresholds)
    out: list[dict[str, Any]] = []
    for item, verdict in zip(items, verdicts, strict=True):
        for criterion, label in item.labels.items():
            score = _jury_score(verdict, criterion, limits[criterion])
            if score is None or score == label:
                continue
            reasons = [f"{s.juror}: {s.explanation}" for s in verdict[criterion].scores
                       if s.score is not None and s.score != label]
            out.append({"summary_id": item.summary_id, "file": item.file, "line": item.line,
                        "criterion": criterion, "label": label, "jury": score,
                        "note": item.note, "jurors": reasons})
    return out
