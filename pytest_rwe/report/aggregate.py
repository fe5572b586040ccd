"""Evaluation records -> the aggregate sections of report.json (pure, deterministic).

Records are sorted by (study, model, repeat) before anything is computed and every
bootstrap is seeded per (model, key), so the aggregates do not depend on the order in which
records arrived: a run under ``pytest -n 8`` gives the same numbers as a plain run.

Per study, a model's value of a criterion is its jury mean (averaged over repeats); a study
where every juror abstained, where fewer jurors than the quorum answered, or where the model
wrote no summary, has no value and is left out of that mean (``n`` says how many studies
count; ``errors`` how many summaries failed; ``no_quorum`` how many verdicts lacked one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_rwe.providers.families import same_family_jurors, vendor_family
from pytest_rwe.providers.prices import PriceTable, default_prices
from pytest_rwe.report.config import ReportSettings
from pytest_rwe.report.cost import cost_section, model_usage, summary_usd
from pytest_rwe.report.evidence import criterion_value, min_gate, quorum_met
from pytest_rwe.report.repeats import repeat_passes, repeat_section
from pytest_rwe.report.variants import variants_section
from pytest_rwe.rules.diagnostics import aggregate_claims
from pytest_rwe.stats import (
    CI,
    FleissKappa,
    bradley_terry,
    differences_from_top,
    fleiss_kappa,
    mean_ci,
    score_models,
    weight_sensitivity,
)
from pytest_rwe.stats.pairwise import WEIGHTED_SCORE
from pytest_rwe.stats.resolution import Resolution, ranking_resolution
from pytest_rwe.stats.rubric import ALL_KEYS, COST, RUBRIC_KEYS, RubricResult
from pytest_rwe.stats.sensitivity import DEFAULT_UPPER
from pytest_rwe.verdict import CRITERIA, INFERENCE_TIME

Record = Mapping[str, Any]
BADGES = ("green", "yellow", "red")
_BADGE_ORDER = {badge: i for i, badge in enumerate(BADGES)}


def sorted_records(records: Sequence[Record]) -> list[Record]:
    """Records in (study, model, repeat) order: the order every computation uses."""
    return sorted(records, key=lambda r: (str(r["study"]), str(r["model"]), int(r["repeat"])))


def model_order(records: Sequence[Record], preferred: Sequence[str] = ()) -> list[str]:
    """The models of the records: those in ``preferred`` first, in its order, then the rest."""
    present = {str(r["model"]) for r in records}
    ordered = [m for m in preferred if m in present]
    return ordered + sorted(present - set(ordered))


def juror_order(records: Sequence[Record], preferred: Sequence[str] = ()) -> list[str]:
    """The jurors that answered in the records, ``preferred`` (the configured jury) first."""
    present: set[str] = set()
    for record in records:
        for verdict in (record.get("verdict") or {}).values():
            present.update(str(j["juror"]) for j in verdict["jurors"])
    ordered = [j for j in preferred if j in present]
    return ordered + sorted(present - set(ordered))


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def per_study_values(records: Sequence[Record], prices: PriceTable | None = None,
                     ) -> dict[str, dict[str, dict[str, float | None]]]:
    """study -> model -> {criterion: jury mean, "inference_time": seconds, "cost": USD of the
    summary call} (repeats averaged); ``prices``: None, the shipped table."""
    prices = prices or default_prices()
    collected: dict[str, dict[str, dict[str, list[float]]]] = {}
    for record in sorted_records(records):
        cell = collected.setdefault(str(record["study"]), {}).setdefault(
            str(record["model"]), {key: [] for key in ALL_KEYS})
        verdict = record.get("verdict") or {}
        for criterion in CRITERIA:
            mean = criterion_value(verdict.get(criterion))
            if mean is not None:
                cell[criterion].append(mean)
        summary = record.get("summary")
        if summary and summary.get("latency_s") is not None:
            cell[INFERENCE_TIME].append(float(summary["latency_s"]))
        usd = summary_usd(record, prices)
        if usd is not None:
            cell[COST].append(usd)
    return {study: {model: {key: _mean(values) for key, values in cell.items()}
                    for model, cell in by_model.items()}
            for study, by_model in collected.items()}


def _ci_dict(ci: CI | None, n: int) -> dict[str, Any]:
    if ci is None:
        return {"mean": None, "ci_low": None, "ci_high": None, "n": n}
    return {"mean": ci.mean, "ci_low": ci.low, "ci_high": ci.high, "n": n}


def _interval(values: list[float], settings: ReportSettings, seed: str) -> CI | None:
    if not values:
        return None
    return mean_ci(values, resamples=settings.resamples, seed=f"{settings.seed}:{seed}",
                   level=settings.level)


def _kappa_dict(kappa: FleissKappa, jurors: int) -> dict[str, Any]:
    note = None
    if jurors < 2:
        note = "one juror: agreement needs two or more"
    elif kappa.kappa is None and kappa.subjects:
        note = "every answer was the same score: kappa is undefined (agreement is total)"
    elif not kappa.subjects:
        note = "no summary had two or more answers"
    return {"kappa": kappa.kappa, "observed": kappa.observed, "expected": kappa.expected,
            "subjects": kappa.subjects, "excluded": kappa.excluded, "ratings": kappa.ratings,
            "abstentions": kappa.abstentions, "note": note}


def agreement(records: Sequence[Record], jurors: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Fleiss' kappa per criterion; subjects are summaries, raters the jurors (None = absent)."""
    result: dict[str, dict[str, Any]] = {}
    for criterion in CRITERIA:
        rows: list[list[int | None]] = []
        for record in sorted_records(records):
            verdict = (record.get("verdict") or {}).get(criterion)
            if not verdict:
                continue
            by_juror = {str(j["juror"]): j["score"] for j in verdict["jurors"]}
            rows.append([by_juror.get(juror) for juror in jurors])
        result[criterion] = _kappa_dict(fleiss_kappa(rows), len(jurors))
    return result


