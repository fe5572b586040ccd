"""The words that name each group of a study: its description's own words, the words both
groups share, the abbreviations, initials and bracketed short names it gives ("(Ligasure)"),
its labels ("Group H"), and the words its control negates ("no intervention")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pytest_rwe.rules import lexicon
from pytest_rwe.rules.abbreviations import acronym
from pytest_rwe.rules.lexicon import words
from pytest_rwe.rules.text import NEGATIONS, STOPWORDS, Token, normalize_phrase, same_word, stem
from pytest_rwe.study import Study

Group = Literal["intervention", "control", "unknown"]
STOP_STEMS = frozenset(stem(w) for w in STOPWORDS) | STOPWORDS
GROUP_GENERIC = frozenset(stem(w) for w in (
    ["patients", "participants", "subjects", "adults", "people", "individuals", "users", "use",
     "therapy", "treatment", "drug", "drugs", "medication", "group", "only", "alone", "same",
     "separate", "start", "starting", "initiation", "new", "monotherapy", "during", "baseline",
     "before", "after", "continue", "continued", "continuing", "continuous", "daily", "dose",
     "doses", "mg", "kg", "ml", "received", "receiving", "given", "standard", "usual", "care",
     "plus", "combined", "combination", "oral", "intravenous", "administration", "day", "days",
     "week", "weeks", "month", "months", "h", "min", "once", "twice", "regimen", "arm", "arms",
     "groups", "cohort", "subjects", "participant", "patient", "persons", "person"]))
GENERIC_NOUNS = frozenset(stem(w) for w in lexicon.GROUP_NOUNS)
NON_USERS = frozenset(stem(w) for w in ["users", "user", "initiators", "exposed", "treated"])
NEGATED_BEFORE = re.compile(r"\b(?:no|not|non|without|never)[\s-]*$", re.IGNORECASE)
NEGATABLE = frozenset(stem(w) for w in [
    "start", "starting", "initiation", "initiators", "initiating", "user", "users", "use",
    "using", "treatment", "treated", "receive", "receiving", "exposed", "taking", "take"])
_LABEL_IN_TEXT = re.compile(
    r"\b(?:group|arm|cohort)\s+([A-Z]{1,2}|[0-9]{1,2}|I{1,3}V?|IV)\b(?![.,]\d)"
    r"|\b((?-i:[A-Z]{1,2})|[0-9]{1,2})\s+(?:group|arm)\b|^\s*([A-Z])\s*[-:\u2013]\s", re.IGNORECASE)


def _alias_words(text: str | None, population: str = "") -> tuple[list[str], list[str]]:
    """Content words of a group description and of its parenthesized abbreviations."""
    if not text:
        return [], []
    # "(SLED-BD)", "(ModHT group)": an abbreviation, with a group noun after it or not
    inner = " ".join(_GROUP_AFTER.sub("", x.strip()) for x in re.findall(r"\(([^)]*)\)", text)
                     if re.fullmatch(r"[A-Z][A-Za-z0-9\-+/]{0,11}?[A-Z0-9]s?|[A-Z][a-z]+ \d{1,2}",
                                     _GROUP_AFTER.sub("", x.strip())))
    # "SLED" for "(SLED-BD)": the first part of a hyphenated abbreviation names it too
    inner += " " + " ".join(m.group(1) for m in re.finditer(r"\b([A-Z][A-Za-z]{1,6}[A-Z])-[A-Z]",
                                                            inner))
    # "LC" for "(CO2-LC)", "RF" for "(TC-RF)": so does its last part, when in capitals
    inner += " " + " ".join(m.group(1) for m in _LAST_PART.finditer(inner))
    outer = _QUALIFIERS.sub(" ", re.sub(r"\([^)]*\)", " ", text))
    # A parenthesis that restates the group in three or more content words ("(self-monitoring
    # of blood glucose only)") names it as well; a short qualifier ("(self-reported)") does not.
    # A bracket of people described in the population's own words ("(propensity-matched
    # hospitalised patients ...)") describes both groups, not this one; one that says what
    # the group does ("(self-monitoring of blood glucose only)") still names it.
    # "(Ligasure)", "(GnRH antagonist)": a bracket of one or two plain words, the first
    # capitalized, is the group's short name ("(reference)", "(self-reported)" qualify it);
    # a gradable word in it ("(Low dose)") would name the group in any claim. It is kept out
    # of the description's initials.
    shared = set(normalize_phrase(population))
    short = ""
    for inside in re.findall(r"\(([^)]*)\)", text):
        own = [w for w in normalize_phrase(inside) if w not in STOP_STEMS]
        people = any(w.lower() in lexicon.GROUP_NOUNS for w in re.findall(r"[A-Za-z]+", inside))
        if len(own) >= 3 and not (people and len([w for w in own if w not in shared]) < 3):
            outer += " " + inside
        elif _SHORT_NAME.fullmatch(inside.strip()) and not _QUALIFIERS.search(inside) and \
                not any(w.lower() in _GRADABLE for w in inside.split()):
            short += " " + inside
    words = [w for w in normalize_phrase(outer + " " + short)
             if w not in STOP_STEMS or w in NEGATIONS]
    abbrev = [w for w in normalize_phrase(inner) if w not in STOP_STEMS]
    initials = acronym(outer)
    if len(initials) >= 3 and len(initials) <= 6:
        abbrev.append(initials)
    return words, abbrev


# how and over what window a condition was ascertained ("Self-reported sleep apnea in the
# past year"): they qualify the group's name, and a summary uses them of anything ("to
# report depression in the past year"), so they do not name the group
_QUALIFIERS = re.compile(r"\bself-?reported\b|\bin\s+the\s+(?:past|last|previous)\s+"
                         r"(?:\d+\s+|twelve\s+)?(?:years?|months?|weeks?)\b", re.IGNORECASE)
_LAST_PART = re.compile(r"\b[A-Z][A-Za-z0-9]{0,5}-([A-Z]{2,6})\b")
_SHORT_NAME = re.compile(r"[A-Z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*)?")
_GRADABLE = lexicon.UP | lexicon.DOWN | lexicon.VALENCE | words(
    "low high short long small large little big many few early late good bad")
_NON_ABBREVIATION = re.compile(r"\(\s*non-?\s*([A-Z][A-Za-z0-9]*[A-Z0-9])\s*\)")
_GROUP_AFTER = re.compile(r"\s+(?:group|arm|cohort)$", re.IGNORECASE)


def _inner_words(text: str | None) -> list[str]:
    """Content words inside a description's parentheses ("filtration surgery (tube)")."""
    inside = " ".join(re.findall(r"\(([^)]*)\)", text or ""))
    return [w for w in normalize_phrase(inside) if w not in STOP_STEMS and w not in NEGATIONS]


