"""Build the human-labeled calibration set from Evidence Inference 2.0 (doctors' labels).

Each validated annotation (both ``Valid Label`` and ``Valid Reasoning`` True, prompt ids the
dataset's authors flag dropped) says how an intervention compares with a comparator on one
outcome: "significantly increased", "significantly decreased" or "no significant difference",
with the evidence a doctor cited, verbatim from the trial report. Every annotation becomes two
one-outcome studies (*twins*) and two labeled lines whose summary is that evidence verbatim:

- ``agree``: the study's effect agrees with the doctors' label (a significant effect in the
  labeled direction, or a non-significant one);
- ``contradict``: the study's effect contradicts it (the opposite significant direction; for
  "no significant difference", a significant effect, its side drawn at random).

Labels follow DESIGN.md's criteria (see the README written beside the set):

| doctors' label | twin | direction_of_effect | completeness |
|---|---|---|---|
| increased / decreased | agree | 1 | 1 |
| increased / decreased | contradict | 0 | 1 |
| no significant difference | agree | 1 | 1 |
| no significant difference | contradict | 1 | 0 |

A "no significant difference" whose evidence states a direction ("lower in A, though not
significantly") is left out: see :func:`usable`. For the others "no difference" states no
direction, so direction_of_effect is 1 against either twin, and the contradicting twin's
significant outcome is not reported as a difference (completeness 0).

``numbers_accurate`` is never labeled: the evidence's numbers (group means, SDs, percentages,
test statistics) come from the trial, the study's numbers are made up for the twin, and the
study format has no place for most of the former, so no honest label exists.

    python scripts/build_evidence_inference.py                 # the committed validation set
    python scripts/build_evidence_inference.py --split train --out /tmp/ei   # development
    python scripts/build_evidence_inference.py --check         # exit 1 when stale

The output is deterministic: the same data gives the same bytes.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import random
import re
import shutil
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# ../shared/data beside the checkout (DESIGN.md), or beside its parent for a worktree
DATA_CANDIDATES = tuple(base / "shared" / "data" / "evidence-inference"
                        for base in (ROOT.parent, ROOT.parent.parent))
DEFAULT_DATA = next((p for p in DATA_CANDIDATES if p.is_dir()), DATA_CANDIDATES[0])
DEFAULT_OUT = ROOT / "cases" / "golden" / "labeled" / "evidence_inference"
BUILT_BY = "scripts/build_evidence_inference.py"
UPSTREAM = "https://github.com/jayded/evidence-inference (commit b9831b6c, MIT licence)"
CITATIONS = (
    "Lehman E, DeYoung J, Barzilay R, Wallace BC. Inferring Which Medical Treatments Work from "
    "Reports of Clinical Trials. NAACL 2019.",
    "DeYoung J, Lehman E, Nye B, Marshall IJ, Wallace BC. Evidence Inference 2.0: More Data, "
    "Better Models. BioNLP 2020.",
)

# The upstream README's incorrect or questionable prompts.
_FLAGGED = [911, 912, 1262, 1261, 3044, 3248, 3111, 3620, 4308, 4490, 4491, 4324, 4325, 4492,
            4824, 5000, 5001, 5002, 5046, 5047, 4948, 5639, 5710, 5752, 5775, 5782, 5841, 5843,
            5861, 5862, 5863, 5964, 5965, 5966, 5975, 4807, 5776, 5777, 5778, 5779, 5780, 5781,
            6034, 6065, 6066, 6666, 6667, 6668, 6669, 7040, 7042, 7944, 8590, 8605, 8606, 8639,
            8640, 8745, 8747, 8749, 8877, 8878, 8593, 8631, 8635, 8884, 8886, 8773, 10032,
            10035, 8876, 8875, 8885, 8917, 8921, 8118, 8536]
_FLAGGED_RANGES = [(10885, 10890), (7811, 7815), (8197, 8201), (9429, 9432)]
FLAGGED = frozenset(_FLAGGED) | frozenset(
    n for lo, hi in _FLAGGED_RANGES for n in range(lo, hi + 1))

LABELS = {"significantly increased": 1, "significantly increase": 1,
          "significantly decreased": -1, "significantly decrease": -1,
          "no significant difference": 0}
LABEL_NAMES = {1: "significantly increased", -1: "significantly decreased",
               0: "no significant difference"}

# Outcomes that read as an event or a share get a risk ratio; the rest a mean difference.
# Either way the sign is what matters to the labels.
_BINARY_RE = re.compile(
    r"\b(?:rates?|incidence|risk|proportions?|percentage|mortality|deaths?|died|survival|"
    r"events?|occurrence|prevalence|recurrences?|remission|readmissions?|admissions?|"
    r"complications?|adverse|success|failures?|number\s+of\s+(?:patients|participants|"
    r"subjects|women|men|children|cases|infants)|patients\s+with|odds)\b", re.IGNORECASE)

# A lexical screen for a stated direction (build-time only, broad on purpose: when in doubt
# the direction label is left out, never guessed).
_DIRECTION_WORD = re.compile(
    r"\b(?:higher|highest|lower|lowest|increas\w*|decreas\w*|reduc\w*|more|most|less|least|"
    r"fewer|greater|greatest|smaller|larger|improv\w*|wors\w*|better|best|ris(?:e|es|en|ing)|"
    r"rose|f[ae]ll(?:s|en|ing)?|drop\w*|declin\w*|elevat\w*|longer|shorter|faster|slower|"
    r"superior|inferior|benefi\w*|gain\w*|loss\w*|lost|raised?|lowered|diminish\w*|"
    r"attenuat\w*|augment\w*|enhanc\w*|prolong\w*|shorten\w*|exceed\w*|excess\w*|boost\w*|"
    r"lessen\w*|halv\w*|doubl\w*|tripl\w*|trend\w*|tend\w*|favou?r\w*|advantage\w*|"
    r"effective\w*|efficac\w*|protect\w*|prevent\w*|deteriorat\w*|accelerat\w*|"
    r"suppress\w*|inhibit\w*|promot\w*|induc\w*|alleviat\w*|reliev\w*|relief|"
    r"exacerbat\w*|aggravat\w*|minimi[sz]\w*|maximi[sz]\w*|up|down|peak\w*|"
    r"shift\w*|changed|changes?|changing|differ\w*\s+(?:in\s+favou?r|toward))\b",
    re.IGNORECASE)
_NEGATOR = re.compile(r"\b(?:no|not|n't|without|neither|nor|never|none|failed\s+to|"
                      r"absence\s+of|lack\s+of)\b|n't\b", re.IGNORECASE)
_CONTRAST = re.compile(r"\b(?:but|however|although|though|whereas|while|yet)\b|[;:]",
                       re.IGNORECASE)
_NEUTRAL_CHANGE = re.compile(r"\bchanges?\b|\bchanged\b|\bchanging\b", re.IGNORECASE)


def states_direction(text: str) -> bool:
    """True unless every direction-like word of ``text`` is plainly negated.

    "no significant increase", "did not improve", "without any change" state no direction;
    "X was lower in A (p = 0.3)" and "increased in both groups" do. Broad on purpose.
    """
    for match in _DIRECTION_WORD.finditer(text):
        before = text[max(0, match.start() - 60):match.start()]
        # the negation must govern the word: within five words, no contrast in between
        words = re.findall(r"[\w']+|[;:]", before)[-6:]
        window = " ".join(words)
        negated = bool(_NEGATOR.search(window)) and not _CONTRAST.search(
            window[_last_negator(window):])
        if not negated:
            return True
    return False


def _last_negator(window: str) -> int:
    found = list(_NEGATOR.finditer(window))
    return found[-1].end() if found else 0


@dataclass(frozen=True)
class Row:
    """One validated annotation: a prompt, a doctor's label and the evidence cited."""

    prompt_id: int
    user_id: str
    pmcid: str
    outcome: str
    intervention: str
    comparator: str
    label: int
    evidence: str


