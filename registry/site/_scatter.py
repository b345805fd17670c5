"""A model's serving chart as static SVG: output tokens/s per accelerator against tokens/s per user.

One marker per result (colour: the accelerator; shape: the source), the Pareto front of each precision
as a line through exactly its non-dominated points, each physical roof as a dashed line labelled as
a bound, and the results with no per-user rate in a band of their own at the left edge. A result placed
by the TPOT limit it met carries an arrow to the right: it is at least that interactive. Every marker is
a link to its record with a ``<title>`` (the hover and the accessible name) that names the system, the
accelerators, the engine, the precision and both figures. Every piece of record text goes in escaped.

The chart is drawn twice, for a wide window and for a phone, each at the width it is shown, so that its
text stays 12 px on either (a wide chart scaled down to a phone would shrink its text below reading).

Hand-written rather than Vega-Lite through Altair and vl-convert: the project's one escaper handles
every piece of record text, as on the other pages; each marker is a plain focusable link with its
``<title>``; the "at least" arrow, the staircase front and a drawing per width are a few lines each;
and the build gains no dependency that bundles a JavaScript engine, nor a page a runtime (vega-embed)
to filter. Vega-Lite would give its axis layout for free; here the axes are the one part written out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from registry.site._html import Html, attribute, escape, escape_attr

__all__ = [
    "FRONT_DASHES",
    "NARROW",
    "ROOF_CAP",
    "ROOF_COLOUR",
    "WIDE",
    "Marker",
    "Plot",
    "RoofLine",
    "lowest_in_range",
    "scatter",
]

ROOF_COLOUR = "#B2182B"
ROOF_CAP = 20
"""A roof more than this many times the fastest result is cut off at the chart's top rather than let it
crush the results into the bottom; the page names it under the chart (:func:`lowest_in_range`)."""
FRONT_DASHES = ("", "7 4", "2 3", "10 3 2 3", "4 2 1 2")
"""One dash pattern per precision's front, in the order the legend lists them."""


@dataclass(frozen=True)
class Marker:
    """A drawn result: where (``x`` None: the band), how it looks, where it links and what it says."""

    index: int
    x: float | None
    y: float
    at_least: bool
    colour: str
    shape: str
    """``circle`` (MLPerf), ``square`` (published), ``triangle`` (community run)."""
    href: str
    title: str
    front: bool


@dataclass(frozen=True)
class RoofLine:
    """A physical bound drawn as a line: its words, its (tokens/s per user, tok/s per accelerator)
    points, the accelerator it bounds (the filters hide it with that accelerator's results) and its
    colour (that accelerator's)."""

    label: str
    points: tuple[tuple[float, float], ...]
    hardware: str = ""
    colour: str = ROOF_COLOUR


@dataclass(frozen=True)
class Plot:
    """A chart's size and margins (SVG units, shown 1:1)."""

    name: str
    width: int
    height: int
    left: int
    band: int
    right: int = 16
    top: int = 14
    bottom: int = 52


WIDE = Plot("wide", 1000, 560, 78, 64)
NARROW = Plot("narrow", 350, 440, 58, 34, right=10)


