"""Where a summary refers to the intervention or the control group, and in which role.

A group is named by the words of its description ("no CGM initiation (self-monitoring of
blood glucose only)"), an abbreviation the description gives or the initials of its words
("high-flow nasal cannula" ~ "HFNC"), a label ("Group N", "arm B"), or its role ("the
intervention group", "placebo", "controls"). A phrase that names a group the study does not
have ("the tube group") is kept as an *unknown* reference, so a claim about it is not read as
one about the intervention. Each reference records whether it is the compared-against side
("than ...", "compared with ...", "versus ...") or one of both ("between A and B").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.group_position import comparison_word, position
from pytest_rwe.rules.group_words import (
    GROUP_GENERIC,
    NEGATABLE,
    NON_USERS,
    STOP_STEMS,
    Group,
    Vocabulary,
    labels_of,
    naive_of,
    negated_form,
    verbatim_labels,
    vocabulary,
)
from pytest_rwe.rules.head_nouns import head_noun
from pytest_rwe.rules.text import NEGATIONS, Token, same_word
from pytest_rwe.rules.word_labels import (
    alone_after,
    group_suffix_label,
    hyphen_label,
    kin_named,
    names_word,
    p_bound,
    paired_names,
    role_label,
    unknown_group,
)
from pytest_rwe.study import Study

__all__ = ["Group", "GroupRef", "describes_group", "find_group_refs", "labels_of"]
_RUN_GLUE = frozenset({"of", "(", ")", "-", "with", "and", "or", "plus", "on", "for", "+", "&",
                       "/"})
@dataclass(frozen=True)
class GroupRef:
    """A reference to a group: which one, where, and whether it is the compared-against side."""

    group: Group
    position: int  # token index of the first word
    comparison: bool  # inside "than ...", "compared with ...", "versus ..."
    end: int = -1  # token index of the last word
    between: bool = False  # "between A and B": both sides at once
    via: str = "name"  # name, role, label or unknown
    verbatim: bool = False  # the group's description written out ("telephone consultation")

    @property
    def last(self) -> int:
        """The token index of the reference's last word (``end`` is -1 for one word)."""
        return max(self.end, self.position)


def find_group_refs(study: Study, text: str, tokens: Sequence[Token], excluded: set[int]
                    ) -> list[GroupRef]:
    """References to either group, outside outcome names; none for a case series."""
    if study.design == "case_series":
        return []
    vocab = vocabulary(study)
    verbatim = verbatim_labels(study, text, tokens)
    labels: list[str | None] = []
    for pos in range(len(tokens)):
        if pos in verbatim:
            labels.append(verbatim[pos])
        elif pos in excluded:
            labels.append(None)
        else:
            labels.append(_label_of(tokens, pos, vocab))
    _combinations(tokens, labels, vocab)
    refs: list[GroupRef] = []
    pos = 0
    while pos < len(tokens):
        if labels[pos] is None:
            pos += 1
            continue
        run = _run(tokens, labels, pos)
        refs.append(_ref(tokens, labels, run, verbatim, vocab.shared_side))
        pos = run[-1] + 1
    return _compared_lists(tokens, _adjacent(tokens, refs))


_COMBINE = frozenset({"and", "+", "plus", "with", "&", "/"})


def _combinations(tokens: Sequence[Token], labels: list[str | None], vocab: Vocabulary) -> None:
    """"5% KNO3 and diode laser" with the intervention "KNO3 and the diode laser" against the
    control "KNO3": the control's word joined to an intervention word is the combination."""
    for pos in range(len(tokens) - 2):
        if labels[pos] not in ("control", "shared") or tokens[pos + 1].text.lower() not in \
                _COMBINE:
            continue
        nxt = pos + 2 if labels[pos + 2] is not None or pos + 3 >= len(tokens) else pos + 3
        if labels[nxt] == "intervention" and tokens[pos].norm in vocab.i_words:
            labels[pos] = "intervention"


def _adjacent(tokens: Sequence[Token], refs: list[GroupRef]) -> list[GroupRef]:
    """"the SCP care arm" against "usual care": a name followed at once by a common word of
    the other group's description ("care", "therapy") is one reference, the name's."""
    out: list[GroupRef] = []
    for ref in refs:
        if out and out[-1].group != ref.group and kin_named(tokens, out[-1].last, ref.position):
            out.pop()  # "healthy siblings of children with X": the kin of X's group
        last = out[-1] if out else None
        if last is not None and last.via in ("name", "label") and ref.position == last.last + 1 \
                and ref.group != last.group and (all(
                tokens[p].norm in GROUP_GENERIC or tokens[p].text.lower() in lexicon.GROUP_NOUNS
                for p in range(ref.position, ref.last + 1)) or head_noun(
                tokens, last.via, ref.position, ref.last, ref.via)):
            out[-1] = replace(last, end=ref.last)
            continue
        out.append(ref)
    return out


