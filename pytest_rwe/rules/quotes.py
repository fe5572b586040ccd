"""Where the text a juror quotes stands in the summary.

LLM jurors are asked to quote what they object to. A quote is located in the summary exactly,
then ignoring case and runs of whitespace, then ignoring typographic quote marks and dashes;
a quote found nowhere is marked (``found`` False): the juror objects to words the summary
does not contain, which is worth a look before trusting its score.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# "..." “...” «...» and '...' (not an apostrophe inside a word: "the group's")
_QUOTED = re.compile(r"\"([^\"]{3,})\"|\u201c([^\u201d]{3,})\u201d|\u00ab([^\u00bb]{3,})\u00bb"
                     r"|(?<![\w])'([^']{3,}?)'(?![\w])|\u2018([^\u2019]{3,}?)\u2019(?![\w])")
_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                       "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " "})


@dataclass(frozen=True)
class Quote:
    """A quoted span of an explanation and where it is in the summary (-1 when not found).

    ``in_study`` is True for a quote the summary does not contain but the study does (a
    results key, an estimate as the study writes it): the juror cites its evidence, which is
    not a misquote of the summary.
    """

    quote: str
    found: bool
    start: int
    end: int
    in_study: bool = False

    @property
    def misquoted(self) -> bool:
        """Quoted as the summary's words, but neither the summary nor the study has them."""
        return not self.found and not self.in_study

    def to_dict(self) -> dict[str, object]:
        return {"quote": self.quote, "found": self.found, "start": self.start, "end": self.end,
                "in_study": self.in_study}


def quoted_spans(explanation: str) -> list[str]:
    """The quoted passages of an explanation, in order, without repeats."""
    out: list[str] = []
    for match in _QUOTED.finditer(explanation):
        text = next(g for g in match.groups() if g is not None).strip()
        if len(text) >= 3 and text not in out:
            out.append(text)
    return out


# A pair's nine answers fold its summary and its study's results again and again (one
# character at a time); a few recent texts are remembered. The offsets are only read.
@functools.lru_cache(maxsize=32)
def _folded(text: str) -> tuple[str, list[int]]:
    """``text`` lower-cased with whitespace runs as one space and typography folded, and each
    folded character's offset in ``text``."""
    out: list[str] = []
    offsets: list[int] = []
    previous_space = False
    for i, char in enumerate(text.translate(_FOLD)):
        if char.isspace():
            if previous_space:
                continue
            previous_space = True
            out.append(" ")
        else:
            previous_space = False
            out.append(char.lower())
        offsets.append(i)
    return "".join(out), offsets


def locate(quote: str, summary: str) -> Quote:
    """Where ``quote`` is in ``summary``."""
    at = summary.find(quote)
    if at >= 0:
        return Quote(quote, True, at, at + len(quote))
    folded, offsets = _folded(summary)
    needle, _ = _folded(quote.strip(" .,;:"))
    at = folded.find(needle) if needle else -1
    if at >= 0:
        start = offsets[at]
        end = offsets[at + len(needle) - 1] + 1
        return Quote(quote, True, start, end)
    return Quote(quote, False, -1, -1)


def locate_quotes(explanation: str, summary: str, study_text: str = "") -> list[Quote]:
    """Every quoted passage of ``explanation`` located in ``summary`` (and, when it is not
    there, looked up in ``study_text``, the study as the prompt shows it)."""
    out = []
    folded_study = _folded(study_text)[0] if study_text else ""
    for text in quoted_spans(explanation):
        quote = locate(text, summary)
        if not quote.found and folded_study and _folded(text)[0] in folded_study:
            quote = Quote(text, False, -1, -1, True)
        out.append(quote)
    return out
