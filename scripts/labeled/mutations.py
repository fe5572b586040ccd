"""Mutations with labels by construction: each breaks one criterion and keeps the others."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from labeled.base import (
    DIRECTION_RE,
    FLIP,
    display_name,
    effect_claim,
    number_re,
    numbers_clause,
    numbers_of,
    outcome_numbers,
    p_text,
    prompt_numbers,
)
from labeled.surgery import (
    Labeled,
    Span,
    decimals,
    drop_mention,
    find_mention,
    fresh_number,
    insert_sentence,
    item_region,
    null_of,
    replace_number,
)
from pytest_rwe.study import Outcome, Study

# ---------------------------------------------------------------- mutations

Target = str
Mutation = Callable[[Study, Labeled, Target, random.Random], "Labeled | None"]


def _outcome(study: Study, key: str) -> Outcome:
    return next(o for o in study.outcomes if o.key == key)


def _tag(o: Outcome) -> str:
    return f"{display_name(o)} [{o.key}]"


def _direction_word(study: Study, text: str, o: Outcome) -> tuple[Span, re.Match[str]] | None:
    region = item_region(study, text, o)
    if region is None:
        return None
    words = list(DIRECTION_RE.finditer(text[region[1][0]:region[1][1]]))
    return (region[1], words[-1]) if words else None


def t_flip(study: Study, s: Labeled) -> list[Target]:
    return [o.key for o in study.outcomes if o.significant is not False
            and o.direction in ("higher", "lower") and _direction_word(study, s.text, o)]


def m_flip(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    o = _outcome(study, key)
    found = _direction_word(study, s.text, o)
    assert found is not None and o.effect is not None and o.effect_measure is not None
    (start, _), word = found
    new = FLIP[word[1]]
    text = s.text[:start + word.start()] + new + s.text[start + word.end():]
    note = (f"direction flipped: {_tag(o)} is said '{new}' but "
            f"{o.effect_measure.value} {o.effect.text} is {o.direction}")
    return s.edit(text, "flip_direction", note, key, "direction_of_effect")


def t_nonsig(study: Study, s: Labeled) -> list[Target]:
    return [o.key for o in study.outcomes if o.significant is False and o.direction in
            ("higher", "lower") and (m := find_mention(s.text, o))
            and "no significant" in s.text[m.sentence[0]:m.sentence[1]]]


def m_nonsig(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    """Replace 'no significant difference in X' by a sentence claiming a significant effect."""
    o = _outcome(study, key)
    assert o.direction is not None
    dropped = drop_mention(study, s.text, o)
    if dropped is None:
        return None
    claim = f"{effect_claim(study, o, o.direction, True)} {numbers_clause(study, o)}."
    text = insert_sentence(*dropped, claim)
    note = (f"non-significant outcome called significant: {_tag(o)} has {p_text(o)} "
            f"but is said to be significantly {o.direction}")
    return s.edit(text, "nonsig_to_sig", note, key, "direction_of_effect")


def t_effect(study: Study, s: Labeled) -> list[Target]:
    return [o.key for o in study.outcomes if o.direction in ("higher", "lower")
            and (m := find_mention(s.text, o)) and m.full]


def m_estimate(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    """Move the point estimate away from the null, beyond rounding, keeping its side."""
    o = _outcome(study, key)
    old = outcome_numbers(o)[0]
    dec, value, null = max(decimals(old), 1), float(old), null_of(o)
    if null == 1.0 and value < 1:
        cands = [value * f for f in (0.7, 0.6, 0.8, 0.5)]
    else:
        sign = 1 if value > null else -1
        cands = [value + sign * max(abs(value - null) * f, 3 * 10 ** -dec) for f in (0.6, 0.9, 1.3)]
    rng.shuffle(cands)
    new = fresh_number(study, cands, dec, old)
    m = find_mention(s.text, o)
    if new is None or m is None:
        return None
    text = replace_number(s.text, m.paren, old, new)
    study_has = o.effect.text if o.effect else ""
    note = f"estimate changed: {_tag(o)} given as {new}, the study has {study_has}"
    return s.edit(text, "change_estimate", note, key, "numbers_accurate")


def t_ci(study: Study, s: Labeled) -> list[Target]:
    return [k for k in t_effect(study, s) if len(numbers_of(_outcome(study, k).effect.text)) == 3]  # type: ignore[union-attr]


def m_ci(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    """Widen one interval bound beyond rounding without crossing the null."""
    o = _outcome(study, key)
    nums, null = outcome_numbers(o), null_of(o)
    which = rng.choice((1, 2))
    old = nums[which]
    dec, value = max(decimals(old), 1), float(old)
    sign = -1 if which == 1 else 1
    cands = [value + sign * max(abs(value) * f, 4 * 10 ** -dec) for f in (0.12, 0.2, 0.3)]
    cands = [c for c in cands if (c - null) * (value - null) > 0 and (null == 0 or c > 0)]
    new = fresh_number(study, cands, dec, old)
    m = find_mention(s.text, o)
    if new is None or m is None:
        return None
    # The bound's occurrence: count equal numbers written before it (estimate, lower bound).
    nth = nums[:which].count(old)
    text = replace_number(s.text, m.paren, old, new, nth)
    bound = "lower" if which == 1 else "upper"
    note = (f"confidence interval changed: {bound} bound of {_tag(o)} given as {new}, "
            f"the study has {old}")
    return s.edit(text, "change_ci", note, key, "numbers_accurate")


_P_RE = r"\bp\s*(?:=|<|<=|\u2264)\s*"


def t_pvalue(study: Study, s: Labeled) -> list[Target]:
    return [o.key for o in study.outcomes if o.p is not None and (m := find_mention(s.text, o))
            and re.search(_P_RE + number_re(outcome_numbers(o)[-1]), s.text[m.paren[0]:m.paren[1]])]


def m_pvalue(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    """Replace the p-value with another on the same side of 0.05."""
    o = _outcome(study, key)
    assert o.p is not None
    pool = ([0.002, 0.004, 0.007, 0.013, 0.021, 0.033, 0.046] if o.p.significant
            else [0.07, 0.12, 0.24, 0.38, 0.55, 0.71, 0.86])
    rng.shuffle(pool)
    taken = prompt_numbers(study)
    new = next((p for p in pool if p not in taken and abs(p - o.p.value) >= 0.005), None)
    m = find_mention(s.text, o)
    if new is None or m is None:
        return None
    paren = s.text[m.paren[0]:m.paren[1]]
    changed = re.sub(_P_RE + number_re(outcome_numbers(o)[-1]), f"p = {new:g}", paren, count=1)
    text = s.text[:m.paren[0]] + changed + s.text[m.paren[1]:]
    note = f"p-value changed: {_tag(o)} given p = {new:g}, the study has {p_text(o)}"
    return s.edit(text, "change_pvalue", note, key, "numbers_accurate")


def t_drop_sig(study: Study, s: Labeled) -> list[Target]:
    return [o.key for o in study.outcomes if o.must_report and item_region(study, s.text, o)]


def t_drop_other(study: Study, s: Labeled) -> list[Target]:
    return [o.key for o in study.outcomes if not o.must_report and item_region(study, s.text, o)]


def m_drop_sig(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    o = _outcome(study, key)
    dropped = drop_mention(study, s.text, o)
    if dropped is None:
        return None
    note = f"significant outcome dropped: {_tag(o)} ({p_text(o)})"
    return s.edit(dropped[0], "drop_significant", note, key, "completeness")


def m_drop_other(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    o = _outcome(study, key)
    dropped = drop_mention(study, s.text, o)
    if dropped is None:
        return None
    note = f"correct: omits {_tag(o)} ({p_text(o)}), which need not be reported"
    return s.edit(dropped[0], "omit_nonsignificant", note, key, None)


def _find_size(text: str, n: int) -> re.Match[str] | None:
    forms = [f"{n:,}", str(n)] if n >= 1000 else [str(n)]
    hits = [m for t in forms for m in re.finditer(number_re(t), text)]
    return hits[0] if len(hits) == 1 else None


def t_sizes(study: Study, s: Labeled) -> list[Target]:
    a, b = study.intervention_size, study.control_size
    if a is None or b is None or a == b or "sizes" in s.touched:
        return []
    return ["sizes"] if _find_size(s.text, a) and _find_size(s.text, b) else []


def _swap(text: str, a: re.Match[str], b: re.Match[str]) -> str:
    first, second = sorted((a, b), key=lambda m: m.start())
    return (text[:first.start()] + second[0] + text[first.end():second.start()] + first[0]
            + text[second.end():])


def m_swap_sizes(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    assert study.intervention_size is not None and study.control_size is not None
    a, b = _find_size(s.text, study.intervention_size), _find_size(s.text, study.control_size)
    assert a is not None and b is not None
    note = (f"group sizes swapped: intervention {study.intervention_size} and control "
            f"{study.control_size} attributed to the other group")
    return s.edit(_swap(s.text, a, b), "swap_sizes", note, key, "numbers_accurate")


def t_size(study: Study, s: Labeled) -> list[Target]:
    n = study.intervention_size
    ok = n is not None and n >= 100 and "sizes" not in s.touched and _find_size(s.text, n)
    return ["sizes"] if ok else []


def m_change_size(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    """Transpose two adjacent different digits of the intervention size (a typo-like error)."""
    n = study.intervention_size
    assert n is not None
    digits = str(n)
    spots = [i for i in range(len(digits) - 1)
             if digits[i] != digits[i + 1] and not (i == 0 and digits[1] == "0")]
    if not spots:
        return None
    i = rng.choice(spots)
    wrong = int(digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:])
    hit = _find_size(s.text, n)
    if float(wrong) in prompt_numbers(study) or hit is None:
        return None
    shown = f"{wrong:,}" if "," in hit[0] else str(wrong)
    text = s.text[:hit.start()] + shown + s.text[hit.end():]
    note = f"group size changed: intervention given as {shown}, the study has {n}"
    return s.edit(text, "change_size", note, key, "numbers_accurate")


Hits = tuple[re.Match[str], re.Match[str]]


def _baseline_hits(s: Labeled, name: str, study: Study) -> Hits | None:
    v = study.baseline[name]
    a = list(re.finditer(number_re(v.intervention_text), s.text))
    b = list(re.finditer(number_re(v.control_text), s.text))
    if v.intervention_text == v.control_text or len(a) != 1 or len(b) != 1:
        return None
    return a[0], b[0]


def t_baseline(study: Study, s: Labeled) -> list[Target]:
    return [f"baseline:{n}" for n in study.baseline
            if f"baseline:{n}" not in s.touched and _baseline_hits(s, n, study)]


def m_baseline(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    name = key.split(":", 1)[1]
    hits = _baseline_hits(s, name, study)
    assert hits is not None
    note = f"baseline values swapped between the groups: {name} is {study.baseline[name].text}"
    return s.edit(_swap(s.text, *hits), "swap_baseline", note, key, "numbers_accurate")


def _round_half_up(num: str) -> str | None:
    """One decimal fewer, rounded half up; None for ties, trailing zeros and short numbers."""
    dec = decimals(num)
    if dec < 2 or num.endswith(("0", "5")):
        return None
    return str(Decimal(num).quantize(Decimal(1).scaleb(-(dec - 1)), rounding=ROUND_HALF_UP))


def _roundable(o: Outcome) -> list[tuple[int, str, str]]:
    """(index, number, rounded) for the numbers of ``o`` that round without crossing a line:
    the null for the estimate and its bounds, 0.05 for an exact p-value."""
    nums, out = outcome_numbers(o), []
    for i, num in enumerate(nums):
        is_p = o.p is not None and i == len(nums) - 1
        new = _round_half_up(num)
        if new is None or (is_p and (o.p is None or o.p.operator != "=" or float(new) == 0)):
            continue
        line = 0.05 if is_p else null_of(o)
        if (float(new) - line) * (float(num) - line) > 0:
            out.append((i, num, new))
    return out


def t_round(study: Study, s: Labeled) -> list[Target]:
    return [o.key for o in study.outcomes
            if (m := find_mention(s.text, o)) and m.full and _roundable(o)]


def m_round(study: Study, s: Labeled, key: Target, rng: random.Random) -> Labeled | None:
    """Round every roundable number of one outcome to one decimal fewer (still accurate)."""
    o = _outcome(study, key)
    m = find_mention(s.text, o)
    assert m is not None
    paren, pos, done = s.text[m.paren[0]:m.paren[1]], 0, []
    wanted = {i: new for i, _, new in _roundable(o)}
    for i, num in enumerate(outcome_numbers(o)):
        hit = re.compile(number_re(num)).search(paren, pos)
        assert hit is not None
        if i in wanted:
            paren = paren[:hit.start()] + wanted[i] + paren[hit.end():]
            pos = hit.start() + len(wanted[i])
            done.append(f"{num} -> {wanted[i]}")
        else:
            pos = hit.end()
    text = s.text[:m.paren[0]] + paren + s.text[m.paren[1]:]
    note = f"correct: numbers of {_tag(o)} rounded accurately ({', '.join(done)})"
    return s.edit(text, "round", note, key, None)


@dataclass(frozen=True)
class Kind:
    """A mutation with its target finder and its weight when picking mutations for a study."""

    name: str
    targets: Callable[[Study, Labeled], list[Target]]
    apply: Mutation
    weight: int


ERRORS = (
    Kind("flip_direction", t_flip, m_flip, 3),
    Kind("nonsig_to_sig", t_nonsig, m_nonsig, 3),
    Kind("drop_significant", t_drop_sig, m_drop_sig, 6),
    Kind("change_estimate", t_effect, m_estimate, 1),
    Kind("change_ci", t_ci, m_ci, 1),
    Kind("change_pvalue", t_pvalue, m_pvalue, 1),
    Kind("swap_sizes", t_sizes, m_swap_sizes, 1),
    Kind("change_size", t_size, m_change_size, 1),
    Kind("swap_baseline", t_baseline, m_baseline, 1),
)
BENIGN = (
    Kind("omit_nonsignificant", t_drop_other, m_drop_other, 1),
    Kind("round", t_round, m_round, 1),
)
