"""What a criterion test asserts: quorum, self-judging exclusion and the repeat rule (pure).

- **Quorum** (ini ``rwe_quorum``, ``--rwe-quorum``): a criterion verdict needs that many
  answering jurors; below it the criterion fails, naming the jurors that were missing and
  why (an error: could not be asked; an abstention: the reply could not be read). Default: a
  majority of the jurors that judge the pair (the configured jury, less the jurors dropped by
  ``--rwe-exclude-self``).
- **Self-judging** (``--rwe-exclude-self``): a juror of the same vendor family as the model
  under test (:mod:`pytest_rwe.providers.families`) is dropped from that model's pairs.
- **Repeats** (``--rwe-repeat N`` with ini ``rwe_repeat_rule``): ``all``: every repeat must
  pass (each repeat's test asserts its own verdict, so the pair passes only if all do);
  ``majority``: more than half of the N repeats pass; ``mean``: the mean over repeats of the
  jury mean reaches the threshold (repeats without a verdict are left out; none left fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe.providers.families import same_family_jurors
from pytest_rwe.settings import PLUGIN, REPEAT_RULES, RepeatRule, SettingsError, Spelling
from pytest_rwe.verdict import Criterion, Verdict, majority


@dataclass(frozen=True)
class JuryRules:
    """The session's quorum, self-judging and repeat settings."""

    quorum: int | None = None  # None: a majority of the jurors judging the pair
    exclude_self: bool = False
    repeat_rule: RepeatRule = "all"

    def excluded(self, model: str, jury: Sequence[str]) -> tuple[str, ...]:
        """The jurors dropped from ``model``'s pairs."""
        return same_family_jurors(model, jury) if self.exclude_self else ()

    def quorum_for(self, jurors: int) -> int:
        """The quorum of a pair judged by ``jurors`` jurors."""
        return majority(jurors) if self.quorum is None else self.quorum

    def apply(self, verdict: Verdict, model: str, jury: Sequence[str]) -> Verdict:
        """``verdict`` of ``model``'s summary with excluded jurors dropped and the quorum set."""
        excluded = self.excluded(model, jury)
        kept = len([j for j in jury if j not in excluded])
        return verdict.without_jurors(excluded).with_quorum(self.quorum_for(kept))


def build_jury_rules(*, quorum: str | int | None, exclude_self: bool,
                     repeat_rule: str | None, models: Sequence[str],
                     jury: Sequence[str], spelling: Spelling = PLUGIN) -> JuryRules:
    """Validate raw option values; :class:`SettingsError` names the option (the quorum's
    as ``spelling`` spells it) and the fix."""
    rule = (repeat_rule or "all").strip()
    if rule not in REPEAT_RULES:
        raise SettingsError(f"rwe_repeat_rule: {rule!r} is not a repeat rule; use one of "
                            f"{', '.join(REPEAT_RULES)}")
    number: int | None = None
    if quorum is not None and str(quorum).strip():
        try:
            number = int(str(quorum).strip())
        except ValueError:
            raise SettingsError(f"{spelling.given('quorum', repr(quorum))} is not a whole "
                                "number; give how many jurors must answer, e.g. 2") from None
        if not 1 <= number <= len(jury):
            raise SettingsError(f"{spelling.given('quorum', str(number))} must be between 1 "
                                f"and the {len(jury)} configured juror(s) ({', '.join(jury)})")
    rules = JuryRules(quorum=number, exclude_self=exclude_self,
                      repeat_rule=rule)
    for model in models:
        excluded = rules.excluded(model, jury)
        kept = len(jury) - len(excluded)
        if kept == 0:
            raise SettingsError(f"--rwe-exclude-self: every juror ({', '.join(jury)}) is of the "
                                f"same vendor family as {model}, so nobody would judge it; add "
                                "a juror of another vendor (e.g. builtin/rules) to --rwe-jury")
        if number is not None and number > kept:
            raise SettingsError(f"rwe_quorum: {number} jurors cannot answer for {model}: "
                                f"--rwe-exclude-self drops {', '.join(excluded)} and leaves "
                                f"{kept}; lower rwe_quorum or add a juror")
    return rules


@dataclass(frozen=True)
class RepeatedVerdict(Verdict):
    """One repeat's verdict, with the verdicts of every repeat of the same (model, study).

    Indexing and ``badge`` are this repeat's, as for any :class:`Verdict`;
    :meth:`rule_passes` and :meth:`rule_explain` apply the repeat rule across ``repeats``
    (None: that repeat has no verdict, e.g. its summary failed).
    """

    repeats: tuple[Verdict | None, ...] = ()
    index: int = 0
    rule: RepeatRule = "all"

    def rule_passes(self, criterion: Criterion, threshold: float) -> bool:
        """What a criterion test asserts under the repeat rule."""
        return _outcome(self, criterion, threshold)[0]

    def rule_explain(self, criterion: Criterion, threshold: float) -> str:
        """Why the criterion passes or fails under the rule, repeat by repeat."""
        return _outcome(self, criterion, threshold)[1]


def _outcome(verdict: RepeatedVerdict, criterion: Criterion,
             threshold: float) -> tuple[bool, str]:
    own = verdict[criterion]
    if verdict.rule == "all" or len(verdict.repeats) < 2:
        return own.passes(threshold), own.explain(threshold)
    n = len(verdict.repeats)
    cells = [None if v is None else v.criteria.get(criterion) for v in verdict.repeats]
    passing = [c is not None and c.passes(threshold) for c in cells]
    lines = []
    for i, cell in enumerate(cells):
        mark = "this repeat, " if i == verdict.index else ""
        if cell is None:
            lines.append(f"  - repeat {i + 1} ({mark}no verdict: the summary or the jury failed)")
        elif not cell.has_quorum:
            lines.append(f"  - repeat {i + 1} ({mark}no quorum: {len(cell.answered)} of "
                         f"{len(cell.scores)} answered, {cell.quorum} needed)")
        else:
            lines.append(f"  - repeat {i + 1} ({mark}jury mean {cell.mean:.2f}): "
                         + ("passes" if passing[i] else "fails"))
    if verdict.rule == "majority":
        passed = sum(passing) > n / 2
        head = (f"{criterion}: {sum(passing)} of {n} repeats pass threshold {threshold:g}; "
                f"rwe_repeat_rule majority needs more than {n / 2:g}")
    else:
        means = [c.mean for c in cells if c is not None and c.has_quorum and c.mean is not None]
        mean = sum(means) / len(means) if means else None
        passed = mean is not None and mean >= threshold
        shown = "n/a (no repeat has a verdict)" if mean is None else f"{mean:.2f}"
        head = (f"{criterion}: mean over {len(means)} of {n} repeats {shown}, threshold "
                f"{threshold:g} (rwe_repeat_rule mean)")
    detail = "" if passed else "\n" + own.explain(threshold)
    return passed, "\n".join([head, *lines]) + detail


def repeated(verdict: Verdict, repeats: Sequence[Verdict | None], index: int,
             rule: RepeatRule) -> RepeatedVerdict:
    """``verdict`` (repeat ``index``) carrying every repeat's verdict for the rule."""
    return RepeatedVerdict(criteria=verdict.criteria, repeats=tuple(repeats), index=index,
                           rule=rule)

