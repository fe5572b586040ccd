"""The plain-text tables of ``rwe calibrate``: the metrics per rater, and the jury's counts
per line origin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pytest_rwe.verdict import Criterion

if TYPE_CHECKING:  # the metrics are defined beside the measurement, which imports this module
    from pytest_rwe.calibrate import Calibration, CriterionMetrics

__all__ = ["format_by_origin", "format_table"]


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _kappa(metrics: CriterionMetrics) -> str:
    if metrics.kappa is None:
        return "n/a"
    ci = f" [{metrics.kappa_ci[0]:.2f}, {metrics.kappa_ci[1]:.2f}]" if metrics.kappa_ci else ""
    return f"{metrics.kappa:.3f}{ci}"


def _rows(title: str, metrics: Mapping[Criterion, CriterionMetrics]) -> list[list[str]]:
    rows = []
    for criterion, m in metrics.items():
        rows.append([title, criterion, str(m.n), _share(m.accuracy), _share(m.sensitivity),
                     _share(m.specificity), _kappa(m), f"{m.caught}/{m.caught + m.missed}",
                     str(m.false_alarms), str(m.abstained), str(m.errors)])
        title = ""
    return rows


def format_table(result: Calibration) -> str:
    """A plain-text table: one block per juror, then the jury, then agreement."""
    header = ["rater", "criterion", "n", "accuracy", "sensitivity", "specificity",
              "kappa [95% CI]", "caught", "false alarms", "abstained", "juror errors"]
    rows = [header]
    for juror, metrics in result.jurors.items():
        rows += _rows(juror, metrics)
    limits = sorted(set(result.thresholds.values()))
    shown = f"{limits[0]:g}" if len(limits) == 1 else "per criterion"
    rows += _rows(f"jury (mean >= {shown})", result.jury)
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    lines.insert(1, "-" * len(lines[0]))
    agreement = ", ".join(f"{c} {'n/a' if k is None else f'{k:.3f}'}"
                          for c, k in result.agreement.items())
    lines.append("")
    lines.append(f"{result.summaries} labeled summaries; a 0 label (wrong) is the positive class: "
                 "sensitivity = errors caught, specificity = correct summaries passed")
    lines.append("agreement among jurors (Fleiss' kappa): "
                 + (agreement if len(result.jurors) > 1 else "n/a (one juror)"))
    return "\n".join(lines)


def format_by_origin(counts: Mapping[str, Mapping[str, Mapping[str, int]]]) -> str:
    """A plain-text table of :func:`by_origin`."""
    header = ["origin", "criterion", "n", "caught", "missed", "passed", "false alarms",
              "abstained", "juror errors"]
    rows = [header]
    for origin, per in counts.items():
        title = origin
        for criterion, cell in per.items():
            rows.append([title, criterion, str(cell["n"]), str(cell["caught"]),
                         str(cell["missed"]), str(cell["passed"]), str(cell["false_alarms"]),
                         str(cell["abstained"]), str(cell["errors"])])
            title = ""
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)
