"""Command-line options and ini keys of the plugin, and the readers of the settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_rwe.settings import (
    DEFAULT_CONCURRENCY,
    DEFAULT_DEADLINE_S,
    DEFAULT_JURY,
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_RETRY_CAP_S,
    DEFAULT_STORE,
    DEFAULT_TIMEOUT_S,
    RECORD_MODES,
    REPEAT_RULES,
    RweSettings,
    SettingsError,
    build_settings,
    parse_variants,
)


def add_options(parser: pytest.Parser) -> None:
    """Register every ``--rwe-*`` option and ``rwe_*`` ini key (in ``--help`` order)."""
    _add_run_options(parser)
    add_baseline_options(parser)  # --rwe-baseline, --rwe-max-drop
    add_jury_options(parser)  # --rwe-quorum, --rwe-exclude-self, --rwe-repeat-rule
    add_report_options(parser)  # --rwe-bt-time-weight
    add_cost_options(parser)  # --rwe-plan, --rwe-prices


def _add_run_options(parser: pytest.Parser) -> None:
    """The models, studies, store, limits and rubric options."""
    group = parser.getgroup("rwe", "pytest-rwe: LLM summaries of real-world-evidence studies")
    group.addoption("--rwe-model", action="append", default=[], metavar="MODEL",
                    help="model under test, provider/model or a bare vendor name; repeatable. "
                         "Append @URL to send one model to an OpenAI-compatible server "
                         "(default: ini rwe_models)")
    group.addoption("--rwe-jury", metavar="J1,J2,...",
                    help="comma-separated jurors (default: ini rwe_jury, else "
                         + ",".join(DEFAULT_JURY) + ")")
    group.addoption("--rwe-cases", metavar="DIR",
                    help="folder of study JSON files (default: ini rwe_cases, cases/studies)")
    group.addoption("--rwe-select", action="append", default=[], metavar="KEY=VALUE,...",
                    help="run only the studies whose tags match, e.g. design=case_series or "
                         "'measure=HR|OR,source!=legend-htn': key=a|b (either), key!=a "
                         "(neither), case-insensitive shell wildcards; a comma joins "
                         "conditions that all hold; repeatable. Keys: id; design (cohort, "
                         "case_series, cross_sectional); measure (HR, OR, RR, IRR, MD, RD, "
                         "PCT, N); area (source.therapeutic_area, e.g. cardiology); source "
                         "(literature, legend-htn, or source.collection); hard (true: 9 or "
                         "more outcomes); timepoints (true, false); significance (all, none, "
                         "mixed, unreported). A key or value no study has, or a selection of "
                         "no study, is a usage error (default: ini rwe_select)")
    group.addoption("--rwe-prompts", action="append", default=[], metavar="DIR",
                    help="folder of prompt templates overriding the packaged defaults "
                         "(default: ini rwe_prompts, else a 'prompts' folder beside the "
                         "cases); given more than once, each folder is a prompt variant "
                         "named after it, and the report compares them")
    group.addoption("--rwe-variant", action="append", default=[], metavar="NAME=DIR",
                    help="a prompt variant: the templates in DIR over the default prompts; "
                         "repeatable; every model runs with each variant (test ids "
                         "MODEL+NAME) and the report compares each variant with the first "
                         "(the default prompts, named 'default', unless --rwe-prompts is "
                         "given) (default: ini rwe_variants, one NAME=DIR per line)")
    group.addoption("--rwe-repeat", type=int, metavar="N",
                    help="independent summaries per (model, study) (default: ini rwe_repeat, 1)")
    group.addoption("--rwe-record", choices=RECORD_MODES, metavar="MODE",
                    help="new: replay stored responses, call and store the rest (default); "
                         "none: replay only, a miss fails; all: call everything and overwrite")
    group.addoption("--rwe-store", metavar="PATH",
                    help=f"response store folder (default: ini rwe_store, {DEFAULT_STORE})")
    group.addoption("--rwe-concurrency", type=int, metavar="N",
                    help="ceiling of concurrent calls per provider for the whole run (xdist "
                         "workers and other runs on the same store share it); below it the "
                         "concurrency adapts to the provider's 429s and overloads "
                         f"(default: ini rwe_concurrency, {DEFAULT_CONCURRENCY})")
    group.addoption("--rwe-max-attempts", type=int, metavar="N",
                    help="attempts per call on 5xx, timeouts and connection errors before it "
                         f"fails (default: ini rwe_max_attempts, {DEFAULT_MAX_ATTEMPTS}); a "
                         "rate-limited call retries until --rwe-deadline instead")
    group.addoption("--rwe-retry-cap", type=float, metavar="SECONDS",
                    help="longest Retry-After honoured before retrying anyway "
                         f"(default: ini rwe_retry_cap, {DEFAULT_RETRY_CAP_S:g})")
    group.addoption("--rwe-deadline", type=float, metavar="SECONDS",
                    help="how long one rate-limited call (429, 529 overloaded) keeps retrying "
                         "from its first attempt (default: ini rwe_deadline, "
                         f"{DEFAULT_DEADLINE_S:g})")
    group.addoption("--rwe-timeout", type=float, metavar="SECONDS",
                    help="longest wait for one attempt's answer (default: ini rwe_timeout, "
                         f"{DEFAULT_TIMEOUT_S:g})")
    group.addoption("--rwe-weights", metavar="KEY=W,...",
                    help="rubric weights, e.g. direction_of_effect=20,numbers_accurate=6,"
                         "completeness=5,inference_time=3 (these defaults; ini rwe_weights); "
                         "cost=W also ranks on USD per summary (off by default)")
    group.addoption("--rwe-normalize-max", metavar="KEY=MAX,...",
                    help="normalize a rubric key against this max instead of the observed one, "
                         "e.g. completeness=1.0 (ini rwe_normalize_max)")
    group.addoption("--rwe-min", metavar="CRITERION=MEAN,...",
                    help="quality gate: exit non-zero when a model's criterion mean over studies "
                         "is below it, e.g. direction_of_effect=0.9 (ini rwe_min)")
    group.addoption("--rwe-report", metavar="DIR",
                    help="write report.json, report.md and report.html into DIR (ini rwe_report)")

    parser.addini("rwe_models", "models under test", type="args", default=[])
    parser.addini("rwe_jury", "comma-separated jurors", default="")
    parser.addini("rwe_cases", "folder of study JSON files, relative to the rootdir",
                  default="cases/studies")
    parser.addini("rwe_select", "studies to run, one --rwe-select expression a line (all "
                  "hold), e.g. design=case_series", type="linelist", default=[])
    parser.addini("rwe_prompts", "folder of prompt templates, relative to the rootdir",
                  default="")
    parser.addini("rwe_variants", "prompt variants, one NAME=DIR per line (DIR relative to "
                  "the rootdir); --rwe-variant replaces them", type="linelist", default=[])
    parser.addini("rwe_thresholds",
                  "per-criterion pass thresholds on the jury mean, e.g. completeness=0.5",
                  default="")
    parser.addini("rwe_repeat", "independent summaries per (model, study)", default="1")
    parser.addini("rwe_record", "record mode: new, none or all", default="new")
    parser.addini("rwe_store", "response store folder, relative to the rootdir",
                  default=str(DEFAULT_STORE))
    parser.addini("rwe_concurrency", "concurrent calls per provider",
                  default=str(DEFAULT_CONCURRENCY))
    parser.addini("rwe_max_attempts", "attempts per call on 5xx, timeouts, connection errors",
                  default=str(DEFAULT_MAX_ATTEMPTS))
    parser.addini("rwe_retry_cap", "longest Retry-After honoured, in seconds",
                  default=f"{DEFAULT_RETRY_CAP_S:g}")
    parser.addini("rwe_deadline", "seconds one rate-limited call keeps retrying",
                  default=f"{DEFAULT_DEADLINE_S:g}")
    parser.addini("rwe_timeout", "seconds one attempt may take", default=f"{DEFAULT_TIMEOUT_S:g}")
    parser.addini("rwe_weights", "rubric weights, e.g. direction_of_effect=20,inference_time=3",
                  default="")
    parser.addini("rwe_normalize_max", "normalizing maxima, e.g. completeness=1.0", default="")
    parser.addini("rwe_min", "quality gate on criterion means, e.g. direction_of_effect=0.9",
                  default="")
    parser.addini("rwe_report", "folder for report.json/.md/.html, relative to the rootdir",
                  default="")


def add_baseline_options(parser: pytest.Parser) -> None:
    """Register ``--rwe-baseline`` and ``--rwe-max-drop`` with their ini keys."""
    group = parser.getgroup("rwe")
    group.addoption("--rwe-baseline", metavar="FILE",
                    help="compare this run per model and criterion with a saved report.json "
                         "(paired bootstrap over shared studies; ini rwe_baseline)")
    group.addoption("--rwe-max-drop", metavar="CRITERION=DROP,...",
                    help="baseline gate: exit non-zero when a criterion's difference from the "
                         "baseline lies entirely below -DROP, e.g. direction_of_effect=0.05 "
                         "(ini rwe_max_drop)")
    parser.addini("rwe_baseline", "saved report.json to compare with, relative to the rootdir",
                  default="")
    parser.addini("rwe_max_drop", "baseline gate, e.g. direction_of_effect=0.05", default="")


def add_jury_options(parser: pytest.Parser) -> None:
    """Register the quorum, self-judging and repeat-rule options and ini keys."""
    group = parser.getgroup("rwe")
    group.addoption("--rwe-quorum", metavar="N",
                    help="jurors that must answer for a criterion verdict; fewer fails the test, "
                         "naming who was missing and why (default: ini rwe_quorum, else a "
                         "majority of the jurors judging the pair)")
    group.addoption("--rwe-exclude-self", action="store_true", default=None,
                    help="drop a juror of the same vendor family as the model under test from "
                         "that model's pairs (ini rwe_exclude_self); without it such a juror "
                         "is only flagged")
    group.addoption("--rwe-repeat-rule", choices=REPEAT_RULES, metavar="RULE",
                    help="with --rwe-repeat N, what a criterion test asserts: all (every repeat "
                         "passes), majority (more than half pass) or mean (the mean over repeats "
                         "reaches the threshold) (default: ini rwe_repeat_rule, all)")
    parser.addini("rwe_quorum", "jurors that must answer for a criterion verdict", default="")
    parser.addini("rwe_exclude_self", "drop jurors of the model's own vendor family",
                  type="bool", default=False)
    parser.addini("rwe_repeat_rule", "all, majority or mean", default="all")


def add_report_options(parser: pytest.Parser) -> None:
    """Register the report options that live beside the rubric's (``--rwe-bt-time-weight``)."""
    group = parser.getgroup("rwe")
    group.addoption("--rwe-bt-time-weight", metavar="W",
                    help="Bradley-Terry: weight of being faster (by more than 10%% of the slower "
                         "time) in a per-study comparison; default 0: quality criteria only "
                         "(ini rwe_bt_time_weight)")
    parser.addini("rwe_bt_time_weight", "Bradley-Terry time weight (default 0: quality only)",
                  default="")


