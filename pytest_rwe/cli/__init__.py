"""The ``rwe`` command: validate cases, re-score a saved run, calibrate a jury, list the API
keys a configuration needs, prune or migrate the response store."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pytest_rwe import __version__
from pytest_rwe.cli.calibrate import add_calibrate_parser
from pytest_rwe.cli.keys import add_keys_parser
from pytest_rwe.cli.rescore import add_rescore_parser
from pytest_rwe.cli.store import add_store_parser
from pytest_rwe.cli.validate import run_validate


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
    validate.set_defaults(func=run_validate)

    add_rescore_parser(commands)
    add_calibrate_parser(commands)
    add_keys_parser(commands)
    add_store_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rwe`` console script."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        if not hasattr(args, "pytest_args"):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        # pytest's own options (rwe keys --rwe-model X): handed to pytest, in order
        args.pytest_args = [*extra, *(args.pytest_args or [])]
    code: int = args.func(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