def _compared_lists(tokens: Sequence[Token], refs: list[GroupRef]) -> list[GroupRef]:
    """"less satisfied than MIC (M = 73.3) and NPC (M = 75.2)": a group listed after a
    compared-against group is compared against too."""
    out = list(refs)
    for i in range(1, len(out)):
        before = out[i - 1]
        if not before.comparison or out[i].comparison:
            continue
        depth, plain, joined = 0, True, False
        for pos in range(before.last + 1, out[i].position):
            text = tokens[pos].text.lower()
            if text in "([":
                depth += 1
            elif text in ")]":
                depth = max(0, depth - 1)
            elif not depth and text in ("and", "or"):
                joined = True
            elif not depth and text not in (",", "the", "in", "to", "with") and \
                    not tokens[pos].is_number:
                plain = False
                break
        if plain and joined:  # a list ("than A and B"), not the clause after "compared with A,"
            out[i] = replace(out[i], comparison=True)
    return out


def _run(tokens: Sequence[Token], labels: list[str | None], pos: int) -> list[int]:
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
    # "the reduced-dose group": a hyphen and a common word of the description belong to it
    end = run[-1]
    if end + 3 < len(tokens) and tokens[end + 1].text == "-" and \
            tokens[end + 2].norm in GROUP_GENERIC and labels[end + 2] in (None, "unknown") \
            and tokens[end + 3].text.lower() in lexicon.GROUP_NOUNS:
        run += [end + 1, end + 2]
        for p in (end + 2, end + 3):
            labels[p] = None
    # "the urodynamic testing group": a word between a name and its group noun is the name's
    end = run[-1]
    if _specific(labels[end]) and end + 2 < len(tokens) and labels[end + 1] == "unknown" and \
            tokens[end + 2].text.lower() in ("group", "arm", "groups", "arms"):
        run.append(end + 1)
        labels[end + 1] = None
    # "cefixime-treated patients": a participle of treatment after a hyphen belongs to it
    end = run[-1]
    if end + 2 < len(tokens) and tokens[end + 1].text == "-" and \
            tokens[end + 1].start == tokens[end].end and tokens[end + 2].norm in NON_USERS:
        run += [end + 1, end + 2]
        labels[end + 2] = None
    # "the placebo group", "Drug A users": the group noun right after belongs to the reference
    if run[-1] + 1 < len(tokens) and tokens[run[-1] + 1].text.lower() in lexicon.GROUP_NOUNS:
        run.append(run[-1] + 1)
    return run


def _ref(tokens: Sequence[Token], labels: list[str | None], run: list[int],
         verbatim: dict[int, str], shared_side: Group) -> GroupRef:
    found = {labels[p] for p in run if labels[p] is not None}
    group: Group
    via = "name"
    if any(p in verbatim for p in run):
        group = "control" if verbatim.get(run[0], verbatim.get(run[-1])) == "control" \
            else "intervention"
    elif "control" in found or "negated" in found or "label-control" in found:
        group = "control"
    elif "intervention" in found or "label-intervention" in found:
        group = "intervention"
    elif "shared" in found:
        group, via = shared_side, "shared"
        if alone_after(tokens, run):
            group = "control"  # "fentanyl administered alone" against "fentanyl with X"
    elif "role-control" in found or "role-intervention" in found:
        group = "control" if "role-control" in found else "intervention"
        via = "role"
    elif "unknown" in found:
        group, via = "unknown", "unknown"
    else:
        group = "control" if "generic-control" in found else "intervention"
        via = "role"
    if any(str(labels[p]).startswith("label-") for p in run):
        via = "label"
    comparison, between = position(tokens, run[0])
    return GroupRef(group, run[0], comparison, run[-1], between, via,
                    all(p in verbatim for p in run))


_CUE_WORDS = lexicon.UP | lexicon.DOWN | lexicon.VALENCE


def _compound(tokens: Sequence[Token], pos: int) -> bool:
    """A word joined by a hyphen to the next ("reduced-dose", "high-intensity"): part of a
    name, not a claim, when the group's description has it."""
    return pos + 2 < len(tokens) and tokens[pos + 1].text == "-" and \
        tokens[pos + 1].start == tokens[pos].end and tokens[pos + 2].start == tokens[pos + 1].end


def _side(label: str | None) -> str | None:
    """The group a word label names outright: "label-control" and "control" are the control."""
    if label is None:
        return None
    bare = label.removeprefix("label-")
    return bare if bare in ("intervention", "control") else None