def _norm(text: str) -> str:
    return " ".join(text.split())


def read_rows(data: Path, split: str) -> list[Row]:
    """The validated, unflagged annotations of ``split``'s articles, one per distinct
    (prompt, evidence); prompts whose validated annotations disagree are dropped."""
    ids_file = data / f"{split}_article_ids.txt"
    if not ids_file.exists():
        raise SystemExit(f"{ids_file}: no such file; --split names <split>_article_ids.txt "
                         f"in --data ({data})")
    articles = set(ids_file.read_text(encoding="utf-8").split())
    with (data / "prompts.csv").open(encoding="utf-8", newline="") as handle:
        prompts = {row["PromptID"]: row for row in csv.DictReader(handle)}
    with (data / "annotations.csv").open(encoding="utf-8", newline="") as handle:
        annotations = list(csv.DictReader(handle))
    labels_by_prompt: dict[int, set[int]] = defaultdict(set)
    kept: dict[tuple[int, str], Row] = {}
    for raw in annotations:
        if raw["Valid Label"] != "True" or raw["Valid Reasoning"] != "True":
            continue
        prompt_id = int(raw["PromptID"])
        if prompt_id in FLAGGED or raw["PMCID"] not in articles:
            continue
        prompt = prompts.get(raw["PromptID"])
        label = LABELS.get(raw["Label"].strip())
        evidence = raw["Annotations"].strip()
        if prompt is None or label is None or not evidence:
            continue
        labels_by_prompt[prompt_id].add(label)
        row = Row(prompt_id, raw["UserID"], raw["PMCID"], _norm(prompt["Outcome"]),
                  _norm(prompt["Intervention"]), _norm(prompt["Comparator"]), label, evidence)
        key = (prompt_id, _norm(evidence))
        if key not in kept or row.user_id < kept[key].user_id:
            kept[key] = row
    rows = [r for r in kept.values() if len(labels_by_prompt[r.prompt_id]) == 1
            and r.outcome and r.intervention and r.comparator]
    return sorted(rows, key=lambda r: (int(r.pmcid), r.prompt_id, r.user_id))


