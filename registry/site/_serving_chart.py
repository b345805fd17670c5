"""A model's serving chart on its results page: the points made into markers, the legend, the two
drawings (wide and phone), the filters' data, and the caption the filter script writes into.

The drawings are inline SVG, so each marker is a focusable link and the page works with JavaScript off.
``assets/serving.js`` adds filters (hardware, engine, precision, source, division) and a switch that
highlights the front; it reads the points' words from a JSON ``<script type="application/json">``
written by :func:`json_data`, which escapes every character that could end the script element.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from registry.site import _figures
from registry.site._html import Html, block, element, join
from registry.site._scatter import (
    FRONT_DASHES,
    NARROW,
    ROOF_CAP,
    ROOF_COLOUR,
    WIDE,
    Marker,
    RoofLine,
    lowest_in_range,
    scatter,
)
from registry.site._serving_points import SOURCE_KINDS, Point, front_of
from registry.site._svg import PALETTE

COLOURS = (*PALETTE, "#8C564B", "#9467BD", "#17BECF", "#BCBD22", "#393B79", "#637939", "#E7969C", "#7B4173")
"""The site's palette, then eight more distinct hues: a model's results span a dozen accelerators."""

__all__ = ["SHAPES", "chart_block", "hover_text", "json_data"]

SHAPES = dict(zip(SOURCE_KINDS, ("circle", "square", "triangle"), strict=True))
_SYMBOLS = {"circle": "●", "square": "■", "triangle": "▲"}


def hover_text(point: Point, figure: str, per_user: str) -> str:
    """What hovering or focusing a marker says: system, accelerators, engine, precision, both figures
    and how each was found."""
    derived = " (derived: the system's figure over its accelerators)" if point.derived else ""
    if point.x.value is None:
        x = "no per-user rate stated"
    elif point.x.kind == "at least":
        x = f"at least {per_user} tok/s per user ({point.x.basis})"
    else:
        x = f"{per_user} tok/s per user ({point.x.basis})"
    return (
        f"{point.system}: {point.accelerators}; {point.engine}; {point.precision}; "
        f"{figure} output tok/s per accelerator{derived}; {x}; {point.scenario}; {point.source}"
    )


def json_data(points: Sequence[Point], front: set[str]) -> Html:
    """The filters' data as a JSON script element: ``<``, ``>``, ``&`` and the two JavaScript line
    separators are written as ``\\u`` escapes, so no record text can close the element or open markup."""
    rows = [
        {
            "hardware": p.hardware,
            "engine": p.engine,
            "precision": p.precision,
            "source": p.source,
            "division": p.division or "not MLPerf",
            "front": p.id in front,
            "x": p.x.value,
            "y": p.y,
        }
        for p in points
    ]
    text = json.dumps(rows, ensure_ascii=True, separators=(",", ":"))
    for character, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(character, escaped)
    return Html(f'<script type="application/json" class="serving-data">{text}</script>')


def _colours(points: Sequence[Point]) -> dict[str, str]:
    """One colour per accelerator, the most common first (the colours repeat past sixteen)."""
    counts: dict[str, int] = {}
    for point in points:
        counts[point.hardware] = counts.get(point.hardware, 0) + 1
    ordered = sorted(counts, key=lambda name: (-counts[name], name))
    return {name: COLOURS[i % len(COLOURS)] for i, name in enumerate(ordered)}


def _swatch(colour: str, dash: str = "", width: float = 1.5) -> Html:
    """A short line as the legend draws a front or a bound: the same colour and dashes as on the chart."""
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return Html(
        f'<svg class="line-key" width="28" height="10" aria-hidden="true"><line x1="0" y1="5" x2="28" y2="5" '
        f'stroke="{colour}" stroke-width="{width}"{dashes}/></svg>'
    )


def _above(roofs: Sequence[RoofLine], markers: Sequence[Marker]) -> Html | str:
    """A sentence naming the bounds beyond the chart's top, with the least each reaches on it."""
    found = [
        (roof.hardware, lowest) for roof in roofs if (lowest := lowest_in_range(roof, markers)) is not None
    ]
    if not found:
        return ""
    named = "; ".join(f"{hardware}, {_figures.number(lowest)} or more" for hardware, lowest in found)
    return element(
        "p",
        f"Bounds above the chart's top (more than {ROOF_CAP} times the fastest result), in output tok/s per "
        f"accelerator over the rates shown: {named}.",
        class_="serving-note",
    )


def _legend(colours: dict[str, str], precisions: Sequence[str], roofs: bool, at_least: bool) -> Html:
    """The key, as HTML under the chart: it wraps on a phone where SVG text could not."""
    items = [
        element("li", join([element("span", "■", class_="swatch", style=f"color:{colour}"), " ", name]))
        for name, colour in colours.items()
    ]
    items += [element("li", f"{_SYMBOLS[SHAPES[kind]]} {kind}") for kind in SOURCE_KINDS]
    if at_least:
        items.append(element("li", "●→ at least this interactive (placed at 1 / its TPOT limit)"))
    items += [
        element(
            "li",
            join(
                [_swatch("currentColor", FRONT_DASHES[i % len(FRONT_DASHES)]), f" Pareto front, {precision}"]
            ),
        )
        for i, precision in enumerate(precisions)
    ]
    if roofs:
        words = " physical bound in its accelerator's colour: no result can pass it (not a result)"
        items.append(element("li", join([_swatch(ROOF_COLOUR, "9 4", 2), words])))
    return element("ul", join(items), class_="serving-legend")


def chart_block(
    chart_id: str,
    points: Sequence[Point],
    hrefs: Sequence[str],
    hover: Sequence[str],
    roofs: Sequence[RoofLine],
    *,
    title: str,
) -> str:
    """The chart's block on a page: both drawings, the legend, the data and the caption."""
    front = front_of(points)
    colours = _colours(points)
    roofs = [replace(roof, colour=colours.get(roof.hardware, ROOF_COLOUR)) for roof in roofs]
    markers = [
        Marker(
            index=i,
            x=p.x.value,
            y=p.y,
            at_least=p.x.kind == "at least",
            colour=colours[p.hardware],
            shape=SHAPES[p.source],
            href=hrefs[i],
            title=hover[i],
            front=p.id in front,
        )
        for i, p in enumerate(points)
    ]
    precisions = sorted({p.precision for p in points if p.id in front})
    fronts = [
        (
            precision,
            [m for m, p in zip(markers, points, strict=True) if p.id in front and p.precision == precision],
        )
        for precision in precisions
    ]
    description = (
        f"{len(points):,} results, one marker each: output tokens per second per accelerator against "
        "tokens per second per user, coloured by accelerator, shaped by source; each marker links to its "
        "record. Lines: the Pareto front of each precision"
        + ("; dashed lines are physical bounds, one per accelerator, not results" if roofs else "")
        + ". Results with no per-user rate sit in the band at the left edge."
    )
    drawings = [
        scatter(
            f"{chart_id}-{plot.name}", markers, fronts, roofs, plot=plot, title=title, description=description
        )
        for plot in (WIDE, NARROW)
    ]
    at_least = any(m.at_least for m in markers)
    caption = element("p", "", class_="serving-caption", aria_live="polite")
    return block(
        element("div", "", class_="serving-filters", hidden=True),
        element("div", join(drawings), class_="serving-drawings"),
        caption,
        _legend(colours, precisions, bool(roofs), at_least),
        _above(roofs, markers),
        json_data(points, front),
        class_="chart serving",
        searchable=False,
    )