def _conflict(labels: Sequence[str | None], run: list[int], nxt: int) -> bool:
    """The next labelled word names the other group outright ("X with Y"); not after a
    negation, which takes the word it negates ("persons without MS")."""
    if labels[run[-1]] == "negated":
        return False
    ahead = next((_side(labels[p]) for p in range(nxt, min(len(labels), nxt + 3))
                  if _specific(labels[p])), None)
    definite = {_side(labels[p]) for p in run} - {None}
    return ahead is not None and bool(definite) and ahead not in definite


def _glue(tokens: Sequence[Token], pos: int) -> bool:
    if pos >= len(tokens) or comparison_word(tokens, pos):
        return False  # "A than B" is two references, never one
    return (tokens[pos].norm in _RUN_GLUE or tokens[pos].norm in STOP_STEMS
            or tokens[pos].norm in GROUP_GENERIC)


def _specific(label: str | None) -> bool:
    return label is not None and not label.startswith("generic") and not label.startswith(
        "role") and label != "unknown"


def _label_of(tokens: Sequence[Token], pos: int, vocab: Vocabulary) -> str | None:
    """The label of one word: control, intervention, shared, negated, label-*, role-*,
    generic-*, unknown or None."""
    token = tokens[pos]
    norm, word = token.norm, token.text.lower()
    if comparison_word(tokens, pos) or (word in _CUE_WORDS and not _compound(tokens, pos)
                                         and not paired_names(tokens, pos, vocab)):
        return None  # "compared" is not "comparator", "lowering" not a group's word here
    prev = tokens[pos - 1].text.lower() if pos else ""
    nxt = tokens[pos + 1].text.lower() if pos + 1 < len(tokens) else ""
    # "group N", "N group", "arm B"
    if word in ("group", "arm", "cohort") and nxt and (nxt in vocab.labels):
        return "label-" + vocab.labels[nxt]
    if word in ("group", "arm") and pos + 1 < len(tokens) and re.fullmatch(
            r"[A-Z]{1,2}|\d{1,2}|I{1,3}V?|IV", tokens[pos + 1].text):
        return "unknown"  # "group 3" when no group is labelled 3
    if nxt in ("group", "arm") and word in vocab.labels and (token.text.isupper()
                                                              or word.isdigit()):
        return "label-" + vocab.labels[word]
    if prev in ("group", "arm", "cohort") and word in vocab.labels:
        return "label-" + vocab.labels[word]
    if norm in NEGATIONS:
        ahead = {tokens[p].norm for p in range(pos + 1, min(len(tokens), pos + 3))}
        if vocab.control_negates and (any(same_word(n, w) for n in ahead
                                          for w in vocab.shared + vocab.i_only
                                          + list(vocab.negated)) or (
                vocab.capitals[0] and vocab.capitals[0] in ahead)):
            return "negated"
        if (norm.startswith("non") and len(norm) > 4) or ahead & (NON_USERS | NEGATABLE):
            return "negated"
        if norm in ("non", "un") and any(names_word(n, w) for n in ahead for w in vocab.i_only
                                         if w not in vocab.i_negated):
            # "implanted than non-implanted eyes": the other group; but "non-dihydropyridine
            # CCB" names an intervention whose own name is negated
            return "negated"
        return None
    if p_bound(token.text, prev):
        return None
    if naive_of(tokens, pos, vocab):
        return "control"
    if len(norm) < 2 or norm[0].isdigit():
        return None
    if token.text.isupper() and len(token.text) == 2 and word in vocab.capitals:
        return "intervention" if word == vocab.capitals[0] else "control"
    if any(names_word(norm, w) for w in vocab.c_only) or negated_form(tokens, pos, vocab):
        return "control"
    if any(names_word(norm, w) for w in vocab.i_only):
        return "intervention"
    if any(names_word(norm, w) for w in vocab.shared):
        return "shared"
    if word in ("combination", "combined") and vocab.shared_side == "control" and (
            nxt in lexicon.GROUP_NOUNS or prev in ("the", "this", "a")):
        return "role-intervention"  # "the combination" of the control and something more
    hyphenated = hyphen_label(norm, vocab) or group_suffix_label(token.text, vocab)
    if hyphenated is not None:
        return hyphenated
    role = role_label(tokens, pos)
    if role is not None:
        return role
    if nxt in ("group", "arm") and unknown_group(tokens, pos):
        return "unknown"
    return None


def describes_group(study: Study, groups: Sequence[GroupRef], first: int) -> bool:
    """A baseline phrase at token ``first``, right after a group's name, when the study
    defines that group at baseline ("Nodules present at baseline")."""
    defined = " ".join(str(study.picot.get(g) or "") for g in ("intervention",
                                                               "control")).lower()
    return "baseline" in defined and any(g.position <= first <= g.last + 3 for g in groups)
