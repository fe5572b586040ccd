"""Change words qualified by a degree: "declined less", "fell significantly more", "a less
steep annual eGFR decline", "reduced 24-h SBP more than B": the direction each change word
then states, read by :func:`pytest_rwe.rules.cues.find_cues`."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.sizes import BIGGER as _BIGGER
from pytest_rwe.rules.sizes import SHAPES as _SHAPES
from pytest_rwe.rules.sizes import SMALLER as _SMALLER
from pytest_rwe.rules.text import Token

__all__ = ["compositions"]


# Verbs and nouns of change that a following "less"/"more" or a preceding "smaller"/"less
# steep" qualify: "eGFR declined less" is a smaller decline, a higher value.
_RISING = words("rose risen rise rises rising increase increased increases increasing grew "
                "grown growth gain gained gains")
_FALLING = words("fell fall falls falling decline declined declines declining decrease "
                 "decreased decreases decreasing drop dropped drops dropping loss losses "
                 "deterioration deteriorated reduced reduce reduces reducing lowered lowers")
_RATES = {"slower": False, "faster": True, "quicker": True, "steeper": True}
_DEGREE = words("significantly much far slightly considerably markedly substantially somewhat "
                "statistically")


# verbs of getting better, whose "more"/"less" says how much better ("worsened more" needs
# no reading of its own: its "more" is already the side of the harm)
_BETTERED = words("improved improve improves improving")


def _valence_degree(tokens: Sequence[Token], pos: int, hi: int) -> int | None:
    """The "more"/"less" right after an improvement verb (over degree adverbs), when it
    compares ("improved less with B than with A") rather than counts ("more than 50%")."""
    ahead = pos + 1
    while ahead < hi and tokens[ahead].text.lower() in _DEGREE:
        ahead += 1
    if ahead >= hi or tokens[ahead].text.lower() not in ("less", "more") or (
            ahead + 2 < hi and tokens[ahead + 1].text.lower() == "than"
            and tokens[ahead + 2].is_number):
        return None
    return ahead


def compositions(tokens: Sequence[Token], lo: int, hi: int, in_names: set[int]
                  ) -> tuple[dict[int, str], set[int]]:
    """Change words qualified by "less"/"more" after them ("declined less", "fell
    significantly more") or "smaller"/"less" before them over shape words and the outcome's
    name ("a less steep annual eGFR decline"): the kind each change word then states, and the
    qualifying words, which state nothing of their own."""
    kinds: dict[int, str] = {}
    absorbed: set[int] = set()
    for pos in range(lo, hi):
        word = tokens[pos].text.lower()
        if word in _BETTERED and pos not in in_names:
            degree = _valence_degree(tokens, pos, hi)
            if degree is not None:  # "improved less with B than with A": B did worse
                kinds[degree] = "valence"
                absorbed.add(pos)
            continue
        if (word not in _RISING and word not in _FALLING) or pos in in_names:
            continue  # "more weight loss": the change is the outcome's own name
        rising = word in _RISING
        ahead = pos + 1
        while ahead < hi and tokens[ahead].text.lower() in _DEGREE:
            ahead += 1
        # "reduced 24-h SBP more than OLM/HCTZ", "decreased X significantly more than B":
        # over the outcome's name (and a degree adverb after it) to "more than"
        over = ahead
        while over < min(hi, ahead + 8) and (over in in_names or tokens[over].text in "-/"
                                              or tokens[over].is_number
                                              or len(tokens[over].text) <= 2 or (
                                                  over > ahead and over - 1 in in_names
                                                  and tokens[over].text.lower() in _DEGREE)):
            over += 1
        if over > ahead and over + 1 < hi and tokens[over].text.lower() in ("less", "more") \
                and tokens[over + 1].text.lower() == "than" and not tokens[over + 2].is_number:
            kinds[pos] = "higher" if rising == (tokens[over].text.lower() == "more") else "lower"
            absorbed.add(over)
            continue
        if ahead < hi and tokens[ahead].text.lower() in ("less", "more") and not (
                ahead + 1 < hi and ((tokens[ahead + 1].text.lower() == "than"
                                    and ahead + 2 < hi and tokens[ahead + 2].is_number)
                                    or tokens[ahead + 1].text.lower() in ("likely", "often"))):
            more = tokens[ahead].text.lower() == "more"
            kinds[pos] = "higher" if rising == more else "lower"
            absorbed.add(ahead)
            continue
        back = pos - 1
        rate = None  # "slower eGFR decline": a slower fall is a smaller one
        while back >= lo and (tokens[back].text.lower() in _SHAPES or back in in_names):
            if tokens[back].text.lower() in _RATES and rate is None and back not in in_names:
                rate = back
            back -= 1
        if back >= lo and back < pos - 1 and tokens[back].text.lower() in _SMALLER | _BIGGER:
            bigger = tokens[back].text.lower() in _BIGGER
            kinds[pos] = "higher" if rising == bigger else "lower"
            absorbed.add(back)
        elif rate is not None:
            bigger = _RATES[tokens[rate].text.lower()]
            kinds[pos] = "higher" if rising == bigger else "lower"
            absorbed.add(rate)
    return kinds, absorbed