def juror_status(answer: Mapping[str, Any]) -> str:
    """"scored", "abstained" (answered unreadably) or "error" (could not be asked); records
    older than the status field count every missing score as an abstention."""
    status = answer.get("status")
    if status in ("scored", "abstained", "error"):
        return str(status)
    return "abstained" if answer.get("score") is None else "scored"


def _count_status(records: Sequence[Record], models: Sequence[str], jurors: Sequence[str],
                  status: str) -> dict[str, Any]:
    by_juror = {j: dict.fromkeys(CRITERIA, 0) for j in jurors}
    by_model = {m: dict.fromkeys(CRITERIA, 0) for m in models}
    total = 0
    for record in records:
        for criterion, verdict in (record.get("verdict") or {}).items():
            for answer in verdict["jurors"]:
                if juror_status(answer) == status:
                    total += 1
                    by_juror.setdefault(str(answer["juror"]), dict.fromkeys(CRITERIA, 0))
                    by_juror[str(answer["juror"])][criterion] += 1
                    by_model[str(record["model"])][criterion] += 1
    return {"total": total, "by_juror": by_juror, "by_model": by_model}


def abstentions(records: Sequence[Record], models: Sequence[str],
                jurors: Sequence[str]) -> dict[str, Any]:
    """Abstentions (a juror answered, unreadably after one repair) in total, per juror and
    per model, each per criterion. Jurors that could not be asked are :func:`juror_errors`."""
    return _count_status(records, models, jurors, "abstained")


def juror_errors(records: Sequence[Record], models: Sequence[str],
                 jurors: Sequence[str]) -> dict[str, Any]:
    """Jurors that could not be asked (a failed call, a bug in provider code), counted like
    :func:`abstentions` and apart from them."""
    return _count_status(records, models, jurors, "error")


def badge_grid(records: Sequence[Record]) -> dict[str, dict[str, str]]:
    """study -> model -> badge; with repeats, the worst badge of the repeats."""
    grid: dict[str, dict[str, str]] = {}
    for record in sorted_records(records):
        cell = grid.setdefault(str(record["study"]), {})
        badge = str(record.get("badge") or "red")
        model = str(record["model"])
        if model not in cell or _BADGE_ORDER.get(badge, 2) > _BADGE_ORDER.get(cell[model], 2):
            cell[model] = badge
    return grid


