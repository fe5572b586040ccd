"""An event named by a change noun: "cognitive decline was more common with A", "more
functional decline". For a yes/no outcome whose own name holds the change noun (the event
is a decline), "more" and "less" count the events; they do not size a change ("the decline
was greater", read as a larger fall). The direction the claim states is then the
comparative's own: more events, higher.
"""

from __future__ import annotations

from dataclasses import replace

from pytest_rwe.rules.analysis import Analysis, Claim
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.sizes import BIGGER, SMALLER

__all__ = ["count_named_events"]

# change nouns an event can be named by ("cognitive decline", "weight gain")
_CHANGE_NOUNS = words("decline declines loss losses reduction reductions decrease decreases "
                      "gain gains increase increases deterioration worsening")


def _counted(analysis: Analysis, claim: Claim) -> Claim:
    outcome, mention, cue = claim.outcome, claim.mention, claim.cue
    if outcome is None or mention is None or cue is None or outcome.kind != "bin" or \
            claim.direction not in ("higher", "lower"):
        return claim
    word = cue.quote.lower()
    plain = "higher" if word in BIGGER else "lower" if word in SMALLER else None
    if plain is None:
        return claim
    expected = plain if not claim.flipped else ("lower" if plain == "higher" else "higher")
    named = {analysis.tokens[p].text.lower() for p in mention.positions}
    if claim.direction == expected or not named & _CHANGE_NOUNS or \
            not _CHANGE_NOUNS & set(outcome.name.lower().split()):
        return claim
    return replace(claim, direction=expected)


def count_named_events(analysis: Analysis) -> None:
    """Read "more"/"less" of a yes/no outcome named by a change noun as counting it."""
    analysis.claims = [_counted(analysis, c) for c in analysis.claims]
