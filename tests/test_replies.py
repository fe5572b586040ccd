"""Judge-reply parsing: every tolerated and every rejected form, and the repair request."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_rwe.prompts import judge_request, load_prompts
from pytest_rwe.providers.base import GenerationSettings, JudgeTask
from pytest_rwe.replies import JudgeReply, ReplyError, parse_judge_reply, repair_request
from pytest_rwe.study import load_study

ROOT = Path(__file__).resolve().parents[1]
_STUDY_FOLDERS = (ROOT / "cases" / "studies", Path("/work/shared/data/curated-studies"))


def _study_path(study_id: str) -> Path:
    for folder in _STUDY_FOLDERS:
        hits = sorted(folder.rglob(f"{study_id}.json")) if folder.is_dir() else []
        if hits:
            return hits[0]
    pytest.skip(f"curated study {study_id} not found")


OK = JudgeReply(0, 'The summary says "lower risk of flares" but the HR is 1.102.')
CANONICAL = (
    '{"direction_of_effect": {"score": 0, "explanation": '
    '"The summary says \\"lower risk of flares\\" but the HR is 1.102."}}'
)


@pytest.mark.parametrize("text", [
    CANONICAL,
    f"```json\n{CANONICAL}\n```",
    f"```\n{CANONICAL}\n```",
    f"Let me check each direction.\nThe HR is above 1.\n\n{CANONICAL}\n\nHope this helps!",
    CANONICAL[:-2] + ",}}",  # trailing comma after the inner object
    CANONICAL[:-1] + ",}",  # trailing comma after the outer member
    CANONICAL.replace('"score": 0', '"score": "0"'),
    CANONICAL.replace('"score": 0', '"score": false'),
    CANONICAL.replace('"score": 0', '"score": 0.0'),
    CANONICAL.replace('"direction_of_effect"', '"Direction of effect"'),
    CANONICAL.replace('"score"', '"Score"'),
    "  \n" + CANONICAL.replace(": ", ":\n    ") + "\n",
], ids=[
    "canonical", "json-fence", "bare-fence", "prose-around", "trailing-comma-inner",
    "trailing-comma-outer", "string-score", "bool-score", "float-score", "key-spelling",
    "score-case", "pretty-printed",
])
def test_tolerated_forms(text: str) -> None:
    assert parse_judge_reply(text, "direction_of_effect") == OK


@pytest.mark.parametrize("raw, score", [
    ("1", 1), ("0", 0), ('"1"', 1), ('" 0 "', 0), ("true", 1), ("false", 0),
    ("1.0", 1), ("0.0", 0),
])
def test_score_forms(raw: str, score: int) -> None:
    reply = parse_judge_reply(f'{{"completeness": {{"score": {raw}, "explanation": "e"}}}}',
                              "completeness")
    assert reply == JudgeReply(score, "e")
    assert type(reply.score) is int


def test_other_criteria_are_ignored() -> None:
    text = (
        '{"direction_of_effect": {"score": 0, "explanation": "wrong way"},'
        ' "numbers_accurate": {"score": 1, "explanation": "all from the prompt"},'
        ' "completeness": {"score": 1, "explanation": "both outcomes"}}'
    )
    assert parse_judge_reply(text, "numbers_accurate") == JudgeReply(1, "all from the prompt")
    assert parse_judge_reply(text, "direction_of_effect") == JudgeReply(0, "wrong way")


def test_other_criteria_may_be_malformed_when_ours_is_fine() -> None:
    text = '{"completeness": {"score": 1}, "numbers_accurate": {"score": 0.5}}'
    assert parse_judge_reply(text, "completeness") == JudgeReply(1, "")


def test_missing_explanation_is_empty() -> None:
    assert parse_judge_reply('{"completeness": {"score": 1}}', "completeness") == JudgeReply(1, "")


def test_explanation_is_stripped_and_keeps_braces_and_quotes() -> None:
    text = '{"completeness": {"score": 0, "explanation": "  missing {\\"hypokalemia\\"}, ok  "}}'
    assert parse_judge_reply(text, "completeness").explanation == 'missing {"hypokalemia"}, ok'


def test_trailing_comma_inside_string_is_kept() -> None:
    text = '{"completeness": {"score": 1, "explanation": "a,}b",}}'
    assert parse_judge_reply(text, "completeness").explanation == "a,}b"


def test_flat_shape_is_accepted() -> None:
    text = 'Verdict: {"score": 1, "explanation": "every direction matches"}'
    expected = JudgeReply(1, "every direction matches")
    assert parse_judge_reply(text, "direction_of_effect") == expected


def test_echoed_template_then_answer() -> None:
    text = (
        'You asked for {"completeness": {"score": 0 or 1, "explanation": "..."}}.\n'
        'Here it is: {"completeness": {"score": 1, "explanation": "both outcomes mentioned"}}'
    )
    assert parse_judge_reply(text, "completeness") == JudgeReply(1, "both outcomes mentioned")


def test_stray_brace_in_prose_before_the_object() -> None:
    text = 'The outcomes {hypokalemia, hyponatremia are covered.\n{"completeness": {"score": 1}}'
    assert parse_judge_reply(text, "completeness") == JudgeReply(1, "")


def test_agreeing_repeats_take_the_last_explanation() -> None:
    text = (
        '{"completeness": {"score": 1, "explanation": "draft"}}\n'
        'Final: {"completeness": {"score": 1, "explanation": "final"}}'
    )
    assert parse_judge_reply(text, "completeness") == JudgeReply(1, "final")


@pytest.mark.parametrize("text, reason", [
    ("", "empty"),
    ("   \n", "empty"),
    ("The summary is complete. Score: 1", "no JSON object"),
    ('{"completeness": {"score": 0.5, "explanation": "partly"}}',
     r'"score" must be 0 or 1, got 0\.5'),
    ('{"completeness": {"score": 2}}', "must be 0 or 1"),
    ('{"completeness": {"score": -1}}', "must be 0 or 1"),
    ('{"completeness": {"score": "yes"}}', "must be 0 or 1"),
    ('{"completeness": {"score": "true"}}', "must be 0 or 1"),
    ('{"completeness": {"score": null}}', "must be 0 or 1"),
    ('{"completeness": {"score": [1]}}', "must be 0 or 1"),
    ('{"completeness": {"explanation": "fine"}}', 'has no "score"'),
    ('{"completeness": 1}', "must be an object"),
    ('{"completeness": {"score": 1, "explanation": 42}}', '"explanation" must be a string'),
    ('{"completeness": {"score": 1, "explanation": null}}', '"explanation" must be a string'),
    ('{"completeness": {"score": 1, "explanation": ["a"]}}', '"explanation" must be a string'),
    ('{"numbers_accurate": {"score": 1, "explanation": "ok"}}',
     'scores "numbers_accurate" instead of "completeness"'),
    ('{"verdict": "pass"}', 'no JSON object with the key "completeness"'),
    ('{"completeness": {"score": 1}} and {"completeness": {"score": 0}}', "conflicting scores"),
    ('{"completeness": {"score": 1, "explanation": "unterminated}}', "no JSON object"),
    ("[1, 0]", "no JSON object"),
    ('{"score": 1, "numbers_accurate": {"score": 1}}', "instead of"),
])
def test_rejected_forms(text: str, reason: str) -> None:
    with pytest.raises(ReplyError, match=reason) as info:
        parse_judge_reply(text, "completeness")
    assert isinstance(info.value, ValueError)
    assert info.value.reason == str(info.value)


def test_flat_shape_nested_in_broken_object_is_refused() -> None:
    # the inner object belongs to another (broken) answer: it must not be taken as ours
    text = '{"numbers_accurate": {"score": 1, "explanation": "x"} oops}'
    with pytest.raises(ReplyError):
        parse_judge_reply(text, "completeness")


def test_repair_request_appends_reply_and_correction() -> None:
    study = load_study(_study_path("legend_htn_chlorthalidone_vs_hctz"))
    settings = GenerationSettings(temperature=0.0, max_output_tokens=300)
    original = judge_request(study, "A summary.", "numbers_accurate", load_prompts(None), settings)
    bad = '{"numbers_accurate": {"score": 0.5}}'
    try:
        parse_judge_reply(bad, "numbers_accurate")
    except ReplyError as exc:
        error = exc
    else:
        pytest.fail("0.5 must be rejected")
    repaired = repair_request(original, bad, error, "numbers_accurate")

    assert repaired.messages[:-2] == original.messages
    assert [m.role for m in repaired.messages[-2:]] == ["assistant", "user"]
    assert repaired.messages[-2].content == bad
    ask = repaired.messages[-1].content
    assert error.reason in ask
    assert '{"numbers_accurate": {"score": 0 or 1, "explanation": "..."}}' in ask
    assert repaired.settings == settings
    assert repaired.task == JudgeTask(study, "A summary.", "numbers_accurate")
    assert original.messages == repaired.messages[:1]  # the original is untouched


def test_repair_of_empty_reply_has_no_empty_turn() -> None:
    study = load_study(_study_path("legend_htn_chlorthalidone_vs_hctz"))
    original = judge_request(study, "S.", "completeness", load_prompts(None), GenerationSettings())
    repaired = repair_request(original, "  ", ReplyError("the reply is empty"), "completeness")
    assert all(m.content.strip() for m in repaired.messages)
