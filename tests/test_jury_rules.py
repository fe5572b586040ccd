"""Quorum, self-judging and the repeat rule, on verdict objects built by hand (errors and
abstentions constructed directly, whatever the engine does with them)."""

from __future__ import annotations

import pytest

from pytest_rwe.jury_rules import JuryRules, build_jury_rules, repeated
from pytest_rwe.providers.families import same_family_jurors, vendor_family
from pytest_rwe.settings import DEFAULT_JURY, SettingsError
from pytest_rwe.verdict import CRITERIA, JurorScore, Verdict, majority

JURY = ("openai/o4-mini", "anthropic/claude-sonnet-4-20250514", "google/gemini-2.5-pro")


def verdict(*answers: tuple[str, int | None, str | None]) -> Verdict:
    """Every criterion gets the same answers: (juror, score or None, error or None)."""
    return Verdict.from_scores([
        JurorScore(juror, c, score, "abstained: unreadable" if score is None and not error
                   else "fine", error)
        for c in CRITERIA for juror, score, error in answers])


def test_one_juror_of_three_is_no_quorum_and_the_message_says_who_and_why() -> None:
    v = verdict(("openai/o4-mini", 1, None),
                ("anthropic/claude-sonnet-4-20250514", None, "HTTP 500 after 6 attempts"),
                ("google/gemini-2.5-pro", None, None)).with_quorum()
    cell = v["completeness"]
    assert cell.quorum == 2 == majority(3)
    assert cell.mean == 1.0 and not cell.has_quorum and not cell.passes(0.5)
    assert v.badge(dict.fromkeys(CRITERIA, 0.5)) == "red"
    text = cell.explain(0.5)
    assert text.splitlines()[0] == (
        "completeness: no quorum: 1 of 3 juror(s) answered, 2 needed "
        "(--rwe-quorum or ini rwe_quorum), so the jury mean 1.00 is not a verdict; missing: "
        "anthropic/claude-sonnet-4-20250514 (error), google/gemini-2.5-pro (abstained)")
    assert "error (could not be asked): HTTP 500 after 6 attempts" in text
    assert "google/gemini-2.5-pro: abstained: unreadable" in text
    record = cell.to_dict()
    assert (record["quorum"], record["quorum_met"], record["errors"],
            record["abstentions"]) == (2, False, 1, 1)


def test_two_of_three_reach_the_default_quorum() -> None:
    v = verdict(("a/x", 1, None), ("b/y", 0, None), ("c/z", None, "timeout")).with_quorum()
    assert v["direction_of_effect"].has_quorum
    assert v["direction_of_effect"].passes(0.5) and not v["direction_of_effect"].passes(0.6)
    assert verdict(("a/x", 1, None)).with_quorum(1)["completeness"].passes(0.5)


def test_build_jury_rules_checks_the_quorum_and_the_rule() -> None:
    rules = build_jury_rules(quorum="", exclude_self=False, repeat_rule=None,
                             models=["builtin/template"], jury=JURY)
    assert rules == JuryRules() and rules.quorum_for(3) == 2 and rules.quorum_for(4) == 3
    assert build_jury_rules(quorum="3", exclude_self=False, repeat_rule="mean",
                            models=[], jury=JURY) == JuryRules(3, False, "mean")
    with pytest.raises(SettingsError, match="rwe_quorum: 4 must be between 1 and the 3"):
        build_jury_rules(quorum="4", exclude_self=False, repeat_rule=None, models=[], jury=JURY)
    with pytest.raises(SettingsError, match="'two' is not a whole number"):
        build_jury_rules(quorum="two", exclude_self=False, repeat_rule=None, models=[],
                         jury=JURY)
    with pytest.raises(SettingsError, match="'most' is not a repeat rule; use one of all"):
        build_jury_rules(quorum=None, exclude_self=False, repeat_rule="most", models=[],
                         jury=JURY)
    # excluding Gemini from a Gemini model's pairs leaves two jurors: a quorum of 3 cannot be
    with pytest.raises(SettingsError, match=r"drops google/gemini-2\.5-pro and leaves 2"):
        build_jury_rules(quorum="3", exclude_self=True, repeat_rule=None,
                         models=["google/gemini-2.5-flash"], jury=JURY)
    with pytest.raises(SettingsError, match="nobody would judge it"):
        build_jury_rules(quorum=None, exclude_self=True, repeat_rule=None,
                         models=["openai/gpt-4.1"], jury=["openai/o4-mini"])