def _capital_initials(text: str | None) -> str:
    """The two initials of a two-word description ("multiple sclerosis" -> "ms"), which
    name the group only when written in capitals ("people with MS")."""
    initials = acronym(re.sub(r"\([^)]*\)", " ", text or ""))
    return initials if len(initials) == 2 else ""


def _negated_words(text: str | None) -> set[str]:
    """Words a description negates ("no intervention", "without supplement"): they name the
    control only when negated again in the summary; alone they name the other side."""
    words = normalize_phrase(re.sub(r"\([^)]*\)", " ", text or ""))
    out: set[str] = set()
    for i, word in enumerate(words):
        if word in NEGATIONS:
            out |= {w for w in words[i + 1:i + 3] if w not in STOP_STEMS and w not in NEGATIONS}
        elif word in _NAIVE and i:  # "ART-naive": never given ART, so "ART" alone is not it
            out |= {w for w in words[max(0, i - 1):i] if w not in STOP_STEMS}
    return out


_NAIVE = frozenset(["naiv", "na\u00efv"])


def naive_of(tokens: Sequence[Token], pos: int, vocab: Vocabulary) -> bool:
    """The "ART" of "ART-naive" when the control is described so: part of the control's
    name there, though "ART" alone names the other side."""
    return pos + 2 < len(tokens) and tokens[pos + 1].text == "-" and \
        tokens[pos + 2].norm in _NAIVE and tokens[pos].norm in vocab.negated


_ANTONYM_PREFIXES = ("in", "un", "im", "ir", "il", "dis", "non")


