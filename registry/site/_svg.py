"""Charts as static SVG, written at build time: no JavaScript, no network, nothing to load.

Each chart is an ``<svg role="img">`` with a ``<title>`` and a ``<desc>`` that name what it shows, and
a ``<title>`` on every bar and point giving the exact figure, so a screen reader (or a hover) reads the
numbers the shapes stand for. The home page's chart is inline (its bars are links) and its text uses
``currentColor`` to follow the site's light and dark schemes; a model's chart is a file of its own shown
with ``<img>`` (MkDocs then copies it instead of parsing a hundred tags on every model page, and an
image never runs script), drawn on its own light ground. Both axes of byte charts are logarithmic
in powers of two, labelled in binary units.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from registry.site._html import Html, attribute, escape, escape_attr
from registry.site._results import bytes_text

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F7F7F", "#000000")
"""Okabe and Ito's colour-blind-safe palette (yellow left out: it vanishes on white), then grey."""

_FONT = 'font-family="system-ui, sans-serif" font-size="12"'


@dataclass(frozen=True)
class Bar:
    """One bar: a label, a value in bytes (``None``: not computable), a category and a link."""

    label: str
    value: int | None
    category: str
    href: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Series:
    """One line: ``points`` are (context tokens, bytes); ``None`` bytes break the line."""

    name: str
    points: tuple[tuple[int, int | None], ...]
    dashed: bool = False


@dataclass(frozen=True)
class _LogAxis:
    """A base-2 logarithmic axis from ``2**lo`` to ``2**hi`` drawn from pixel ``start`` to ``end``."""

    lo: int
    hi: int
    start: float
    end: float

    def at(self, value: float) -> float:
        share = (math.log2(value) - self.lo) / (self.hi - self.lo)
        return self.start + share * (self.end - self.start)

    def ticks(self, most: int = 8) -> list[int]:
        """Powers of two on the axis, every ``step``-th one, so that at most ``most`` are labelled."""
        span = self.hi - self.lo
        step = max(1, math.ceil(span / most))
        return [2**e for e in range(self.lo, self.hi + 1) if (e - self.lo) % step == 0]


def _axis_for(values: Sequence[int], start: float, end: float) -> _LogAxis:
    positive = [v for v in values if v > 0] or [1]
    lo = math.floor(math.log2(min(positive)))
    hi = max(lo + 1, math.ceil(math.log2(max(positive))))
    return _LogAxis(lo, hi, start, end)


def _shape(tag: str, content: str = "", /, **attributes: object) -> str:
    """One SVG element; numbers are written with one decimal, names with ``_`` for ``-``; ``None``
    leaves an attribute out. Every value is escaped as an attribute value."""
    opening = "".join(
        [
            attribute(name.replace("_", "-"), f"{value:.1f}" if isinstance(value, float) else value)
            for name, value in attributes.items()
        ]
    )
    return f"<{tag}{opening}>{content}</{tag}>" if content else f"<{tag}{opening}/>"


def _text(x: float, y: float, words: str, **attributes: object) -> str:
    return _shape("text", str(escape(words)), x=x, y=y, fill="currentColor", **attributes)


def _line(x1: float, y1: float, x2: float, y2: float, **attributes: object) -> str:
    attributes.setdefault("stroke", "currentColor")
    return _shape("line", x1=x1, y1=y1, x2=x2, y2=y2, **attributes)


BACKGROUND = "#ffffff"
"""The page behind a chart drawn as a file: an ``<img>`` does not inherit the site's colours, so a
standalone chart brings its own light ground and its text stays dark on either scheme."""


def _open(chart_id: str, width: int, height: int, title: str, description: str, standalone: bool) -> str:
    ground = f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>' if standalone else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="registry-chart" role="img" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" {_FONT}>'
        f'<title id="{chart_id}-title">{escape(title)}</title>'
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>{ground}'
    )


def _token_label(tokens: int) -> str:
    """``131072`` → ``128K``, ``1048576`` → ``1M``: how context lengths are usually written."""
    if tokens >= 2**20 and tokens % 2**20 == 0:
        return f"{tokens // 2**20}M"
    if tokens >= 2**10 and tokens % 2**10 == 0:
        return f"{tokens // 2**10}K"
    return f"{tokens:,}"


