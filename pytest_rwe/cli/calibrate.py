"""``rwe calibrate``: measure jurors against labeled summaries.

Every labeled summary is judged by every juror on every criterion through the same engine,
prompts and response store as a test run, so an LLM juror's answers are recorded once and
replayed after; ``builtin/rules`` runs offline without a key.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from pytest_rwe.calibrate import (
    LabeledSetError,
    LabeledSummary,
    by_origin,
    calibrate,
    disagreements,
    judge_labeled,
    load_labeled,
    to_json,
)
from pytest_rwe.cli.calibrate_tables import format_by_origin, format_table
from pytest_rwe.criteria import default_thresholds
from pytest_rwe.engine import build_engine, engine_config
from pytest_rwe.prompts import PromptFileError
from pytest_rwe.providers.registry import model_problems
from pytest_rwe.redact import redact
from pytest_rwe.settings import (
    CALIBRATE,
    DEFAULT_CONCURRENCY,
    DEFAULT_STORE,
    STORE_MODES,
    EngineSettings,
    SettingsError,
    engine_settings,
    parse_thresholds,
)
from pytest_rwe.study import Study, load_folder
from pytest_rwe.verdict import Verdict

_PROG = "rwe calibrate"


def add_calibrate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``calibrate`` to an ``argparse`` subparsers object; dispatch to ``run_calibrate``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "calibrate", help="measure jurors against labeled summaries",
        description="Judge every labeled summary with every juror and report, per juror and "
        "for the jury, per criterion: accuracy, sensitivity (errors caught), specificity "
        "(correct summaries passed), Cohen's kappa with a bootstrap 95% interval, "
        "abstentions and juror errors (exit status 1 when a juror could not be asked); and "
        "Fleiss' kappa among the jurors.")
    parser.add_argument("labeled", nargs="+", metavar="LABELED.jsonl",
                        help="labeled summaries, one JSON object per line")
    parser.add_argument("--cases", default="cases/studies", metavar="DIR",
                        help="the folder of study files the labels refer to (default: "
                             "cases/studies)")
    parser.add_argument("--jury", required=True, metavar="J1,J2,...",
                        help="jurors to calibrate, e.g. builtin/rules or "
                             "openai/o4-mini,anthropic/claude-sonnet-4-20250514")
    parser.add_argument("--threshold", default=None, metavar="T|CRITERION=T,...",
                        help="the jury passes a criterion when its mean score reaches T "
                             "(default: each criterion's, "
                             + ", ".join(f"{c}={t:g}" for c, t in default_thresholds().items())
                             + "); one number or per criterion")
    parser.add_argument("--prompts", default=None, metavar="DIR",
                        help="judge prompt templates (default: the packaged ones)")
    parser.add_argument("--store", default=str(DEFAULT_STORE), metavar="PATH",
                        help="response store of LLM jurors' answers (default: "
                             f"{DEFAULT_STORE})")
    parser.add_argument("--record", default="new", choices=STORE_MODES,
                        help="new: replay stored answers, call the rest (default); none: "
                             "replay only; all: call every juror again")
    parser.add_argument("--concurrency", type=int, default=DEFAULT_CONCURRENCY, metavar="N",
                        help=f"concurrent calls per provider (default {DEFAULT_CONCURRENCY})")
    parser.add_argument("--resamples", type=int, default=2000, metavar="N",
                        help="bootstrap resamples for the kappa intervals (default 2000)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--show-disagreements", action="store_true",
                        help="also list every summary where the jury and the label differ")
    parser.add_argument("--by-origin", action="store_true",
                        help="also count the jury's catches and false alarms per line origin "
                             "(mutation kind, agreeing or contradicting twin)")
    parser.set_defaults(func=run_calibrate)
    return parser


def _fail(message: str) -> int:
    print(f"{_PROG}: {message}", file=sys.stderr)
    return 2


def _settings(args: argparse.Namespace) -> EngineSettings:
    """The engine's settings from the command line (every limit not on it: the defaults)."""
    return engine_settings(spelling=CALIBRATE, jury=args.jury, prompts=args.prompts,
                           store=args.store, store_mode=args.record,
                           concurrency=args.concurrency)


def _check_jury(jury: list[str], record: str) -> str | None:
    problems = model_problems(jury, "--jury", need_keys=record != "none")
    if not problems:
        return None
    return "\n  ".join(problems) + "\n  (or calibrate offline with --jury builtin/rules)"


def _studies(folder: Path) -> tuple[dict[str, Study], list[str]]:
    loads = load_folder(folder)
    studies = {load.study.id: load.study for load in loads if load.study is not None}
    broken = [load.error.render() for load in loads if load.error is not None]
    return studies, broken


