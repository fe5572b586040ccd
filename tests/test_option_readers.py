"""The option-or-ini readers of plugin/options.py: the option wins; an option path is relative
to the invocation folder, an ini path to the rootdir."""

from __future__ import annotations

import pytest

from pytest_rwe.plugin.options import (
    ini_text,
    option_int,
    option_path,
    option_seconds,
    option_text,
    relative,
)
from pytest_rwe.settings import SettingsError


def config_in_subfolder(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                        ini: str, *args: str) -> pytest.Config:
    pytester.makeini(f"[pytest]\n{ini}\n")
    sub = pytester.path / "sub"
    sub.mkdir(exist_ok=True)
    monkeypatch.chdir(sub)
    return pytester.parseconfig(*args)


def test_an_ini_path_is_from_the_rootdir_an_option_path_from_here(
        pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    config = config_in_subfolder(pytester, monkeypatch, "rwe_report = out\nrwe_jury = a/b")
    root = pytester.path.resolve()
    assert option_path(config, "--rwe-report", "rwe_report") == root / "out"
    assert option_path(config, "--rwe-baseline", "rwe_baseline") is None
    assert option_text(config, "--rwe-jury", "rwe_jury") == "a/b"
    assert ini_text(config, "rwe_thresholds") is None
    config = config_in_subfolder(pytester, monkeypatch, "rwe_report = out",
                                 "--rwe-report", "mine", "--rwe-jury", "c/d")
    assert option_path(config, "--rwe-report", "rwe_report") == root / "sub" / "mine"
    assert option_text(config, "--rwe-jury", "rwe_jury") == "c/d"
    assert relative(root / "sub" / "mine", root) == "sub/mine"
    assert relative(root.parent, root) == str(root.parent)


def test_numbers_from_the_ini_name_the_key(pytester: pytest.Pytester,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    config = config_in_subfolder(pytester, monkeypatch, "rwe_repeat = 3\nrwe_deadline = 2.5",
                                 "--rwe-concurrency", "4")
    assert option_int(config, "--rwe-repeat", "rwe_repeat", 1) == 3
    assert option_int(config, "--rwe-concurrency", "rwe_concurrency", 16) == 4
    assert option_seconds(config, "--rwe-deadline", "rwe_deadline") == 2.5
    config = config_in_subfolder(pytester, monkeypatch, "rwe_repeat = many\nrwe_timeout = soon")
    with pytest.raises(SettingsError, match="ini rwe_repeat = 'many' is not a whole number"):
        option_int(config, "--rwe-repeat", "rwe_repeat", 1)
    with pytest.raises(SettingsError, match="ini rwe_timeout = 'soon' is not a number of sec"):
        option_seconds(config, "--rwe-timeout", "rwe_timeout")
