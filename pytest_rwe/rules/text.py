"""Text primitives of the rules juror: tokens, sentences, clauses and light stemming (the
numbers written in a text: :mod:`pytest_rwe.rules.number_mentions`).

Everything works on character offsets into the summary, so a finding can quote the exact span.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

# Words, numbers (with thousands separators and decimals) and single symbols.
# A word may carry digits and a hyphenated number ("HbA1c", "IL-2", "COVID-19", "FEV1").
# Capitals joined by hyphens are one abbreviation ("WMFT-FAS", "CXDT-HFG").
_TOKEN_RE = re.compile(
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.\u00b7]\d+)?|\.\d+|[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)+\b"
    r"|[\u03b1-\u03c9\u0391-\u03a9]-[^\W\d_][\w']*"
    r"|[^\W\d_][\w']*(?:-\d+[^\W_]*)*|[^\s\w]|_"
)


@dataclass(frozen=True)
class Token:
    """One token: its normalized form (``norm``), its raw text and character offsets."""

    text: str
    norm: str
    start: int
    end: int

    @property
    def is_number(self) -> bool:
        return self.text[0].isdigit() or (self.text[0] == "." and len(self.text) > 1)


def outside_brackets(tokens: Sequence[Token], start: int, end: int) -> Iterator[int]:
    """The positions from ``start`` to ``end`` outside parentheses and square brackets
    (the brackets themselves left out): the words a scan reads over an estimate's interval."""
    depth = 0
    for pos in range(start, end):
        text = tokens[pos].text
        if text in "([":
            depth += 1
        elif text in ")]":
            depth = max(0, depth - 1)
        elif not depth:
            yield pos


@dataclass(frozen=True)
class Span:
    """A character range of the summary; ``quote`` is its text."""

    start: int
    end: int
    quote: str


# Abbreviations expanded on both sides (outcome names and summaries) before matching.
_EXPANSIONS: dict[str, tuple[str, ...]] = {
    "ip": ("inpatient",), "op": ("outpatient",), "ed": ("emergency", "department"),
    "er": ("emergency", "department"), "mi": ("myocardial", "infarction"),
    "ami": ("acute", "myocardial", "infarction"), "hf": ("heart", "failure"),
    "chf": ("heart", "failure"), "ckd": ("chronic", "kidney", "disease"),
    "esrd": ("end", "stage", "renal", "disease"), "aki": ("acute", "kidney", "injury"),
    "t2d": ("type", "2", "diabetes"), "t2dm": ("type", "2", "diabetes"),
    "t1d": ("type", "1", "diabetes"), "cv": ("cardiovascular",), "cvd": ("cardiovascular",
    "disease"), "gi": ("gastrointestinal",), "tia": ("transient", "ischemic", "attack"),
    "vte": ("venous", "thromboembolism"), "dvt": ("deep", "vein", "thrombosis"),
    "pe": ("pulmonary", "embolism"), "copd": ("chronic", "obstructive", "pulmonary", "disease"),
    "bp": ("blood", "pressure"), "sbp": ("systolic", "blood", "pressure"),
    "dbp": ("diastolic", "blood", "pressure"), "hosp": ("hospitalization",),
    "dx": ("diagnosis",), "pct": ("percent",), "mo": ("month",), "mos": ("month",),
    "yr": ("year",), "yrs": ("year",), "wk": ("week",), "wks": ("week",),
    "afib": ("atrial", "fibrillation"), "af": ("atrial", "fibrillation"),
    "icu": ("intensive", "care", "unit"), "los": ("length", "of", "stay"),
    "ace": ("angiotensin", "converting", "enzyme"), "acei": ("angiotensin", "converting", "enzyme",
    "inhibitor"), "arb": ("angiotensin", "receptor", "blocker"),
    "ccb": ("calcium", "channel", "blocker"), "hctz": ("hydrochlorothiazide",),
    "cud": ("cannabis", "use", "disorder"),
    # trial reports' own abbreviations of common outcomes
    "ponv": ("postoperative", "nausea", "and", "vomiting"), "qol": ("quality", "of", "life"),
    "hrqol": ("health", "related", "quality", "of", "life"), "bmi": ("body", "mass", "index"),
    "pfs": ("progression", "free", "survival"), "dfs": ("disease", "free", "survival"),
}
# Single-word synonyms mapped to one canonical word (after stemming).
_SYNONYMS: dict[str, str] = {
    "mortal": "death", "die": "death", "died": "death", "dead": "death", "fatal": "death",
    "dying": "death",
    "all": "any", "renal": "kidney", "nephr": "kidney", "admiss": "hospital",
    "admit": "hospital", "hospitaliz": "hospital", "hospitalis": "hospital", "inpati": "hospital",
    "infarct": "infarction", "tumor": "cancer", "tumour": "cancer", "malign": "cancer",
    "neoplasm": "cancer", "over": "above", "exceed": "above", "under": "below",
    "above": "above", "below": "below",
    "aged": "age", "old": "age", "women": "female", "woman": "female", "men": "male",
    "man": "male", "ischaem": "ischem", "haemorrhag": "hemorrhag", "oedema": "edema",
    "anaemia": "anemia", "glycated": "hba1c", "hemoglobin": "hba1c", "a1c": "hba1c",
    "thromboembol": "thromboembolism", "venou": "venous", "blocker": "blocker",
    "inhibitor": "inhibitor", "visit": "visit", "encount": "visit", "flare": "flare",
    "alone": "only", "solely": "only", "annual": "year", "annually": "year", "yearly": "year",
    # the adjective of a symptom names it: "less anxious" is less anxiety
    "anxiou": "anxiety", "nauseou": "nausea", "nauseat": "nausea", "painful": "pain",
    "dizzy": "dizzi", "itchy": "itch", "sleepy": "sleepi", "drowsy": "drowsi",
}
_SUFFIXES = ("ically", "ations", "ation", "ities", "ally", "ness", "ity", "ing", "ies", "ied",
             "ers", "ed", "es", "er", "s", "ly", "al", "e")
