"""Claim diagnostics: what a summary claims about each outcome, against the study.

From the rules juror's per-outcome claim extraction (:func:`pytest_rwe.rules.analyze`), per
summary: the outcomes it mentions, the significance and direction it claims for each, and
whether they match the study. Aggregated per model:

- significance-match rate: over mentioned outcomes that have a p-value, the share where the
  summary calls the outcome significant exactly when p < 0.05. An outcome counts as called
  significant when a claim says so ("significantly higher") or states a direction without
  marking it non-significant ("a higher risk"); as not significant when every claim says
  no difference or non-significant, or none gives a direction (a bare number);
- direction-agreement rate: over mentioned outcomes for which the summary states a direction
  (higher/lower, read from the intervention group's side) and the study has one, the share
  where they agree;
- coverage: the share of the summary's claims (direction words, no-difference phrases,
  significance) the juror could tie to an outcome and, for a direction, to a group; the
  others are not judged.

Findings as data (:func:`juror_findings`): per criterion and juror, the rules juror's findings
with their summary spans, study fields and values, and every passage an LLM juror quotes,
located in the summary.

Everything returned is JSON primitives, so it can ride on a per-test record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from pytest_rwe.rules import Finding, judge
from pytest_rwe.rules.claims import Claim, analyze
from pytest_rwe.rules.quotes import locate_quotes
from pytest_rwe.rules.truth import Fact
from pytest_rwe.study import Outcome, Study
from pytest_rwe.verdict import CRITERIA, Verdict

__all__ = ["aggregate_claims", "claim_diagnostics", "juror_findings", "study_value"]


def _claimed_significance(claims: list[Claim]) -> bool:
    # "significantly higher" or "a higher risk" asserts an effect; "no significant
    # difference", "non-significantly higher" and a bare estimate do not.
    for claim in claims:
        if claim.significant is True:
            return True
        if claim.direction in ("higher", "lower") and claim.significant is not False \
                and not claim.untested:
            return True
    return False


def _claimed_direction(claims: list[Claim]) -> str | None:
    """The direction the summary states: "higher", "lower", "mixed", "null" or None."""
    stated = {c.direction for c in claims if c.direction in ("higher", "lower")}
    if len(stated) > 1:
        return "mixed"  # contradictory claims about one outcome: never counted as agreeing
    if stated:
        return stated.pop()
    return "null" if any(c.direction == "null" for c in claims) else None


def _outcome_row(outcome: Outcome, fact: Fact | None, claims: list[Claim]) -> dict[str, Any]:
    """One outcome's claims against the study, as the rules juror reads the study (its own
    reading, not the summarizer's)."""
    has_p = fact is not None and fact.p is not None
    called = _claimed_significance(claims)
    direction = _claimed_direction(claims)
    study_direction = fact.direction if fact is not None else None
    agrees: bool | None = None
    if direction in ("higher", "lower", "mixed") and study_direction in ("higher", "lower"):
        agrees = direction == study_direction
    significant = fact.significant if fact is not None and has_p else None
    return {
        "outcome": outcome.key,
        "name": outcome.name,
        "p": fact.p if fact is not None and has_p else None,
        "p_text": fact.p_text if fact is not None and has_p else None,
        "study_significant": significant,
        "study_direction": study_direction,
        "claimed_significant": called,
        "claimed_direction": direction,
        "significance_match": None if significant is None else called == significant,
        "direction_agrees": agrees,
        "quotes": sorted({c.clause.quote.strip() for c in claims})[:3],
    }


def claim_diagnostics(study: Study, summary: str) -> dict[str, Any]:
    """Per outcome the summary mentions: claimed significance and direction vs the study."""
    analysis = analyze(study, summary)
    by_outcome: dict[str, list[Claim]] = {}
    for claim in analysis.claims:
        if claim.baseline or claim.outcome is None:
            continue
        key = claim.outcome.key
        if not claim.grounded and claim.direction in ("higher", "lower"):
            # the side is not known: the outcome is mentioned, its direction is not read
            claim = replace(claim, direction=None)
        by_outcome.setdefault(key, []).append(claim)
    grounded, total = analysis.coverage()
    facts = analysis.facts
    rows = [_outcome_row(o, facts.get(o.key), by_outcome[o.key]) for o in study.outcomes
            if o.key in by_outcome]
    sig = [r["significance_match"] for r in rows if r["significance_match"] is not None]
    dirs = [r["direction_agrees"] for r in rows if r["direction_agrees"] is not None]
    return {
        "study_id": study.id,
        "outcomes": rows,
        "mentioned": len(rows),
        "significance_checked": len(sig),
        "significance_matches": sum(sig),
        "direction_checked": len(dirs),
        "direction_agrees": sum(dirs),
        "unmentioned_significant": [o.key for o in study.outcomes if o.key in facts
                                    and facts[o.key].must_report and o.key not in by_outcome],
        "claims": total,
        "claims_grounded": grounded,
    }


def _rate(hits: int, total: int) -> float | None:
    return hits / total if total else None