def _legend(entries: Sequence[tuple[str, str, bool]], x: float, y: float, width: float) -> tuple[str, float]:
    """Legend swatches laid out in rows from (x, y); returns the SVG and the height used. A name too
    long for a row of its own is cut short with an ellipsis, the whole name in its ``<title>``: drawn
    whole it would run past the chart's edge, where the SVG cuts it off."""
    parts: list[str] = []
    cursor_x, cursor_y = x, y
    longest = max(int((width - 40) / 7), 8)
    for name, colour, dashed in entries:
        shown = _truncate(name, longest)
        item_width = 40 + 7 * len(shown)
        if cursor_x + item_width > x + width and cursor_x > x:
            cursor_x, cursor_y = x, cursor_y + 18
        swatch_y = cursor_y - 4.0
        dash = "5 3" if dashed else None
        parts.append(
            _line(
                cursor_x,
                swatch_y,
                cursor_x + 20,
                swatch_y,
                stroke=colour,
                stroke_width=6,
                stroke_dasharray=dash,
            )
        )
        whole = f"<title>{escape(name)}</title>" if shown != name else ""
        parts.append(
            _shape("text", whole + str(escape(shown)), x=cursor_x + 24, y=cursor_y, fill="currentColor")
        )
        cursor_x += item_width
    return "".join(parts), cursor_y - y + 18


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bar_chart(
    chart_id: str, bars: Sequence[Bar], *, title: str, description: str, colours: dict[str, str]
) -> Html:
    """Horizontal bars on a logarithmic byte axis, one row per bar, coloured by category."""
    width, label_width, row = 860, 250, 18
    axis = _axis_for([b.value for b in bars if b.value], label_width + 10, width - 90)
    swatches = [(name, colour, False) for name, colour in colours.items()]
    legend, legend_height = _legend(swatches, label_width + 10, 18, width - label_width - 20)
    top = 18 + legend_height + 6
    height = int(top + row * len(bars) + 40)
    parts = [_open(chart_id, width, height, title, description, False), legend]
    for index, bar in enumerate(bars):
        parts.append(_bar_row(bar, axis, top + index * row, row, label_width, colours))
    parts.append(_x_axis(axis, top + row * len(bars) + 4, bytes_text))
    parts.append("</svg>")
    return Html("".join(parts))


def _bar_row(bar: Bar, axis: _LogAxis, y: float, row: int, label_width: int, colours: dict[str, str]) -> str:
    baseline = y + row - 5
    label = _text(label_width, baseline, _truncate(bar.label, 38), text_anchor="end")
    if bar.href:
        label = f'<a href="{escape_attr(bar.href)}">{label}</a>'
    if not bar.value:
        return label + _text(axis.start + 4, baseline, bar.note or "not computable", font_style="italic")
    end = axis.at(bar.value)
    exact = f"{bar.label}: {bytes_text(bar.value)} ({bar.value:,} B), {bar.category}"
    rect = _shape(
        "rect",
        f"<title>{escape(exact)}</title>",
        x=axis.start,
        y=y + 3,
        width=max(end - axis.start, 1.0),
        height=row - 6,
        fill=colours[bar.category],
    )
    return label + rect + _text(end + 4, baseline, bytes_text(bar.value))


def _x_axis(axis: _LogAxis, y: float, label: Callable[[int], str]) -> str:
    """The axis line and a label under each tick (no tick marks: every element counts on a page per
    model, and the labels say where the ticks are)."""
    parts = [_line(axis.start, y, axis.end, y)]
    parts.extend(_text(axis.at(tick), y + 16, label(tick), text_anchor="middle") for tick in axis.ticks())
    return "".join(parts)


def line_chart(
    chart_id: str,
    series: Sequence[Series],
    *,
    title: str,
    description: str,
    x_label: str,
    y_label: str,
    standalone: bool = False,
) -> Html:
    """Lines on logarithmic axes: context tokens across, bytes up; dashed series are counterfactuals.

    Series with equal values are drawn over each other; the legend lists them all. A ``standalone``
    chart is meant to be its own file, shown with ``<img>``: it carries its own background.
    """
    width, height = 860, 440
    plot = _line_plot(chart_id, tuple(series), x_label, y_label, width, height)
    return Html(_open(chart_id, width, height, title, description, standalone) + plot + "</svg>")


