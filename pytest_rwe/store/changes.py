"""What changed between a stored request and the one a run makes now, in words (pure).

A replay refuses a stored response whose key does not match the request; the message then
says why, from what the record keeps beside its key: the model, its server, the generation
settings, the repeat index, the key recipe, and for the prompt, which template changed and
whether the study's data or the judged summary did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pytest_rwe.store.entry import RequestInfo

_MISSING = object()


def what_changed(stored: Mapping[str, Any], wanted: RequestInfo) -> list[str]:
    """The differences between ``stored`` (a record's ``request``) and ``wanted``, as
    phrases ("the prompt template judge_completeness.txt changed (...)"); empty when the
    record does not say (then its key alone differs: edited by hand, or torn)."""
    now = wanted.to_dict()
    changes: list[str] = []
    before = stored.get("key_version", 1)
    if before != now["key_version"]:
        changes.append(f"the key recipe changed (version {before} -> {now['key_version']})")
    old_model = f"{stored.get('provider')}/{stored.get('model')}"
    new_model = f"{now['provider']}/{now['model']}"
    if old_model != new_model:
        changes.append(f"the model changed ({old_model} -> {new_model})")
    if dict(stored.get("server") or {}) != dict(now.get("server") or {}):
        changes.append(f"the server changed ({_text(stored.get('server'))} -> "
                       f"{_text(now.get('server'))})")
    settings = _settings_changes(stored.get("settings"), now["settings"])
    if settings:
        changes.append("the generation parameters changed (" + "; ".join(settings) + ")")
    if stored.get("repeat", 0) != now["repeat"]:
        changes.append(f"the repeat index changed ({stored.get('repeat', 0)} -> "
                       f"{now['repeat']})")
    if stored.get("prompt_sha256") != now["prompt_sha256"]:
        changes.append(_prompt_change(stored, now))
    return changes


def _text(value: Any) -> str:
    if not value:
        return "the vendor's"
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={v}" for k, v in sorted(value.items()))
    return str(value)


def _settings_changes(old: Any, new: Mapping[str, Any]) -> list[str]:
    before = dict(old) if isinstance(old, Mapping) else {}
    out = []
    for name in sorted(set(before) | set(new)):
        a, b = before.get(name, _MISSING), new.get(name, _MISSING)
        if a != b:
            out.append(f"{name} {_value(a)} -> {_value(b)}")
    return out


def _value(value: Any) -> str:
    return "(not sent)" if value is _MISSING else "null" if value is None else str(value)


def _prompt_change(stored: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    old, new = stored.get("prompt"), now.get("prompt")
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return "the prompt changed (its text differs from the recorded one)"
    parts = []
    changed: set[str] = set()
    old_templates = old.get("templates") or {}
    new_templates = new.get("templates") or {}
    for name in sorted(set(old_templates) | set(new_templates)):
        a, b = old_templates.get(name), new_templates.get(name)
        if a is None:
            parts.append(f"it now uses the template {name}")
        elif b is None:
            parts.append(f"it no longer uses the template {name}")
        elif a.get("sha256") != b.get("sha256"):
            changed.add(name)
            parts.append(f"the template {name} changed (sha256 {str(a.get('sha256'))[:12]} "
                         f"-> {str(b.get('sha256'))[:12]}, {b.get('source', 'package')})")
    old_inputs = old.get("inputs") or {}
    new_inputs = new.get("inputs") or {}
    for name in sorted(set(old_inputs) | set(new_inputs)):
        if old_inputs.get(name) != new_inputs.get(name):
            if name == "summarization_prompt_sha256" and any(
                    t.startswith("summarize_") for t in changed):
                continue  # its template changed: that is why the embedded prompt did
            parts.append(_INPUTS.get(name, f"its input {name} changed"))
    if not parts and old_templates and old_templates == new_templates:
        # the same templates rendered another text: only the study's data can differ
        parts.append(_INPUTS["study"])
    if not parts:
        return "the prompt changed (its text differs from the recorded one)"
    return "the prompt changed: " + "; ".join(parts)


_INPUTS = {
    "study": "the study's data changed (its file under the cases folder)",
    "summarization_prompt_sha256": "the study's data changed (its file under the cases "
                                   "folder)",
    "summary_sha256": "the summary it judges changed (see that model's summary file)",
    "reply_sha256": "the reply it repairs changed",
}
