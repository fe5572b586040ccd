"""Abbreviations of outcome names: those a name gives in brackets, its initials, its
code-like words, compared the way they are written ("SCL-90" ~ "SCL90")."""

from __future__ import annotations

import re

from pytest_rwe.rules.lexicon import words

# Abbreviations of statistics and study words, never of an outcome ("CI" is not "cardiac
# infection").
RESERVED = words("ci hr or rr md sd se iqr ns na itt rct pp bmi ae sae cis hrs ors aor ahr "
                  "irr pvalue vs")
_ACRONYM_STOP = words("of the and in to for with on at by or a an from vs")



def alias_key(word: str) -> str:
    """How an abbreviation is compared: lower case, no hyphens ("SCL-90" ~ "SCL90")."""
    return word.lower().replace("-", "").replace("\u2010", "")


def code_like(word: str) -> bool:
    """"ASAS40", "HbA1c", "IL-6", "CK-MB": a word written like an abbreviation."""
    capitals = sum(c.isupper() for c in word)
    return len(word) >= 2 and (capitals >= 2 or (capitals >= 1 and any(c.isdigit()
                                                                       for c in word)))


def bracketed(name: str) -> list[str]:
    """Abbreviations a name gives in brackets: "(FPG)" -> "FPG", "(VO2 peak)", "[FHA]"."""
    out = []
    for inner in re.findall(r"[(\[]([^()\[\]]{1,20})[)\]]", name):
        inner = inner.strip()
        if re.fullmatch(r"[^\W\d_][\w/\-]*(?:\s[\w/\-]+)?", inner) and (
                sum(c.isupper() for c in inner) >= 2 or (
                any(c.isupper() for c in inner) and any(c.isdigit() for c in inner))):
            out.append(inner)
    return out


def acronym(text: str) -> str:
    """The initials of a phrase's words ("high-flow nasal cannula" -> "hfnc")."""
    words = re.findall(r"[^\W\d_][\w']*", re.sub(r"\([^)]*\)", " ", text))
    return "".join(w[0].lower() for w in words if w.lower() not in _ACRONYM_STOP)


_KEPT_IN_INITIALS = words("of and")


# Greek and Latin combining forms: a word built on one gives an initial to each part
# ("hepato|cellular carcinoma" -> "HCC", "athero|sclerotic cardio|vascular disease" -> "ASCVD")
_COMBINING = re.compile(r"^(hepato|cardio|cerebro|gastro|broncho|neuro|thrombo|cholangio|"
                        r"osteo|musculo|nephro|pneumo|athero|arterio|veno|pancreato)"
                        r"(?=[a-z]{4})", re.IGNORECASE)


def _with_parts(words: list[str]) -> set[str]:
    """The initials of ``words`` with each word on a combining form read whole or in its two
    parts; only those of three letters or more, so two-letter ones stay the plain ones."""
    out = {""}
    for word in words:
        first = word[0].lower()
        match = _COMBINING.match(word)
        second = {first, first + word[match.end()].lower()} if match else {first}
        out = {o + s for o in out for s in second}
    return {o for o in out if len(o) >= 3}


def initialisms(text: str) -> set[str]:
    """The ways a phrase is written by its initials: its content words' ("pregnancy-induced
    hypertension" -> "pih"), with "of" and "and" kept ("quality of life" -> "qol"), and
    with words on a combining form in two parts ("hepatocellular carcinoma" -> "hcc")."""
    words = re.findall(r"[^\W\d_][\w']*", re.sub(r"\([^)]*\)", " ", text))
    kept = "".join(w[0].lower() for w in words
                   if w.lower() not in _ACRONYM_STOP or w.lower() in _KEPT_IN_INITIALS)
    content = [w for w in words if w.lower() not in _ACRONYM_STOP]
    return {acronym(text), kept} | (_with_parts(content) if len(content) > 1 else set())