@dataclass(frozen=True)
class _Axis:
    """A linear or base-10 logarithmic axis from ``lo`` to ``hi`` drawn from pixel ``start`` to ``end``."""

    lo: float
    hi: float
    start: float
    end: float
    log: bool

    def at(self, value: float) -> float:
        if self.log:
            share = (math.log10(value) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        else:
            share = (value - self.lo) / (self.hi - self.lo)
        return self.start + share * (self.end - self.start)

    def ticks(self, most: int) -> list[float]:
        """Round values on the axis: 1, 2, 5 times powers of ten (fewer on a crowded log axis)."""
        if self.log:
            steps = (1.0, 2.0, 5.0) if math.log10(self.hi / self.lo) <= most / 2 else (1.0,)
            found = [
                m * 10.0**e
                for e in range(math.floor(math.log10(self.lo)), math.ceil(math.log10(self.hi)) + 1)
                for m in steps
            ]
            return [v for v in found if self.lo <= v <= self.hi]
        raw = (self.hi - self.lo) / max(most, 1)
        power = 10.0 ** math.floor(math.log10(raw))
        step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
        first = math.ceil(self.lo / step) * step
        return [first + i * step for i in range(int((self.hi - first) / step) + 1)]


def _axis(values: Sequence[float], start: float, end: float) -> _Axis:
    """Logarithmic when the values span more than a factor of 20 (a linear axis would crush the small
    ones), linear from zero otherwise; a little room beyond the values either way."""
    positive = [v for v in values if v > 0] or [1.0]
    lo, hi = min(positive), max(positive)
    if hi / lo > 20:
        return _Axis(lo / 1.3, hi * 1.3, start, end, True)
    return _Axis(0.0, hi * 1.1 or 1.0, start, end, False)


def _number(value: float) -> str:
    """A tick label: ``50``, ``2.5``, ``20K``, ``1.5M``."""
    for size, suffix in ((1e6, "M"), (1e3, "K")):
        if value >= size:
            return f"{value / size:g}{suffix}"
    return f"{value:g}"


def _text(x: float, y: float, words: str, extra: str = "", fill: str = "currentColor") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" fill="{fill}"{extra}>{escape(words)}</text>'


def scatter(
    chart_id: str,
    markers: Sequence[Marker],
    fronts: Sequence[tuple[str, Sequence[Marker]]],
    roofs: Sequence[RoofLine],
    *,
    plot: Plot,
    title: str,
    description: str,
) -> Html:
    """The chart at one size. ``fronts`` are (precision, its front's markers); ``roofs`` the bounds."""
    p = plot
    plot_left, plot_right = p.left + p.band + 12, p.width - p.right
    plot_top, plot_bottom = p.top, p.height - p.bottom
    placed = [m for m in markers if m.x is not None]
    xs = [m.x for m in placed if m.x is not None]
    ys = [m.y for m in markers]
    cap = max(ys, default=1.0) * ROOF_CAP
    # the rates are the results' (a roof is cut to them); the outputs take in the roofs up to the cap
    roof_ys = [y for roof in roofs for x, y in roof.points if y <= cap and y > 0 and _within(x, xs)]
    x_axis = _axis(xs, plot_left, plot_right)
    y_axis = _axis(ys + roof_ys, plot_bottom, plot_top)
    clip = f"{chart_id}-plot"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="registry-chart serving-chart {p.name}" role="group" '
        f'viewBox="0 0 {p.width} {p.height}" width="{p.width}" height="{p.height}" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" font-family="system-ui, sans-serif" '
        'font-size="12">'
        f'<title id="{chart_id}-title">{escape(title)}</title><desc id="{chart_id}-desc">{escape(description)}</desc>'
        f'<clipPath id="{clip}"><rect x="{plot_left}" y="{plot_top}" width="{plot_right - plot_left}" '
        f'height="{plot_bottom - plot_top}"/></clipPath>',
        _grid(x_axis, y_axis, p, plot_left, plot_right, plot_top, plot_bottom),
        _band(p, plot_top, plot_bottom),
    ]
    parts += [_roof(roof, x_axis, y_axis, clip, plot_right, n) for n, roof in enumerate(roofs)]
    for number, (precision, front) in enumerate(fronts):
        parts.append(_front(precision, front, FRONT_DASHES[number % len(FRONT_DASHES)], x_axis, y_axis))
    band_centre = p.left + p.band / 2
    for marker in markers:
        if marker.x is None:
            spread = ((marker.index * 0.618034) % 1 - 0.5) * (p.band - 14)
            parts.append(_marker(marker, band_centre + spread, y_axis.at(marker.y)))
        else:
            parts.append(_marker(marker, x_axis.at(marker.x), y_axis.at(marker.y)))
    parts.append("</svg>")
    return Html("".join(parts))


def lowest_in_range(roof: RoofLine, markers: Sequence[Marker]) -> float | None:
    """The roof's lowest output over the rates the chart shows, when that is beyond its top (more than
    :data:`ROOF_CAP` times the fastest result): where the reader cannot see the line, the page says."""
    xs = [m.x for m in markers if m.x is not None]
    shown = [y for x, y in roof.points if _within(x, xs)] or [y for _x, y in roof.points]
    lowest = min(shown, default=None)
    fastest = max((m.y for m in markers), default=0.0)
    return lowest if lowest is not None and lowest > fastest * ROOF_CAP else None


def _within(x: float, xs: Sequence[float]) -> bool:
    return bool(xs) and min(xs) <= x <= max(xs)


def _grid(x_axis: _Axis, y_axis: _Axis, p: Plot, left: float, right: float, top: float, bottom: float) -> str:
    """Both axes with their faint grid lines, tick labels and titles."""
    parts = [
        f'<line x1="{p.left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="currentColor"/>',
        f'<line x1="{p.left}" y1="{top}" x2="{p.left}" y2="{bottom}" stroke="currentColor"/>',
    ]
    for tick in y_axis.ticks(6 if p.name == "wide" else 5):
        y = y_axis.at(tick)
        parts.append(
            f'<line x1="{p.left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" stroke="currentColor" '
            'stroke-opacity="0.15"/>'
        )
        parts.append(_text(p.left - 5, y + 4, _number(tick), ' text-anchor="end"'))
    for tick in x_axis.ticks(8 if p.name == "wide" else 4):
        x = x_axis.at(tick)
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" stroke="currentColor" '
            'stroke-opacity="0.15"/>'
        )
        parts.append(_text(x, bottom + 16, _number(tick), ' text-anchor="middle"'))
    scale = " (log scale)" if x_axis.log else ""
    x_title = "Interactivity: output tok/s per user" + (", 1000 / TPOT in ms" if p.name == "wide" else "")
    parts.append(_text((left + right) / 2, p.height - 10, x_title + scale, ' text-anchor="middle"'))
    middle = (top + bottom) / 2
    y_title = "Output tok/s per accelerator" + (" (log scale)" if y_axis.log else "")
    parts.append(_text(14, middle, y_title, f' text-anchor="middle" transform="rotate(-90 14 {middle:.1f})"'))
    return "".join(parts)


