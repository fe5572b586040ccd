"""The one ``key=value,...`` reader (settings.read_assignments) and the readers built on it."""

from __future__ import annotations

import pytest

from pytest_rwe.criteria import default_thresholds
from pytest_rwe.report.baseline import parse_max_drop
from pytest_rwe.report.rescore import parse_criterion_values
from pytest_rwe.settings import (
    Assignment,
    SettingsError,
    parse_criterion_map,
    parse_thresholds,
    read_assignments,
    read_numbers,
)
from pytest_rwe.study.selection import SelectError, parse_select
from pytest_rwe.verdict import CRITERIA

KEYS = ("alpha", "beta")


def read(text: str, **options: object) -> list[Assignment]:
    return read_assignments(text, option="--opt", example="--opt alpha=1", keys=KEYS,
                            **options)  # type: ignore[arg-type]


def test_parts_are_split_at_commas_stripped_and_blanks_skipped() -> None:
    assert read(" alpha = 1 ,, beta=x|y ,") == [
        Assignment("alpha = 1", "alpha", "=", "1"), Assignment("beta=x|y", "beta", "=", "x|y")]
    assert read("") == []
    assert read("alpha!=1", negation=True) == [Assignment("alpha!=1", "alpha", "!=", "1")]
    assert read("ALPHA=1", lower=True)[0].key == "alpha"


@pytest.mark.parametrize(("text", "message"), [
    ("alpha", "--opt: 'alpha' is not key=value; e.g. --opt alpha=1"),
    ("alpha=", "--opt: 'alpha=' is not key=value"),
    ("=1", "--opt: '=1' is not key=value"),
    ("gamma=1", "--opt: unknown key 'gamma'; valid keys: alpha, beta"),
    ("alpha!=1", "--opt: unknown key 'alpha!'"),  # no negation: the key is "alpha!"
])
def test_bad_parts_name_the_option_and_the_fix(text: str, message: str) -> None:
    with pytest.raises(SettingsError) as info:
        read(text)
    assert str(info.value).startswith(message)


def test_a_key_given_twice_is_refused_only_when_unique() -> None:
    assert [a.raw for a in read("alpha=1,alpha=2")] == ["1", "2"]
    with pytest.raises(SettingsError, match="--opt: alpha is given twice"):
        read("alpha=1,alpha=2", unique=True)


def test_numbers_are_checked_as_asked() -> None:
    def numbers(text: str, check: str) -> dict[str, float]:
        return read_numbers(text, option="--opt", example="--opt alpha=1", keys=KEYS,
                            check=check)  # type: ignore[arg-type]

    assert numbers("alpha=0.5,alpha=1", "unit") == {"alpha": 1.0}  # the last one holds
    assert numbers("alpha=inf", "non_negative") == {"alpha": float("inf")}
    for text, check in (("alpha=1.5", "unit"), ("alpha=-1", "non_negative"),
                        ("alpha=nan", "non_negative"), ("alpha=inf", "finite"),
                        ("alpha=nan", "unit")):
        with pytest.raises(SettingsError, match="--opt: alpha="):
            numbers(text, check)
    with pytest.raises(SettingsError, match="--opt: alpha='x' is not a number"):
        numbers("alpha=x", "finite")


def test_every_reader_keeps_its_wording_and_its_error_type() -> None:
    with pytest.raises(SettingsError, match=r"^rwe_thresholds: unknown criterion 'tone'"):
        parse_criterion_map("tone=1", "rwe_thresholds")
    with pytest.raises(SettingsError, match=r"^--rwe-min: unknown criterion 'tone'; use one of"):
        parse_criterion_map("tone=1", "--rwe-min")
    with pytest.raises(SettingsError, match=r"^--rwe-min: completeness=2 is outside 0\.\.1"):
        parse_criterion_map("completeness=2", "--rwe-min")
    with pytest.raises(SettingsError, match=r"^--rwe-min: 'x' for completeness is not a number"):
        parse_criterion_map("completeness=x", "--rwe-min")
    with pytest.raises(SettingsError, match=r"^--rwe-max-drop 'tone=1': unknown criterion 'tone'"
                                            r".*; write criterion=value, e.g."):
        parse_max_drop("tone=1")
    with pytest.raises(ValueError, match=r"^--weights: completeness='inf' must be a finite"):
        parse_criterion_values("completeness=inf", option="--weights")
    with pytest.raises(SelectError, match=r"^--rwe-select: unknown key 'tone'; use one of id, "
                                          r".*e.g. --rwe-select design=case_series$"):
        parse_select(["tone=1"])


def test_thresholds_are_a_bare_number_or_a_map() -> None:
    assert parse_thresholds(" 0.7 ", "--threshold") == dict.fromkeys(CRITERIA, 0.7)
    assert parse_thresholds(None, "--threshold") == default_thresholds()
    mapped = parse_thresholds("completeness=0.9", "--threshold")
    assert mapped["completeness"] == 0.9 and mapped["direction_of_effect"] == 0.5
    with pytest.raises(SettingsError, match=r"^--threshold: 'x' is not a number; e\.g\. "
                                            r"--threshold 0\.5 or --threshold completeness"):
        parse_thresholds("x", "--threshold")
    with pytest.raises(SettingsError, match=r"^--threshold: 2 is outside 0\.\.1$"):
        parse_thresholds("2", "--threshold")
