"""The ``rwe`` command: validate cases, re-score a saved run, calibrate a jury."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pytest_rwe import __version__
from pytest_rwe.cli_calibrate import add_calibrate_parser
from pytest_rwe.rescore import add_rescore_parser
from pytest_rwe.study import load_folder


def _validate(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"rwe validate: {folder} is not a folder of study JSON files", file=sys.stderr)
        return 2
    loads = load_folder(folder)
    if not loads:
        print(f"rwe validate: no *.json study files under {folder}", file=sys.stderr)
        return 1
    bad = [load for load in loads if load.error is not None]
    for load in bad:
        assert load.error is not None
        print(load.error.render(), file=sys.stderr)
    designs: dict[str, int] = {}
    for load in loads:
        if load.study is not None:
            designs[load.study.design] = designs.get(load.study.design, 0) + 1
    counts = ", ".join(f"{n} {design}" for design, n in sorted(designs.items()))
    good = len(loads) - len(bad)
    print(f"rwe validate: {good} of {len(loads)} study files valid ({counts or 'none'})")
    return 1 if bad else 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``rwe`` with every subcommand."""
    parser = argparse.ArgumentParser(prog="rwe", description=__doc__)
    parser.add_argument("--version", action="version", version=f"pytest-rwe {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    validate = commands.add_parser("validate", help="check a folder of study files",
                                   description="Check every *.json study file under FOLDER; "
                                   "print each problem with the file, the JSON path and the fix.")
    validate.add_argument("folder", metavar="FOLDER")
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
