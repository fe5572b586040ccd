"""``rwe rescore``: re-score a saved run with other weights (:mod:`pytest_rwe.report.rescore`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pytest_rwe import escape
from pytest_rwe.report import rescore as rescore_module
from pytest_rwe.report.breakdown_text import breakdown_lines
from pytest_rwe.report.rescore import (
    RescoreError,
    format_table,
    parse_criterion_values,
    parse_weights,
    rescore_result,
    result_to_dict,
)
from pytest_rwe.report.terminal import plain
from pytest_rwe.stats.rubric import ALL_KEYS


def add_rescore_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``rescore`` to an ``argparse`` subparsers object; dispatch to ``run_rescore``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "rescore", help="re-score a saved run with other weights, without calling any model",
        description=(rescore_module.__doc__.split("\n\n", 1)[0]
                     if rescore_module.__doc__ else None),
    )
    parser.add_argument("input", metavar="INPUT",
                        help="a saved report.json, or a plain table of means ('-' for stdin)")
    parser.add_argument("--weights", metavar="KEY=W,...",
                        help="override weights, e.g. direction_of_effect=20,inference_time=0 "
                             f"(keys: {', '.join(ALL_KEYS)}; cost is off unless given)")
    parser.add_argument("--normalize-max", metavar="KEY=MAX,...",
                        help="normalize a key against this max instead of the observed one, "
                             "e.g. completeness=1.0")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run_rescore)
    return parser


def run_rescore(args: argparse.Namespace) -> int:
    """Run ``rwe rescore``: 0 on success, 2 on bad input (message on stderr)."""
    source = "<stdin>" if args.input == "-" else str(args.input)
    try:
        weights = parse_weights(args.weights) if args.weights else None
        maxima = (parse_criterion_values(args.normalize_max, option="--normalize-max")
                  if args.normalize_max else None)
    except ValueError as error:
        print(f"rwe rescore: {error}", file=sys.stderr)
        return 2
    try:
        text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"rwe rescore: {source}: cannot read the file: {error}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"rwe rescore: {source}: not valid JSON (line {error.lineno}, column "
              f"{error.colno}: {error.msg})", file=sys.stderr)
        return 2
    try:
        result = rescore_result(data, weights, maxima)
    except RescoreError as error:
        print(f"rwe rescore: {source}: {error}", file=sys.stderr)
        return 2
    breakdown = _breakdown_lines(data)
    if args.json:
        output = result_to_dict(result)
        if breakdown:  # weights do not change it: the saved run's, as it was
            output["breakdown"] = data["breakdown"]
        print(json.dumps(output, indent=2))
    else:
        print("\n".join([format_table(result), *breakdown]))
    return 0


def _breakdown_lines(data: object) -> list[str]:
    """A saved report.json's breakdown by design, source and area, as in the terminal
    summary (nothing for a plain table, or a report from before the breakdown)."""
    if not isinstance(data, dict) or not isinstance(data.get("breakdown"), dict):
        return []
    try:
        return [escape.terminal(line, one_line=True) for line in plain(breakdown_lines(data))]
    except (KeyError, TypeError, ValueError, AttributeError):
        print("rwe rescore: the report's breakdown section is not in the expected form; "
              "it is left out", file=sys.stderr)
        return []