# ---------------------------------------------------------------- the twins' numbers

def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _z_for(p: float) -> float:
    """The two-sided z of p, by bisection (no scipy needed)."""
    lo, hi = 0.0, 10.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if 2 * (1 - _phi(mid)) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _effect(rng: random.Random, binary: bool, sign: int) -> tuple[str, str]:
    """An estimate with a 95% interval and a p-value that agree with each other.

    ``sign`` 1 or -1: significant in that direction (p <= 0.03); 0: not significant
    (p >= 0.12, interval across the null). Intervals are computed from p, so they match it.
    """
    for _ in range(100):
        if sign:
            p = rng.choice([rng.uniform(0.001, 0.03), rng.uniform(0.0001, 0.009)])
            size = rng.uniform(0.2, 0.9) if binary else rng.uniform(0.3, 9.0)
            size *= sign
        else:
            p = rng.uniform(0.12, 0.92)
            size = rng.choice((-1, 1)) * (rng.uniform(0.04, 0.25) if binary
                                          else rng.uniform(0.1, 3.0))
        z = _z_for(p)
        se = abs(size) / z
        low, high = size - 1.96 * se, size + 1.96 * se
        if binary:
            est, lo, hi = (f"{math.exp(v):.2f}" for v in (size, low, high))
            null = 1.0
        else:
            places = 1 if abs(size) >= 1 else 2
            est, lo, hi = (f"{v:.{places}f}" for v in (size, low, high))
            null = 0.0
        values = [float(est), float(lo), float(hi)]
        excludes = values[1] > null or values[2] < null
        if values[0] == null or excludes != bool(sign) or null in values[1:]:
            continue  # rounding moved a bound onto or across the null: draw again
        p_text = "<0.001" if p < 0.001 else f"{p:.3f}"
        return f"{est} ({lo}, {hi})", p_text
    raise RuntimeError("could not draw a consistent estimate")  # pragma: no cover


def _slug(text: str) -> str:
    """The outcome as a results-key name: words joined by dots (the loader reads them back)."""
    text = re.sub(r"[!\"\\]", " ", text)
    words = [w.strip("._") for w in text.split()]
    return ".".join(w for w in words if w) or "outcome"


