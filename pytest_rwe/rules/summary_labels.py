"""Group labels a summary defines itself: "Group 3 (laser and KNO3) and Group 2 (laser) than
Group 1 (KNO3)" names each group by the description in its parenthesis.

A label ("group 3", "arm B") the study does not give is an unknown reference; when the summary
follows it with a parenthesis whose group references all name one of the study's groups, the
label is that group, here and wherever the summary uses it again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from pytest_rwe.rules.groups import GroupRef
from pytest_rwe.rules.text import Token

__all__ = ["defined_labels"]


_MARK = re.compile(r"[A-Z]{1,2}|\d{1,2}|I{1,3}V?|IV|[A-Z]\+?[A-Z0-9.]{0,4}")


def _label(tokens: Sequence[Token], ref: GroupRef) -> tuple[str, int] | None:
    """The label of an unknown reference "Group 3" ("group 3") and the token after it."""
    end = ref.last
    if tokens[ref.position].text.lower() not in ("group", "arm") or end + 1 >= len(tokens):
        return None
    mark = tokens[end + 1] if end == ref.position else tokens[end]
    if not _MARK.fullmatch(mark.text):
        return None
    after = end + 2 if end == ref.position else end + 1
    return tokens[ref.position].text.lower() + " " + mark.text.lower(), after


def _inside(tokens: Sequence[Token], start: int) -> tuple[int, int] | None:
    """The token range inside the parenthesis opening at ``start``."""
    if start >= len(tokens) or tokens[start].text != "(":
        return None
    depth = 0
    for pos in range(start, min(len(tokens), start + 30)):
        if tokens[pos].text == "(":
            depth += 1
        elif tokens[pos].text == ")":
            depth -= 1
            if depth == 0:
                return start + 1, pos
    return None


def defined_labels(tokens: Sequence[Token], refs: list[GroupRef]) -> list[GroupRef]:
    """``refs`` with the unknown labels the summary defines given their group."""
    defined: dict[str, str] = {}
    for ref in refs:
        found = _label(tokens, ref) if ref.group == "unknown" else None
        span = _inside(tokens, found[1]) if found else None
        if found is None or span is None:
            continue
        label = found[0]
        named = {r.group for r in refs if span[0] <= r.position < span[1]}
        if len(named) == 1 and named <= {"intervention", "control"}:
            defined.setdefault(label, named.pop())
    if not defined:
        return refs
    out = []
    for ref in refs:
        found = _label(tokens, ref) if ref.group == "unknown" else None
        group = defined.get(found[0]) if found else None
        out.append(replace(ref, group="control" if group == "control" else "intervention",
                           via="label") if group is not None else ref)
    return out
