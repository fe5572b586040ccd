"""A group's name followed at once by a word of the other group's description: "the
closed-loop phases" (the control is a "control phase"), "both A/B FDCs" (the control is
"an FDC of C"), "the aprepitant regimen" (the control is "the standard regimen").

In English the noun that ends a noun phrase names the kind of thing and the words before it
say which one. A word the other group's description has, right after a group's name with
nothing between, is the head of that name's phrase, not a second group: the phrase is one
reference, the name's. Only a single word of the other group's own vocabulary ends a phrase
so; a name of its own ("A B") or a role or label ("A control group") is two references.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.text import Token

__all__ = ["head_noun"]


def head_noun(tokens: Sequence[Token], name_via: str, head: int, head_last: int,
              head_via: str) -> bool:
    """Whether the reference at ``head``..``head_last`` (by ``head_via``), right after a
    reference by a name (``name_via``), is that name's head noun."""
    if name_via != "name" or head_via != "name" or head != head_last:
        return False
    word = tokens[head].text
    # a capitalized word or an abbreviation may be the other group's own name ("A Placebo")
    return word[:1].islower() or (word[:-1].isupper() and word.endswith("s"))