def add_cost_options(parser: pytest.Parser) -> None:
    """Register ``--rwe-plan``, ``--rwe-prices`` and ini ``rwe_prices``."""
    group = parser.getgroup("rwe")
    group.addoption("--rwe-plan", action="store_true", default=False,
                    help="print, per provider, the calls the run would make, how many are "
                         "stored, and the new ones' estimated tokens, cost and wall time; call "
                         "nothing and exit 0 (with --rwe-report DIR also write DIR/plan.json)")
    group.addoption("--rwe-prices", action="append", default=[], metavar="FILE",
                    help="JSON price file (USD per 1M tokens) overriding the shipped prices; "
                         "repeatable (ini rwe_prices: files or 'MODEL input=X output=Y' lines)")
    parser.addini("rwe_prices", "price files (relative to the rootdir) or lines "
                  "'MODEL input=2.0 output=8.0 [cached_input=0.5]' (USD per 1M tokens)",
                  type="linelist", default=[])


# The option-or-ini readers, one home: an option wins over its ini key; an option path is
# relative to the invocation folder, an ini path to the rootdir (where the ini file is).


def ini_text(config: pytest.Config, ini: str) -> str | None:
    """The ini key's value as text, or None when it is empty or not set."""
    return str(config.getini(ini) or "") or None