def negated_form(tokens: Sequence[Token], pos: int, vocab: Vocabulary) -> bool:
    """A word the control's description negates, written so that it names the control:
    "food-sufficient" for "no food insufficiency" (the word without its negative prefix),
    or "non-dihydropyridine calcium channel blocker" (the control's negated words written
    after the same negation, one after another)."""
    if not vocab.negated or not vocab.control_negates:
        return False
    norm = tokens[pos].norm
    # beside another negated word ("food-sufficient") or before people ("secure
    # adults"): not any word that happens to follow a prefix ("ability", "disability")
    beside = (pos >= 2 and tokens[pos - 1].text == "-" and tokens[pos - 2].norm in
              vocab.negated) or (pos + 1 < len(tokens) and tokens[pos + 1].text.lower() in
                                 lexicon.GROUP_NOUNS)
    if beside and len(norm) >= 4 and norm.isalpha() and any(
            same_word(prefix + norm, w) for prefix in _ANTONYM_PREFIXES for w in vocab.negated):
        return True
    if norm not in vocab.negated:
        return False
    back = pos - 1
    while back >= 0 and (tokens[back].text == "-" or tokens[back].norm in vocab.negated):
        back -= 1
    return back >= 0 and back < pos - 1 and tokens[back].norm in ("non", "no", "without")


def labels_of(text: str | None) -> set[str]:
    """Group labels a description gives: "Group H (n = 20) ..." -> {"h"}."""
    found: set[str] = set()
    for match in _LABEL_IN_TEXT.finditer(text or ""):
        label = next(g for g in match.groups() if g)
        found.add(label.lower())
    return found


def verbatim_labels(study: Study, text: str, tokens: Sequence[Token]) -> dict[int, str]:
    """Token labels from group descriptions written out verbatim, longest first."""
    phrases: list[tuple[str, str]] = []
    for group in ("intervention", "control"):
        raw = (study.picot.get(group) or "").strip().rstrip(".")
        for phrase in {raw, re.sub(r"\s*\([^)]*\)", "", raw).strip()}:
            if len(phrase) >= 4:
                phrases.append((phrase, group))
    starts = [t.start for t in tokens]
    labels: dict[int, str] = {}
    for phrase, group in sorted(phrases, key=lambda p: -len(p[0])):
        for match in re.finditer(r"(?<!\w)" + re.escape(phrase) + r"(?:[a-z]{1,2})?(?!\w)", text,
                                 re.IGNORECASE):
            inside = [i for i in _token_range(starts, match.start(), match.end())
                      if i not in labels]
            if len(inside) == len(_token_range(starts, match.start(), match.end())):
                negated = NEGATED_BEFORE.search(text[max(0, match.start() - 12):match.start()])
                label = "control" if group == "intervention" and negated else group
                for i in inside:
                    labels[i] = label
    return labels


def _token_range(starts: list[int], lo: int, hi: int) -> list[int]:
    import bisect

    return list(range(bisect.bisect_left(starts, lo), bisect.bisect_left(starts, hi)))


@dataclass(frozen=True)
class Vocabulary:
    i_only: list[str]
    c_only: list[str]
    shared: list[str]
    control_negates: bool
    labels: dict[str, str]
    shared_side: Group = "intervention"
    capitals: tuple[str, str] = ("", "")  # two-letter initials of (intervention, control)
    negated: tuple[str, ...] = ()  # words the control's description negates
    i_words: frozenset[str] = frozenset()  # every word of the intervention's description
    i_negated: tuple[str, ...] = ()  # words the intervention's own description negates
    c_words: frozenset[str] = frozenset()  # every word of the control's description