STOPWORDS = frozenset(
    ["a", "an", "the", "of", "for", "with", "in", "on", "at", "to", "and", "or", "by", "from",
     "after", "before", "during", "among", "between", "per", "as", "is", "was", "were", "be",
     "been", "being", "that", "this", "these", "those", "its", "their", "his", "her", "who",
     "which", "than", "rate", "rates", "risk", "risks", "incidence", "odds", "hazard", "number",
     "proportion", "outcome", "outcomes", "event", "events", "any", "new", "first", "incident",
     "history", "ever", "recent", "total", "overall", "related", "due"]
)
NEGATIONS = frozenset({"no", "not", "non", "without", "never", "neither", "nor", "none", "nonuser",
                       "nonusers", "un"})

# "greater than 9%" is a threshold, not a direction: rewrite it as "above 9%".
_THRESHOLD_RE = re.compile(
    r"\b(?:greater|more|higher|larger)\s+than\s+(?=[<>≤≥]?\s*\d)|>=?|≥", re.IGNORECASE)
_BELOW_RE = re.compile(
    r"\b(?:less|lower|fewer|smaller)\s+than\s+(?=[<>≤≥]?\s*\d)|<=?|≤", re.IGNORECASE)


# British spellings written the American way, so "hypokalaemia" names "hypokalemia" and
# "behavioural" "behavioral" (both sides of a match go through ``stem``)
_BRITISH = (("aem", "em"), ("aes", "es"), ("oed", "ed"), ("oes", "es"), ("oea", "ea"),
            ("paed", "ped"), ("foet", "fet"), ("iour", "ior"), ("isation", "ization"),
            ("ised", "ized"), ("ising", "izing"))