@lru_cache(maxsize=256)
def _line_plot(
    chart_id: str, series: tuple[Series, ...], x_label: str, y_label: str, width: int, height: int
) -> str:
    """Everything of a line chart inside the ``<svg>`` but its title and description: drawn once for
    the same lines, which the models sharing a geometry (fine-tunes of one base) have."""
    left, right, top = 90, 20, 20
    colours = {s.name: PALETTE[i % len(PALETTE)] for i, s in enumerate(series)}
    swatches = [(s.name, colours[s.name], s.dashed) for s in series]
    legend, legend_height = _legend(swatches, left, top + 12, width - left - right)
    plot_top, plot_bottom = top + legend_height + 14, height - 50
    x_axis = _axis_for([x for s in series for x, _ in s.points], left, width - right)
    y_axis = _axis_for([y for s in series for _, y in s.points if y], plot_bottom, plot_top)
    middle = (plot_top + plot_bottom) / 2
    parts = [
        legend,
        _y_axis(y_axis, left, width - right),
        _x_axis(x_axis, plot_bottom, _token_label),
        _text((left + width - right) / 2, height - 8.0, x_label, text_anchor="middle"),
        _text(14.0, middle, y_label, text_anchor="middle", transform=f"rotate(-90 14 {middle:.1f})"),
    ]
    parts.extend(_series(line, colours[line.name], x_axis, y_axis) for line in series)
    return "".join(parts)


def _y_axis(axis: _LogAxis, x: float, grid_end: float) -> str:
    """The axis line, and at each tick a faint grid line with its label."""
    parts = [_line(x, axis.start, x, axis.end)]
    for tick in axis.ticks(6):
        y = axis.at(tick)
        parts.append(_line(x, y, grid_end, y, stroke_opacity="0.15"))
        parts.append(_text(x - 6, y + 4, bytes_text(tick), text_anchor="end"))
    return "".join(parts)


def _series(line: Series, colour: str, x_axis: _LogAxis, y_axis: _LogAxis) -> str:
    """A line through the points, broken where a value is missing; its ``<title>`` lists every point.

    Points are not drawn one by one: on a page per model that would multiply the markup, and the
    table beside the chart holds the same figures."""
    segments: list[list[tuple[float, float]]] = [[]]
    shown: list[str] = []
    for tokens, value in line.points:
        if not value:
            segments.append([])
            continue
        segments[-1].append((x_axis.at(tokens), y_axis.at(value)))
        shown.append(f"{_token_label(tokens)}: {bytes_text(value)}")
    title = f"<title>{escape(line.name + ': ' + ', '.join(shown))}</title>"
    dash = ' stroke-dasharray="7 4"' if line.dashed else ""
    paths = []
    for segment in segments:
        if not segment:
            continue
        if len(segment) == 1:  # a lone point still shows
            x, y = segment[0]
            paths.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}">{title}</circle>')
            continue
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in segment)
        style = f'fill="none" stroke="{colour}" stroke-width="2"{dash}'
        paths.append(f'<polyline points="{points}" {style}>{title}</polyline>')
    return "".join(paths)


@dataclass(frozen=True)
class Figure:
    """One bar of a linear chart: a label, a value (any unit, ``shown`` as written), a category."""

    label: str
    value: float
    shown: str
    category: str


def linear_bar_chart(
    chart_id: str,
    figures: Sequence[Figure],
    *,
    title: str,
    description: str,
    colours: dict[str, str],
    standalone: bool = False,
) -> Html:
    """Horizontal bars on a linear axis from zero, one row per figure, coloured by category: figures
    of one unit that compare by difference (throughput per accelerator), where a log axis would hide
    it. Every label is record text and goes in as escaped text; each bar's ``<title>`` gives the figure."""
    width, label_width, row = 860, 300, 18
    start, end = label_width + 10.0, width - 90.0
    top_value = max((f.value for f in figures), default=0.0) or 1.0
    swatches = [(name, colour, False) for name, colour in colours.items()]
    legend, legend_height = _legend(swatches, label_width + 10, 18, width - label_width - 20)
    top = 18 + legend_height + 6
    height = int(top + row * len(figures) + 12)
    parts = [_open(chart_id, width, height, title, description, standalone), legend]
    for index, figure in enumerate(figures):
        y = top + index * row
        baseline = y + row - 5
        reach = start + (end - start) * figure.value / top_value
        exact = f"{figure.label}: {figure.shown}, {figure.category}"
        # 37 characters: a name of capitals and digits at 40 ran past the chart's left edge.
        parts.append(_text(label_width, baseline, _truncate(figure.label, 37), text_anchor="end"))
        parts.append(
            _shape(
                "rect",
                f"<title>{escape(exact)}</title>",
                x=start,
                y=y + 3,
                width=max(reach - start, 1.0),
                height=row - 6,
                fill=colours[figure.category],
            )
        )
        parts.append(_text(reach + 4, baseline, figure.shown))
    parts.append(_line(start, top - 2.0, start, top + row * len(figures) + 2.0))
    parts.append("</svg>")
    return Html("".join(parts))
