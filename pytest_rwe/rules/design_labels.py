"""A number of the design text written for the other sex: the population "840 students (394
men, 446 women)" or "61.7% women" summarised as "446 men, 394 women" or "61.7% men".

The design text labels a number by the word right after it ("394 men", "61.7% women",
"52% female"); the summary's number is wrong when it carries the opposite word and the
design never gives it that word.
"""

from __future__ import annotations

import functools
import re

from pytest_rwe.rules.index import matches
from pytest_rwe.rules.number_groups import NumberFinding
from pytest_rwe.rules.number_mentions import NumberMention
from pytest_rwe.study import Study

_SEX = {"men": "male", "man": "male", "male": "male", "males": "male", "boys": "male",
        "women": "female", "woman": "female", "female": "female", "females": "female",
        "girls": "female"}
_LABELLED = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(%|percent)?\s*(?:were\s+|"
                       r"are\s+)?(" + "|".join(sorted(_SEX, key=len, reverse=True)) + r")\b",
                       re.IGNORECASE)
_AFTER = re.compile(r"\s*(%|percent)?\s*(?:were\s+|are\s+)?(" +
                    "|".join(sorted(_SEX, key=len, reverse=True)) + r")\b", re.IGNORECASE)


@functools.lru_cache(maxsize=256)
def _design_labels(text: str) -> tuple[tuple[float, bool, str], ...]:
    """(value, is a percent, sex) for each number the text labels with a sex word."""
    return tuple((float(m.group(1).replace(",", "")), bool(m.group(2)),
                  _SEX[m.group(3).lower()]) for m in _LABELLED.finditer(text))


def _design_text(study: Study) -> str:
    return " ".join(str(v) for v in study.picot.values())


def other_sex(study: Study, text: str, number: NumberMention) -> NumberFinding | None:
    """The number is the design's count or share of one sex, written for the other."""
    after = _AFTER.match(text, number.span.end)
    if after is None or number.hedged or number.operator:
        return None
    written = _SEX[after.group(2).lower()]
    percent = number.is_percent or bool(after.group(1))
    labels = [(v, s) for v, p, s in _design_labels(_design_text(study)) if p == percent
              and matches(number.value, number.decimals, v)]
    if not labels or any(sex == written for _v, sex in labels):
        return None
    value, sex = labels[0]
    shown = f"{value:g}{'%' if percent else ''}"
    return NumberFinding(number.span, "picot.population", (
        f"{number.span.quote} is written for {written}s, but the design gives {shown} "
        f"{'men' if sex == 'male' else 'women'}"))
