"""One escape helper per output format, for text that came from a model, a juror or a file.

A summary or an explanation is untrusted: a model can write ``ESC [ 2 J`` (clear the
screen), an OSC 8 hyperlink or an OSC 52 clipboard write, and a terminal would obey. So:

- :func:`terminal`: ANSI/VT sequences (CSI, OSC, DCS/SOS/PM/APC strings, other ESC
  sequences, their 8-bit C1 forms) and every other C0/C1 control removed; newlines and tabs
  kept (``one_line=True`` folds all whitespace into single spaces);
- :func:`markdown`: the same, then HTML-escaped (GitHub renders inline HTML), table pipes
  escaped, on one line;
- :func:`html`: HTML-escaped, quotes too (safe in attributes), controls removed;
- :func:`json_text`: JSON text with C1 controls and DEL written as ``\\u`` escapes (JSON
  already escapes C0), so ``cat report.json`` cannot drive a terminal while the data stays
  exact.
"""

from __future__ import annotations

import html as _html
import re

# ESC-introduced strings ended by BEL or ST (ESC \): OSC "]", DCS "P", SOS "X", PM "^",
# APC "_"; and their 8-bit introducers (U+009D OSC, U+0090 DCS, U+0098 SOS, U+009E PM,
# U+009F APC) ended by BEL, ESC \ or U+009C. An unterminated string runs to the end.
_STRING = r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|$)"
# CSI: ESC [ or U+009B, parameter bytes, intermediate bytes, one final byte
_CSI = r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
# any other escape sequence: ESC, intermediate bytes, a final byte
_ESC = r"\x1b[ -/]*[0-~]?"
_SEQUENCE = re.compile(f"{_STRING}|{_CSI}|{_ESC}")
# what is left: C0 controls except tab and newline, DEL, C1 controls
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_C1_AND_DEL = re.compile(r"[\x7f-\x9f]")
_C1_CHARS = tuple(chr(code) for code in range(0x80, 0xA0))


def strip_controls(text: str) -> str:
    """``text`` without terminal control sequences or control characters (tab and newline
    kept; a carriage return, which would overwrite the line, becomes a newline)."""
    text = str(text).replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", _SEQUENCE.sub("", text))


def terminal(text: object, *, one_line: bool = False) -> str:
    """Text safe to print in a terminal."""
    safe = strip_controls(str(text))
    return " ".join(safe.split()) if one_line else safe


def markdown(text: object) -> str:
    """Text safe inside a Markdown table cell or list item: no controls, HTML-escaped,
    pipes escaped, one line."""
    value = _html.escape(strip_controls(str(text)), quote=False)
    return " ".join(value.replace("|", "\\|").split())


def html(text: object) -> str:
    """Text safe in HTML content and attribute values."""
    return _html.escape(strip_controls(str(text)), quote=True)


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps``) with DEL and C1 controls as ``\\u`` escapes."""
    # A stored entry is ~12 kB of mostly clean text: 33 substring searches (or one, for
    # ASCII) cost a tenth of the character-class scan, which only runs when one is there.
    if "\x7f" not in text and (text.isascii() or not any(c in text for c in _C1_CHARS)):
        return text
    return _C1_AND_DEL.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