def twin(row: Row, kind: str, split: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(study, labeled line) of one twin: ``kind`` is "agree" or "contradict"."""
    study_id = f"ei_{split}_p{row.prompt_id}_u{row.user_id}_{kind}"
    rng = random.Random(hashlib.sha256(study_id.encode()).hexdigest())
    binary = bool(_BINARY_RE.search(row.outcome))
    # the contradicting twin of "no significant difference" is significant, either side
    flipped = -row.label if row.label else rng.choice((-1, 1))
    sign = row.label if kind == "agree" else flipped
    estimate, p_text = _effect(rng, binary, sign)
    measure, suffix = ("RR", "bin") if binary else ("MD", "cont")
    key = f"outcome.{_slug(row.outcome)}_{suffix}"
    study = {
        "id": study_id,
        "design": "cohort",
        "question": (f"In the trial reported in PMC{row.pmcid}, how does {row.intervention} "
                     f"compare with {row.comparator} on {row.outcome}?"),
        "picot": {
            "population": f"Participants of the randomized trial reported in PMC{row.pmcid}",
            "intervention": row.intervention,
            "control": row.comparator,
            "outcome": row.outcome,
            "timeframe": "The trial's follow-up",
        },
        "results": {
            "intervention_size": None,
            "control_size": None,
            "baseline_differences": {},
            "outcomes": {f"{key}!{measure}": estimate, f"{key}!pvalue": p_text},
        },
        "source": {
            "dataset": "Evidence Inference 2.0",
            "upstream": UPSTREAM,
            "citations": list(CITATIONS),
            "built_by": BUILT_BY,
            "split": split,
            "pmcid": f"PMC{row.pmcid}",
            "prompt_id": row.prompt_id,
            "user_id": row.user_id,
            "doctors_label": LABEL_NAMES[row.label],
            "twin": kind,
            "notes": ("A one-outcome twin built for jury calibration: the outcome, intervention "
                      "and comparator are the annotated prompt's; the estimate, interval and "
                      "p-value are made up so that they "
                      + ("agree with" if kind == "agree" else "contradict")
                      + " the doctors' label. Not a real result."),
        },
    }
    if row.label:
        labels = {"direction_of_effect": 1 if kind == "agree" else 0, "completeness": 1}
    else:
        labels = {"direction_of_effect": 1, "completeness": 1 if kind == "agree" else 0}
    shown = f"{measure} {estimate}, p {'' if p_text.startswith('<') else '= '}{p_text}"
    why = "agrees" if kind == "agree" else "contradicts"
    note = f"doctors: {LABEL_NAMES[row.label]}; study: {shown} ({why})"
    line = {"study_id": study_id, "summary_id": study_id, "text": row.evidence,
            "labels": labels,
            "origin": f"evidence_inference:{kind}:{LABEL_NAMES[row.label].replace(' ', '_')}",
            "note": note}
    return study, line


def usable(row: Row) -> bool:
    """A "no significant difference" whose evidence states a direction ("lower in A, but not
    significantly") has no honest label: whether that direction matches a twin's estimate,
    and whether "lower (p = 0.3)" mentions a significant twin "as a difference", depend on
    reading the sentence, which is the juror's job, not the builder's. Such rows are left out."""
    return bool(row.label) or not states_direction(row.evidence)


def build(rows: Iterable[Row], split: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(studies, labeled lines) for the usable ``rows``, twins in row order."""
    studies, lines = [], []
    for row in rows:
        if not usable(row):
            continue
        for kind in ("agree", "contradict"):
            study, line = twin(row, kind, split)
            studies.append(study)
            lines.append(line)
    return studies, lines


def render_study(study: dict[str, Any]) -> str:
    return json.dumps(study, indent=2, ensure_ascii=False) + "\n"


def render_lines(lines: Sequence[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def outputs(data: Path, split: str) -> dict[str, str]:
    """Every file of a build, by path relative to the output folder."""
    studies, lines = build(read_rows(data, split), split)
    files = {f"{split}.jsonl": render_lines(lines)}
    files.update({f"{split}/{s['id']}.json": render_study(s) for s in studies})
    return files


def _stale(out: Path, split: str, files: dict[str, str]) -> list[str]:
    problems = []
    for name, text in files.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            problems.append(name)
    folder = out / split
    extra = sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []
    problems += [f"{split}/{n} (not built)" for n in extra if f"{split}/{n}" not in files]
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"the Evidence Inference folder (default {DEFAULT_DATA})")
    parser.add_argument("--split", default="validation",
                        help="read <split>_article_ids.txt (default: validation)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="write <split>.jsonl and <split>/ here (default: the committed set)")
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 when the files in --out differ from a build")
    args = parser.parse_args(argv)
    files = outputs(args.data, args.split)
    if args.check:
        stale = _stale(args.out, args.split, files)
        if stale:
            print(f"{args.out}: {len(stale)} stale file(s), e.g. {stale[0]}; rebuild with "
                  f"python {BUILT_BY} --split {args.split}", file=sys.stderr)
            return 1
        return 0
    folder = args.out / args.split
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files) - 1} studies and {files[f'{args.split}.jsonl'].count(chr(10))} "
          f"labeled lines to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
