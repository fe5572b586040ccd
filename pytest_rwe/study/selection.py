"""Study metadata (tags) and the ``--rwe-select`` expression that picks studies by them.

Every study gets the same tags, derived from its file, so a run can be narrowed to a slice
of the suite (``--rwe-select design=case_series``, ``--rwe-select measure=HR|OR,hard=true``)
and the report can break the criterion means down by design, by source and by area.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_rwe.settings import Wording, read_assignments
from pytest_rwe.study import Measure, Study

# At least this many outcomes makes a study part of the hard subset (RWESummary found
# summaries of studies with many outcomes the most error-prone).
HARD_OUTCOMES = 9

# (the --help text of --rwe-select, in plugin/options.py, lists them without importing this
# module: a test keeps the two the same)
TAG_KEYS: tuple[str, ...] = ("id", "design", "measure", "area", "source", "hard", "timepoints",
                             "significance")
#: at most this many known values are listed in a message (ids run into the hundreds)
_LISTED_VALUES = 12
_LEGEND_BUILDER = "scripts/build_legend_cases.py"


def source_collection(study: Study) -> str:
    """Where a study comes from: ``source.collection`` if set, else ``legend-htn`` for the
    studies built from the LEGEND-HTN results, else ``literature``."""
    source = study.raw.get("source")
    if isinstance(source, Mapping):
        collection = source.get("collection")
        if isinstance(collection, str) and collection.strip():
            return collection.strip().lower()
        if source.get("built_by") == _LEGEND_BUILDER:
            return "legend-htn"
    return "literature"


def therapeutic_area(study: Study) -> str:
    """``source.therapeutic_area``, lowercased; ``unknown`` when the file does not say."""
    source = study.raw.get("source")
    if isinstance(source, Mapping):
        area = source.get("therapeutic_area")
        if isinstance(area, str) and area.strip():
            return area.strip().lower()
    return "unknown"


def significance_profile(study: Study) -> str:
    """``all`` (every outcome has p < 0.05), ``none`` (every outcome has p >= 0.05),
    ``mixed``, or ``unreported`` (some outcome has no p-value)."""
    flags = [outcome.significant for outcome in study.outcomes]
    if not flags or any(flag is None for flag in flags):
        return "unreported"
    if all(flags):
        return "all"
    return "none" if not any(flags) else "mixed"


def study_tags(study: Study) -> dict[str, tuple[str, ...]]:
    """The tags of ``study``: each key of :data:`TAG_KEYS` with its value(s)."""
    measures = sorted({m.value for o in study.outcomes for m in o.estimates}
                      | ({Measure.N.value} if any(o.count for o in study.outcomes) else set()))
    return {
        "id": (study.id,),
        "design": (study.design,),
        "measure": tuple(measures),
        "area": (therapeutic_area(study),),
        "source": (source_collection(study),),
        "hard": (str(len(study.outcomes) >= HARD_OUTCOMES).lower(),),
        "timepoints": (str(any(o.timepoint for o in study.outcomes)).lower(),),
        "significance": (significance_profile(study),),
    }


class SelectError(ValueError):
    """A ``--rwe-select`` expression that cannot be read; the message says the fix."""


@dataclass(frozen=True)
class Condition:
    """``key=pattern|pattern`` (any pattern matches a tag value) or ``key!=...`` (none does)."""

    key: str
    patterns: tuple[str, ...]
    negated: bool = False

    def matches(self, tags: Mapping[str, Sequence[str]]) -> bool:
        values = [v.lower() for v in tags.get(self.key, ())]
        hit = any(fnmatch.fnmatchcase(v, p) for v in values for p in self.patterns)
        return hit != self.negated


def parse_select(expressions: Sequence[str], *, option: str = "--rwe-select") -> list[Condition]:
    """Parse ``key=value,...`` expressions (each given once or more): every condition must hold.

    Values are matched case-insensitively with shell wildcards (``id=legend_*``); ``|``
    separates alternatives (``measure=HR|OR``); ``!=`` negates (``source!=legend-htn``).
    """
    wording = Wording(malformed="{option}: cannot read {part!r}; write key=value, e.g. "
                                "{example}",
                      unknown="{option}: unknown key {key!r}; use one of {keys}, "
                              "e.g. {option} design=case_series")
    return [Condition(a.key, tuple(p.strip().lower() for p in a.raw.split("|") if p.strip()),
                      a.op == "!=")
            for expression in expressions
            for a in read_assignments(expression, option=option, keys=TAG_KEYS, negation=True,
                                      lower=True, wording=wording, error=SelectError,
                                      example=f"{option} design=case_series,measure=HR|OR")]


def selected(study: Study, conditions: Sequence[Condition]) -> bool:
    """True when ``study`` meets every condition (no condition: every study)."""
    if not conditions:
        return True
    tags = study_tags(study)
    return all(condition.matches(tags) for condition in conditions)


def describe(conditions: Sequence[Condition]) -> str:
    """The conditions as one canonical expression (``design=cohort,source!=legend-htn``)."""
    return ",".join(f"{c.key}{'!=' if c.negated else '='}{'|'.join(c.patterns)}"
                    for c in conditions)


def _known(values: Sequence[str], pattern: str) -> str:
    near = difflib.get_close_matches(pattern, values, n=3)
    listed = ", ".join(values[:_LISTED_VALUES])
    if len(values) > _LISTED_VALUES:
        listed += f", ... ({len(values)} in all)"
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    return f"known values: {listed or 'none'}{hint}"


def selection_problem(conditions: Sequence[Condition],
                      tag_sets: Sequence[Mapping[str, Sequence[str]]], *,
                      option: str = "--rwe-select") -> str | None:
    """Why ``conditions`` cannot select from studies with these tags, or None.

    A value that matches no study at all is almost surely a typo (``design=cohrot``), and a
    selection that leaves no study would pass on no evidence: both are problems, each
    message naming the key, the values the studies have and the fix.
    """
    if not conditions:
        return None
    for condition in conditions:
        values = sorted({v.lower() for tags in tag_sets for v in tags.get(condition.key, ())})
        for pattern in condition.patterns:
            if not any(fnmatch.fnmatchcase(v, pattern) for v in values):
                sign = "!=" if condition.negated else "="
                known = _known(values, pattern)
                return (f"{option}: {condition.key}{sign}{pattern} matches no study; "
                        f"{known}{'' if known.endswith('?') else '.'} Fix the value or drop "
                        f"the condition (keys: {', '.join(TAG_KEYS)})")
    if not any(all(c.matches(tags) for c in conditions) for tags in tag_sets):
        return (f"{option} {describe(conditions)} selects none of the {len(tag_sets)} studies: "
                "a run on no study would pass on no evidence. Every condition must hold "
                "at once; loosen one (key=a|b takes either value), or check the values with "
                "rwe validate")
    return None
