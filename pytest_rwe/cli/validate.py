"""``rwe validate``: check study files, naming the file, the JSON path and the fix."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pytest_rwe.study import load_paths
from pytest_rwe.study.checks import check_study


def run_validate(args: argparse.Namespace) -> int:
    paths: list[Path] = []
    for given in map(Path, args.paths):
        if given.is_dir():
            found = sorted(given.rglob("*.json"))
            if not found:
                print(f"rwe validate: no *.json study files under {given}", file=sys.stderr)
                return 1
            paths += found
        elif given.is_file():
            paths.append(given)
        else:
            print(f"rwe validate: {given} is neither a study file nor a folder of them",
                  file=sys.stderr)
            return 2
    loads = load_paths(paths)
    bad = [load for load in loads if load.error is not None]
    for load in bad:
        assert load.error is not None
        print(load.error.render(), file=sys.stderr)
    designs: dict[str, int] = {}
    warnings = 0
    for load in loads:
        if load.study is not None:
            designs[load.study.design] = designs.get(load.study.design, 0) + 1
            for warning in check_study(load.study):
                print(f"warning: {warning.render()}", file=sys.stderr)
                warnings += 1
    counts = ", ".join(f"{n} {design}" for design, n in sorted(designs.items()))
    good = len(loads) - len(bad)
    tail = f"; {warnings} warning(s)" if warnings else ""
    print(f"rwe validate: {good} of {len(loads)} study files valid ({counts or 'none'}){tail}")
    return 1 if bad or (warnings and args.strict) else 0
