"""Group labels listed after one plural noun: "in groups 1 and 2", "between arms A and B".

"groups 1 and 2" is "group 1 and group 2": the plural noun distributes over the labels
listed after it. Each label the study's descriptions give ("... prescribed to group 1")
becomes a reference to its group at the label's own position, so that "in groups 1 and 2
was 9.5 and 14.7 days, respectively" pairs the values as "in group 1 and group 2" does.
A list with a label the study does not give is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_rwe.rules.group_words import Group, vocabulary
from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.text import Token
from pytest_rwe.study import Study

__all__ = ["plural_labels"]

_PLURAL = frozenset(["groups", "arms", "cohorts"])
_MARK = re.compile(r"[A-Z]{1,2}|\d{1,2}|I{1,3}V?|IV")


def _listed(tokens: Sequence[Token], start: int) -> list[int]:
    """The positions of the labels listed from ``start``: "1 and 2", "A, B and C"."""
    found: list[int] = []
    pos = start
    while pos < len(tokens) and _MARK.fullmatch(tokens[pos].text):
        found.append(pos)
        nxt = pos + 1
        if nxt < len(tokens) and tokens[nxt].text.lower() in (",", "and", "or", "vs", "versus"):
            nxt += 1
            if nxt < len(tokens) and tokens[nxt].text.lower() in ("and", "or"):
                nxt += 1  # "A, B, and C"
        if nxt == pos + 1:
            break
        pos = nxt
    return found


def plural_labels(study: Study, tokens: Sequence[Token], refs: list[GroupRef]
                  ) -> list[GroupRef]:
    """``refs`` with a reference for each label a plural group noun lists."""
    labels = vocabulary(study).labels
    if not labels:
        return refs
    taken = {p for r in refs for p in range(r.position, r.last + 1)}
    added: list[GroupRef] = []
    for pos, token in enumerate(tokens):
        if token.text.lower() not in _PLURAL:
            continue
        listed = _listed(tokens, pos + 1)
        if len(listed) < 2 or any(tokens[p].text.lower() not in labels for p in listed) or \
                taken & set(range(pos, listed[-1] + 1)):
            continue
        between = pos > 0 and tokens[pos - 1].text.lower() == "between"
        for p in listed:
            group: Group = "intervention" if labels[tokens[p].text.lower()] == "intervention" \
                else "control"
            added.append(GroupRef(group, p, False, p, between, "label"))
    if not added:
        return refs
    return sorted(refs + added, key=lambda r: r.position)
