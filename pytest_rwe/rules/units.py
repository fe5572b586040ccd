"""Compound units written after a value: "90.9 μg/l", "5.2 mg/dL", "4.7 ml/kg"."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.text import Token

__all__ = ["compound_unit"]


def _glued(tokens: Sequence[Token], left: int, right: int) -> bool:
    return left >= 0 and right < len(tokens) and tokens[left].end == tokens[right].start


def _unit_word(token: Token) -> bool:
    return token.text.isalpha() and len(token.text) <= 5


def compound_unit(tokens: Sequence[Token], pos: int) -> bool:
    """The token at ``pos`` is part of a unit of the form "a/b" written without spaces
    ("μg/l": "μg", "/", "l"), which stands between a value and the group it belongs to as
    a simple unit does; a slash between words with spaces ("A / B") is not one."""
    for slash in (pos - 1, pos, pos + 1):
        if 0 < slash < len(tokens) - 1 and tokens[slash].text == "/" and \
                _glued(tokens, slash - 1, slash) and _glued(tokens, slash, slash + 1) and \
                _unit_word(tokens[slash - 1]) and _unit_word(tokens[slash + 1]):
            return True
    return False
