"""The items of a list in a clause: "lower death rates, and 20% fewer heart attacks (HR 0.80)"
is two items; "a composite of A, B and C (HR 0.60)", "both A and B", "four or more failed
trials" and "X -5.7 (p < 0.001), i.e. an improvement" are one each."""

from __future__ import annotations

import re

from pytest_rwe.rules.text import Span


def list_parts(clause: Span) -> list[Span]:
    """A clause cut at the commas, semicolons and "and"s outside brackets: the items of a
    list ("lower death rates, and 20% fewer heart attacks (HR 0.80)")."""
    text = clause.quote
    parts: list[Span] = []
    depth = start = 0
    for match in re.finditer(r"[()]|,(?!\d)\s*(?:and|or)?\s*|;\s*|\s+(?:and|or)\s+", text):
        if match.group(0) == "(":
            depth += 1
        elif match.group(0) == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            part = text[start:match.start()]
            if match.group(0).strip() in ("and", "or") and _PAIRED.search(part):
                continue  # "both hypertension and hyperlipidaemia": one item, not two
            if ";" not in match.group(0) and _PARTS_OF.search(part):
                continue  # "a composite of A, B and C (HR 0.60)": the list is one outcome
            if match.group(0).strip() == "or" and _OR_MORE.match(text, match.end()) and \
                    _NUMBER_END.search(part):
                continue  # "four or more failed trials": one threshold, not two items
            if _RESTATED.match(text, match.end()):
                continue  # "X -5.7 (p < 0.001), i.e. an improvement ...": the same result
            parts.append(Span(clause.start + start, clause.start + match.start(), part))
            start = match.end()
    parts.append(Span(clause.start + start, clause.end, text[start:]))
    return parts


_OR_MORE = re.compile(r"(?:more|fewer|less|greater|higher|lower|above|over|longer|older)\b",
                      re.IGNORECASE)
_NUMBER_END = re.compile(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten))$",
                         re.IGNORECASE)
# "i.e.", "that is", "namely": what follows restates the item before it, not a new one
_RESTATED = re.compile(r"(?:i\.\s?e\.|that\s+is\b|namely\b)", re.IGNORECASE)
_PARTS_OF = re.compile(r"\b(?:composite|combined)\s+(?:(?:outcome|endpoint|end\s+point)s?\s+)?"
                       r"of\b[^()]*$", re.IGNORECASE)
_PAIRED = re.compile(r"\b(?:both|between|either|whether)\b(?!.*\b(?:and|or)\b)", re.IGNORECASE)