def _band(p: Plot, top: float, bottom: float) -> str:
    """The band of results with no per-user rate, shaded, named under the axis where the ticks are not."""
    x, centre = p.left + 2, p.left + p.band / 2
    second = "no rate" if p.name == "narrow" else "no per-user rate"
    return (
        f'<rect x="{x}" y="{top}" width="{p.band - 2}" height="{bottom - top}" fill="currentColor" '
        'fill-opacity="0.06"/>'
        + _text(centre, bottom + 16, "Offline", ' text-anchor="middle"')
        + _text(centre, bottom + 30, second, ' text-anchor="middle" fill-opacity="0.7"')
    )


def _roof(roof: RoofLine, x_axis: _Axis, y_axis: _Axis, clip: str, right: float, number: int) -> str:
    """A bound as a dashed line in its accelerator's colour, clipped to the plot, with the word "bound"
    at its left end."""
    shown = [(x, y) for x, y in roof.points if x > 0 and y > 0]
    if len(shown) < 2:
        return ""
    coordinates = [(x_axis.at(x), y_axis.at(y)) for x, y in shown]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coordinates)
    visible = [
        (x, y) for x, y in coordinates if x_axis.start <= x <= right and y_axis.end <= y <= y_axis.start
    ]
    label = ""
    if visible:  # each roof's word a little further along, so that close lines' words stay apart
        x, y = visible[min(len(visible) - 1, 4 * number)]
        # the word fits inside the plot however far right its point is (about 7 px a letter)
        label = _text(min(x + 4, right - 40), y - 5, "bound", ' class="roof-label"', fill=roof.colour)
    return (
        f'<g class="roof"{attribute("data-hardware", roof.hardware)}>'
        f"<title>{escape('Physical bound, not a result: ' + roof.label)}</title>"
        f'<polyline points="{points}" fill="none" stroke="{escape_attr(roof.colour)}" stroke-width="2" '
        f'stroke-dasharray="9 4" clip-path="url(#{clip})"/>{label}</g>'
    )


def _front(precision: str, front: Sequence[Marker], dash: str, x_axis: _Axis, y_axis: _Axis) -> str:
    """The front of one precision as a staircase through its points: from each point straight down to
    the next one's output, then across to it. A straight line between two points would draw results
    nobody measured; every place under the staircase is matched or beaten by a measured result."""
    placed = [(x_axis.at(m.x), y_axis.at(m.y)) for m in front if m.x is not None]
    # in pixels the y axis points down: order by x, and at one x the highest output (smallest y) first
    ordered = sorted(placed, key=lambda point: (point[0], point[1]))
    steps: list[tuple[float, float]] = []
    for x, y in ordered:
        if steps:
            steps.append((steps[-1][0], y))
        steps.append((x, y))
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in steps)
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<polyline class="front" points="{points}" fill="none" stroke="currentColor" stroke-width="1.5"'
        f'{dashes} stroke-opacity="0.8"><title>{escape("Pareto front, " + precision)}</title></polyline>'
    )


def _marker(marker: Marker, x: float, y: float) -> str:
    """The marker as a link to its record, its hover text first, the arrow of "at least" after."""
    style = f'fill="{marker.colour}" stroke="#ffffff" stroke-width="1"'
    if marker.shape == "square":
        shape = f'<rect class="mark" x="{x - 4.5:.1f}" y="{y - 4.5:.1f}" width="9" height="9" {style}/>'
    elif marker.shape == "triangle":
        shape = (
            f'<path class="mark" d="M{x:.1f},{y - 6:.1f}L{x + 5.5:.1f},{y + 4:.1f}L{x - 5.5:.1f},{y + 4:.1f}Z" '
            f"{style}/>"
        )
    else:
        shape = f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="5" {style}/>'
    arrow = ""
    if marker.at_least:
        arrow = (
            f'<path d="M{x + 6:.1f},{y:.1f}H{x + 20:.1f}M{x + 16:.1f},{y - 3.5:.1f}L{x + 20:.1f},{y:.1f}'
            f'L{x + 16:.1f},{y + 3.5:.1f}" fill="none" stroke="{marker.colour}" stroke-width="1.5"/>'
        )
    front = ' data-front="1"' if marker.front else ""
    return (
        f'<a class="point" href="{escape_attr(marker.href)}" data-i="{marker.index}" '
        f'data-px="{x:.1f}" data-py="{y:.1f}"{front}>'
        f"<title>{escape(marker.title)}</title>{shape}{arrow}</a>"
    )
