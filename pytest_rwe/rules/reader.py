"""The clause reader: the claims one clause makes, each tied to an outcome and a group side.

Used by :func:`pytest_rwe.rules.claims.analyze`, which finds clauses, names and groups first.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.analysis import Analysis, Claim
from pytest_rwe.rules.antecedents import (
    bare_change,
    contrasted_change,
    measure_antecedent,
    pronoun_antecedent,
    subject_pronoun,
)
from pytest_rwe.rules.change_pairs import changes_claim
from pytest_rwe.rules.change_sizes import changed_by, compared_change
from pytest_rwe.rules.claim_parts import (
    attach,
    closing_significance,
    referred_significance,
    says_significance,
    significance_after,
)
from pytest_rwe.rules.clause_values import clause_values, sentence_values
from pytest_rwe.rules.cue_targets import (
    argument_head,
    measures,
    only_values,
    oriented_valence,
)
from pytest_rwe.rules.cues import Cue, find_cues
from pytest_rwe.rules.group_values import GroupValues, group_values
from pytest_rwe.rules.groups import GroupRef, describes_group
from pytest_rwe.rules.headline import headline_cues
from pytest_rwe.rules.inquiries import asked_from
from pytest_rwe.rules.loose import loose_claim
from pytest_rwe.rules.number_mentions import numbers_in
from pytest_rwe.rules.outcomes import Mention
from pytest_rwe.rules.ratio_sides import ratio_direction, ratio_estimate
from pytest_rwe.rules.respectively import within_group
from pytest_rwe.rules.sides import RELATIVE, UNKNOWN_GROUP, Side, orientation, segment
from pytest_rwe.rules.sole_outcome import (
    sole_outcome,
    survival_outcomes,
    unnamed_mention,
    word_mention,
)
from pytest_rwe.rules.stated_difference import stated_difference
from pytest_rwe.rules.stated_ratio import stated_ratio
from pytest_rwe.rules.tested import tested_next
from pytest_rwe.rules.text import Span
from pytest_rwe.rules.time_points import another_time
from pytest_rwe.study import Outcome, Study


class Reader:
    """Reads the clauses of one summary in order, keeping the group last named as a subject."""

    def __init__(self, study: Study, analysis: Analysis, in_names: set[int]) -> None:
        self.study = study
        self.analysis = analysis
        self.in_names = in_names
        self.topic: str | None = None  # the group the previous claims were about
        self.clause_cues: list[Cue] = []  # the direction cues of the clause being read
        self.cue_starts: list[int] = []
        self.description_numbers = frozenset(
            n.value for g in ("intervention", "control")
            for n in numbers_in(str(study.picot.get(g) or "")))
        self.baseline_sentence = False
        # a clause's stated ratio or difference, read once, not once per outcome it names
        self.stated: dict[tuple[int, int], tuple[str, int, int] | None] = {}
        self.values: dict[tuple[int, int, bool], GroupValues | None] = {}
        self.sentence_starts = {lo for lo, _ in analysis.sentences}
        self.sentence_los = [lo for lo, _ in analysis.sentences]
        self.mention_starts = [m.positions[0] for m in analysis.mentions]
        self.group_starts = [g.position for g in analysis.groups]
        self.token_starts = [t.start for t in analysis.tokens]
        # words of a group's own description are not claims ("neither A nor B" as a name)
        self.in_groups = {p for g in analysis.groups if g.via == "name"
                          for p in range(g.position, g.last + 1)}
        self.group_words = {p for g in analysis.groups
                            for p in range(g.position, g.last + 1)}

    def _mentions(self, lo: int, hi: int) -> list[Mention]:
        starts = self.mention_starts
        return self.analysis.mentions[bisect.bisect_left(starts, lo):bisect.bisect_left(starts,
                                                                                        hi)]

    def _refs(self, lo: int, hi: int) -> list[GroupRef]:
        starts = self.group_starts
        return self.analysis.groups[bisect.bisect_left(starts, lo):bisect.bisect_left(starts, hi)]

    def clause(self, lo: int, hi: int, span: Span) -> list[Claim]:
        analysis = self.analysis
        text = analysis.text
        if lo in self.sentence_starts:
            # "At baseline, ...", "Baseline characteristics ...": the whole sentence
            head = text[span.start:span.start + 40]
            self.baseline_sentence = bool(re.match(r"\W*(?:at\s+baseline|baseline|at\s+"
                                                   r"(?:study\s+)?entry|before\s+matching)\b",
                                                   head, re.IGNORECASE))
        # a baseline phrase marks the comma-delimited stretch it stands in, not the clause:
        # "HbA1c, which averaged 8.1% at baseline, fell by 0.4" is about the change
        stretches = []
        for match in lexicon.BASELINE.finditer(text, span.start, span.end):
            first = bisect.bisect_left(self.token_starts, match.start())
            if describes_group(self.study, analysis.groups, first):
                continue  # "patients who had nodules at baseline": the group's definition
            stretches.append(segment(analysis.tokens, first, first, lo, hi))
        sentence_wide = self.baseline_sentence and not lexicon.OUTCOME_TALK.search(span.quote)

        def baseline(position: int) -> bool:
            return sentence_wide or any(a <= position < b for a, b in stretches)

        mentions = self._mentions(lo, hi)
        refs = self._refs(lo, hi)
        cues = find_cues(analysis.text, analysis.tokens, lo, hi, span,
                         self.in_names | self.in_groups, self.in_names)
        asked = asked_from(text, analysis.tokens, lo, hi, self._sentence_end(lo))
        cues = [c for c in cues if c.start < asked]  # a question states no direction
        self.clause_cues = [c for c in cues if c.kind in ("higher", "lower", "valence")]
        self.cue_starts = [c.start for c in self.clause_cues]
        if not cues and not mentions:
            return self._unnamed_values(lo, hi, span, refs, baseline(lo))
        group_tokens = {p for r in refs for p in range(r.position, r.last + 1)}
        governed = headline_cues(analysis.tokens, mentions, cues, hi) | attach(
            analysis.tokens, mentions, cues, lo, hi, group_tokens)
        claims: list[Claim] = []
        used: set[int] = set()
        for mention in mentions:
            cue = governed.get(mention.positions[0])
            if cue is not None:
                used.add(cue.start)
            anchor = cue.start if cue is not None else mention.positions[0]
            claims.append(self._timed(self._claim(mention, cue, lo, hi, span, refs,
                                                  baseline(anchor)), cue, lo, hi))
        for cue in cues:
            if cue.start in used:
                continue
            antecedent = self._antecedent(cue, lo, hi) or self._sole(cue, lo, hi, claims) \
                or self._unnamed(cue, lo, hi, claims)
            implied = survival_outcomes(self.analysis, self.study.outcomes, cue) \
                if antecedent is None else []
            if antecedent is not None:
                claims.append(self._timed(self._claim(antecedent, cue, lo, hi, span, refs,
                                                      baseline(cue.start)), cue, lo, hi))
            elif implied:
                claims += [self._claim(m, cue, lo, hi, span, refs, baseline(cue.start))
                           for m in implied]
            else:
                claims.append(loose_claim(self.analysis, cue, lo, hi, span, baseline(cue.start),
                                          self.in_groups | self.group_words))
        return claims

    def _sentence_end(self, lo: int) -> int:
        """Where the sentence holding token ``lo`` ends (the next one's first character)."""
        following = bisect.bisect_right(self.sentence_los, lo)
        if following < len(self.sentence_los):
            return self.analysis.tokens[self.sentence_los[following]].start
        return len(self.analysis.text)

    def _next_name(self, mention: Mention, hi: int) -> int:
        """Where the next outcome's name after ``mention`` starts in its clause (or ``hi``)."""
        return next((m.positions[0] for m in self._mentions(mention.positions[-1] + 1, hi)
                     if m.outcome.key != mention.outcome.key), hi)

    def _timed(self, claim: Claim, cue: Cue | None, lo: int, hi: int) -> Claim:
        """``claim``, ungrounded when its direction word is said of a time point its
        outcome's name does not give ("lower at 60 min" for "hunger at 20 min")."""
        if cue is None or claim.outcome is None or claim.direction not in ("higher", "lower"):
            return claim
        before, after = self._between(cue) or (lo - 1, hi)
        if not another_time(self.analysis, claim.outcome.name, cue, max(before + 1, lo),
                            min(after, hi)):
            return claim
        return replace(claim, grounded=False, reason="about another time point")

    def _sentence(self, lo: int, claims: list[Claim]) -> tuple[int, int, set[str], str]:
        """The sentence holding token ``lo``: its token range, the outcomes already given a
        direction in it (by earlier clauses or ``claims``) and its text."""
        s_lo, s_hi = self.analysis.sentence_of(self.analysis.tokens[lo].start)
        directed = {c.outcome.key for c in self.analysis.claims + claims
                    if c.outcome is not None and c.direction is not None
                    and s_lo <= bisect.bisect_left(self.token_starts, c.clause.start) < s_hi}
        tokens = self.analysis.tokens
        return s_lo, s_hi, directed, self.analysis.text[tokens[s_lo].start:tokens[s_hi - 1].end]

    def _sole(self, cue: Cue, lo: int, hi: int, claims: list[Claim]) -> Mention | None:
        """The one outcome the sentence names, for a direction word naming nothing else."""
        s_lo, s_hi, directed, sentence = self._sentence(lo, claims)
        return sole_outcome(self.analysis.tokens, cue, lo, hi, self._mentions(s_lo, s_hi),
                            directed, self.group_words, sentence)

    def _one_outcome(self) -> Outcome | None:
        """The study's one outcome, for words that refer to it without its name; None with
        several, or once a claim was about a measure the study does not name ("Pain VAS was
        lower in A. The score was ..." is about that measure)."""
        if len(self.study.outcomes) != 1 or any(c.outcome is None for c in self.analysis.claims):
            return None
        return self.study.outcomes[0]

    def _unnamed(self, cue: Cue, lo: int, hi: int, claims: list[Claim]) -> Mention | None:
        """The study's one outcome, for a direction word in a summary that names none."""
        sole = None if self.analysis.mentions else self._one_outcome()
        if sole is None:
            return None
        s_lo, _, directed, sentence = self._sentence(lo, claims)
        return unnamed_mention(self.analysis, sole, cue, (lo, s_lo, hi), self.group_words,
                               sentence, directed)

    def _unnamed_values(self, lo: int, hi: int, span: Span, refs: list[GroupRef],
                        baseline: bool) -> list[Claim]:
        """"79% for the study group vs. 54% for the control group (p < 0.01)" in a summary
        that names no outcome: the two groups' values of the study's one outcome."""
        sole = None if self.analysis.mentions else self._one_outcome()
        if sole is None or {r.group for r in refs} != {"intervention", "control"}:
            return []
        claim = self._claim(word_mention(self.analysis, sole, lo, lo), None, lo, hi, span, refs,
                            baseline)
        # a test said of them, as "79% vs 54%" alone may describe the groups, not compare them
        return [claim] if claim.direction in ("higher", "lower") and claim.significant and \
            not claim.untested else []

    def _between(self, cue: Cue) -> tuple[int, int] | None:
        """Where the direction cues before and after ``cue`` stand in its clause (the cues
        are in text order: a bisection, not a scan)."""
        cues = self.clause_cues
        if len(cues) < 2:
            return None
        at = bisect.bisect_left(self.cue_starts, cue.start)
        before = cues[at - 1].end if at > 0 else -1
        nxt = at + 1 if at < len(cues) and cues[at].start == cue.start else at
        after = cues[nxt].start if nxt < len(cues) else len(self.analysis.tokens)
        return before, after

    def _within_one_group(self, cue: Cue, lo: int, hi: int, refs: list[GroupRef]) -> bool:
        """"X decreased from 28 to 9 in the A group", "a significant difference before and
        after training": a change over time in one group (in a case series, the claim
        itself)."""
        tokens = self.analysis.tokens
        if self.study.design == "case_series" or any(r.comparison for r in refs) or \
                compared_change(tokens, cue):
            return False
        seg_lo, seg_hi = segment(tokens, cue.start, cue.end, lo, hi)
        stretch = self.analysis.text[tokens[seg_lo].start:tokens[min(hi, seg_hi + 8) - 1].end]
        return bool(lexicon.WITHIN_GROUP.search(stretch))

    def _antecedent(self, cue: Cue, lo: int, hi: int) -> Mention | None:
        """The outcome a cue without a name of its own refers back to: the name just before a
        relative clause ("heart rate, for which A had a lower value"), or the one outcome the
        sentence named before, when the cue's argument is only a measure of it ("the PVB
        group had lower scores")."""
        tokens = self.analysis.tokens
        s_lo = max((a for a, _ in self.analysis.sentences if a <= lo), default=lo)
        earlier = self._mentions(s_lo, cue.start)
        if not earlier:
            sole = self._one_outcome()
            return pronoun_antecedent(self.analysis, self._mentions, cue, lo, s_lo, sole) or \
                measure_antecedent(self.analysis, self._mentions, self.sentence_los, cue, lo,
                                   hi, s_lo, sole)
        seg_lo, _ = segment(tokens, cue.start, cue.end, lo, hi)
        lead = [t.text.lower() for t in tokens[seg_lo:min(seg_lo + 3, cue.start)]]
        last = earlier[-1]
        if lead and (lead[0] in RELATIVE or lead[:2] in (["for", "which"], ["in", "which"])) \
                and (seg_lo - last.positions[-1] <= 3
                     or only_values(tokens, last.positions[-1] + 1, seg_lo, self.group_words)):
            # "a recurrence rate of 53.3% in the A group, which is lower than in B": the
            # relative pronoun is the value named, over its number and its group
            return last
        outcomes = {m.outcome.key for m in earlier}
        if len(outcomes) == 1 and subject_pronoun(tokens, lo, cue.start, cue.end):
            return last  # "Before induction, X was similar, but it was lower in the A group"
        if len(outcomes) == 1 and cue.start > last.positions[-1] and \
                bare_change(tokens, cue, hi, self.group_words):
            return last  # "X increased in both groups, with a greater increase in the A group"
        head = argument_head(tokens, cue, hi)
        if head is not None and measures(head[0], last, lo) and len(outcomes) == 1 and \
                head[1] not in ("of", "in", "for") and not head[1][:1].isalpha():
            return last  # "lower scores than the control group", not "lower levels of Y"
        return None

    def _other_side(self, lo: int) -> Side | None:
        """"The remediation group had a significant decrease in X, whereas in the control
        group X did not change": one group the study does not name, in a sentence that names
        only the other group, is the one it has not named."""
        # the sentence by bisection: a scan of every sentence per claim would be quadratic
        s_lo, s_hi = self.analysis.sentence_of(self.analysis.tokens[lo].start)
        refs = self._refs(s_lo, s_hi)
        known = {r.group for r in refs if r.group in ("intervention", "control")}
        unknown = {" ".join(t.norm for t in self.analysis.tokens[r.position:max(r.end,
                                                                                r.position) + 1])
                   for r in refs if r.group == "unknown"}
        if len(known) != 1 or len(unknown) != 1:
            return None
        return Side("control" if known == {"intervention"} else "intervention", True)

    def _claim(self, mention: Mention, cue: Cue | None, lo: int, hi: int, span: Span,
               refs: list[GroupRef], baseline: bool) -> Claim:
        analysis = self.analysis
        tokens, text = analysis.tokens, analysis.text
        anchor = cue.end if cue is not None else mention.positions[-1]
        # an interval says whether a bare number is significant; a stated direction keeps
        # its own words ("higher odds (OR 1.91, 0.96-3.81)" asserts an effect all the same)
        after = significance_after(analysis, anchor, hi, mention,
                                   intervals=cue is None or cue.kind in ("differ", "null"))
        significant = after if cue is None or cue.significant is None else cue.significant
        if cue is None and significant is None:
            significant = referred_significance(self.analysis, lo)
            if significant is None:
                significant = closing_significance(self.analysis, hi)
        # values with no test: never about baseline, nor in a sentence that speaks of a test
        s_lo, s_hi = analysis.sentence_of(span.start)
        sentence = text[tokens[s_lo].start:tokens[s_hi - 1].end] if s_hi > s_lo else span.quote
        tested_after = tested_next(analysis, s_hi, self._mentions) if (
            cue is None and significant is None and not says_significance(sentence)) else None
        if tested_after == "significant":
            significant = True  # "... 5.0 days with B. The superiority of A was significant"
        untested = cue is None and significant is None and not baseline and \
            not lexicon.BASELINE.search(span.quote) and not says_significance(sentence) and \
            tested_after is None
        if ((cue is None or cue.kind in ("differ", "valence")) and significant and not baseline
                ) or untested:
            # "12.4% in A and 3.4% in C (p = 0.02)": the groups' values give the side
            times = bool(lexicon.TIME_NAME.search(mention.outcome.name))
            excluded = self.description_numbers
            if (lo, hi, times) not in self.values:  # once a clause, as self.stated
                self.values[lo, hi, times] = clause_values(
                    tokens, refs, lo, hi, times, excluded, self.in_names,
                    lambda: sentence_values(self.analysis, self._refs, lo,
                                            self.description_numbers))
            values = self.values[lo, hi, times]
            within = values is not None and within_group(span.quote)  # "from 0.75 to 0.92 in A"
            if (within or values is None) and (moved := changes_claim(  # both groups' changes
                    analysis, mention, span, baseline)):
                return moved
            if values is not None and not within:
                start, end = tokens[values.start].start, tokens[values.end].end
                # untested values ("85.9% with B vs 98.4% with A"): a side, not a difference
                return Claim(mention.outcome, mention, span, values.direction,
                             Span(start, end, text[start:end]), None if untested else True,
                             False, baseline, hedged=untested, untested=untested)
        if (lo, hi) not in self.stated:  # "the RR of X with A versus B was 0.60 (0.47-0.77)"
            self.stated[lo, hi] = stated_ratio(text, tokens, refs, lo, hi) or \
                stated_difference(text, tokens, refs, lo, hi)
        stated = self.stated[lo, hi]
        if cue is None and significant is None and stated:
            significant = True
        if significant and not baseline and (cue is None or cue.kind in ("differ", "valence")):
            ratio = ratio_direction(text, tokens, refs, anchor, self._next_name(mention, hi),
                                    lo, hi, self.study.design, mention.outcome.name,
                                    ratio_estimate(analysis.facts.get(mention.outcome.key))
                                    ) or stated
            if ratio is not None:  # "treatment with A [OR 2.39; 95% CI 1.70-3.36]"
                start, end = tokens[ratio[1]].start, tokens[ratio[2]].end
                return Claim(mention.outcome, mention, span, ratio[0],
                             Span(start, end, text[start:end]), True, False, baseline)
        if cue is None:
            return Claim(mention.outcome, mention, span, None, None, after, False, baseline)
        cue_span = Span(tokens[cue.start].start, tokens[cue.end].end,
                        text[tokens[cue.start].start:tokens[cue.end].end])
        if cue.kind == "null":
            return Claim(mention.outcome, mention, span, "null", cue_span, False, False,
                         baseline)
        if cue.kind == "valence":  # "pain improved": less pain; "better survival": more
            cue = oriented_valence(tokens, cue, mention.outcome.name)
        if cue.kind == "differ" and self._within_one_group(cue, lo, hi, refs):
            return Claim(mention.outcome, mention, span, None, cue_span, significant, False,
                         baseline, grounded=False,
                         reason="a change within one group, not a comparison")
        if cue.kind in ("differ", "valence"):
            return Claim(mention.outcome, mention, span, None, cue_span,
                         significant if cue.kind == "valence" else (
                             True if significant is None else significant),
                         False, baseline, cue.hedged, valence=cue.kind == "valence",
                         grounded=cue.kind == "differ",
                         reason="" if cue.kind == "differ" else "a difference without a side")
        # "X rose from baseline in A, but not in B": the change within A sets A against B
        changed = contrasted_change(tokens, self._refs(*analysis.sentence_of(span.start))) \
            if self._within_one_group(cue, lo, hi, refs) else ""
        if changed is None:  # unless each group's change is given ("from a to b in A ... B")
            return changes_claim(analysis, mention, span, baseline) or Claim(
                mention.outcome, mention, span, cue.kind, cue_span, significant, False, baseline,
                cue.hedged, grounded=False, reason="a change within one group, not a comparison")
        side = Side(changed, True) if changed else orientation(
            tokens, refs, cue, lo, hi, self.topic, self.study.design, self._between(cue))
        if side.reason == UNKNOWN_GROUP:
            side = self._other_side(lo) or side
        if side.group in ("intervention", "control") and side.explicit:
            self.topic = side.group
        sized = changed_by(tokens, cue, group_values(tokens, refs, lo, hi)) if \
            side.group == "unknown" and side.explicit else None  # "the fall was 3 in A, 1 in B"
        if side.group not in ("intervention", "control") and sized is None:
            return Claim(mention.outcome, mention, span, cue.kind, cue_span, significant, False,
                         baseline, cue.hedged, grounded=False, reason=side.reason)
        flipped = side.group == "control"
        direction = sized or (cue.kind if not flipped else (
            "lower" if cue.kind == "higher" else "higher"))
        return Claim(mention.outcome, mention, span, direction, cue_span, significant, flipped,
                     baseline, cue.hedged)
