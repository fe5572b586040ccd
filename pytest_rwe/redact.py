"""Keep API keys out of messages, reports, snapshots and the response store."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
# Shapes of vendor keys, caught even when the key did not come from the environment.
_KEY_PATTERNS = re.compile(
    r"(sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}|AIza[0-9A-Za-z_\-]{30,}|"
    r"(?i:bearer)\s+[A-Za-z0-9_\-\.]{16,}|(?i:x-goog-api-key|x-api-key|api[_-]?key)[\"'=:\s]+[A-Za-z0-9_\-]{12,})"
)


def redact(text: str, environ: Mapping[str, str] | None = None) -> str:
    """Replace every API key value from the environment, and anything shaped like one."""
    env = os.environ if environ is None else environ
    for variable in KEY_VARIABLES:
        value = env.get(variable)
        if value and len(value) >= 8:
            text = text.replace(value, f"<{variable} redacted>")
    return _KEY_PATTERNS.sub("<key redacted>", text)
