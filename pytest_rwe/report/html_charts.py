"""Inline SVG charts for report.html: bars with interval whiskers, and a rating plot (pure).

Every label is HTML-escaped here; numbers are formatted by the caller's patterns.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_rwe import escape

PALETTE = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
_LABEL_W = 190
_BAR_W = 260
_VALUE_W = 150
_ROW_H = 26
_TOP = 8
_AXIS_H = 22


def colour(index: int) -> str:
    """The colour of the index-th model, the same in every chart."""
    return PALETTE[index % len(PALETTE)]


@dataclass(frozen=True)
class Bar:
    """One model's value and interval on one chart; None when it has no value."""

    label: str
    index: int  # the model's position, for its colour
    value: float | None
    low: float | None
    high: float | None


def _short(label: str, limit: int = 28) -> str:
    return label if len(label) <= limit else "…" + label[-(limit - 1):]


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering [lo, hi]."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / max(1, target - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    value = first
    while value <= hi + step * 1e-9:
        ticks.append(round(value, 12))
        value += step
    return ticks


def bar_chart(title: str, bars: Sequence[Bar], *, lo: float = 0.0, hi: float | None = None,
              pattern: str = "{:.2f}", chart_id: str = "") -> str:
    """Horizontal bars from ``lo`` with a whisker over each interval; ``hi`` defaults to the
    largest value or bound."""
    tops = [v for b in bars for v in (b.value, b.high) if v is not None]
    top = hi if hi is not None else (max(tops) * 1.1 if tops and max(tops) > lo else lo + 1.0)
    span = (top - lo) or 1.0
    width = _LABEL_W + _BAR_W + _VALUE_W
    height = _TOP + _ROW_H * len(bars) + _AXIS_H

    def x(v: float) -> float:
        return _LABEL_W + _BAR_W * (min(max(v, lo), top) - lo) / span

    parts = [f'<svg class="chart" id="{escape.html(chart_id)}" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>{escape.html(title)}</title>']
    for tick in nice_ticks(lo, top):
        tx = x(tick)
        parts.append(f'<line x1="{tx:.1f}" y1="{_TOP - 4}" x2="{tx:.1f}" '
                     f'y2="{height - _AXIS_H + 2}" class="grid"/>'
                     f'<text x="{tx:.1f}" y="{height - 6}" class="tick">'
                     f'{tick:g}</text>')
    for row, bar in enumerate(bars):
        y = _TOP + row * _ROW_H
        mid = y + _ROW_H / 2
        parts.append(f'<text x="{_LABEL_W - 8}" y="{mid + 4:.1f}" class="label">'
                     f'<title>{escape.html(bar.label)}</title>{escape.html(_short(bar.label))}</text>')
        if bar.value is None:
            parts.append(f'<text x="{_LABEL_W + 4}" y="{mid + 4:.1f}" class="value">n/a</text>')
            continue
        parts.append(f'<rect x="{_LABEL_W}" y="{y + 5}" width="{x(bar.value) - _LABEL_W:.1f}" '
                     f'height="{_ROW_H - 10}" fill="{colour(bar.index)}" class="bar"/>')
        text = pattern.format(bar.value)
        if bar.low is not None and bar.high is not None:
            x1, x2 = x(bar.low), x(bar.high)
            parts.append(f'<path d="M{x1:.1f} {mid:.1f}H{x2:.1f}M{x1:.1f} {mid - 6:.1f}'
                         f'V{mid + 6:.1f}M{x2:.1f} {mid - 6:.1f}V{mid + 6:.1f}" '
                         'class="whisker"/>')
            text += f" [{pattern.format(bar.low)}, {pattern.format(bar.high)}]"
        parts.append(f'<text x="{_LABEL_W + _BAR_W + 8}" y="{mid + 4:.1f}" class="value">'
                     f'{escape.html(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def point_chart(title: str, points: Sequence[Bar], *, pattern: str = "{:.0f}",
                chart_id: str = "", centre: float | None = None) -> str:
    """Points with interval whiskers on an axis fitted to the intervals (Bradley-Terry)."""
    values = [v for p in points for v in (p.low, p.high, p.value) if v is not None]
    if centre is not None:
        values.append(centre)
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    pad = (hi - lo) * 0.08 or 10.0
    lo, hi = lo - pad, hi + pad
    width = _LABEL_W + _BAR_W + _VALUE_W
    height = _TOP + _ROW_H * len(points) + _AXIS_H

    def x(v: float) -> float:
        return _LABEL_W + _BAR_W * (v - lo) / (hi - lo)

    parts = [f'<svg class="chart" id="{escape.html(chart_id)}" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>{escape.html(title)}</title>']
    for tick in nice_ticks(lo, hi):
        parts.append(f'<line x1="{x(tick):.1f}" y1="{_TOP - 4}" x2="{x(tick):.1f}" '
                     f'y2="{height - _AXIS_H + 2}" class="grid"/><text x="{x(tick):.1f}" '
                     f'y="{height - 6}" class="tick">{tick:g}</text>')
    if centre is not None:
        parts.append(f'<line x1="{x(centre):.1f}" y1="{_TOP - 4}" x2="{x(centre):.1f}" '
                     f'y2="{height - _AXIS_H + 2}" class="centre"/>')
    for row, point in enumerate(points):
        mid = _TOP + row * _ROW_H + _ROW_H / 2
        parts.append(f'<text x="{_LABEL_W - 8}" y="{mid + 4:.1f}" class="label">'
                     f'<title>{escape.html(point.label)}</title>{escape.html(_short(point.label))}</text>')
        if point.value is None:
            continue
        text = pattern.format(point.value)
        if point.low is not None and point.high is not None:
            parts.append(f'<path d="M{x(point.low):.1f} {mid:.1f}H{x(point.high):.1f}" '
                         f'class="whisker" stroke="{colour(point.index)}"/>')
            text += f" [{pattern.format(point.low)}, {pattern.format(point.high)}]"
        parts.append(f'<circle cx="{x(point.value):.1f}" cy="{mid:.1f}" r="6" '
                     f'fill="{colour(point.index)}"/>')
        parts.append(f'<text x="{_LABEL_W + _BAR_W + 8}" y="{mid + 4:.1f}" class="value">'
                     f'{escape.html(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)
