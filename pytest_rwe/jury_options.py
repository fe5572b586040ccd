"""The options of what a criterion test asserts: ``--rwe-quorum``, ``--rwe-exclude-self``,
``--rwe-repeat-rule`` (pytest glue over :mod:`pytest_rwe.jury_rules`)."""

from __future__ import annotations

import pytest

from pytest_rwe.jury_rules import REPEAT_RULES, JuryRules, build_jury_rules
from pytest_rwe.redact import redact
from pytest_rwe.settings import SettingsError

RULES_KEY = pytest.StashKey[JuryRules]()


def add_jury_options(parser: pytest.Parser) -> None:
    """Register the quorum, self-judging and repeat-rule options and ini keys."""
    group = parser.getgroup("rwe")
    group.addoption("--rwe-quorum", metavar="N",
                    help="jurors that must answer for a criterion verdict; fewer fails the test, "
                         "naming who was missing and why (default: ini rwe_quorum, else a "
                         "majority of the jurors judging the pair)")
    group.addoption("--rwe-exclude-self", action="store_true", default=None,
                    help="drop a juror of the same vendor family as the model under test from "
                         "that model's pairs (ini rwe_exclude_self); without it such a juror "
                         "is only flagged")
    group.addoption("--rwe-repeat-rule", choices=REPEAT_RULES, metavar="RULE",
                    help="with --rwe-repeat N, what a criterion test asserts: all (every repeat "
                         "passes), majority (more than half pass) or mean (the mean over repeats "
                         "reaches the threshold) (default: ini rwe_repeat_rule, all)")
    parser.addini("rwe_quorum", "jurors that must answer for a criterion verdict", default="")
    parser.addini("rwe_exclude_self", "drop jurors of the model's own vendor family",
                  type="bool", default=False)
    parser.addini("rwe_repeat_rule", "all, majority or mean", default="all")


def jury_rules_given(config: pytest.Config) -> bool:
    """Whether this run names models, jurors or jury rules itself (then they are checked
    in ``pytest_configure``, before xdist starts workers)."""
    return bool(config.getoption("--rwe-model") or config.getoption("--rwe-jury")
                or config.getoption("--rwe-quorum") or config.getoption("--rwe-exclude-self")
                or config.getoption("--rwe-repeat-rule") or config.getini("rwe_quorum")
                or config.getini("rwe_exclude_self")
                or str(config.getini("rwe_repeat_rule") or "all") != "all")


def jury_rules(config: pytest.Config) -> JuryRules:
    """The session's :class:`JuryRules`; a bad value is a usage error that names the fix."""
    rules = config.stash.get(RULES_KEY, None)
    if rules is not None:
        return rules
    from pytest_rwe.session import get_session

    settings = get_session(config).settings
    exclude = config.getoption("--rwe-exclude-self")
    try:
        rules = build_jury_rules(
            quorum=config.getoption("--rwe-quorum") or str(config.getini("rwe_quorum") or ""),
            exclude_self=bool(config.getini("rwe_exclude_self") if exclude is None else exclude),
            repeat_rule=(config.getoption("--rwe-repeat-rule")
                         or str(config.getini("rwe_repeat_rule") or "all")),
            models=settings.models, jury=settings.jury)
    except SettingsError as exc:
        raise pytest.UsageError(redact(str(exc))) from None
    config.stash[RULES_KEY] = rules
    return rules
