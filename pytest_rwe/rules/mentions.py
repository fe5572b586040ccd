"""Where a summary mentions each outcome, and where it refers to the intervention or control group.

Outcome names are matched as bags of stemmed content words inside a short window of one
sentence ("ip visit for asthma" ~ "asthma-related inpatient visits"); overlapping matches go to
the most specific name ("ischemic stroke" is not also "stroke"). A partial match counts only
when it singles out one outcome, or when the outcome's own estimate is written nearby.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pytest_rwe.rules.index import matches, timepoint_numbers
from pytest_rwe.rules.text import (
    NEGATIONS,
    STOPWORDS,
    Span,
    Token,
    normalize_phrase,
    numbers_in,
    same_word,
    stem,
)
from pytest_rwe.study import Outcome, Study

Group = Literal["intervention", "control"]
_STOP_STEMS = frozenset(stem(w) for w in STOPWORDS) | STOPWORDS
# Words too common in group descriptions to tell the groups apart.
_GROUP_GENERIC = frozenset(stem(w) for w in (
    ["patients", "participants", "subjects", "adults", "people", "individuals", "users", "use",
     "therapy", "treatment", "drug", "drugs", "medication", "group", "only", "alone", "same",
     "separate", "start", "starting", "initiation", "new", "monotherapy", "during", "baseline",
     "before", "after", "continue", "continued", "continuing", "continuous"]))
_COMPARISON_WORDS = frozenset(stem(w) for w in
                               ["than", "versus", "vs", "v", "compared", "comparison", "relative",
                                "against"])
_GENERIC_REFS: dict[str, str] = {
    stem(w): g for w, g in (("intervention", "intervention"), ("treated", "intervention"),
                            ("exposed", "intervention"), ("control", "control"),
                            ("controls", "control"), ("comparator", "control"),
                            ("unexposed", "control"), ("untreated", "control"),
                            ("reference", "control"))}
_NON_USERS = frozenset(stem(w) for w in ["users", "user", "initiators", "exposed", "treated"])
_NEGATED_BEFORE = re.compile(r"\b(?:no|not|non|without|never)[\s-]*$", re.IGNORECASE)
_NEGATABLE = frozenset(stem(w) for w in [
    "start", "starting", "initiation", "initiators", "initiating", "user", "users", "use",
    "using", "treatment", "treated", "receive", "receiving", "exposed", "taking", "take"])
_BREAKS = frozenset("();:[]")
_RUN_GLUE = frozenset({"of", "(", ")", "-", "with", "and", "or", "plus", "on", "for"})
_GROUP_NOUNS = frozenset(stem(w) for w in
                         ["group", "arm", "cohort", "patients", "participants", "subjects",
                          "users"])


@dataclass(frozen=True)
class Mention:
    """A place where the summary names an outcome."""

    outcome: Outcome
    positions: tuple[int, ...]  # token indices that matched the name
    span: Span
    full: bool  # every content word of the name was found


@dataclass(frozen=True)
class GroupRef:
    """A reference to the intervention or the control group."""

    group: Group
    position: int  # token index of the first word
    comparison: bool  # inside "than ...", "compared with ...", "versus ..."
    end: int = -1  # token index of the last word


def content_words(name: str) -> list[str]:
    words = [w for w in normalize_phrase(name) if w not in _STOP_STEMS]
    unique: list[str] = []
    for word in words:
        if not any(same_word(word, u) for u in unique):
            unique.append(word)
    return unique or normalize_phrase(name)


def _window(tokens: Sequence[Token], lo: int, hi: int, start: int, words: list[str]
            ) -> tuple[list[int], int]:
    """Greedy match of ``words`` from ``start``: matched positions and the last position used."""
    found: dict[str, int] = {}
    limit = min(hi, start + 2 * len(words) + 2)
    last = start
    for pos in range(start, limit):
        if tokens[pos].text in _BREAKS:
            break  # a name never spans a parenthesis or a clause break
        for word in words:
            if word not in found and same_word(tokens[pos].norm, word):
                found[word] = pos
                last = pos
                break
        if len(found) == len(words):
            break
    return sorted(found.values()), last


def find_mentions(study: Study, text: str, tokens: Sequence[Token],
                  sentences: Sequence[tuple[int, int]]) -> list[Mention]:
    """Every outcome mention, sentence by sentence (``sentences`` are token ranges)."""
    names = {o.key: content_words(o.name) for o in study.outcomes}
    mentions: list[Mention] = []
    for lo, hi in sentences:
        candidates: list[tuple[float, list[Outcome], list[int]]] = []
        for outcome in study.outcomes:
            words = names[outcome.key]
            pos = lo
            while pos < hi:
                if not any(same_word(tokens[pos].norm, w) for w in words):
                    pos += 1
                    continue
                matched, last = _window(tokens, lo, hi, pos, words)
                if len(matched) == len(words):
                    candidates.append((len(words) + 0.5, [outcome], matched))
                elif 2 * len(matched) >= len(words):
                    candidates.append((len(matched), [outcome], matched))
                pos = last + 1
        mentions += _resolve(study, text, tokens, lo, hi, candidates, names)
    return mentions


def _resolve(study: Study, text: str, tokens: Sequence[Token], lo: int, hi: int,
             candidates: list[tuple[float, list[Outcome], list[int]]],
             names: dict[str, list[str]]) -> list[Mention]:
    sentence_text = text[tokens[lo].start:tokens[hi - 1].end] if hi > lo else ""
    written = numbers_in(sentence_text)
    # Merge identical matches of different outcomes (same words, e.g. two timepoints).
    merged: dict[tuple[float, tuple[int, ...]], list[Outcome]] = {}
    for strength, outcomes, positions in candidates:
        merged.setdefault((strength, tuple(positions)), []).extend(outcomes)
    ordered = sorted(merged.items(), key=lambda kv: (-kv[0][0], kv[0][1][0]))
    consumed: set[int] = set()
    out: list[Mention] = []
    for (strength, positions_key), outcomes in ordered:
        positions = list(positions_key)
        if set(positions) <= consumed:
            continue
        full = strength != int(strength)
        chosen = outcomes
        if not full:
            # A partial match must single out its outcome among all the study's outcomes.
            matched_words = [tokens[p].norm for p in positions]
            rivals = [o for o in study.outcomes if all(
                any(same_word(m, w) for w in names[o.key]) for m in matched_words)]
            if len({tuple(names[o.key]) for o in rivals}) == 1:
                chosen = rivals  # one name at several timepoints
            elif len(rivals) > 1:
                chosen = _by_numbers(rivals, written) or []
                if len(chosen) != 1:
                    continue
        if len(chosen) > 1 and len({tuple(names[o.key]) for o in chosen}) == 1:
            placed = _place_by_timepoint(chosen, text, tokens, lo, hi)
            if placed:
                consumed |= set(positions)
                for outcome, pos in placed:
                    tok = tokens[pos]
                    out.append(Mention(outcome, (pos,), Span(tok.start, tok.end, tok.text), full))
                continue
        if len(chosen) > 1:
            chosen = _by_timepoint(chosen, written) or _by_numbers(chosen, written) or chosen
        consumed |= set(positions)
        start, end = tokens[positions[0]].start, tokens[positions[-1]].end
        for outcome in chosen:
            out.append(Mention(outcome, tuple(positions), Span(start, end, text[start:end]),
                               full))
    unique: dict[tuple[str, tuple[int, ...]], Mention] = {}
    for mention in out:
        unique.setdefault((mention.outcome.key, mention.positions), mention)
    return list(unique.values())


_UNIT_WORDS = {"m": ("month", "mo"), "y": ("year", "yr", "y"), "w": ("week", "wk"),
               "d": ("day", "d")}


def _place_by_timepoint(outcomes: list[Outcome], text: str, tokens: Sequence[Token], lo: int,
                        hi: int) -> list[tuple[Outcome, int]]:
    """Each same-named outcome at its own timepoint phrase ("at three months") in the sentence."""
    if hi <= lo:
        return []
    offset = tokens[lo].start
    written = numbers_in(text[offset:tokens[hi - 1].end])
    placed: list[tuple[Outcome, int]] = []
    for outcome in outcomes:
        values = timepoint_numbers(outcome.timepoint)
        unit = re.sub(r"[\d.\s]", "", outcome.timepoint or "").lower()[:1]
        if not values or unit not in _UNIT_WORDS:
            continue
        for number in written:
            after = text[offset + number.span.end: offset + number.span.end + 8].lower()
            unit_ok = re.match(r"[\s-]*(" + "|".join(_UNIT_WORDS[unit]) + ")", after)
            if number.value == values[0] and unit_ok:
                pos = next((i for i in range(lo, hi)
                            if tokens[i].start >= offset + number.span.start), None)
                if pos is not None:
                    placed.append((outcome, pos))
    return placed


def _by_timepoint(outcomes: list[Outcome], written: Sequence[object]) -> list[Outcome]:
    values = {getattr(n, "value", None) for n in written}
    return [o for o in outcomes if timepoint_numbers(o.timepoint)
            and timepoint_numbers(o.timepoint)[0] in values]


def _by_numbers(outcomes: list[Outcome], written: Sequence[object]) -> list[Outcome]:
    """The outcomes whose own estimate is written in the sentence."""
    chosen = []
    for outcome in outcomes:
        effect = outcome.effect
        if effect is None:
            continue
        for number in written:
            value, decimals = getattr(number, "value", 0.0), getattr(number, "decimals", 0)
            if decimals >= 1 and (matches(value, decimals, effect.value)
                                  or matches(abs(value), decimals, abs(effect.value))):
                chosen.append(outcome)
                break
    return chosen


def _alias_words(text: str | None) -> tuple[list[str], list[str]]:
    """Content words of a group description and of its parenthesized abbreviations."""
    if not text:
        return [], []
    # Only abbreviations count from parentheses ("(CUD)", "(ARBs)"), not qualifiers.
    inner = " ".join(x for x in re.findall(r"\(([^)]*)\)", text)
                     if re.fullmatch(r"[A-Z][A-Za-z0-9\-]{0,9}?[A-Z0-9]s?", x.strip()))
    outer = re.sub(r"\([^)]*\)", " ", text)
    # A parenthesis that restates the group in three or more content words ("(self-monitoring
    # of blood glucose only)") names it as well; a short qualifier ("(self-reported)") does not.
    for inside in re.findall(r"\(([^)]*)\)", text):
        if len([w for w in normalize_phrase(inside) if w not in _STOP_STEMS]) >= 3:
            outer += " " + inside
    words = [w for w in normalize_phrase(outer) if w not in _STOP_STEMS or w in NEGATIONS]
    abbrev = [w for w in normalize_phrase(inner) if w not in _STOP_STEMS]
    return words, abbrev


def _verbatim(study: Study, text: str, tokens: Sequence[Token]) -> dict[int, str]:
    """Token labels from group descriptions written out verbatim, longest first."""
    phrases: list[tuple[str, str]] = []
    for group in ("intervention", "control"):
        raw = (study.picot.get(group) or "").strip().rstrip(".")
        for phrase in {raw, re.sub(r"\s*\([^)]*\)", "", raw).strip()}:
            if len(phrase) >= 4:
                phrases.append((phrase, group))
    labels: dict[int, str] = {}
    for phrase, group in sorted(phrases, key=lambda p: -len(p[0])):
        for match in re.finditer(re.escape(phrase), text, re.IGNORECASE):
            inside = [i for i, t in enumerate(tokens)
                      if match.start() <= t.start < match.end() and i not in labels]
            if len(inside) == len([t for t in tokens if match.start() <= t.start < match.end()]):
                negated = _NEGATED_BEFORE.search(text[max(0, match.start() - 12):match.start()])
                label = "control" if group == "intervention" and negated else group
                for i in inside:
                    labels[i] = label
    return labels


def find_group_refs(study: Study, text: str, tokens: Sequence[Token], excluded: set[int]
                    ) -> list[GroupRef]:
    """References to either group, outside outcome names; none for a case series.

    A reference is a run of words from the group descriptions ("no CGM initiation
    (self-monitoring of blood glucose only)"); a run with a word only the control description
    has is the control, one with a word only the intervention has is the intervention, and a
    run of shared words is the intervention unless negated ("non-users", "without CUD").
    """
    if study.design == "case_series":
        return []
    i_words, i_abbr = _alias_words(study.picot.get("intervention"))
    c_words, c_abbr = _alias_words(study.picot.get("control"))
    i_all = [w for w in i_words + i_abbr if w not in _GROUP_GENERIC]
    c_all = [w for w in c_words + c_abbr if w not in _GROUP_GENERIC]
    control_negates = any(w in NEGATIONS for w in c_all)
    i_only = [w for w in i_all if w not in NEGATIONS and not any(same_word(w, c) for c in c_all)]
    c_only = [w for w in c_all if w not in NEGATIONS and not any(same_word(w, i) for i in i_all)]
    shared = [w for w in i_all if w not in i_only and w not in NEGATIONS]
    verbatim = _verbatim(study, text, tokens)
    labels: list[str | None] = []
    for pos in range(len(tokens)):
        if pos in verbatim:
            labels.append(verbatim[pos])
        else:
            labels.append(None if pos in excluded else
                          _classify(tokens, pos, i_only, c_only, shared, control_negates))
    refs: list[GroupRef] = []
    pos = 0
    while pos < len(tokens):
        if labels[pos] is None:
            pos += 1
            continue
        run = [pos]
        nxt = pos + 1
        while _specific(labels[run[-1]]) and nxt < len(tokens):
            if _conflict(labels, run, nxt):
                break
            if _specific(labels[nxt]):
                run.append(nxt)
                nxt += 1
            elif _glue(tokens, nxt) and _specific(labels[nxt + 1] if nxt + 1 < len(labels)
                                                   else None):
                nxt += 1
            elif _glue(tokens, nxt) and _glue(tokens, nxt + 1) and \
                    _specific(labels[nxt + 2] if nxt + 2 < len(labels) else None):
                nxt += 2
            else:
                break
        found = {labels[p] for p in run}
        group: Group
        if any(p in verbatim for p in run):
            group = "control" if verbatim.get(run[0], verbatim.get(run[-1])) == "control" \
                else "intervention"
        elif "control" in found or "negated" in found:
            group = "control"
        elif "intervention" in found or "shared" in found:
            group = "intervention"
        else:
            group = "control" if "generic-control" in found else "intervention"
        comparison = any(tokens[p].norm in _COMPARISON_WORDS
                         for p in range(max(0, run[0] - 3), run[0]))
        refs.append(GroupRef(group, run[0], comparison, run[-1]))
        pos = run[-1] + 1
    return refs


def _conflict(labels: Sequence[str | None], run: list[int], nxt: int) -> bool:
    """The next labelled word names the other group outright ("X with Y")."""
    ahead = next((labels[p] for p in range(nxt, min(len(labels), nxt + 3))
                  if _specific(labels[p])), None)
    definite = {labels[p] for p in run} & {"intervention", "control"}
    return ahead in ("intervention", "control") and bool(definite) and ahead not in definite


def _glue(tokens: Sequence[Token], pos: int) -> bool:
    return pos < len(tokens) and (tokens[pos].norm in _RUN_GLUE or tokens[pos].norm in _STOP_STEMS
                                  or tokens[pos].norm in _GROUP_GENERIC)


def _specific(label: str | None) -> bool:
    return label is not None and not label.startswith("generic")


def _classify(tokens: Sequence[Token], pos: int, i_only: list[str], c_only: list[str],
              shared: list[str], control_negates: bool) -> str | None:
    """The label of one word: control, intervention, shared, negated, generic-* or None."""
    norm = tokens[pos].norm
    if norm in _GENERIC_REFS:
        nxt = tokens[pos + 1].norm if pos + 1 < len(tokens) else ""
        prev = tokens[pos - 1].norm if pos else ""
        if nxt in _GROUP_NOUNS or prev in {"the", "vs", "versus", "than", "to", "with", "and"}:
            return "generic-" + _GENERIC_REFS[norm]
        return None
    if norm in NEGATIONS:
        # "no CGM", "non-users", "without CUD": the control group when it is the negation.
        ahead = {tokens[p].norm for p in range(pos + 1, min(len(tokens), pos + 3))}
        if control_negates and any(same_word(n, w) for n in ahead for w in shared + i_only):
            return "negated"
        if (norm.startswith("non") and len(norm) > 4) or ahead & (_NON_USERS | _NEGATABLE):
            return "negated"
        return None
    if len(norm) < 2 or norm[0].isdigit():
        return None
    if any(same_word(norm, w) for w in c_only):
        return "control"
    if any(same_word(norm, w) for w in i_only):
        return "intervention"
    if any(same_word(norm, w) for w in shared):
        return "shared"
    return None
