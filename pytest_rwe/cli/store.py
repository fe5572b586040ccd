"""``rwe store prune`` and ``rwe store migrate``: keep a committed response store tidy.

*Which files are current* is read off the suite, not off past runs: ``prune`` collects the
suite with the arguments it is given (as ``pytest --collect-only`` would, with the same ini
and options), and every (model, study, repeat) collected, times every juror and criterion,
names the files in use (:func:`pytest_rwe.store.layout.expected_paths`). Anything else of a
logical call is unused: a study that left the suite, a model or juror no longer configured,
a repeat no longer asked for. Free-form files (named by key) are kept.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pytest_rwe.providers.registry import canonical_name
from pytest_rwe.settings import DEFAULT_STORE
from pytest_rwe.store.layout import expected_paths
from pytest_rwe.store.maintenance import StoreLayoutError, migrate, prune
from pytest_rwe.verdict import CRITERIA


def add_store_parser(commands: Any) -> None:
    """Add ``rwe store prune|migrate`` to the ``rwe`` subcommands."""
    store = commands.add_parser(
        "store", help="prune or migrate the response store",
        description="Maintain the response store (one JSON file per model call, see "
        "docs/usage.md).")
    actions = store.add_subparsers(dest="action", required=True, metavar="ACTION")
    prune_parser = actions.add_parser(
        "prune", help="remove the stored calls no current case uses",
        description="Collect the suite (pytest --collect-only with PYTEST_ARGS, the same ini "
        "and options as a run; nothing is called) and remove every stored call that none of "
        "the collected (model, study, repeat) cases makes with the configured jury: studies "
        "that left the suite, models, jurors and repeats no longer configured. Free-form "
        "files (named by key: the rwe_jury fixture on your own text, deepeval) are kept. "
        "Give the same arguments as the full run, e.g. `rwe store prune cases`.")
    prune_parser.add_argument("--store", metavar="DIR",
                              help="the store folder (default: the suite's --rwe-store/ini "
                              f"rwe_store, {DEFAULT_STORE})")
    prune_parser.add_argument("--dry-run", action="store_true",
                              help="list the files that would be removed; remove nothing")
    prune_parser.add_argument("pytest_args", metavar="PYTEST_ARGS", nargs=argparse.REMAINDER,
                              help="paths and options for collecting the suite")
    prune_parser.set_defaults(func=run_prune)

    migrate_parser = actions.add_parser(
        "migrate", help="rewrite a store of the old layout (files named by key)",
        description="Rewrite every file of the layout before format 2 "
        "(<study>/<model>/<kind>-...-<key12>.json) as the file of its logical call "
        "(<model>/<study>/...). When several old files are the same call (an old prompt's "
        "and a new one's), the newest recording is kept and the others are removed.")
    migrate_parser.add_argument("--store", metavar="DIR",
                                help="the store folder (default: the suite's, as for prune)")
    migrate_parser.add_argument("--dry-run", action="store_true",
                                help="say what would change; change nothing")
    migrate_parser.add_argument("pytest_args", metavar="PYTEST_ARGS",
                                nargs=argparse.REMAINDER,
                                help="options to find the suite's store when --store is not "
                                "given")
    migrate_parser.set_defaults(func=run_migrate)


def run_prune(args: argparse.Namespace) -> int:
    # pytest is imported only by the commands that read the suite (0.35 s)
    from pytest_rwe.cli.suite import SuiteError, pytest_args, read_suite, store_of

    try:
        suite = read_suite(pytest_args(args), collect=True)
    except SuiteError as exc:
        print(f"rwe store prune: cannot collect the suite, so nothing is removed:\n{exc}",
              file=sys.stderr)
        return 2
    root = store_of(suite, args.store)
    if not suite.cases:
        print("rwe store prune: the collection holds no rwe case (no test takes rwe_case), "
              "so every stored file would look unused and nothing is removed; give the "
              "suite's path, e.g. `rwe store prune cases`", file=sys.stderr)
        return 2
    cases = [(canonical_name(m) or m, study, repeat, variant)
             for m, study, repeat, variant in suite.cases]
    jury = [canonical_name(j) or j for j in suite.settings.engine.jury]
    try:
        result = prune(root, expected_paths(cases, jury, CRITERIA), dry_run=args.dry_run)
    except StoreLayoutError as exc:
        print(f"rwe store prune: {exc}", file=sys.stderr)
        return 2
    verb = "would remove" if args.dry_run else "removed"
    for path in result.removed:
        print(f"{verb} {path.relative_to(root)}")
    print(f"rwe store prune: {root}: {verb} {len(result.removed)} unused file(s), kept "
          f"{result.kept} in use by {len(suite.cases)} case(s)"
          + (f" and {result.free_form} free-form" if result.free_form else ""))
    return 0


def run_migrate(args: argparse.Namespace) -> int:
    from pytest_rwe.cli.suite import SuiteError, pytest_args, read_suite, store_of

    if args.store:
        root = Path(args.store).resolve()
    else:
        try:
            root = store_of(read_suite(pytest_args(args)), None)
        except SuiteError as exc:
            print(f"rwe store migrate: cannot read the suite's settings:\n{exc}",
                  file=sys.stderr)
            return 2
    result = migrate(root, canonical_name, dry_run=args.dry_run)
    verb = "would rewrite" if args.dry_run else "rewrote"
    for path in result.dropped:
        print(f"{'would remove' if args.dry_run else 'removed'} {path.relative_to(root)} "
              "(an older recording of the same call)")
    for path, why in result.skipped:
        print(f"left {path.relative_to(root)}: {why}", file=sys.stderr)
    print(f"rwe store migrate: {root}: {verb} {result.moved} file(s) in the new layout, "
          f"{len(result.dropped)} older duplicate(s), {len(result.skipped)} unreadable")
    return 1 if result.skipped else 0
