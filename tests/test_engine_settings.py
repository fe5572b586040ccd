"""One config type for every engine: EngineSettings, validated once, whose messages name each
setting as its caller spells it; and one builder, build_engine."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pytest_rwe import settings as defaults
from pytest_rwe.caller import RunSharing
from pytest_rwe.engine import build_engine
from pytest_rwe.jury_rules import build_jury_rules
from pytest_rwe.providers.retry import RetryPolicy
from pytest_rwe.settings import (
    CALIBRATE,
    KEYWORDS,
    PLUGIN,
    EngineSettings,
    SettingsError,
    Spelling,
    engine_settings,
)
from pytest_rwe.store.response_store import RECORD_MODES

PACKAGE = Path(__file__).resolve().parent.parent / "pytest_rwe"


@pytest.mark.parametrize(("spelling", "raw", "message"), [
    (PLUGIN, {"concurrency": 0}, "--rwe-concurrency: 0 must be 1 or more"),
    (CALIBRATE, {"concurrency": 0}, "--concurrency: 0 must be 1 or more"),
    (KEYWORDS, {"concurrency": 0}, "concurrency=0 must be 1 or more"),
    (PLUGIN, {"max_attempts": 0}, "--rwe-max-attempts: 0 must be 1 or more"),
    (KEYWORDS, {"max_attempts": 0}, "max_attempts=0 must be 1 or more"),
    (PLUGIN, {"store_mode": "some"}, "--rwe-record: 'some'; use one of new, none, all"),
    (CALIBRATE, {"store_mode": "some"}, "--record: 'some'; use one of new, none, all"),
    (KEYWORDS, {"store_mode": "some"}, "record='some'; use one of new, none, all"),
    (PLUGIN, {"jury": ","}, "--rwe-jury: give at least one juror, e.g. --rwe-jury builtin/rules"),
    (CALIBRATE, {"jury": ""}, "--jury: give at least one juror, e.g. --jury builtin/rules"),
    (KEYWORDS, {"jury": ()},
     "jurors=(): give at least one juror, e.g. jurors=('builtin/rules',)"),
    (PLUGIN, {"retry_cap_s": -1.0}, "--rwe-retry-cap: -1 must be 0 or more"),
    (PLUGIN, {"deadline_s": 0.0}, "--rwe-deadline: 0 must be more than 0 seconds"),
    (KEYWORDS, {"timeout_s": 0.0}, "timeout_s=0 must be more than 0 seconds"),
])
def test_a_bad_setting_is_named_as_its_caller_spells_it(spelling: Spelling, raw: dict[str, object],
                                                        message: str) -> None:
    with pytest.raises(SettingsError) as caught:
        engine_settings(spelling=spelling, **raw)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)  # deepeval's contract: a bad argument


def test_the_quorum_is_named_as_its_caller_spells_it() -> None:
    jury = ("builtin/rules",)
    with pytest.raises(SettingsError, match=r"^rwe_quorum: 2 must be between 1 and the 1"):
        build_jury_rules(quorum=2, exclude_self=False, repeat_rule=None, models=(), jury=jury)
    with pytest.raises(SettingsError, match=r"^quorum=2 must be between 1 and the 1"):
        build_jury_rules(quorum=2, exclude_self=False, repeat_rule=None, models=(), jury=jury,
                         spelling=KEYWORDS)


def test_settings_are_made_once_with_the_defaults_of_one_home(tmp_path: Path) -> None:
    made = engine_settings(jury="builtin/rules, builtin/rules", store="store",
                           prompts=None)
    assert made.jury == ("builtin/rules",)
    assert made.store is not None and made.store.is_absolute()
    assert made == engine_settings(jury=["builtin/rules"], store=Path("store").resolve())
    plain = EngineSettings()
    assert (plain.concurrency, plain.max_attempts, plain.retry_cap_s, plain.deadline_s,
            plain.timeout_s, plain.store, plain.store_mode) == (
        defaults.DEFAULT_CONCURRENCY, defaults.DEFAULT_MAX_ATTEMPTS,
        defaults.DEFAULT_RETRY_CAP_S, defaults.DEFAULT_DEADLINE_S, defaults.DEFAULT_TIMEOUT_S,
        defaults.DEFAULT_STORE, "new")
    policy = RetryPolicy()  # the retry policy's defaults are the settings'
    assert (policy.max_attempts, policy.retry_after_cap_s, policy.deadline_s,
            policy.timeout_s) == (plain.max_attempts, plain.retry_cap_s, plain.deadline_s,
                                  plain.timeout_s)
    assert RECORD_MODES == defaults.STORE_MODES


def test_build_engine_makes_the_caller_of_the_settings(tmp_path: Path) -> None:
    settings = engine_settings(jury=("builtin/rules",), store=tmp_path, store_mode="none",
                               concurrency=3, max_attempts=2, retry_cap_s=5, deadline_s=7,
                               timeout_s=11)
    engine = build_engine(settings, sharing=RunSharing("run-1", shared=False))
    try:
        caller = engine.caller
        assert caller.concurrency == 3
        assert (caller.policy.max_attempts, caller.policy.retry_after_cap_s,
                caller.policy.deadline_s, caller.policy.timeout_s) == (2, 5, 7, 11)
        assert caller.store is not None and caller.store.mode == "none"
        assert caller.store.run_id == "run-1" and caller.store.root == tmp_path
        assert engine.config.jury == ("builtin/rules",)
    finally:
        engine.close()
    storeless = build_engine(engine_settings(jury=("builtin/rules",), store=None))
    try:
        assert storeless.caller.store is None
    finally:
        storeless.close()


#: the names that hold an engine setting's default in a signature or a dataclass
SETTING_NAMES = frozenset({"store", "concurrency", "max_attempts", "retry_after_cap_s",
                           "retry_cap_s", "deadline_s", "timeout_s", "temperature"})


def _literal_defaults() -> list[str]:
    """Where the package gives an engine setting a literal default outside settings.py."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        if (path.name == "settings.py" and path.parent == PACKAGE) or "testing" in path.parts:
            continue  # the home itself, and the test helpers' own waits
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named: list[tuple[str, ast.expr | None]] = []
            if isinstance(node, ast.arguments):
                positional = [*node.posonlyargs, *node.args]
                named += zip([a.arg for a in positional[len(positional) - len(node.defaults):]],
                             node.defaults, strict=True)
                named += zip([a.arg for a in node.kwonlyargs], node.kw_defaults, strict=True)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                named.append((node.target.id, node.value))
            elif isinstance(node, ast.Constant) and node.value == ".rwe_cache":
                named.append(("store", node))
            found += [f"{path.relative_to(PACKAGE)}:{value.lineno} {name}"
                      for name, value in named
                      if name in SETTING_NAMES and isinstance(value, ast.Constant)
                      and value.value is not None]
    return found


def test_each_default_has_one_home() -> None:
    """The defaults of the engine's settings are named from settings.py, never copied."""
    assert _literal_defaults() == []
