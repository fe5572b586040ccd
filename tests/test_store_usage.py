"""Stored responses keep their token usage, so a replayed run reports it too."""

from __future__ import annotations

import json

from pytest_rwe.providers.base import GenerationResult, Usage
from pytest_rwe.store.entry import CallLabel, RequestInfo, decode_entry, encode_entry

KEY = "ab" * 32
LABEL = CallLabel(kind="judge", study_id="s1", criterion="completeness", model="openai/o4-mini")


def encoded(usage: Usage) -> str:
    return encode_entry(LABEL, KEY, GenerationResult("ok", 0.5, usage),
                         RequestInfo("openai", "o4-mini", {}, "0" * 64), run_id="r")


def test_usage_round_trips_with_reasoning_and_cached_tokens() -> None:
    usage = Usage(input_tokens=1200, output_tokens=900, reasoning_tokens=700, cached_tokens=64)
    replayed = decode_entry(encoded(usage)).result
    assert replayed.replayed and replayed.usage == usage


def test_details_the_vendor_did_not_report_stay_unknown() -> None:
    text = encoded(Usage(input_tokens=10, output_tokens=5))
    response = json.loads(text)["response"]
    assert response.get("reasoning_tokens") is None and response.get("cached_tokens") is None
    assert decode_entry(text).result.usage == Usage(10, 5, None, None)


def test_an_old_entry_without_usage_reads_as_unknown_never_zero() -> None:
    record = json.loads(encoded(Usage(10, 5)))
    for name in ("input_tokens", "output_tokens"):
        del record["response"][name]
    usage = decode_entry(json.dumps(record)).result.usage
    assert usage == Usage(None, None, None, None)
