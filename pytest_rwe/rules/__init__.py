"""The deterministic rules juror: scores a summary on one criterion with grounded findings.

``judge(study, summary, criterion)`` returns a :class:`RulesVerdict` whose findings each quote
the summary span and name the study field they contradict. No network, no randomness: the
same summary always gets the same verdict.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from pytest_rwe.rules.claims import Analysis, Claim, analyze, study_reading
from pytest_rwe.rules.completeness import describe, find_missing
from pytest_rwe.rules.crude_values import crude_values_bear_out
from pytest_rwe.rules.index import StudyIndex, build_index
from pytest_rwe.rules.numbers import check_numbers
from pytest_rwe.rules.text import Span
from pytest_rwe.rules.trends import trend_findings
from pytest_rwe.rules.truth import Fact, has_pvalues
from pytest_rwe.study import Study
from pytest_rwe.verdict import Criterion, check_criterion

__all__ = ["Finding", "RulesVerdict", "UnknownCriterion", "analyze", "judge", "judge_all"]


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


def _effect_field(fact: Fact) -> str:
    return f"results.outcomes[{json.dumps(fact.key + '!' + (fact.measure or '*'))}]"


def _p_field(fact: Fact) -> str:
    return f"results.outcomes[{json.dumps(fact.key + '!pvalue')}]"


def _quote_around(analysis: Analysis, claim: Claim) -> Span:
    spans = ([claim.mention.span] if claim.mention else []) + ([claim.cue] if claim.cue else [])
    start, end = min(s.start for s in spans), max(s.end for s in spans)
    return Span(start, end, analysis.text[start:end])


def _direction_findings(study: Study, analysis: Analysis) -> list[Finding]:
    findings: list[Finding] = []
    for claim in analysis.claims:
        outcome = claim.outcome
        if outcome is None or not claim.grounded or claim.baseline:
            continue
        fact = analysis.facts.get(outcome.key)
        if fact is None or fact.direction is None or (claim.untested
                                                       and fact.significant is not True):
            continue
        quote = _quote_around(analysis, claim)
        cue = claim.cue.quote.lower() if claim.cue else ""
        if claim.direction in ("higher", "lower"):
            who = " (read from the comparator's side)" if claim.flipped else ""
            if claim.direction != fact.direction and not crude_values_bear_out(
                    study, analysis, claim):
                actual = ("no difference" if fact.direction == "none"
                          else f"{fact.direction} in the intervention group")
                findings.append(_finding(quote, _effect_field(fact), (
                    f"calls {outcome.name} {claim.direction} in the intervention group{who}, "
                    f"but the study reports {fact.shown()}: {actual}")))
            elif not claim.hedged and fact.significant is False:
                # An effect stated without "non-significant" asserts a difference the results
                # do not support; "no significant difference" is the acceptable wording.
                what = "a significant" if claim.significant else "an effect:"
                findings.append(_finding(quote, _p_field(fact), (
                    f"calls {outcome.name} {what} {cue}, but p = {fact.p_text} is not "
                    "below 0.05")))
        elif claim.direction is None and claim.significant is True and claim.cue is not None \
                and not claim.hedged and fact.significant is False:
            findings.append(_finding(quote, _p_field(fact), (
                f"calls {outcome.name} significantly {cue}, but p = {fact.p_text} is not "
                "below 0.05")))
    return findings


def _completeness_findings(study: Study, analysis: Analysis) -> list[Finding]:
    index, _ = study_reading(study)
    names = {o.key: o.name for o in study.outcomes}
    findings = []
    for missing in find_missing(study, analysis, index,
                                lambda key: key in analysis.facts
                                and analysis.facts[key].must_report):
        fact = analysis.facts[missing.key]
        findings.append(_finding(missing.span, _p_field(fact), describe(
            names[missing.key], fact.shown(), fact.p_text, missing.said)))
    return findings


def _coverage(analysis: Analysis) -> str:
    grounded, total = analysis.coverage()
    if total == grounded:
        return ""
    return f" ({grounded} of {total} claims grounded; the others are not judged)"


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


class UnknownCriterion(ValueError):
    """A criterion of the criterion table that the rules juror has no rule for."""

    def __init__(self, criterion: str) -> None:
        self.criterion = criterion
        super().__init__(f"builtin/rules has no rule for {criterion!r}; judge it with LLM "
                         "jurors, or add its rule to pytest_rwe/rules/__init__.py (judge)")


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
        if not has_pvalues(analysis.facts):
            return RulesVerdict(criterion, 1, "the study reports no p-values, so no outcome "
                                "must be reported", ())
        findings = _completeness_findings(study, analysis)
        required = sum(1 for f in analysis.facts.values() if f.must_report)
        ok = (f"all {required} outcomes with p <= 0.05 are reported as differences" if required
              else "no outcome has p <= 0.05") + _coverage(analysis)
    elif criterion == "direction_of_effect":
        findings = _direction_findings(study, analysis) + [
            _finding(*found) for found in trend_findings(study, analysis)]
        stated = sum(1 for c in analysis.grounded if c.direction in ("higher", "lower"))
        ok = f"all {stated} stated directions agree with the estimates" + _coverage(analysis)
    else:  # a criterion of the table without a rule here: never judged as another one
        raise UnknownCriterion(criterion)
    if not findings:
        return RulesVerdict(criterion, 1, ok, ())
    return RulesVerdict(criterion, 0, "; ".join(f.render() for f in findings), tuple(findings))


def judge_all(study: Study, summary: str) -> dict[Criterion, RulesVerdict]:
    """The verdict on every criterion."""
    from pytest_rwe.verdict import CRITERIA

    return {c: judge(study, summary, c) for c in CRITERIA}