def option_text(config: pytest.Config, option: str, ini: str) -> str | None:
    """The option's value, else the ini key's, else None (both given as text)."""
    value = config.getoption(option)
    if value:
        return str(value)
    return ini_text(config, ini)


def option_path(config: pytest.Config, option: str, ini: str) -> Path | None:
    """The option's path (from the invocation folder), else the ini key's (from the rootdir),
    resolved; None when neither is given."""
    value = config.getoption(option)
    if isinstance(value, list):  # a repeatable option given once
        value = value[0] if len(value) == 1 else None
    if value:
        return (config.invocation_params.dir / str(value)).resolve()
    return ini_path(config, ini)


def ini_path(config: pytest.Config, ini: str) -> Path | None:
    """The ini key's path from the rootdir, resolved; None when it is not set."""
    raw = ini_text(config, ini)
    return (config.rootpath / raw).resolve() if raw else None


def option_int(config: pytest.Config, option: str, ini: str, default: int) -> int:
    """The option's whole number, else the ini key's, else ``default``."""
    value = config.getoption(option)
    if value is not None:
        return int(value)
    raw = str(config.getini(ini) or default)
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"ini {ini} = {raw!r} is not a whole number") from None


def option_seconds(config: pytest.Config, option: str, ini: str) -> float:
    """The option's number of seconds, else the ini key's (which has a default)."""
    value = config.getoption(option)
    if value is not None:
        return float(value)
    raw = str(config.getini(ini))
    try:
        return float(raw)
    except ValueError:
        raise SettingsError(f"ini {ini} = {raw!r} is not a number of seconds") from None


