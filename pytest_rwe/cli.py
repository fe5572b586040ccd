"""The ``rwe`` command: validate cases, re-score a saved run, calibrate a jury."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pytest_rwe import __version__
from pytest_rwe.cli_calibrate import add_calibrate_parser
from pytest_rwe.report.rescore import add_rescore_parser
from pytest_rwe.study import load_paths
from pytest_rwe.study.checks import check_study


def _validate(args: argparse.Namespace) -> int:
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``rwe`` with every subcommand."""
    parser = argparse.ArgumentParser(prog="rwe", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pytest-rwe {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    validate = commands.add_parser(
        "validate", help="check study files",
        description="Check study files (each FILE, and every *.json under each FOLDER): print "
        "each problem with the file, the JSON path and the fix, and warn about numbers that "
        "are legal but implausible (an estimate outside its interval, an interval and a "
        "p-value that disagree, an impossible size).")
    validate.add_argument("paths", metavar="FILE_OR_FOLDER", nargs="+")
    validate.add_argument("--strict", action="store_true",
                          help="exit non-zero on warnings too")
    validate.set_defaults(func=_validate)

    add_rescore_parser(commands)
    add_calibrate_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rwe`` console script."""
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