def vocabulary(study: Study) -> Vocabulary:
    population = study.picot.get("population") or ""
    i_words, i_abbr = _alias_words(study.picot.get("intervention"), population)
    c_words, c_abbr = _alias_words(study.picot.get("control"), population)
    # "No high thrombotic risk feature (non-HTR)": the control named "non-" an abbreviation,
    # which alone names the intervention ("the HTR group")
    i_abbr = i_abbr + [m.group(1).lower() for m in _NON_ABBREVIATION.finditer(
        study.picot.get("control") or "")]
    if i_words and sorted(set(i_words)) == sorted(set(c_words)):
        # "filtration surgery (trabeculectomy)" vs "filtration surgery (tube)": the words
        # outside the parentheses are the same, so the parentheses name the groups
        i_abbr = i_abbr + _inner_words(study.picot.get("intervention"))
        c_abbr = c_abbr + _inner_words(study.picot.get("control"))
    # a description made only of common words ("standard care") is named by them
    i_all = [w for w in i_words + i_abbr if w not in GROUP_GENERIC] or [
        w for w in i_words if w not in NEGATIONS]
    c_all = [w for w in c_words + c_abbr if w not in GROUP_GENERIC] or [
        w for w in c_words if w not in NEGATIONS]
    control_negates = any(w in NEGATIONS for w in c_all)
    # a word of both descriptions names neither alone, even a common word one of them is
    # named by ("the aprepitant triple regimen" against "the standard regimen")
    i_only = [w for w in i_all if w not in NEGATIONS
              and not any(same_word(w, c) for c in c_all + c_words)]
    negated = _negated_words(study.picot.get("control"))
    # a role word of the other side ("standard intervention" as the control, "placebo
    # plus X" as the intervention) names that other side when it stands alone
    c_only = [w for w in c_all if w not in NEGATIONS
              and not any(same_word(w, i) for i in i_all + i_words)
              and w not in negated and w not in _INTERVENTION_ROLE_STEMS]
    i_only = [w for w in i_only if w not in _CONTROL_ROLE_STEMS]
    # "HYBRID vs FTP" with "combined FTP and power training" vs "functional task practice
    # (FTP)": a shared word that is the control's own abbreviation names the control
    shared = [w for w in i_all if w not in i_only and w not in NEGATIONS
              and not (w in c_abbr and w not in i_abbr)]
    c_only += [w for w in i_all if w in c_abbr and w not in i_abbr and w not in c_only]
    # "DH" vs "DH + TO": a word both share names the group whose name is only that word
    shared_side: Group = "control" if not c_only and i_only and not control_negates \
        else "intervention"
    i_labels, c_labels = labels_of(study.picot.get("intervention")), labels_of(
        study.picot.get("control"))
    labels = {lab: "intervention" for lab in i_labels - c_labels}
    labels.update({lab: "control" for lab in c_labels - i_labels})
    if not labels:
        labels = _initial_letters(study.picot.get("intervention"), study.picot.get("control"))
        labels.update(_role_letters(study.picot.get("control")))
    capitals = (_capital_initials(study.picot.get("intervention")),
                _capital_initials(study.picot.get("control")))
    if capitals[0] == capitals[1]:
        capitals = ("", "")
    return Vocabulary(i_only, c_only, shared, control_negates, labels, shared_side, capitals,
                       tuple(sorted(negated)), frozenset(i_words + i_abbr),
                       tuple(sorted(_negated_words(study.picot.get("intervention")))),
                       frozenset(c_words + c_abbr))




def _initial_letters(intervention: str | None, control: str | None) -> dict[str, str]:
    """"group D" and "group P" for "dexmedetomidine" vs "propofol": a letter that begins a
    word of one description only. A and B (an order) and Roman numerals are left out."""
    def initials(text: str | None) -> set[str]:
        return {w[0].lower() for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}", text or "")
                if w.lower() not in STOPWORDS and w.lower() not in GROUP_GENERIC}
    i_initials, c_initials = initials(intervention), initials(control)
    out = {}
    for letter in "cdefghjklmnopqrstuwyz":
        if (letter in i_initials) != (letter in c_initials):
            out[letter] = "intervention" if letter in i_initials else "control"
    return out


def _role_letters(control: str | None) -> dict[str, str]:
    """"group C" and "group I" for a control described as "control", "group P" for
    placebo: the initials of the roles, when no description labels its group."""
    found = {w.lower() for w in re.findall(r"[A-Za-z]+", control or "")}
    if "control" in found:
        return {"c": "control", "i": "intervention"}
    if "placebo" in found:
        return {"p": "control"}
    return {}


_INTERVENTION_ROLE_STEMS = frozenset(stem(w) for w in lexicon.INTERVENTION_ROLES)
_CONTROL_ROLE_STEMS = frozenset(stem(w) for w in lexicon.CONTROL_ROLES)
