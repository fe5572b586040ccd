"""Build ``cases/golden/labeled/mutations.jsonl``: correct summaries and mutated ones.

Every line is labelled by construction. A base summary is correct on all three criteria; each
mutation edits the text through the study's own values (an estimate, a p-value, a direction
word, an outcome's sentence, the group sizes) and sets only the label it breaks, so the other
labels stay right. The output is deterministic: a fixed seed per study.

    python scripts/build_labeled_set.py            # write the file
    python scripts/build_labeled_set.py --check    # exit 1 when the committed file is stale
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the labeled/ helpers beside this file

from labeled.base import BASE_NAMES, BASES, CRITERIA
from labeled.mutations import BENIGN, ERRORS, Kind
from labeled.surgery import Labeled

from pytest_rwe.study import Study, load_folder

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "cases" / "studies"
OUT = ROOT / "cases" / "golden" / "labeled" / "mutations.jsonl"
STUDY_LIST = ROOT / "cases" / "golden" / "labeled" / "mutation_studies.txt"
SEED = 20250613
ERRORS_PER_STUDY = 4


# ---------------------------------------------------------------- assembling the set

def _apply(kind: Kind, study: Study, s: Labeled, rng: random.Random) -> Labeled | None:
    targets = [t for t in kind.targets(study, s) if t not in s.touched]
    rng.shuffle(targets)
    for target in targets:
        result = kind.apply(study, s, target, rng)
        if result is not None:
            return result
    return None


def _weighted_order(kinds: Sequence[Kind], rng: random.Random) -> list[Kind]:
    pool, order = list(kinds), []
    while pool:
        pick = rng.choices(pool, weights=[k.weight for k in pool])[0]
        pool.remove(pick)
        order.append(pick)
    return order


def study_lines(study: Study, seed: int = SEED) -> list[tuple[str, Labeled]]:
    """(base style, summary) for a study: both correct bases, a correct variant for about half
    of the studies, ERRORS_PER_STUDY - 1 single errors and one summary with several errors."""
    rng = random.Random(f"{seed}:{study.id}")
    bases = {style: Labeled(write(study), (1, 1, 1)) for style, write in BASES.items()}
    styles = list(bases)
    lines = [(style, base) for style, base in bases.items()]
    if rng.random() < 0.5:
        style = rng.choice(styles)
        for kind in _weighted_order(BENIGN, rng):
            if (benign := _apply(kind, study, bases[style], rng)) is not None:
                lines.append((style, benign))
                break
    made = 0
    for kind in _weighted_order(ERRORS, rng):
        if made == ERRORS_PER_STUDY - 1:
            break
        order = styles if made % 2 == 0 else styles[::-1]
        for style in order:
            if (single := _apply(kind, study, bases[style], rng)) is not None:
                lines.append((style, single))
                made += 1
                break
    # "Several at once": two or three different errors on different targets.
    style = rng.choice(styles)
    combo = bases[style]
    for kind in _weighted_order(ERRORS, rng)[: rng.choice((2, 3))]:
        combo = _apply(kind, study, combo, rng) or combo
    if len(combo.kinds) >= 2:
        lines.append((style, combo))
    return lines


def to_dict(study: Study, style: str, s: Labeled, index: int) -> dict[str, object]:
    kinds = "+".join(s.kinds) or "base"
    return {
        "study_id": study.id,
        "summary_id": f"{study.id}#{index:02d}-{style}-{kinds}",
        "text": s.text,
        "labels": dict(zip(CRITERIA, s.labels, strict=True)),
        "origin": f"mutation:{kinds}",
        "note": "; ".join(s.notes or ("correct base summary",)) + f" (base: {BASE_NAMES[style]})",
    }


def build(studies: Sequence[Study], seed: int = SEED) -> list[dict[str, object]]:
    """Every line of mutations.jsonl for these studies, in study-id order."""
    records = []
    for study in sorted(studies, key=lambda st: st.id):
        lines = study_lines(study, seed)
        records += [to_dict(study, style, s, i) for i, (style, s) in enumerate(lines)]
    return records


def render(records: Sequence[dict[str, object]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def listed_studies(path: Path = STUDY_LIST) -> set[str]:
    """The study ids of ``mutation_studies.txt`` (one per line; ``#`` starts a comment)."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text("utf-8").splitlines())
    return {line for line in lines if line}


def load_studies(folder: Path, ids: set[str] | None = None) -> list[Study]:
    """The listed studies of ``folder`` (default: those of ``mutation_studies.txt``)."""
    wanted = listed_studies() if ids is None else ids
    loads = [load for load in load_folder(folder) if load.id in wanted]
    bad = [str(load.error) for load in loads if load.error is not None]
    missing = wanted - {load.id for load in loads}
    if bad or missing:
        raise SystemExit("cannot build the labeled set; fix these study files first:\n"
                         + "\n".join(bad + [f"{i}: listed in {STUDY_LIST.name} but not in "
                                              f"{folder}" for i in sorted(missing)]))
    return [load.study for load in loads if load.study is not None]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--cases", type=Path, default=CASES, help="folder of study JSON files")
    parser.add_argument("--out", type=Path, default=OUT, help="JSONL file to write")
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 when --out differs from a fresh build")
    args = parser.parse_args(argv)
    text = render(build(load_studies(args.cases)))
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is stale; rebuild it with: python scripts/build_labeled_set.py",
                  file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10))} summaries to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
