"""A claim whose outcome could not be found: kept for coverage, never judged."""

from __future__ import annotations

from pytest_rwe.rules.analysis import Analysis, Claim
from pytest_rwe.rules.claim_parts import significance_after
from pytest_rwe.rules.cue_targets import about_nothing
from pytest_rwe.rules.cues import Cue
from pytest_rwe.rules.text import Span

__all__ = ["loose_claim"]


def loose_claim(analysis: Analysis, cue: Cue, lo: int, hi: int, span: Span, baseline: bool,
                group_tokens: set[int]) -> Claim:
    """The ungrounded claim of direction word ``cue`` in the clause ``lo``-``hi``
    (``group_tokens``: the tokens of groups' names, for telling a claim about nothing)."""
    tokens, text = analysis.tokens, analysis.text
    cue_span = Span(tokens[cue.start].start, tokens[cue.end].end,
                    text[tokens[cue.start].start:tokens[cue.end].end])
    generic = about_nothing(tokens, cue, lo, hi, group_tokens)
    significant = cue.significant
    if cue.kind == "null":
        significant = False
    elif significant is None:
        significant = significance_after(analysis, cue.end, hi, None)
    return Claim(None, None, span, cue.kind if cue.kind in ("higher", "lower", "null")
                 else None, cue_span, significant, False, baseline, cue.hedged,
                 grounded=False, reason="no outcome of the study is named",
                 valence=cue.kind == "valence", generic=generic)