def _american(word: str) -> str:
    if len(word) < 6:
        return word
    for british, american in _BRITISH:
        if british in word:
            word = word.replace(british, american)
    return word


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light suffix-stripping stem, mapped through the synonym table."""
    word = _american(word.lower().replace("'", ""))
    if word in _SYNONYMS:
        return _SYNONYMS[word]
    if word.isdigit() or len(word) <= 3:
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    for key in (word, word[:6], word[:7], word[:8], word[:9], word[:10]):
        if key in _SYNONYMS:
            return _SYNONYMS[key]
    return word


@lru_cache(maxsize=65536)
def same_word(a: str, b: str) -> bool:
    """Stems that are equal or share a long common prefix ("ventilat"/"ventil")."""
    if a == b:
        return True
    if a.isdigit() or b.isdigit() or min(len(a), len(b)) < 5:
        return False
    shorter = min(len(a), len(b))
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(5, int(0.8 * shorter + 0.5))


def _abbreviation(raw: str) -> str:
    """The lower-cased word, with a plural abbreviation made singular ("ARBs" -> "arb")."""
    lowered = raw.lower()
    if lowered not in _EXPANSIONS and lowered.endswith("s") and lowered[:-1] in _EXPANSIONS \
            and raw[:-1].isupper():
        return lowered[:-1]
    return lowered


def normalize_phrase(text: str) -> list[str]:
    """Stemmed, expanded content words of a name or phrase (for matching, not for quoting)."""
    text = _THRESHOLD_RE.sub(" above ", text)
    text = _BELOW_RE.sub(" below ", text)
    out: list[str] = []
    for match in _TOKEN_RE.finditer(text):
        raw = match.group(0)
        if not raw[0].isalnum():
            continue
        if raw[0].isdigit():
            out.append(raw.replace(",", ""))
            continue
        lowered = _abbreviation(raw)
        for part in _EXPANSIONS.get(lowered, (lowered,)):
            out.append(stem(part))
    return out


def tokenize(text: str) -> list[Token]:
    """Tokens of the summary with offsets; abbreviations are expanded into several tokens."""
    tokens: list[Token] = []
    for match in _TOKEN_RE.finditer(text):
        raw = match.group(0)
        lowered = _abbreviation(raw)
        if lowered in _EXPANSIONS and raw[0].isalpha():
            for part in _EXPANSIONS[lowered]:
                tokens.append(Token(raw, stem(part), match.start(), match.end()))
            continue
        if raw[0].isdigit() or raw[0] == ".":
            norm = raw.replace(",", "").replace("\u00b7", ".")  # "0·06": a middle-dot decimal
        elif raw[0].isalpha():
            norm = stem(raw)
        else:
            norm = {">": "above", "≥": "above", "<": "below", "≤": "below"}.get(raw, raw)
        tokens.append(Token(raw, norm, match.start(), match.end()))
    return _mark_thresholds(tokens)


def _mark_thresholds(tokens: list[Token]) -> list[Token]:
    """Rewrite "more than 9" / "less than 7" to the single tokens "above" / "below"."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if (i + 2 < len(tokens) and tokens[i + 1].norm == "than"
                and (tokens[i + 2].is_number or tokens[i + 2].norm in ("above", "below"))):
            word = tok.text.lower()
            if word in ("greater", "more", "higher", "larger"):
                out.append(Token(tok.text + " than", "above", tok.start, tokens[i + 1].end))
                i += 2
                continue
            if word in ("less", "lower", "fewer", "smaller"):
                out.append(Token(tok.text + " than", "below", tok.start, tokens[i + 1].end))
                i += 2
                continue
        out.append(tok)
        i += 1
    return out


# Sentence ends: . ! ? followed by space and a capital/digit/bracket; not after abbreviations.
_SENT_END_RE = re.compile(r"(?<!\bvs)(?<!\bal)(?<!\be\.g)(?<!\bi\.e)(?<!\bapprox)(?<!\bNo)"
                          r"[.!?](?=\s+[\"'(\[A-Z0-9]|\s*$)|(?<=[.:;!?|])\s*\n+|\n+(?=\s*[^a-z\s])"
                          r"|\n{2,}")
# A line break inside a sentence ("... showed a significant decrease\nin pain ...") is a
# wrapped line, not a sentence end; a table row or a new capitalised line is.
# "A, but not B, reduced X" is one claim about A; "where as" is a misspelt "whereas"
_CLAUSE_SPLIT_RE = re.compile(
    r";|,?\s+(?:whereas|where\s+as|while|but(?!\s+not\s+[^,;.]{1,40},)|although|though|"
    r"however|yet)\b|:\s", re.IGNORECASE)


def sentences(text: str) -> list[Span]:
    """Sentence spans of ``text``."""
    spans: list[Span] = []
    start = 0
    for match in _SENT_END_RE.finditer(text):
        end = match.end()
        if text[start:end].strip():
            spans.append(Span(start, end, text[start:end]))
        start = end
    if text[start:].strip():
        spans.append(Span(start, len(text), text[start:]))
    return spans


