"""Tables a person can read: the columns that decide first, none empty on every row, the rest behind a
"more columns" control, sortable by value, one card per row on a phone.

A table is a list of :class:`Column` specs and a list of rows, each a mapping from a column's key to
what its cell shows (a :class:`~registry.site._html.Cell` for a sort value or a title, or text or
:class:`~registry.site._html.Html`; a key left out, ``None`` or ``""`` is an empty cell). A column empty
on every row is left out. The columns marked ``more`` go to a second table inside a ``<details>`` (it
works with JavaScript off), which repeats the ``label`` column so each of its rows says whose it is.

Both tables are ``data-sortable``: the site's script (``assets/tables.js``) sorts a column by its
cells' ``data-sort`` values, numbers for the ``numeric`` columns (seconds for a latency, so "18.6 s"
sorts above "498 ms"). Every cell carries its column's header as ``data-label``, which the style sheet
shows before the cell's value when a narrow screen lays each row out as a card. Everything is escaped
on its way in, as everywhere (:mod:`registry.site._html`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from registry.site._html import Cell, Html, block, element, escape, join

__all__ = ["Column", "Row", "readable_block", "readable_table", "shown_columns"]

Row = Mapping[str, object]
"""One row: by column key, a :class:`Cell`, text or :class:`Html`; a missing key is an empty cell."""


@dataclass(frozen=True)
class Column:
    """One column: its key in the rows, its header, whether it is a number (right-aligned, sorted as
    a number by ``Cell.sort``), whether it sits behind "more columns", what its header means (the
    header's hover text), and a class for its cells."""

    key: str
    header: str
    numeric: bool = False
    more: bool = False
    explain: str | None = None
    class_: str | None = None
    """A class every cell of the column carries (``nowrap``: short words the table must not break)."""


def _filled(value: object) -> bool:
    if isinstance(value, Cell):
        return _filled(value.content)
    return value is not None and value != ""


def shown_columns(columns: Sequence[Column], rows: Sequence[Row]) -> list[Column]:
    """The columns at least one row fills, in their order."""
    return [c for c in columns if any(_filled(row.get(c.key)) for row in rows)]


def _header(column: Column) -> Html:
    return element(
        "th",
        column.header,
        scope="col",
        data_type="number" if column.numeric else None,
        title=column.explain,
        data_key=column.key,
    )


def _cell(column: Column, value: object) -> Html:
    found = value if isinstance(value, Cell) else Cell("" if value is None else value)
    classes = (
        " ".join(c for c in (found.class_, column.class_, "num" if column.numeric else None) if c) or None
    )
    return element(
        "td",
        found.content,
        data_sort=found.sort,
        title=found.title,
        class_=classes,
        data_label=column.header,
    )


def _table(columns: Sequence[Column], rows: Sequence[Row], caption: str | None) -> Html:
    head = join([_header(column) for column in columns])
    body = "".join(
        f"<tr>{''.join(_cell(column, row.get(column.key)) for column in columns)}</tr>\n" for row in rows
    )
    caption_html = element("caption", caption) if caption else ""
    return Html(
        f"<table data-sortable>{caption_html}<thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>"
    )


def readable_table(
    columns: Sequence[Column],
    rows: Sequence[Row],
    *,
    label: str,
    caption: str | None = None,
    more: str = "More columns",
) -> Html:
    """The main table of the columns not marked ``more`` that some row fills, then, when any ``more``
    column is filled, a ``<details>`` holding a second table of the ``label`` column and those."""
    shown = shown_columns(columns, rows)
    main = [c for c in shown if not c.more]
    extra = [c for c in shown if c.more]
    parts: list[Html] = [_table(main, rows, caption)]
    if extra:
        first = next((c for c in columns if c.key == label), None)
        names = ", ".join(c.header for c in extra)
        summary = element("summary", f"{more} ({len(extra)}): {names}")
        second = _table([first, *extra] if first else extra, rows, None)
        parts.append(element("details", join([summary, second]), class_="more-columns"))
    return join(parts)


def readable_block(
    columns: Sequence[Column],
    rows: Sequence[Row],
    *,
    label: str,
    caption: str | None = None,
    more: str = "More columns",
    note: Html | str = "",
) -> str:
    """:func:`readable_table` as a raw HTML block of a Markdown page (out of the search index: each
    row's record has a page of its own there), with an optional note above it."""
    table = readable_table(columns, rows, label=label, caption=caption, more=more)
    above = element("p", note, class_="table-note") if note else escape("")
    return block(above, table, class_="readable-table", searchable=False)
