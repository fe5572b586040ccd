"""Shares written for the wrong outcome or time point: "major bleeding 69%; complete remission
53.8%" when 69% is the remission rate, "remission ... 63.4% at 36 months" when 63.4% is the
24-month rate.

A percentage written right after an outcome's name (over a few linking words: "X 69%", "X
(3.3%)", "X was achieved by 58.2%", "at 36 months the X rate was 63.4%") or right before it
("69% achieved X") is that outcome's share. When the outcome has shares of its own, none of
them is the number, and another outcome's share is, the number was given to the wrong one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pytest_rwe.rules.claims import Analysis, study_reading
from pytest_rwe.rules.index import StudyIndex, matches
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.rules.number_reading import at_written_stratum
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.study import Study


def nested(study: Study, local: Iterable[str], others: Iterable[str], *,
           either: bool = True) -> bool:
    """One name holds every word of the other ("fatal bleeding" and "fatal or nonfatal major
    bleeding", "revascularization" and "target vessel revascularization"): a mention of one
    may be the other, so a value of one written by the other's name is not a sure error.
    With ``either`` False only a ``local`` name holding the other's words counts (the name
    found may have been a wider phrase than the outcome written: "fatal (HR 1.33)" read as
    "fatal or nonfatal major bleeding"). Equal names (one outcome at two timepoints) are not
    nested."""
    names, _ = study_reading(study)
    mine = [set(names.names.get(k, ())) for k in local]
    theirs = [set(names.names.get(k, ())) for k in others]
    return any(a and b and a != b and (b <= a or (either and a <= b))
               for a in mine for b in theirs)

# words that link a name to its share: "X was achieved by 58.2%", "X rate of 12%"
# "leukopenia 5/140 (3.6%)": a count over its denominator may stand between them
_AFTER = re.compile(r"^\s*(?:\(|:|-|=)?\s*(?:\d+\s*/\s*\d+\s*\(\s*)?"
                    r"(?:(?:was|were|is|are|of|in|at|by|reached|achieved|"
                    r"occurred|rate|rates|the|a|an|overall|observed|seen|found|recorded|"
                    r"reported|\d+(?:\.\d+)?[\s-]*(?:months?|years?|weeks?|days?|mo|yrs?))"
                    r"[\s,]*){0,5}$", re.IGNORECASE)
_BEFORE = re.compile(r"^\s*%?\s*(?:of\s+(?:the\s+)?(?:patients|participants|cases|eyes)\s+)?"
                     r"(?:(?:had|have|has)\s+been|had|achieved|reached|developed|experienced|"
                     r"showed|with|were|was|in)"
                     r"(?:\s+(?:a|an|the))?\s*$", re.IGNORECASE)


_CHANGE_NEXT = re.compile(r"\s*(?:\w+\s+)?(?:reduc\w*|increas\w*|decreas\w*|lower|higher|less|"
                          r"more|risk|odds|hazard|differen\w*|chang\w*|points?|rise|drop|fall|"
                          r"excess|gain|loss|relative|absolute)\b", re.IGNORECASE)
_VALUE_AT = re.compile(r"\d%?\s*(?:at|by|after)\s+(?:the\s+)?$", re.IGNORECASE)


def _owners(analysis: Analysis, number: NumberMention) -> list[Mention]:
    clause = analysis.clause_of(number.span.start)
    if clause is None:
        return []
    _lo, _hi, span = clause
    text = analysis.text
    inside = [m for m in analysis.mentions if span.start <= m.span.start < span.end]
    before = [m for m in inside if m.span.end <= number.span.start]
    after = [m for m in inside if m.span.start >= number.span.end]
    if after:
        # "69.7% at 12 months": the timepoint right after the share
        first = min(m.span.start for m in after)
        nearest = [m for m in after if m.span.start == first]
        if all(m.span.quote.strip().replace(".", "").isdigit() for m in nearest) and \
                re.fullmatch(r"\s*%?\s*(?:at|by|after)\s*", text[number.span.end:first]):
            return nearest
    following: list[Mention] = []
    if after:
        first = min(m.span.start for m in after)
        end = max(m.span.end for m in after if m.span.start == first)
        # "of which 30% heart failure and 42% sudden death": a share glued to the name it
        # counts; not "a 10% mortality reduction", a change
        if _BEFORE.match(text[number.span.end:first]) or (
                re.fullmatch(r"%\s+", text[number.span.end:first])
                and not _CHANGE_NEXT.match(text, end)):
            following = [m for m in after if m.span.start == first]
    if before:
        last = max(m.span.end for m in before)
        nearest = [m for m in before if m.span.end == last]
        gap = text[last:number.span.start]
        # a mention placed at its timepoint ("at 36 months the remission rate was 63.4%")
        at_time = all(m.span.quote.strip().replace(".", "").isdigit() for m in nearest)
        # "32.7% at 6 months, 69.7% at 12": a time point right after a value is that value's
        if at_time and _VALUE_AT.search(text[max(0, nearest[0].span.start - 16):
                                             nearest[0].span.start]):
            return following
        if _AFTER.match(gap) or (at_time and re.fullmatch(r"[\s-]*(?:[A-Za-z]+[\s,-]*){1,6}",
                                                           gap)):
            # "sudden deaths 30% - 10% had been readmitted": the share may be either's
            if following and {m.outcome.key for m in following} != {
                    m.outcome.key for m in nearest}:
                return []
            return nearest
    return following


def _named_by(study: Study, analysis: Analysis, owners: list[Mention]) -> set[str]:
    """The outcomes the owner mentions name: a mention read through words every one of several
    names holds ("NAFLD prevalence" of the prevalences in five strata) names each of them,
    not only the one the reading chose."""
    names, _ = study_reading(study)
    keys = {m.outcome.key for m in owners}
    for mention in owners:
        read = {analysis.tokens[p].norm for p in mention.positions}
        keys |= {k for k, name in names.names.items() if read and read <= set(name)}
    return keys


def misplaced_share(study: Study, index: StudyIndex, analysis: Analysis,
                    number: NumberMention) -> NumberFinding | None:
    """A share written for one outcome that is another's (see the module docstring)."""
    if not number.is_percent or number.hedged or number.operator:
        return None
    owners = _owners(analysis, number)
    # "prevalence: 7.8% H. pylori-positive, 8.9% H. pylori-negative": the subgroup after it
    keys = at_written_stratum(study, analysis, number, _named_by(study, analysis, owners))
    if not keys:
        return None
    own = index.of_outcomes(keys, "percent")
    if not own or any(matches(number.value, number.decimals, e.value) for e in own):
        return None
    others = [e for e in index.of_kind("percent") if e.outcome not in keys and e.outcome
              and matches(number.value, number.decimals, e.value)]
    # "6% had died, with heart failure accounting for 42% of deaths": a name holding another's
    # words may be either outcome, so the share is not surely misplaced
    if not others or any(nested(study, keys, {e.outcome or ""}) for e in others):
        return None
    name = next((m.outcome.name for m in owners if m.outcome.key in keys), "")
    field = own[0].field
    return NumberFinding(number.span, others[0].field, (
        f"{number.span.quote}% is written for {name} ({field} = {own[0].shown}), but it is "
        f"{others[0].field} = {others[0].shown}"))

