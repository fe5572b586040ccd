"""`rwe rescore`: both input forms, option parsing, and errors that name the file and field."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_rwe.cli.rescore import add_rescore_parser, run_rescore
from pytest_rwe.report.rescore import (
    RescoreError,
    parse_criterion_values,
    parse_weights,
    rescore,
)

# The hand-computed example of tests/stats/test_rubric_score.py: scores A 1, B 21.5/22.5, C 0.
TABLE = {
    "models": {
        "A": {"direction_of_effect": 0.9, "numbers_accurate": 0.8, "completeness": 0.7,
              "inference_time": 2.0},
        "B": {"direction_of_effect": 0.7, "numbers_accurate": 1.0, "completeness": 0.9,
              "inference_time": 1.0},
        "C": {"direction_of_effect": 0.5, "numbers_accurate": 0.6, "completeness": 0.8,
              "inference_time": 4.0},
    }
}


def as_report(table: dict[str, Any], **top: Any) -> dict[str, Any]:
    """The same means in report.json's shape, with the other fields a report carries."""
    models = {}
    for name, row in table["models"].items():
        models[name] = {
            "criteria": {c: {"mean": v, "ci_low": v - 0.1, "ci_high": v, "n": 13}
                         for c, v in row.items() if c != "inference_time"},
            "inference_time": {"mean": row["inference_time"]},
            "normalized": {}, "score": 0.5,
        }
    return {"plugin_version": "0.1.0", "models": models, **top}


def test_plain_table() -> None:
    out = rescore(TABLE)
    scores = {m: v["score"] for m, v in out["models"].items()}
    assert scores == pytest.approx({"A": 1.0, "B": 21.5 / 22.5, "C": 0.0})
    assert out["models"]["A"]["normalized"]["inference_time"] == pytest.approx(2 / 3)
    assert out["models"]["B"]["rank"] == 2
    json.dumps(out)  # JSON-able as it is


def test_report_form_gives_the_same_scores() -> None:
    assert rescore(as_report(TABLE))["models"] == rescore(TABLE)["models"]


def test_recorded_weights_are_the_base_and_options_override() -> None:
    report = as_report(TABLE, weights={"direction_of_effect": 0, "numbers_accurate": 6,
                                       "completeness": 5, "inference_time": 3})
    # direction weight 0: A = 3 + 0 + 2 = 5, B = 6 + 5 + 3 = 14, C = 2.5
    assert rescore(report)["models"]["A"]["score"] == pytest.approx(2.5 / 11.5)
    overridden = rescore(report, weights={"direction_of_effect": 20})
    assert overridden["models"]["A"]["score"] == pytest.approx(1.0)
    assert overridden["weights"]["direction_of_effect"] == 20


def test_normalize_max() -> None:
    out = rescore(TABLE, normalize_max={"completeness": 1.0})
    assert out["models"]["B"]["score"] == pytest.approx(62 / 70)
    assert out["normalize_max"] == {"completeness": 1.0}


def test_single_model_is_flagged() -> None:
    out = rescore({"models": {"A": TABLE["models"]["A"]}})
    assert out["normalization_defined"] is False
    assert out["models"]["A"]["score"] is None
    assert out["models"]["A"]["raw"]["direction_of_effect"] == 0.9
    assert "one model" in out["note"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "models: missing"),
        ({"models": []}, "models: expected an object"),
        ({"models": {}}, "models: no models"),
        ({"models": {"A": {"direction": 1}}}, "models.A.direction: unknown key"),
        ({"models": {"A": {"completeness": "high"}}}, "models.A.completeness: expected a number"),
        ({"models": {"A": {"completeness": 2}}}, r"models.A.completeness: .*\[0, 1\]"),
        ({"models": {"A": {"criteria": {"completeness": {"mean": "x"}}}}},
         "models.A.criteria.completeness.mean: expected a number"),
        ({"models": {"A": {"criteria": {}, "inference_time": 3}}},
         "models.A.inference_time: expected an object"),
        ({"models": {"A": {"criteria": {}}}, "weights": {"speed": 1}}, "unknown weight 'speed'"),
    ],
)
def test_bad_input_names_the_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RescoreError, match=message):
        rescore(data)


