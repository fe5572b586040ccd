"""Reading a juror's reply: ``{"<criterion>": {"score": 0 or 1, "explanation": "..."}}``.

The parser is lenient about packaging and strict about meaning. It tolerates a code fence,
prose before or after the object, a trailing comma, a key written with other case or with
spaces ("Direction of effect"), and a score written 0/1, "0"/"1", true/false or 0.0/1.0.
It rejects any other score (0.5, 2, "yes"), a missing score, a non-string explanation,
an object that answers another criterion, and replies whose objects disagree on the score.

The flat shape ``{"score": .., "explanation": ..}`` is accepted: each judge call asks about
exactly one criterion, so a bare score can only be that criterion's score. It is refused
when the object names another criterion, and when it was only found nested inside a
larger object that is not valid JSON (it could be the inner part of another criterion).

A reply that cannot be read gets one repair round (:func:`repair_request`); if that
also fails the juror abstains (the engine's decision, not this module's).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pytest_rwe.providers.base import GenerationRequest, Message, PromptOrigin
from pytest_rwe.verdict import CRITERIA, Criterion


class ReplyError(ValueError):
    """A judge reply that cannot be read; ``reason`` says what was wrong, in a few words."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class JudgeReply:
    """One juror's answer on one criterion."""

    score: int  # 0 or 1
    explanation: str


@dataclass(frozen=True)
class _Candidate:
    value: dict[str, Any]
    nested: bool  # found inside a larger brace block that is not valid JSON


def _scan(text: str, start: int = 0) -> Iterator[tuple[int, str, bool]]:
    """Each character from ``start``, and whether it lies outside a JSON string."""
    in_string = escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            yield index, char, False
        elif char == '"':
            in_string = True
            yield index, char, False
        else:
            yield index, char, True


def _match_brace(text: str, start: int) -> int | None:
    """Index of the ``}`` closing the ``{`` at ``start`` (string-aware), or None."""
    depth = 0
    for index, char, outside in _scan(text, start):
        if outside and char == "{":
            depth += 1
        elif outside and char == "}":
            depth -= 1
            if depth == 0:
                return index
    return None


_CLOSER = re.compile(r"\s*[}\]]")


def _drop_trailing_commas(block: str) -> str:
    """Remove a comma that directly precedes ``}`` or ``]`` (outside strings)."""
    return "".join(
        char for index, char, outside in _scan(block)
        if not (outside and char == "," and _CLOSER.match(block, index + 1))
    )


def _load_object(block: str) -> dict[str, Any] | None:
    for attempt in (block, _drop_trailing_commas(block)):
        try:
            value = json.loads(attempt)
        except ValueError:
            continue
        return value if isinstance(value, dict) else None
    return None


def _candidates(text: str) -> list[_Candidate]:
    """Every JSON object in ``text``; inside a block that fails to parse, look deeper."""
    found: list[_Candidate] = []
    position, nested_until = 0, -1
    while (start := text.find("{", position)) >= 0:
        end = _match_brace(text, start)
        value = _load_object(text[start:end + 1]) if end is not None else None
        if end is None or value is None:
            if end is not None:
                nested_until = max(nested_until, end)
            position = start + 1  # a stray "{" in prose, or a broken block: look inside
            continue
        found.append(_Candidate(value, nested=start < nested_until))
        position = end + 1
    return found


def _key(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def _score(value: object) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)) and value in (0, 1):
        return int(value)
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    raise ReplyError(f'"score" must be 0 or 1, got {json.dumps(value)}')


def _answer(body: object, where: str) -> JudgeReply:
    if not isinstance(body, dict):
        raise ReplyError(
            f'{where} must be an object {{"score": 0 or 1, "explanation": "..."}}, '
            f"got {json.dumps(body)}"
        )
    fields = {_key(k): v for k, v in body.items()}
    if "score" not in fields:
        raise ReplyError(f'{where} has no "score"')
    score = _score(fields["score"])
    explanation = fields.get("explanation", "")
    if not isinstance(explanation, str):
        raise ReplyError(f'"explanation" must be a string, got {json.dumps(explanation)}')
    return JudgeReply(score, explanation.strip())


def _read_candidate(candidate: _Candidate, criterion: Criterion) -> JudgeReply | None:
    """The reply this object gives for ``criterion``; None when it says nothing about it."""
    keys = {_key(k): k for k in candidate.value}
    if criterion in keys:
        return _answer(candidate.value[keys[criterion]], f'"{criterion}"')
    others = [c for c in CRITERIA if c in keys]
    if others:
        raise ReplyError(f'the reply scores "{others[0]}" instead of "{criterion}"')
    if "score" in keys and not candidate.nested:
        return _answer(candidate.value, "the reply")
    return None


def parse_judge_reply(text: str, criterion: Criterion) -> JudgeReply:
    """Read a judge's reply for ``criterion``; raise :class:`ReplyError` saying what is wrong."""
    if not text.strip():
        raise ReplyError("the reply is empty")
    candidates = _candidates(text)
    if not candidates:
        raise ReplyError("the reply holds no JSON object")
    replies: list[JudgeReply] = []
    errors: list[ReplyError] = []
    for candidate in candidates:
        try:
            reply = _read_candidate(candidate, criterion)
        except ReplyError as exc:
            errors.append(exc)
            continue
        if reply is not None:
            replies.append(reply)
    if replies:
        if len({r.score for r in replies}) > 1:
            raise ReplyError(f'the reply gives conflicting scores for "{criterion}"')
        return replies[-1]  # the last one: a reasoning judge states its answer at the end
    if errors:
        raise errors[-1]
    raise ReplyError(f'the reply holds no JSON object with the key "{criterion}"')


def expected_shape(criterion: Criterion) -> str:
    """The exact JSON shape a judge must reply with, as shown to it."""
    return f'{{"{criterion}": {{"score": 0 or 1, "explanation": "..."}}}}'


def repair_request(
    original: GenerationRequest, reply_text: str, error: ReplyError, criterion: Criterion
) -> GenerationRequest:
    """The original conversation, the unreadable reply, and a request to answer again."""
    # Vendor APIs reject empty assistant turns, so an empty reply is shown as a marker.
    shown = reply_text.strip() or "(empty reply)"
    ask = (
        f"Your reply could not be read: {error.reason}.\n"
        "Reply again with only this JSON object, with no other text and no code fence, "
        "where score is the integer 0 or 1 and explanation is a string that quotes the "
        "words of the summary you object to:\n"
        f"{expected_shape(criterion)}"
    )
    return GenerationRequest(
        messages=(*original.messages, Message("assistant", shown), Message("user", ask)),
        settings=original.settings,
        task=original.task,
        origin=_repair_origin(original.origin, shown),
    )


def _repair_origin(origin: PromptOrigin | None, shown: str) -> PromptOrigin | None:
    if origin is None:
        return None
    reply = hashlib.sha256(shown.encode("utf-8")).hexdigest()
    return PromptOrigin(origin.templates,
                        tuple(sorted((*origin.inputs, ("reply_sha256", reply)))))
