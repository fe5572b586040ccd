"""redact() skips the key-shape pattern on texts that cannot match it: same output, always."""

from __future__ import annotations

import random
import re
import sys

import pytest

from pytest_rwe import redact as redact_module
from pytest_rwe.redact import redact

KEY = "abcdefghijklmnopqrstuvwxyz0123456789"
# every shape the pattern catches, written as the pattern would still match it: other cases,
# and the characters beyond ASCII that its case-insensitive parts read as ASCII letters
SHAPED = [
    f"sk-{KEY}", f"sk-ant-{KEY}", f"sk-proj-{KEY}", f"AIza{KEY}",
    f"Bearer {KEY}", f"BEARER\t{KEY}", f"bearer {KEY}",
    f"x-goog-api-key: {KEY}", f"X-API-KEY={KEY}", f"api_key='{KEY}'", f"ApiKey: {KEY}",
    f"api-key \"{KEY}\"", f"ap\u0130_key: {KEY}", f"ap\u0131key={KEY}",
    f"api\u212aey: {KEY}", f"x-goog-ap\u0130-\u212aey: {KEY}",
]
# prose holding no anchor of the pattern, and prose full of near misses
NEUTRAL = "In 4,210 adults the hazard ratio was 0.81 (95% CI 0.70\u20130.93); \u2265 65 years. "
PROSE = ("In 4,210 adults the hazard ratio was 0.81 (95% CI 0.70\u20130.93; p = 0.004); "
         "\u2265 65 years: HR 0.77. Bearers of the allele, the API and keys, a risk\u2014sk "
         "and AIz. Skipped: apikeys? No. ")


def _pattern_only(text: str) -> str:
    """What redact returned before the prefilter: the pattern on every text."""
    return redact_module._KEY_PATTERNS.sub("<key redacted>",
                                           redact_module.strip_url_credentials(text))


@pytest.mark.parametrize("shaped", SHAPED)
def test_every_key_shape_is_still_redacted(shaped: str) -> None:
    for text in (shaped, f"{NEUTRAL}{shaped} and more text", f"{PROSE}{shaped}"):
        assert redact(text, {}) == _pattern_only(text)
        assert KEY not in redact(text, {})


def test_prose_without_an_anchor_is_left_as_it_is() -> None:
    assert redact(NEUTRAL * 20, {}) == NEUTRAL * 20 == _pattern_only(NEUTRAL * 20)


def test_random_texts_come_out_as_the_pattern_makes_them() -> None:
    rng = random.Random(11)
    pieces = [*SHAPED, *PROSE.split(" "), "sk-", "AIza", "api", "key", "_", "-", "\u0130",
              "\u0131", "\u017f", "\u212a", "B", "e", "a", "r", "er", " ", KEY[:20], "\u00e9"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert redact(text, {}) == _pattern_only(text), text


def test_the_characters_read_as_ascii_letters_are_all_known() -> None:
    """If a Python version folds another character onto an ASCII letter, the prefilter must
    learn it (it would otherwise skip a key the pattern catches)."""
    letter = re.compile(r"(?i:[a-z])")
    odd = {chr(cp) for cp in range(128, sys.maxunicode + 1)
           if letter.fullmatch(chr(cp)) or any(c.isascii() for c in chr(cp).lower())}
    assert odd == set(redact_module._FOLDS_TO_ASCII)