def read_settings(config: pytest.Config) -> RweSettings:
    """Read options and ini keys; raise :class:`pytest.UsageError` with the fix on bad values."""
    models = config.getoption("--rwe-model") or list(config.getini("rwe_models"))
    cases = option_path(config, "--rwe-cases", "rwe_cases") or Path("cases/studies").resolve()
    prompt_options, variant_options = (config.getoption("--rwe-prompts"),
                                       config.getoption("--rwe-variant"))
    variants_from, variants_here = "--rwe-variant", config.invocation_params.dir
    if not variant_options:
        # the ini's variants, folders from the rootdir like every ini path; the options win
        variant_options = list(config.getini("rwe_variants"))
        variants_from, variants_here = "ini rwe_variants", config.rootpath
    # with prompt variants, the run's default prompts (beneath each variant's) are the ones
    # a run without a prompts option would use
    prompts = (ini_path(config, "rwe_prompts") if variant_options or len(prompt_options) > 1
               else option_path(config, "--rwe-prompts", "rwe_prompts"))
    if prompts is None and (cases.parent / "prompts").is_dir():
        prompts = cases.parent / "prompts"
    store = option_path(config, "--rwe-store", "rwe_store") or DEFAULT_STORE.resolve()
    try:
        variants = parse_variants(prompt_options, variant_options,
                                  config.invocation_params.dir, variants_from=variants_from,
                                  variants_here=variants_here)
        return build_settings(
            variants=variants,
            models=models,
            jury=option_text(config, "--rwe-jury", "rwe_jury"),
            cases=cases,
            prompts=prompts,
            thresholds=ini_text(config, "rwe_thresholds"),
            repeat=option_int(config, "--rwe-repeat", "rwe_repeat", 1),
            record=option_text(config, "--rwe-record", "rwe_record") or "new",
            store=store,
            concurrency=option_int(config, "--rwe-concurrency", "rwe_concurrency",
                                   DEFAULT_CONCURRENCY),
            max_attempts=option_int(config, "--rwe-max-attempts", "rwe_max_attempts",
                                    DEFAULT_MAX_ATTEMPTS),
            retry_after_cap_s=option_seconds(config, "--rwe-retry-cap", "rwe_retry_cap"),
            deadline_s=option_seconds(config, "--rwe-deadline", "rwe_deadline"),
            timeout_s=option_seconds(config, "--rwe-timeout", "rwe_timeout"),
        )
    except SettingsError as exc:
        raise pytest.UsageError(str(exc)) from None


def relative(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` when it lies below it, for readable messages."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)