def test_parse_weights() -> None:
    assert parse_weights("direction_of_effect=20, numbers_accurate=6") == {
        "direction_of_effect": 20.0, "numbers_accurate": 6.0}
    assert parse_weights("") == {}
    with pytest.raises(ValueError, match="unknown key 'direction'; valid keys: "
                                         "direction_of_effect, numbers_accurate"):
        parse_weights("direction=20")
    with pytest.raises(ValueError, match="'abc' is not a number"):
        parse_weights("completeness=abc")
    with pytest.raises(ValueError, match="is not key=value"):
        parse_weights("completeness")
    with pytest.raises(ValueError, match="must be >= 0"):
        parse_weights("completeness=-1")
    with pytest.raises(ValueError, match="given twice"):
        parse_weights("completeness=1,completeness=2")


def test_parse_criterion_values_with_restricted_keys() -> None:
    keys = ("direction_of_effect", "numbers_accurate", "completeness")
    assert parse_criterion_values("completeness=0.9", option="--rwe-min", keys=keys) == {
        "completeness": 0.9}
    with pytest.raises(ValueError, match="--rwe-min: unknown key 'inference_time'"):
        parse_criterion_values("inference_time=3", option="--rwe-min", keys=keys)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="rwe")
    add_rescore_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    assert args.func is run_rescore
    result: int = args.func(args)
    return result


def test_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "report.json"
    path.write_text(json.dumps(as_report(TABLE)))
    assert run(["rescore", str(path), "--json", "--weights", "direction_of_effect=0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["models"]["B"]["score"] == pytest.approx(1.0)
    assert set(out["models"]["A"]["normalized"]) == {
        "direction_of_effect", "numbers_accurate", "completeness", "inference_time"}


def test_cli_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "means.json"
    path.write_text(json.dumps(TABLE))
    assert run(["rescore", str(path), "--normalize-max", "completeness=1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["model", "direction"]
    assert lines[1].split()[0] == "A" and lines[1].split()[-2:] == ["100.0%", "1"]
    assert lines[2].split()[-2:] == ["88.6%", "2"]  # 62/70
    assert any(line.startswith("normalize-max: completeness=1") for line in lines)


def test_cli_errors_name_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert run(["rescore", str(missing)]) == 2
    assert f"{missing}: cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run(["rescore", str(bad)]) == 2
    assert f"{bad}: not valid JSON (line 1" in capsys.readouterr().err
    empty = tmp_path / "empty.json"
    empty.write_text('{"runs": []}')
    assert run(["rescore", str(empty)]) == 2
    assert f"{empty}: models: missing" in capsys.readouterr().err
    assert run(["rescore", str(empty), "--weights", "speed=1"]) == 2
    assert "--weights: unknown key 'speed'" in capsys.readouterr().err


ZERO = {"models": {
    "A": {"direction_of_effect": 0.0, "numbers_accurate": 0.0, "completeness": 0.0,
          "inference_time": 1.00},
    "B": {"direction_of_effect": 0.0, "numbers_accurate": 0.0, "completeness": 0.0,
          "inference_time": 1.03},
}}


def test_rescore_of_two_all_zero_models_says_the_criteria_cannot_rank(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(ZERO))
    assert run(["rescore", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["models"]["A"]["normalized"]["direction_of_effect"] is None  # null in JSON
    assert out["undefined"] == ["direction_of_effect", "numbers_accurate", "completeness"]
    assert "the ranking rests on inference_time alone" in out["note"]
    assert run(["rescore", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[5:8] == ["-", "-", "-"]  # the normalized criteria
    assert "cannot rank them" in lines[-1]
    # quality only: nothing separates them, so nobody is scored
    assert run(["rescore", str(path), "--json", "--weights", "inference_time=0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {m["score"] for m in out["models"].values()} == {None}
    assert out["normalization_defined"] is False
