"""The one way a figure is written on the site: thousands separators, three significant digits (never
fewer than the whole part), and its unit; a derived figure says so.

Every page that shows a throughput, a latency or a rate as a number of its own (not as the record
wrote it, which a record page also shows) writes it through :func:`number` and its unit words, so
"591,368 tok/s" on a record page is "591,368 tok/s" on a leaderboard too. A figure the site derives
(per accelerator from a figure the source states for the whole system) is a :class:`Shown` with
``derived`` set and its working in ``title``: MLPerf's results guidelines ask that a derived metric be
labelled as such, never passed off as the result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from registry.engine.units import Dimension, QuantityError, parse_quantity
from registry.site._html import Cell, Html, element, join

__all__ = [
    "DERIVED_MARK",
    "DERIVED_NOTE",
    "UNIT_WORDS",
    "Shown",
    "cell",
    "derived_per_accelerator",
    "html",
    "number",
    "quantity",
    "seconds",
    "stated",
]

DIGITS = 3
"""Significant digits a figure keeps (its whole part is never rounded away: 591,368, not 591,000)."""

UNIT_WORDS = {
    Dimension.TOKENS_PER_SECOND: "tok/s",
    Dimension.REQUESTS_PER_SECOND: "req/s",
    Dimension.WATTS: "W",
    Dimension.JOULES_PER_TOKEN: "J/token",
    Dimension.TOKENS: "tokens",
    Dimension.COUNT: "",
}
"""The unit a figure of each dimension is written in (seconds and bytes have their own scales)."""

DERIVED_MARK = "†"
DERIVED_NOTE = (
    "† derived here, not stated by the source: a figure per accelerator is the system's figure divided "
    "by the accelerators the run used (a figure per system, the other way round); hover the mark for "
    "the working. MLPerf's results guidelines ask that a derived figure be labelled so."
)
"""The mark a derived figure carries, and the sentence a page with such figures says it in."""


def number(value: float | Fraction | int, digits: int = DIGITS) -> str:
    """``591368.31`` → ``591,368``; ``16426.9`` → ``16,427``; ``12.345`` → ``12.3``; ``0.04567`` →
    ``0.0457``: ``digits`` significant digits, at least the whole part, thousands separated, no
    trailing zeros after the point."""
    x = float(value)
    if not math.isfinite(x):
        return str(x)
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    if magnitude >= digits - 1:
        return f"{round(x):,}"
    text = f"{x:,.{digits - 1 - magnitude}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def quantity(value: float | Fraction | int, unit: str) -> str:
    """:func:`number` and its unit: ``16,427 tok/s``."""
    return f"{number(value)} {unit}".rstrip()


def seconds(value: float | Fraction | int) -> str:
    """A duration in the unit that keeps it readable: ``498 ms``, ``18.6 s``, ``45.2 µs``."""
    x = float(value)
    if x != 0 and abs(x) < 1e-3:
        return f"{number(x * 1e6)} µs"
    if abs(x) < 1:
        return f"{number(x * 1e3)} ms"
    return f"{number(x)} s"


@dataclass(frozen=True)
class Shown:
    """A figure as a page shows it: its text, the value it sorts by (in the dimension's base unit:
    seconds, tokens per second), what a reader sees on hover (the value as the record wrote it, or how
    it was derived) and whether the site derived it."""

    text: str
    sort: float | None = None
    title: str | None = None
    derived: bool = False


def stated(text: str) -> Shown:
    """A figure as a record writes it (``591368.312764167 tok/s``), written the site's way
    (``591,368 tok/s``) with the original on hover; text that is no quantity is shown as written."""
    try:
        found = parse_quantity(text)
    except QuantityError:
        return Shown(text)
    value = found.value
    if found.dimension is Dimension.SECONDS:
        shown = seconds(value)
    elif found.dimension in UNIT_WORDS:
        shown = quantity(value, UNIT_WORDS[found.dimension])
    else:
        return Shown(text, float(value))
    prefix = "~" if found.approximate else ""
    return Shown(prefix + shown, float(value), None if shown == text else f"as written: {text}")


def derived_per_accelerator(system_total: float, accelerators: int, unit: str) -> Shown:
    """A per-system figure divided by the run's accelerators, marked derived, its working on hover."""
    value = system_total / accelerators
    working = f"derived: {quantity(system_total, unit)} for the system ÷ {accelerators:,} accelerators"
    return Shown(quantity(value, unit), value, working, derived=True)


def html(shown: Shown) -> Html:
    """The figure's text, with the derived mark (its working as the mark's title) when derived."""
    if not shown.derived:
        return join([shown.text])
    mark = element("abbr", DERIVED_MARK, title=shown.title or "derived", class_="derived")
    return join([shown.text, Html("&nbsp;"), mark])


def cell(shown: Shown | None, *, href: str | None = None, empty: str = "") -> Cell:
    """A table cell of the figure, sorting by its value (``18.6 s`` above ``498 ms``); ``href`` links
    the figure to the record it comes from."""
    if shown is None:
        return Cell(empty)
    content: Html = html(shown)
    if href is not None:
        content = element("a", content, href=href)
    return Cell(content, sort=shown.sort, title=None if shown.derived else shown.title)
