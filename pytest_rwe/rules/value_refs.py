"""Which group references in a clause can own a value written there.

"At the end of RT, the mean level was 90.9 in the A group and 61.4 in the B group": a word
that both groups' descriptions share ("RT" in "A during RT" and "B during RT") names the
setting both groups were in, not one of them, when the clause names each group by words of
its own. Such a reference is left out when the groups' values are paired, so the pairing is
the one the clause states.
"""

from __future__ import annotations

from pytest_rwe.rules.groups import GroupRef

__all__ = ["value_owners"]


def value_owners(refs: list[GroupRef]) -> list[GroupRef]:
    """``refs`` without the references by a shared word, when both groups are named by
    words of their own (else ``refs`` unchanged)."""
    own = {r.group for r in refs if r.via != "shared"}
    if not {"intervention", "control"} <= own or all(r.via != "shared" for r in refs):
        return refs
    return [r for r in refs if r.via != "shared"]
