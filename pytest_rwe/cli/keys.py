"""``rwe keys``: the API key variables the configured models and jurors need to record.

The gate workflow asks for only these (``.github/workflows/rwe-gate.yml``), so a suite of one
vendor's models needs one vendor's secret. The configuration is read by pytest itself with
the arguments given (ini, ``-o``, ``--rwe-model``, ``--rwe-jury``, conftest providers).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pytest_rwe.providers.base import ProviderConfigError
from pytest_rwe.providers.registry import needed_keys


def add_keys_parser(commands: Any) -> None:
    """Add ``rwe keys`` to the ``rwe`` subcommands."""
    keys = commands.add_parser(
        "keys", help="list the API key variables the configured models and jurors need",
        description="Print, one per line, the environment variable of each API key that "
        "(NAME|OTHER when either variable may hold it) "
        "recording with the configured models under test and jurors needs (builtin models "
        "and model@URL servers need none). Reads the configuration as pytest does with "
        "PYTEST_ARGS (ini, -o, --rwe-model, --rwe-jury); nothing is collected or called.")
    keys.add_argument("--explain", action="store_true",
                      help="say which models need each key, and its other accepted names")
    keys.add_argument("pytest_args", metavar="PYTEST_ARGS", nargs=argparse.REMAINDER,
                      help="options of a run, e.g. --rwe-model openai/gpt-4.1")
    keys.set_defaults(func=run_keys)


def run_keys(args: argparse.Namespace) -> int:
    from pytest_rwe.cli.suite import SuiteError, pytest_args, read_suite

    try:
        settings = read_suite(pytest_args(args)).settings
        needs = needed_keys(settings.models, settings.engine.jury)
    except (SuiteError, ProviderConfigError) as exc:
        print(f"rwe keys: {exc}", file=sys.stderr)
        return 2
    for need in needs:
        if args.explain:
            others = f" (or {' or '.join(need.variables[1:])})" if need.variables[1:] else ""
            print(f"{need.variables[0]}{others}: {', '.join(need.users)}")
        else:
            # one line per key; a key that may be held by either of two variables is
            # written with both, "|" between them (the gate workflow accepts either)
            print("|".join(need.variables))
    return 0