def run_calibrate(args: argparse.Namespace) -> int:
    """Run ``rwe calibrate``: 0 on success, 1 when a juror could not be asked about some
    summaries (the figures leave them out), 2 on bad input or unusable jurors."""
    try:
        settings = _settings(args)
        thresholds = parse_thresholds(args.threshold, "--threshold")
    except SettingsError as error:
        return _fail(str(error))
    jury = list(settings.jury)
    if args.resamples < 1:
        return _fail(f"--resamples: {args.resamples} must be 1 or more")
    problem = _check_jury(jury, args.record)
    if problem:
        return _fail(problem)
    folder = Path(args.cases)
    if not folder.is_dir():
        return _fail(f"--cases: {folder} is not a folder of study JSON files")
    studies, broken = _studies(folder)
    for message in broken:
        print(message, file=sys.stderr)  # a broken study is named if a label needs it
    try:
        items = load_labeled(args.labeled, set(studies))
        config = engine_config(settings)  # a broken template is named before any call
    except (LabeledSetError, PromptFileError) as error:
        return _fail(str(error))
    engine = build_engine(settings, config=config, preload=())
    started = time.perf_counter()
    try:
        # each judge() runs one summary's jurors x criteria concurrently; threads overlap
        # summaries so the per-provider gates, not this loop, bound the calls in flight
        verdicts = judge_labeled(items, studies, engine.judge,
                                 workers=max(1, min(args.concurrency, 32)))
    finally:
        engine.close()
    elapsed = time.perf_counter() - started
    result = calibrate(items, verdicts, jury, thresholds=thresholds, resamples=args.resamples)
    errors = _report_abstentions(verdicts)
    print(f"{_PROG}: judged {len(items)} labeled summaries with {len(jury)} juror(s) in "
          f"{elapsed:.1f} s", file=sys.stderr)
    coverage = rules_coverage(items, studies) if RULES_JUROR in jury else None
    origins = by_origin(items, verdicts, thresholds) if args.by_origin else None
    if args.json:
        data = to_json(result)
        if coverage is not None:
            data["coverage"] = {RULES_JUROR: coverage}
        if origins is not None:
            data["by_origin"] = origins
        print(json.dumps(data, indent=2))
    else:
        print(format_table(result))
        if coverage is not None:
            share = "n/a" if coverage["share"] is None else f"{coverage['share']:.1%}"
            print(f"{RULES_JUROR} coverage: {coverage['grounded']} of {coverage['claims']} "
                  f"claims tied to an outcome and a group ({share}); the others are not "
                  "judged")
        if origins is not None:
            print("\n" + format_by_origin(origins))
    if args.show_disagreements:
        out = sys.stderr if args.json else sys.stdout
        rows = disagreements(items, verdicts, thresholds)
        print(f"\n{len(rows)} disagreements between the jury and the labels:", file=out)
        for row in rows:
            print(f"- {row['summary_id']} ({row['file']}:{row['line']}) {row['criterion']}: "
                  f"label {row['label']}, jury {row['jury']}", file=out)
            for reason in row["jurors"]:
                print(f"    {reason}", file=out)
            if row["note"]:
                print(f"    label note: {row['note']}", file=out)
    if errors:
        # the figures leave those summaries out: a gate must not pass on a partial measure
        print(f"{_PROG}: {errors} judgment(s) could not be made (see above); the figures leave "
              "those summaries out (column 'juror errors'); exit status 1", file=sys.stderr)
        return 1
    return 0


RULES_JUROR = "builtin/rules"


def rules_coverage(items: list[LabeledSummary], studies: dict[str, Study]) -> dict[str, Any]:
    """How many of the summaries' claims the rules juror tied to an outcome and a group."""
    from pytest_rwe.rules.claims import analyze

    grounded = claims = 0
    for item in items:
        g, n = analyze(studies[item.study_id], item.text).coverage()
        grounded += g
        claims += n
    return {"claims": claims, "grounded": grounded,
            "share": grounded / claims if claims else None}


def _report_abstentions(verdicts: list[Verdict]) -> int:
    """Say why jurors abstained (a replay miss, an unreadable reply) or could not be asked
    (a failed call, a juror that raised): the first reason per juror and kind. Returns the
    number of judgments that could not be made."""
    seen: dict[tuple[str, bool], tuple[int, str]] = {}
    for verdict in verdicts:
        for criterion_verdict in verdict.criteria.values():
            for score in criterion_verdict.scores:
                if score.score is None:
                    kind = (score.juror, score.error is not None)
                    count, reason = seen.get(kind, (0, score.error or score.explanation))
                    seen[kind] = (count + 1, reason)
    for (juror, error), (count, reason) in seen.items():
        what = "could not be asked" if error else "abstained"
        print(f"{_PROG}: {juror} {what} {count} time(s); first reason: "
              f"{redact(reason)[:300]}", file=sys.stderr)
    return sum(count for (_, error), (count, _) in seen.items() if error)