def test_vendor_families() -> None:
    assert [vendor_family(n) for n in (
        "google/gemini-2.5-flash", "gemini-2.5-pro", "openai/o4-mini", "gpt-4.1",
        "anthropic/claude-sonnet-4-20250514", "openai/llama3.1@http://127.0.0.1:11434/v1",
        "openai/meta-llama/Llama-3.1-8B-Instruct@http://h/v1", "openai/mixtral@http://h/v1",
        "builtin/template", "builtin/rules", "openai/my-model@http://h/v1", "acme/thing",
    )] == ["google", "google", "openai", "openai", "anthropic", "meta", "meta", "mistral",
           None, None, None, "acme"]


def test_the_papers_jury_judges_every_vendor_family_with_one_of_its_own() -> None:
    assert same_family_jurors("google/gemini-2.5-flash", DEFAULT_JURY) == (
        "google/gemini-2.5-pro",)
    assert same_family_jurors("openai/gpt-4.1", DEFAULT_JURY) == ("openai/o4-mini",)
    assert same_family_jurors("claude-opus-4-0", DEFAULT_JURY) == (
        "anthropic/claude-sonnet-4-20250514",)
    assert same_family_jurors("builtin/template", ("builtin/rules", *DEFAULT_JURY)) == ()
    assert same_family_jurors("openai/llama3@http://h/v1", DEFAULT_JURY) == ()


def test_exclude_self_drops_the_juror_and_sets_the_quorum_of_those_left() -> None:
    v = verdict(("openai/o4-mini", 1, None), ("anthropic/claude-sonnet-4-20250514", 1, None),
                ("google/gemini-2.5-pro", 0, None))
    rules = JuryRules(exclude_self=True)
    applied = rules.apply(v, "google/gemini-2.5-flash", JURY)
    cell = applied["numbers_accurate"]
    assert [s.juror for s in cell.scores] == list(JURY[:2])
    assert (cell.quorum, cell.mean) == (2, 1.0)
    # without --rwe-exclude-self the juror stays (and is only flagged in the report)
    kept = JuryRules().apply(v, "google/gemini-2.5-flash", JURY)["numbers_accurate"]
    assert len(kept.scores) == 3 and kept.mean == pytest.approx(2 / 3)


def test_repeat_rules() -> None:
    good = verdict(("a/x", 1, None), ("b/y", 1, None)).with_quorum()
    bad = verdict(("a/x", 0, None), ("b/y", 0, None)).with_quorum()
    half = verdict(("a/x", 1, None), ("b/y", 0, None)).with_quorum()
    runs = [good, bad, good]
    assert not repeated(bad, runs, 1, "all").rule_passes("completeness", 0.5)
    assert repeated(good, runs, 0, "all").rule_passes("completeness", 0.5)
    # majority: 2 of 3 pass, so every repeat's test passes, the failing one included
    majority_rule = repeated(bad, runs, 1, "majority")
    assert majority_rule.rule_passes("completeness", 0.5)
    assert majority_rule["completeness"].mean == 0.0  # indexing is still this repeat's
    text = majority_rule.rule_explain("completeness", 0.5)
    assert text.splitlines()[0] == ("completeness: 2 of 3 repeats pass threshold 0.5; "
                                    "rwe_repeat_rule majority needs more than 1.5")
    assert "repeat 2 (this repeat, jury mean 0.00): fails" in text
    assert not repeated(good, [good, bad, bad], 0, "majority").rule_passes("completeness", 0.5)
    # a repeat without a verdict counts as failing under majority, is left out of the mean
    assert not repeated(good, [good, None], 0, "majority").rule_passes("completeness", 0.5)
    assert repeated(good, [good, None], 0, "mean").rule_passes("completeness", 0.5)
    # mean: (1 + 0 + .5) / 3 = .5 passes .5, not .6
    assert repeated(good, [good, bad, half], 0, "mean").rule_passes("completeness", 0.5)
    failing = repeated(good, [good, bad, half], 0, "mean")
    assert not failing.rule_passes("completeness", 0.6)
    assert failing.rule_explain("completeness", 0.6).startswith(
        "completeness: mean over 3 of 3 repeats 0.50, threshold 0.6 (rwe_repeat_rule mean)")
    # a repeat without quorum has no value for the mean
    lone = verdict(("a/x", 1, None), ("b/y", None, "down")).with_quorum()
    assert not repeated(lone, [lone, lone], 0, "mean").rule_passes("completeness", 0.5)
    assert "no quorum: 1 of 2 answered, 2 needed" in repeated(
        lone, [lone, good], 0, "majority").rule_explain("completeness", 0.5)
