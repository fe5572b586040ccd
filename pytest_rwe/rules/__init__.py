"""The deterministic rules juror: scores a summary on one criterion with grounded findings.

``judge(study, summary, criterion)`` returns a :class:`RulesVerdict` whose findings each quote
the summary span and name the study field they contradict. No network, no randomness: the
same summary always gets the same verdict.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from pytest_rwe.rules.claims import Analysis, Claim, analyze
from pytest_rwe.rules.index import StudyIndex, build_index, outcome_field
from pytest_rwe.rules.numbers import check_numbers
from pytest_rwe.rules.text import Span
from pytest_rwe.study import Outcome, Study
from pytest_rwe.verdict import Criterion, check_criterion

__all__ = ["Finding", "RulesVerdict", "analyze", "judge", "judge_all"]


@dataclass(frozen=True)
class Finding:
    """One problem: the summary span it is about, the study field, and what is wrong."""

    quote: str
    start: int
    end: int
    field: str
    message: str

    def render(self) -> str:
        return f'"{self.quote}": {self.message} [{self.field}]'


@dataclass(frozen=True)
class RulesVerdict:
    """The rules juror's answer on one criterion."""

    criterion: Criterion
    score: int  # 1 when there is no finding
    explanation: str
    findings: tuple[Finding, ...]

    def to_reply(self) -> str:
        """The reply an LLM juror gives: ``{"<criterion>": {"score", "explanation"}}``."""
        return json.dumps({self.criterion: {"score": self.score,
                                            "explanation": self.explanation}})


def _finding(span: Span, field: str, message: str) -> Finding:
    return Finding(span.quote, span.start, span.end, field, message)


def _effect_field(outcome: Outcome) -> str:
    measure = outcome.effect_measure
    return outcome_field(outcome, measure.value if measure else "*")


def _shown(outcome: Outcome) -> str:
    effect, measure = outcome.effect, outcome.effect_measure
    text = f"{measure.value if measure else ''} {effect.text if effect else ''}".strip()
    if outcome.p is not None:
        text += f", p = {outcome.p.text}" if outcome.p.operator == "=" else f", p {outcome.p.text}"
    return text


def _direction_findings(study: Study, analysis: Analysis) -> list[Finding]:
    findings: list[Finding] = []
    for claim in analysis.claims:
        outcome = claim.outcome
        if claim.baseline or claim.direction in (None, "null") or outcome.direction is None:
            continue
        span = claim.cue or claim.mention.span
        quote = _quote_around(analysis, claim)
        who = " (read from the comparator's side)" if claim.flipped else ""
        if claim.direction != outcome.direction:
            actual = ("no difference" if outcome.direction == "none"
                      else f"{outcome.direction} in the intervention group")
            findings.append(_finding(quote, _effect_field(outcome), (
                f"calls {outcome.name} {claim.direction} in the intervention group{who}, but "
                f"the study reports {_shown(outcome)}: {actual}")))
        elif claim.significant is not False and outcome.p is not None \
                and not outcome.p.significant:
            # An effect stated without "non-significant" asserts a difference the results
            # do not support; "no significant difference" is the acceptable wording.
            what = "a significant" if claim.significant else "an effect:"
            findings.append(_finding(quote, outcome_field(outcome, "pvalue"), (
                f"calls {outcome.name} {what} {span.quote.lower()}, but p = "
                f"{outcome.p.text} is not below 0.05")))
    return findings


def _quote_around(analysis: Analysis, claim: Claim) -> Span:
    spans = [claim.mention.span] + ([claim.cue] if claim.cue else [])
    start, end = min(s.start for s in spans), max(s.end for s in spans)
    return Span(start, end, analysis.text[start:end])


def _completeness_findings(study: Study, analysis: Analysis) -> list[Finding]:
    findings: list[Finding] = []
    for outcome in study.outcomes:
        if not outcome.must_report:
            continue
        claims = [c for c in analysis.claims if c.outcome.key == outcome.key and not c.baseline]
        if any(c.direction != "null" for c in claims):
            continue
        field = outcome_field(outcome, "pvalue")
        if claims:
            findings.append(_finding(claims[0].mention.span, field, (
                f"{outcome.name} has p = {outcome.p.text if outcome.p else '?'} but is "
                "described as no difference")))
        else:
            findings.append(Finding("", 0, 0, field, (
                f"{outcome.name} ({_shown(outcome)}) has p <= 0.05 and is not mentioned")))
    return findings


_CACHE: OrderedDict[tuple[int, str], tuple[Study, Analysis, StudyIndex]] = OrderedDict()


def _read(study: Study, summary: str) -> tuple[Analysis, StudyIndex]:
    """Analyze once per (study, summary): the three criteria are judged in separate calls."""
    key = (id(study), summary)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is study:
        _CACHE.move_to_end(key)
        return hit[1], hit[2]
    result = (study, analyze(study, summary), build_index(study))
    _CACHE[key] = result
    if len(_CACHE) > 64:
        _CACHE.popitem(last=False)
    return result[1], result[2]


def judge(study: Study, summary: str, criterion: Criterion | str) -> RulesVerdict:
    """Score ``summary`` of ``study`` on ``criterion`` (1: no problem found, 0: findings)."""
    criterion = check_criterion(str(criterion))
    analysis, index = _read(study, summary)
    findings: list[Finding]
    if criterion == "numbers_accurate":
        findings = [_finding(f.span, f.field, f.message)
                    for f in check_numbers(study, index, analysis)]
        ok = "every number in the summary matches a number of the study"
    elif criterion == "completeness":
        if not study.has_pvalues:
            return RulesVerdict(criterion, 1, "the study reports no p-values, so no outcome "
                                "must be reported", ())
        findings = _completeness_findings(study, analysis)
        required = sum(1 for o in study.outcomes if o.must_report)
        ok = (f"all {required} outcomes with p <= 0.05 are reported as differences" if required
              else "no outcome has p <= 0.05")
    else:
        findings = _direction_findings(study, analysis)
        stated = sum(1 for c in analysis.claims if c.direction in ("higher", "lower"))
        ok = f"all {stated} stated directions agree with the estimates"
    if not findings:
        return RulesVerdict(criterion, 1, ok, ())
    return RulesVerdict(criterion, 0, "; ".join(f.render() for f in findings), tuple(findings))


def judge_all(study: Study, summary: str) -> dict[Criterion, RulesVerdict]:
    """The verdict on every criterion."""
    from pytest_rwe.verdict import CRITERIA

    return {c: judge(study, summary, c) for c in CRITERIA}
