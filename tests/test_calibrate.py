"""rwe calibrate: labeled-set checks, metrics against known answers, the CLI offline and with
LLM jurors served by the fake vendor server through the response store."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_rwe.calibrate import (
    LabeledSetError,
    LabeledSummary,
    calibrate,
    load_labeled,
    parse_labeled_line,
    to_json,
)
from pytest_rwe.cli import main
from pytest_rwe.testing import FakeServer
from pytest_rwe.verdict import CRITERIA, Criterion, JurorScore, Verdict

ROOT = Path(__file__).resolve().parent.parent
STUDIES = ROOT / "cases" / "studies"
STUDY = "legend_htn_hydrochlorothiazide_vs_chlorthalidone_kidney_liver"
METRIC_KEYS = {"n", "accuracy", "sensitivity", "specificity", "kappa", "kappa_ci", "abstained",
               "errors"}

GOOD = ("Hydrochlorothiazide (n=216,113) versus chlorthalidone (n=15,118): hydrochlorothiazide "
        "was associated with lower rates of acute renal failure (HR 0.70), chronic kidney "
        "disease (HR 0.74) and kidney disease (HR 0.76); all p<0.05. There were no significant "
        "differences for end-stage renal disease, hepatic failure or rhabdomyolysis.")
FLIPPED = GOOD.replace("lower rates", "higher rates")
WRONG_HR = GOOD.replace("HR 0.74", "HR 0.84")
DROPPED = GOOD.replace(", chronic kidney disease (HR 0.74)", "")
ALL_RIGHT = {c: 1 for c in CRITERIA}


def _line(summary_id: str, text: str, **wrong: int) -> str:
    labels = {**ALL_RIGHT, **wrong}
    return json.dumps({"study_id": STUDY, "summary_id": summary_id, "text": text,
                       "labels": labels, "origin": "test", "note": ""})


SAMPLE = [
    _line("good-1", GOOD),
    _line("good-2", GOOD.replace("lower rates", "a lower risk")),
    _line("flipped", FLIPPED, direction_of_effect=0),
    _line("wrong-hr", WRONG_HR, numbers_accurate=0),
    _line("dropped", DROPPED, completeness=0),
]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    path = tmp_path / "labeled.jsonl"
    path.write_text("\n".join(SAMPLE) + "\n", encoding="utf-8")
    return path


# -- the labeled file ---------------------------------------------------------------------

@pytest.mark.parametrize(("text", "field", "fragment"), [
    ("{not json", None, "not valid JSON"),
    ("[1, 2]", None, "expected a JSON object"),
    (json.dumps({"study_id": "nope", "summary_id": "a", "text": "t",
                 "labels": ALL_RIGHT}), "study_id", "no study with id 'nope'"),
    (json.dumps({"study_id": STUDY, "summary_id": "a", "text": "t",
                 "labels": {**ALL_RIGHT, "completeness": 2}}), "labels.completeness",
     "expected 0 (wrong) or 1 (right), got 2"),
    (json.dumps({"study_id": STUDY, "summary_id": "a", "text": "t",
                 "labels": {"tone": 1}}), "labels.tone", "unknown criterion"),
    (json.dumps({"study_id": STUDY, "summary_id": "a", "text": "",
                 "labels": ALL_RIGHT}), "text", "non-empty string"),
    (json.dumps({"study_id": STUDY, "summary_id": "a", "text": "t", "labels": ALL_RIGHT,
                 "score": 1}), "score", "unknown field"),
    (json.dumps({"study_id": STUDY, "summary_id": "a", "text": "t"}), "labels",
     "expected an object of 0/1 labels"),
])
def test_bad_line_names_file_line_and_field(text: str, field: str | None,
                                            fragment: str) -> None:
    with pytest.raises(LabeledSetError) as caught:
        parse_labeled_line(text, file="set.jsonl", line=7, study_ids={STUDY})
    message = str(caught.value)
    assert message.startswith("set.jsonl:7" + (f": {field}:" if field else ":"))
    assert fragment in message
    assert caught.value.field == field


def test_duplicate_summary_id_points_at_the_first_use(tmp_path: Path) -> None:
    path = tmp_path / "dup.jsonl"
    path.write_text(SAMPLE[0] + "\n\n" + SAMPLE[0] + "\n", encoding="utf-8")
    with pytest.raises(LabeledSetError, match=r"dup.jsonl:3: summary_id: 'good-1' is already "
                       r"used at .*dup.jsonl:1"):
        load_labeled([path], {STUDY})


def test_partial_labels_are_scored_only_where_given() -> None:
    item = parse_labeled_line(json.dumps({"study_id": STUDY, "summary_id": "p", "text": "t",
                                          "labels": {"completeness": 0}}),
                              file="f", line=1, study_ids={STUDY})
    assert dict(item.labels) == {"completeness": 0}
    verdict = _verdict({"j": {c: 1 for c in CRITERIA}})
    result = calibrate([item], [verdict], ["j"], resamples=10)
    assert list(result.jury) == ["completeness"]
    assert result.jury["completeness"].missed == 1


# -- the metrics --------------------------------------------------------------------------

def _item(i: int, labels: dict[Criterion, int]) -> LabeledSummary:
    return LabeledSummary(STUDY, f"s{i}", "text", labels, "", "", "f", i + 1)


def _verdict(scores: dict[str, dict[Criterion, int | None]]) -> Verdict:
    return Verdict.from_scores([JurorScore(j, c, s, "x") for j, per in scores.items()
                                for c, s in per.items()])


def test_metrics_match_a_hand_counted_table() -> None:
    # labels on completeness: 4 wrong, 6 right. Juror a catches 3 of 4 errors and raises one
    # false alarm; juror b passes everything; juror c abstains on the first summary.
    labels = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    a = [0, 0, 0, 1, 0, 1, 1, 1, 1, 1]
    b = [1] * 10
    c: list[int | None] = [None, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    items = [_item(i, {"completeness": y}) for i, y in enumerate(labels)]
    verdicts = [_verdict({"a": {"completeness": a[i]}, "b": {"completeness": b[i]},
                          "c": {"completeness": c[i]}}) for i in range(10)]
    result = calibrate(items, verdicts, ["a", "b", "c"], thresholds=0.5, resamples=200)
    ma = result.jurors["a"]["completeness"]
    assert (ma.n, ma.caught, ma.missed, ma.false_alarms, ma.passed) == (10, 3, 1, 1, 5)
    assert ma.accuracy == pytest.approx(0.8)
    assert ma.sensitivity == pytest.approx(0.75)
    assert ma.specificity == pytest.approx(5 / 6)
    # kappa = (po - pe) / (1 - pe) with po = 0.8, pe = 0.4*0.4 + 0.6*0.6 = 0.52
    assert ma.kappa == pytest.approx((0.8 - 0.52) / 0.48)
    assert ma.kappa_ci is not None and ma.kappa_ci[0] <= ma.kappa <= ma.kappa_ci[1]
    mb = result.jurors["b"]["completeness"]
    assert (mb.sensitivity, mb.specificity, mb.kappa) == (0.0, 1.0, 0.0)
    mc = result.jurors["c"]["completeness"]
    assert (mc.n, mc.abstained, mc.accuracy) == (10, 1, 1.0)
    # the jury: mean of the answering jurors >= 0.5 passes
    jury = [1 if sum(x for x in (a[i], b[i], c[i]) if x is not None)
            / sum(1 for x in (a[i], b[i], c[i]) if x is not None) >= 0.5 else 0
            for i in range(10)]
    mj = result.jury["completeness"]
    assert mj.caught == sum(1 for y, p in zip(labels, jury, strict=True) if y == 0 and p == 0)
    assert mj.false_alarms == sum(1 for y, p in zip(labels, jury, strict=True)
                                  if y == 1 and p == 0)
    agreement = result.agreement["completeness"]
    assert agreement is not None and -1 <= agreement <= 1
    data = to_json(result)
    assert set(data) == {"jurors", "jury", "agreement"}
    assert set(data["jurors"]["a"]["completeness"]) == METRIC_KEYS
    assert json.loads(json.dumps(data)) == data  # JSON primitives only


def test_a_stricter_threshold_makes_the_jury_fail_split_votes() -> None:
    items = [_item(0, {"direction_of_effect": 1}), _item(1, {"direction_of_effect": 0})]
    split = {"a": {"direction_of_effect": 1}, "b": {"direction_of_effect": 0}}
    verdicts = [_verdict(split), _verdict(split)]
    lenient = calibrate(items, verdicts, ["a", "b"], thresholds=0.5, resamples=10)
    strict = calibrate(items, verdicts, ["a", "b"], thresholds=1.0, resamples=10)
    assert lenient.jury["direction_of_effect"].false_alarms == 0
    assert lenient.jury["direction_of_effect"].missed == 1
    assert strict.jury["direction_of_effect"].caught == 1
    assert strict.jury["direction_of_effect"].false_alarms == 1


# -- the command, offline -----------------------------------------------------------------

def test_cli_offline_with_rules_prints_the_documented_json(
        sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury", "builtin/rules",
                 "--json", "--resamples", "200"])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    # the rules juror's coverage rides along whenever it is on the jury
    assert set(data) == {"jurors", "jury", "agreement", "coverage"}
    coverage = data["coverage"]["builtin/rules"]
    assert set(coverage) == {"claims", "grounded", "share"}
    assert 0 < coverage["grounded"] <= coverage["claims"]
    assert set(data["jurors"]) == {"builtin/rules"}
    for criterion in CRITERIA:
        metrics = data["jurors"]["builtin/rules"][criterion]
        assert set(metrics) == METRIC_KEYS
        assert metrics["n"] == 5 and metrics["abstained"] == 0
        # each criterion has one wrong summary among five, and the rules juror gets all right
        assert metrics["sensitivity"] == 1.0 and metrics["specificity"] == 1.0
        assert metrics["kappa"] == pytest.approx(1.0)
        assert data["jury"][criterion] == metrics
        assert data["agreement"][criterion] is None  # one juror: no agreement to measure


def test_cli_table_and_disagreements(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = sample.read_text("utf-8").splitlines()
    # a mislabeled line: the correct summary labeled wrong on numbers
    lines[0] = lines[0].replace('"numbers_accurate": 1', '"numbers_accurate": 0')
    sample.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury", "builtin/rules",
                 "--resamples", "50", "--show-disagreements"])
    out = capsys.readouterr().out
    assert code == 0
    assert "specificity" in out and "kappa [95% CI]" in out and "jury (mean >= 0.5)" in out
    assert "1 disagreements" in out
    assert "good-1" in out and "numbers_accurate: label 0, jury 1" in out


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda s: s.replace(STUDY, "no_such_study", 1), ":1: study_id: no study with id"),
    (lambda s: s.replace('"completeness": 1', '"completeness": "yes"', 1),
     ":1: labels.completeness: expected 0 (wrong) or 1 (right)"),
    (lambda s: "{oops\n" + s, ":1: not valid JSON"),
])
def test_cli_bad_input_exits_2_naming_the_line(sample: Path, capsys: pytest.CaptureFixture[str],
                                               edit: object, expected: str) -> None:
    assert callable(edit)
    sample.write_text(edit(sample.read_text("utf-8")), encoding="utf-8")
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury", "builtin/rules"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{sample}{expected}" in err


def test_cli_missing_key_names_the_variable(sample: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury",
                 "builtin/rules,openai/o4-mini"])
    err = capsys.readouterr().err
    assert code == 2
    assert "openai/o4-mini needs an API key: set OPENAI_API_KEY" in err


def test_cli_bad_threshold_and_unknown_juror(sample: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", str(sample), "--jury", "builtin/rules", "--cases", str(STUDIES),
                 "--threshold", "tone=1"]) == 2
    assert "--threshold: unknown criterion 'tone'" in capsys.readouterr().err
    assert main(["calibrate", str(sample), "--jury", "acme/judge", "--cases",
                 str(STUDIES)]) == 2
    assert "unknown provider 'acme'" in capsys.readouterr().err


# -- LLM jurors through the fake server and the response store ------------------------------

def _responder(provider: str, model: str, prompt: str) -> str | None:
    """openai answers like a perfect juror on the sample; anthropic passes everything."""
    criterion = next((c for c in CRITERIA if f'"{c}"' in prompt or f'\\"{c}\\"' in prompt),
                     None)
    if criterion is None:
        return None
    if provider == "anthropic":
        score = 1
    else:
        wrong = {"direction_of_effect": "higher rates", "numbers_accurate": "HR 0.84",
                 "completeness": "acute renal failure (HR 0.70) and kidney disease"}
        score = 0 if wrong[criterion] in prompt else 1
    return json.dumps({criterion: {"score": score, "explanation": "scripted"}})


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeServer]:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.setenv(name, "sk-fake-calibration-key")
    with FakeServer(responder=_responder) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        yield server


def test_llm_jurors_calibrate_through_the_store(sample: Path, tmp_path: Path, fake: FakeServer,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    jury = "openai/gpt-4.1-mini,anthropic/claude-sonnet-4-20250514"
    args = ["calibrate", str(sample), "--cases", str(STUDIES), "--jury", jury, "--json",
            "--store", str(store), "--resamples", "200", "--concurrency", "4"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    calls = len(fake.requests)
    assert calls == 5 * 3 * 2  # summaries x criteria x jurors, each once
    perfect = data["jurors"]["openai/gpt-4.1-mini"]
    lenient = data["jurors"]["anthropic/claude-sonnet-4-20250514"]
    for criterion in CRITERIA:
        assert perfect[criterion]["sensitivity"] == 1.0
        assert perfect[criterion]["kappa"] == pytest.approx(1.0)
        assert lenient[criterion]["sensitivity"] == 0.0
        assert lenient[criterion]["specificity"] == 1.0
        # a split vote (0 and 1) has mean 0.5, which passes: the jury misses every error
        assert data["jury"][criterion]["sensitivity"] == 0.0
        assert data["agreement"][criterion] is not None
        assert data["agreement"][criterion] < 0.5
    stored = list(store.rglob("judge-*.json"))
    assert len(stored) == calls
    assert not any("sk-fake-calibration-key" in p.read_text("utf-8") for p in stored)

    # replay only: the same figures, no new call to the server
    assert main([*args, "--record", "none"]) == 0
    assert json.loads(capsys.readouterr().out) == data
    assert len(fake.requests) == calls


def test_unreadable_llm_replies_are_abstentions(sample: Path, tmp_path: Path,
                                                fake: FakeServer,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # every reply (and the repair attempt) is prose, not JSON: the juror abstains, never scores
    fake.add_fault("not_json", provider="openai", times=-1)
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury",
                 "openai/gpt-4.1-mini,builtin/rules", "--json", "--store",
                 str(tmp_path / "s"), "--resamples", "50"])
    captured = capsys.readouterr()
    assert code == 0
    data = json.loads(captured.out)
    for criterion in CRITERIA:
        assert data["jurors"]["openai/gpt-4.1-mini"][criterion]["abstained"] == 5
        assert data["jurors"]["openai/gpt-4.1-mini"][criterion]["accuracy"] is None
        # the jury is the juror that answered
        assert data["jury"][criterion] == data["jurors"]["builtin/rules"][criterion]
    assert "openai/gpt-4.1-mini abstained 15 time(s)" in captured.err


def test_a_juror_that_cannot_be_asked_is_an_error_not_an_abstention(
        sample: Path, tmp_path: Path, fake: FakeServer,
        capsys: pytest.CaptureFixture[str]) -> None:
    # every OpenAI call is refused (400, not retried): the juror could not be asked; the
    # figures leave those summaries out, count them apart, and the command exits 1
    fake.add_fault("status", provider="openai", status=400, times=-1)
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury",
                 "openai/gpt-4.1-mini,builtin/rules", "--json", "--by-origin", "--store",
                 str(tmp_path / "s"), "--resamples", "50"])
    captured = capsys.readouterr()
    assert code == 1
    data = json.loads(captured.out)
    for criterion in CRITERIA:
        juror = data["jurors"]["openai/gpt-4.1-mini"][criterion]
        assert (juror["errors"], juror["abstained"], juror["accuracy"]) == (5, 0, None)
        rules = data["jurors"]["builtin/rules"][criterion]
        assert (rules["errors"], rules["abstained"]) == (0, 0) and rules["accuracy"] is not None
        # the jury short of a juror is not the jury: no verdict on those summaries
        assert (data["jury"][criterion]["errors"], data["jury"][criterion]["accuracy"]) == (
            5, None)
    assert sum(cell["errors"] for per in data["by_origin"].values()
               for cell in per.values()) == 15
    assert "openai/gpt-4.1-mini could not be asked 15 time(s)" in captured.err
    assert "abstained" not in captured.err
    assert "exit status 1" in captured.err


def test_cli_counts_per_origin(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury", "builtin/rules",
                 "--json", "--by-origin", "--resamples", "50"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    origins = data["by_origin"]
    lines = [json.loads(line) for line in sample.read_text("utf-8").splitlines()]
    assert set(origins) == {line.get("origin") or "(none)" for line in lines}
    total = sum(cell["n"] for per in origins.values() for cell in per.values())
    assert total == sum(len(line["labels"]) for line in lines)
    for per in origins.values():
        for cell in per.values():
            assert cell["n"] == cell["caught"] + cell["missed"] + cell["passed"] + \
                cell["false_alarms"] + cell["abstained"]
    code = main(["calibrate", str(sample), "--cases", str(STUDIES), "--jury", "builtin/rules",
                 "--by-origin", "--resamples", "50"])
    out = capsys.readouterr().out
    assert code == 0 and "false alarms" in out and "coverage" in out
