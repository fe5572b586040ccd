"""Write the table of the suite's published sources into cases/README.md.

One row per publication (or data release) of the curated studies in ``cases/studies/``:
citation, identifier, licence as stated, therapeutic area, and the studies made from it.
The table sits between two marker comments in the README; ``--check`` exits 1 when it is
stale (tests/test_suite_quotas.py runs it), so adding a study means rerunning this script.

    python scripts/list_sources.py          # rewrite the table
    python scripts/list_sources.py --check  # exit 1 if cases/README.md is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "cases" / "studies"
README = ROOT / "cases" / "README.md"
BEGIN = "<!-- sources: begin (written by scripts/list_sources.py) -->"
END = "<!-- sources: end -->"
LEGEND_BUILDER = "scripts/build_legend_cases.py"


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "/")


def _identifier(source: dict[str, Any]) -> str:
    if source.get("pmcid"):
        return f"[{source['pmcid']}](https://pmc.ncbi.nlm.nih.gov/articles/{source['pmcid']}/)"
    if source.get("doi"):
        return f"[doi:{source['doi']}](https://doi.org/{source['doi']})"
    if source.get("pmid"):
        return f"[PMID {source['pmid']}](https://pubmed.ncbi.nlm.nih.gov/{source['pmid']}/)"
    urls = source.get("urls_seen") or []
    return f"[page]({urls[0]})" if urls else "-"


def _key(source: dict[str, Any]) -> str:
    for field in ("doi", "pmcid", "pmid", "title"):
        if source.get(field):
            return str(source[field]).lower()
    return "?"


def table(folder: Path = STUDIES) -> str:
    """The Markdown table of every curated publication under ``folder``."""
    groups: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        source = data.get("source")
        if not isinstance(source, dict) or source.get("built_by") == LEGEND_BUILDER:
            continue
        group = groups.setdefault(_key(source), {"source": source, "ids": [], "areas": set()})
        group["ids"].append(data["id"])
        group["areas"].add(source.get("therapeutic_area", "unknown"))
    rows = ["| publication | identifier | licence (as stated) | area | studies |",
            "| --- | --- | --- | --- | --- |"]
    for group in sorted(groups.values(), key=lambda g: str(g["source"].get("title", "")).lower()):
        source = group["source"]
        citation = _cell(source.get("title", "untitled"))
        detail = ", ".join(_cell(source[k]) for k in ("authors", "journal") if source.get(k))
        if detail:
            citation += f" ({detail})"
        rows.append(" | ".join([
            f"| {citation}", _identifier(source), _cell(source.get("licence", "not stated")),
            ", ".join(sorted(group["areas"])),
            ", ".join(f"`{i}`" for i in sorted(group["ids"])) + " |"]))
    return (f"{len(groups)} publications, "
            f"{sum(len(g['ids']) for g in groups.values())} studies.\n\n" + "\n".join(rows))


def render(readme: str, body: str) -> str:
    """``readme`` with the text between the markers replaced by ``body``."""
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{README}: add the lines {BEGIN!r} and {END!r} where the table goes")
    return readme[: start + len(BEGIN)] + "\n" + body + "\n" + readme[end:]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 when cases/README.md is stale")
    args = parser.parse_args(argv)
    current = README.read_text(encoding="utf-8")
    wanted = render(current, table())
    if args.check:
        if wanted != current:
            print(f"{README} is stale; run: python scripts/list_sources.py", file=sys.stderr)
            return 1
        return 0
    README.write_text(wanted, encoding="utf-8")
    print(f"wrote the sources table to {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