def _model_stats(model: str, records: Sequence[Record], per_study: Mapping[str, Any],
                 settings: ReportSettings, badges: Mapping[str, Mapping[str, str]],
                 prices: PriceTable) -> dict[str, Any]:
    mine = [r for r in records if r["model"] == model]
    values = [by_model[model] for by_model in per_study.values() if model in by_model]
    criteria = {}
    for criterion in CRITERIA:
        xs = [float(v[criterion]) for v in values if v[criterion] is not None]
        criteria[criterion] = _ci_dict(_interval(xs, settings, f"{model}:{criterion}"), len(xs))
        criteria[criterion]["passed"] = sum(1 for r in mine if repeat_passes(r, criterion))
        cells = [(r.get("verdict") or {}).get(criterion) for r in mine]
        criteria[criterion]["no_quorum"] = sum(
            1 for c in cells if c and c.get("mean") is not None and not quorum_met(c))
    times = [float(v[INFERENCE_TIME]) for v in values if v[INFERENCE_TIME] is not None]
    costs = [float(v[COST]) for v in values if v[COST] is not None]
    counts = dict.fromkeys(BADGES, 0)
    for by_model in badges.values():
        if model in by_model:
            counts[by_model[model]] = counts.get(by_model[model], 0) + 1

    def tokens(field: str) -> int | None:
        known = [int(r["summary"][field]) for r in mine
                 if r.get("summary") and r["summary"].get(field) is not None]
        return sum(known) if known else None

    return {
        "studies": len(values),
        "summaries": len(mine),
        "errors": sum(1 for r in mine if r.get("summary") is None),
        "criteria": criteria,
        INFERENCE_TIME: _ci_dict(_interval(times, settings, f"{model}:{INFERENCE_TIME}"),
                                 len(times)),
        # USD per summary: the model's own calls (the rubric's cost key)
        COST: _ci_dict(_interval(costs, settings, f"{model}:{COST}"), len(costs)),
        "tokens": {"input": tokens("input_tokens"), "output": tokens("output_tokens")},
        **model_usage(model, mine, prices),
        "badges": counts,
        # what the summaries claim per outcome, read by the rules juror's claim extraction
        "claims": aggregate_claims(r["claims"] for r in mine if r.get("claims")),
    }