def aggregate_claims(diagnostics: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Pool per-summary diagnostics (e.g. one model's): rates over outcomes, and their counts.

    ``significance_match_rate`` and ``direction_agreement_rate`` pool every checked outcome of
    every summary (None when nothing could be checked); ``*_by_summary`` are the means of the
    per-summary rates, which weigh each summary equally.
    """
    summaries = sig_checked = sig_hits = dir_checked = dir_hits = mentioned = 0
    claims = grounded = 0
    per_sig: list[float] = []
    per_dir: list[float] = []
    for item in diagnostics:
        summaries += 1
        mentioned += int(item["mentioned"])
        sig_checked += int(item["significance_checked"])
        sig_hits += int(item["significance_matches"])
        dir_checked += int(item["direction_checked"])
        dir_hits += int(item["direction_agrees"])
        claims += int(item.get("claims", 0))
        grounded += int(item.get("claims_grounded", 0))
        if item["significance_checked"]:
            per_sig.append(item["significance_matches"] / item["significance_checked"])
        if item["direction_checked"]:
            per_dir.append(item["direction_agrees"] / item["direction_checked"])
    return {
        "summaries": summaries,
        "outcomes_mentioned": mentioned,
        "significance_checked": sig_checked,
        "significance_match_rate": _rate(sig_hits, sig_checked),
        "significance_match_rate_by_summary": (sum(per_sig) / len(per_sig)) if per_sig else None,
        "direction_checked": dir_checked,
        "direction_agreement_rate": _rate(dir_hits, dir_checked),
        "direction_agreement_rate_by_summary": (sum(per_dir) / len(per_dir)) if per_dir else None,
        "claims": claims,
        "claims_grounded": grounded,
        "coverage": _rate(grounded, claims),
    }


RULES_JUROR = "builtin/rules"
_FIELD = re.compile(r'^results\.outcomes\[(?P<key>"(?:[^"\\]|\\.)*")\]$'
                    r'|^results\.baseline_differences\[(?P<base>"(?:[^"\\]|\\.)*")\]$'
                    r"|^results\.(?P<size>intervention_size|control_size)$")


def study_value(study: Study, field: str) -> str | None:
    """The study's own value at a finding's field ("results.outcomes[\\"x!HR\\"]" -> "0.81
    (0.70, 0.94)"), as the study file writes it; None for a field that is not one value."""
    match = _FIELD.match(field)
    if match is None:
        return None
    results = study.raw.get("results") or {}
    if match.group("size"):
        value = results.get(match.group("size"))
        return None if value is None else str(value)
    if match.group("base"):
        value = (results.get("baseline_differences") or {}).get(json.loads(match.group("base")))
        return None if value is None else str(value)
    key = json.loads(match.group("key"))
    outcomes = results.get("outcomes") or {}
    if key.endswith("!*"):  # the outcome as a whole: its estimate
        stem = key[:-2]
        hits = [f"{k.rsplit('!', 1)[1]} {v}" for k, v in outcomes.items()
                if k.rsplit("!", 1)[0] == stem]
        return "; ".join(hits) or None
    value = outcomes.get(key)
    return None if value is None else str(value)


def finding_dict(study: Study, finding: Finding) -> dict[str, Any]:
    """A rules finding as JSON: ``quote``, ``start``, ``end`` (offsets into the summary),
    ``field`` (the study field), ``value`` (the study's value there) and ``message``."""
    return {"quote": finding.quote, "start": finding.start, "end": finding.end,
            "field": finding.field, "value": study_value(study, finding.field),
            "message": finding.message}


#: the rules juror's findings per criterion, as :func:`juror_findings` gives them
RulesFindings = Mapping[str, list[dict[str, Any]]]


def rules_findings(study: Study, summary: str) -> dict[str, list[dict[str, Any]]]:
    """The rules juror's findings on ``summary`` per criterion (JSON primitives)."""
    return {criterion: [finding_dict(study, f) for f in judge(study, summary, criterion).findings]
            for criterion in CRITERIA}


def summary_reading(study: Study, summary: str, findings: bool
                    ) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]] | None]:
    """The claim diagnostics of ``summary`` and, with ``findings``, the rules juror's
    findings: what a worker process reads of a summary of a study with hundreds of outcomes,
    so that seconds of CPU do not hold this process's interpreter lock against its calls."""
    return claim_diagnostics(study, summary), rules_findings(study, summary) if findings else None


def juror_findings(study: Study, summary: str, verdict: Verdict,
                   rules: RulesFindings | None = None) -> dict[str, dict[str, Any]]:
    """Per criterion and juror, what each answer points at in the summary.

    The rules juror's findings come back with their spans and study fields (``rules``: read
    already, by :func:`rules_findings`); for any other juror every passage its explanation
    quotes is located in the summary (``found`` with offsets), and ``misquotes`` counts the
    quotes neither the summary nor the study contains.
    """
    study_text = json.dumps(study.raw.get("results") or {}, ensure_ascii=False)
    out: dict[str, dict[str, Any]] = {}
    for criterion, result in verdict.criteria.items():
        per: dict[str, Any] = {}
        for score in result.scores:
            if score.score is None:
                continue
            if score.juror == RULES_JUROR:
                read = rules.get(criterion) if rules is not None else None
                if read is None:
                    read = [finding_dict(study, f)
                            for f in judge(study, summary, criterion).findings]
                per[score.juror] = {"findings": read}
            else:
                quotes = locate_quotes(score.explanation, summary, study_text)
                per[score.juror] = {"quotes": [q.to_dict() for q in quotes],
                                    "misquotes": sum(1 for q in quotes if q.misquoted)}
        if per:
            out[criterion] = per
    return out