# "While X, Y" / "Although X, Y": the leading subordinate clause ends at its first comma.
_LEADING_SUBORDINATE = re.compile(r"\s*(?:while|whilst|although|though|whereas|even\s+though|"
                                  r"despite|in\s+contrast\s+to)\b", re.IGNORECASE)


# the first item of a list of amounts after a colon, with no verb of its own: "hypertension
# alone by 22%", not "PHQ-9 decreased by 4.2 points"
_BY_AMOUNT = re.compile(r"(?:(?!\w+ed\b|(?:fell|rose|grew|dropped|was|were|is|are)\b)"
                        r"[^,;:()])+?\bby\s+(?:about\s+|roughly\s+|some\s+)?[-\u2212]?"
                        r"\d[\d.]*\s*(?:%|percent|per\s+cent|points?\b)", re.IGNORECASE)
# a bracket holding only an estimate: "(HR 1.25)", "(aOR 2.1, 1.4-3.0)", "(0.76)"
_ESTIMATE_BRACKET = re.compile(r"\((?:a?(?:HR|OR|RR|IRR|PR|SMD|MD)s?\s*)?[-\u2212]?\d[^()]*\)",
                               re.IGNORECASE)


def clauses(text: str, sentence: Span) -> list[Span]:
    """Clauses of one sentence, split at ';', contrastive conjunctions and ": " (not before a
    number: "A vs B: 4.3% vs 5.1%" stays one clause), and after a leading "While ...,"."""
    spans: list[Span] = []
    start = sentence.start
    body = text[sentence.start:sentence.end]
    depth = _depths(body)
    cuts: list[tuple[int, int]] = []
    if _LEADING_SUBORDINATE.match(body):
        comma = next((i for i, c in enumerate(body) if c == "," and not depth[i]), None)
        if comma is not None:
            cuts.append((comma, comma + 1))
    for match in _CLAUSE_SPLIT_RE.finditer(body):
        if depth[match.start()]:
            continue
        if match.group(0).startswith(":") and (
                re.match(r"\s*[-\u2212(]?\d", body[match.end():])
                or len(_ESTIMATE_BRACKET.sub(" ", body[:match.start()]).split()) <= 6):
            # "Stroke: 4.3% vs 5.1%", "A vs B: stroke 4.3% vs 5.1%", "A (HR 1.2) and B
            # (HR 1.3): higher with X" (a heading's bracketed estimates are not words): one;
            # a bracket that describes ("(n = 89, MDD, ...)") is words of a long heading
            continue
        if match.group(0).startswith(":") and _BY_AMOUNT.match(body, match.end()):
            continue  # "X raised the risk of Y: A by 22%, B by 28%": the verb is before it
        if re.match(r",?\s*(?:however|though)$", match.group(0), re.IGNORECASE) and \
                body[match.end():match.end() + 1] == ",":
            continue  # "Albuminuria, however, was lower": set off by commas, no new clause
        if match.group(0).startswith(";") and _ONLY_P.match(body, match.end()):
            continue  # "16 and 13 min with A and B, respectively; P < 0.001": its own test
        cuts.append((match.start(), match.end()))
    for cut_start, cut_end in sorted(cuts):
        cut = sentence.start + cut_start
        if cut < start:
            continue
        if text[start:cut].strip():
            spans.append(Span(start, cut, text[start:cut]))
        start = sentence.start + cut_end
    if text[start:sentence.end].strip():
        spans.append(Span(start, sentence.end, text[start:sentence.end]))
    return spans


# what is left of a sentence when it is only a p-value: "; P < 0.001).", "; p = 0.02"
_ONLY_P = re.compile(r"\s*p(?:[- ]?value)?\s*(?:[<>=\u2264\u2265]\s*)+[0-9.\u00b7]+"
                     r"\s*[)\]]*\s*[.;]?\s*$", re.IGNORECASE)


def _depths(body: str) -> list[int]:
    """The parenthesis depth at each character (one pass, not one per split point)."""
    depths, depth = [], 0
    for char in body:
        depths.append(depth)
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
    return [*depths, depth]