def self_judging(records: Sequence[Record], models: Sequence[str],
                 jurors: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per model with a juror of its own vendor family: those jurors, and which were dropped
    (``--rwe-exclude-self``) from its pairs."""
    section: dict[str, dict[str, Any]] = {}
    for model in models:
        same = list(same_family_jurors(model, jurors))
        if not same:
            continue
        dropped = sorted({str(j) for r in records if r["model"] == model
                          for j in r.get("excluded_jurors") or ()})
        section[model] = {"family": vendor_family(model), "jurors": same, "excluded": dropped}
    return section


def _rubric_fields(result: RubricResult, model: str) -> dict[str, Any]:
    score = result.models[model]
    return {"normalized": dict(score.normalized), "weighted_sum": score.weighted_sum,
            "score": score.score, "rank": score.rank, "missing": list(score.missing)}


def _resolution_dict(resolution: Resolution | None) -> dict[str, Any] | None:
    if resolution is None:
        return None
    diff = resolution.difference
    return {"top": resolution.top, "runner_up": resolution.runner_up,
            "resolved": resolution.resolved, "difference": diff.mean, "ci_low": diff.low,
            "ci_high": diff.high, "top_share": resolution.top_share,
            "resamples": resolution.resamples, "level": resolution.level}


def _ci_or_none(ci: CI | None) -> dict[str, float] | None:
    return None if ci is None else {"mean": ci.mean, "ci_low": ci.low, "ci_high": ci.high}


def aggregate(records: Sequence[Record], settings: ReportSettings, *,
              models: Sequence[str] = (), jury: Sequence[str] = (),
              no_study: str | None = None, variants: Sequence[str] = (),
              variant_prompts: Mapping[str, Mapping[str, Any]] | None = None,
              ) -> dict[str, Any]:
    """Every aggregate section of report.json from the run's records.

    ``models`` and ``jury`` give the configured order; models or jurors that only appear in
    the records follow in sorted order. The gate covers the configured models too: one with
    no record fails it (``no_study`` names the cause when the cases folder held none).
    ``variants`` is the run's prompt variants in order (the first is the reference) and
    ``variant_prompts`` each one's prompt record (see :mod:`pytest_rwe.report.variants`).
    """
    ordered = sorted_records(records)
    names = model_order(ordered, models)
    jurors = juror_order(ordered, jury)
    prices = settings.prices or default_prices()
    per_study = per_study_values(ordered, prices)
    badges = badge_grid(ordered)
    stats = {m: _model_stats(m, ordered, per_study, settings, badges, prices) for m in names}
    means = {m: {**{c: s["criteria"][c]["mean"] for c in CRITERIA},
                 INFERENCE_TIME: s[INFERENCE_TIME]["mean"], COST: s[COST]["mean"]}
             for m, s in stats.items()}
    rubric = score_models(means, weights=settings.weights, normalize_max=settings.normalize_max)
    for m in names:
        stats[m].update(_rubric_fields(rubric, m))
    ranking = [s.model for s in rubric.ranking() if s.rank is not None]
    resolution = ranking_resolution(per_study, rubric, weights=settings.weights,
                                    normalize_max=settings.normalize_max,
                                    resamples=settings.bt_resamples, seed=settings.seed,
                                    level=settings.level)

    bt_section: dict[str, Any] | None = None
    diffs_section: dict[str, Any] | None = None
    time_weight, tolerance = settings.bt_time_weight, settings.time_tolerance
    pairwise = {"time_weight": time_weight, "time_tolerance": tolerance}
    if len(names) >= 2:
        bt = bradley_terry(per_study, weights=settings.weights, resamples=settings.bt_resamples,
                           seed=settings.seed, level=settings.level, time_weight=time_weight,
                           time_tolerance=tolerance)
        for rating in bt.ratings:
            stats[rating.model]["bradley_terry"] = {
                "rating": rating.rating, "ci_low": rating.low, "ci_high": rating.high,
                "wins": rating.wins, "comparisons": rating.comparisons}
        bt_section = {"top": bt.top, "studies": bt.studies, "resamples": bt.resamples,
                      "seed": bt.seed, "level": bt.level, "prior": bt.prior,
                      "criteria": [c for c in CRITERIA if settings.weights[c]], **pairwise}
        top = ranking[0] if ranking else bt.top
        if top is not None:
            diffs = differences_from_top(per_study, top, weights=settings.weights,
                                         resamples=settings.resamples, seed=settings.seed,
                                         level=settings.level, time_weight=time_weight,
                                         time_tolerance=tolerance)
            for model, by_key in diffs.items():
                stats[model]["difference_from_top"] = {k: _ci_or_none(ci)
                                                       for k, ci in by_key.items()}
            diffs_section = {"top": top, "keys": [*RUBRIC_KEYS, WEIGHTED_SCORE],
                             "resamples": settings.resamples, "level": settings.level}
    for m in names:
        stats[m].setdefault("bradley_terry", None)
        stats[m].setdefault("difference_from_top", None)

    sensitivity = weight_sensitivity(means, weights=settings.weights,
                                     normalize_max=settings.normalize_max)
    return {
        "studies": sorted(per_study),
        "models": stats,
        "rubric": {"normalization_defined": rubric.normalization_defined, "note": rubric.note,
                   "dropped": list(rubric.dropped), "undefined": list(rubric.undefined),
                   "ranking": ranking, "top": ranking[0] if ranking else None,
                   "resolution": _resolution_dict(resolution)},
        "agreement": agreement(ordered, jurors),
        "abstentions": abstentions(ordered, names, jurors),
        "juror_errors": juror_errors(ordered, names, jurors),
        "badges": badges,
        "bradley_terry": bt_section,
        "differences_from_top": diffs_section,
        "sensitivity": {
            key: {"weight": s.weight, "top": list(s.top), "low": s.low, "high": s.high,
                  "scan_end": max(DEFAULT_UPPER, s.weight),
                  "below": list(s.below) if s.below is not None else None,
                  "above": list(s.above) if s.above is not None else None}
            for key, s in sensitivity.items()},
        "gate": min_gate({m: s["criteria"] for m, s in stats.items()}, settings.minimums,
                         ordered, models=models, no_study=no_study),
        "repeats": repeat_section(ordered, names, rule=settings.repeat_rule,
                                  interval=lambda xs, key: _ci_dict(
                                      _interval(xs, settings, key), len(xs))),
        "self_judging": self_judging(ordered, names, [*dict.fromkeys([*jury, *jurors])]),
        "bootstrap": {"resamples": settings.resamples, "level": settings.level,
                      "seed": settings.seed},
        "jurors": jurors,
        "variants": variants_section(ordered, per_study, settings, variants=variants,
                                     jury=list(jury) or jurors, prompts=variant_prompts),
        "cost": cost_section(ordered, names, [*dict.fromkeys([*jury, *jurors])], prices),
    }
