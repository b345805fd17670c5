"""Building HTML from values: every piece of text goes through :func:`escape` on its way in.

Generated pages are Markdown files whose record-derived parts are raw HTML blocks. Markdown passes a raw
block through untouched, so the escaping done here is the only thing standing between a record's text and
the reader's browser: nothing from a record is ever concatenated into HTML without it (the Markdown fields
go through :mod:`registry.site._sanitize` instead). The escaping itself is MarkupSafe's (Jinja's), not
the project's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import markupsafe

__all__ = [
    "Cell",
    "Html",
    "attribute",
    "attrs",
    "badge",
    "block",
    "element",
    "escape",
    "escape_attr",
    "join",
    "link",
    "table",
    "table_parts",
    "table_row",
]


class Html(str):
    """Text that is already safe HTML (escaped or sanitized); plain ``str`` is always escaped."""

    __slots__ = ()

    def __html__(self) -> str:
        """MarkupSafe's mark of safe HTML, so that its escaping (and Jinja's) passes this text as is."""
        return self


def escape(text: object) -> Html:
    """``text`` as HTML text content: ``& < >`` become entities; ``Html`` passes as is.

    Quotes are left alone: they mean nothing in text, and every entity costs the site builder (three
    HTML parsers read each page) and the reader's search index. MarkupSafe escapes them too, so they
    are put back; its output holds ``&#34;`` or ``&#39;`` only where it wrote one for a quote, since it
    turns every ``&`` of the text into ``&amp;``. Attribute values go through :func:`escape_attr`."""
    if isinstance(text, Html):
        return text
    value = text if isinstance(text, str) else str(text)
    # Most text (figures, ids, titles) has nothing to escape; checking is cheaper than escaping.
    if "&" in value or "<" in value or ">" in value:
        value = _respell(_escaped(value), '"', "'")
    return Html(value)


def escape_attr(value: object) -> str:
    """``value`` inside a double-quoted attribute: ``& < > " '`` become entities, always (even for
    :class:`Html`, which is safe as text but may hold a quote). The quotes are spelled ``&quot;`` and
    ``&#x27;``, as the site has always written them, rather than MarkupSafe's ``&#34;`` and ``&#39;``."""
    if isinstance(value, int | float):  # a number has nothing to escape (most attributes: sort keys)
        return str(value)
    text = str(value)
    if _ATTRIBUTE_SPECIALS.search(text) is None:  # checking is cheaper than escaping
        return text
    return _respell(_escaped(text), "&quot;", "&#x27;")


_ATTRIBUTE_SPECIALS = re.compile("[&<>\"']")


def _escaped(text: str) -> str:
    """MarkupSafe's escaping of the characters of ``text``: a ``str`` subclass is escaped as the
    characters it holds, never passed through as safe by its ``__html__`` or changed by its ``__str__``."""
    return str(markupsafe.escape(str.__str__(text)))


def _respell(escaped: str, double: str, single: str) -> str:
    """MarkupSafe's output with its entities for the two quotes written as ``double`` and ``single``."""
    if "&#3" not in escaped:  # neither &#34; nor &#39;: no quote in the text
        return escaped
    return escaped.replace("&#34;", double).replace("&#39;", single)


def attribute(name: str, value: object) -> str:
    """One `` name="value"`` pair, the value escaped; ``None`` and ``False`` give nothing, ``True`` the
    bare name."""
    if value is None or value is False:
        return ""
    return f" {name}" if value is True else f' {name}="{escape_attr(value)}"'


def attrs(values: Mapping[str, object | None]) -> str:
    """:func:`attribute` pairs for every entry of ``values``."""
    return "".join([attribute(name, value) for name, value in values.items()])


def element(tag: str, content: object = "", **attributes: object | None) -> Html:
    """``<tag attrs>content</tag>``; ``content`` is escaped unless it is :class:`Html`.

    Attribute names are Python keywords with ``_`` for ``-`` and a trailing ``_`` dropped (``class_``).
    """
    if not attributes:
        return Html(f"<{tag}>{escape(content)}</{tag}>")
    opening = "".join([attribute(_attribute_name(name), value) for name, value in attributes.items()])
    return Html(f"<{tag}{opening}>{escape(content)}</{tag}>")


@lru_cache(maxsize=256)
def _attribute_name(keyword: str) -> str:
    """``data_sort`` → ``data-sort``, ``class_`` → ``class``: the few names the pages use, worked
    out once each rather than once per element."""
    return keyword.rstrip("_").replace("_", "-")


def badge(word: str, kind: str) -> Html:
    """A verdict or status badge; ``kind`` picks its colour (``agrees``, ``disagrees``, ``neutral``...)."""
    return element("span", word, class_=f"badge badge-{kind}")


def join(parts: Iterable[object], separator: str = "") -> Html:
    """Concatenate, escaping every part that is not already :class:`Html`."""
    return Html(escape(separator).join(escape(part) for part in parts))


def link(href: str, text: object, **attributes: object | None) -> Html:
    """``<a href>``: ``href`` is an address the generator computed, or a record URL the schema limited
    to ``https://`` without spaces or quotes; both are escaped as attribute values anyway."""
    return element("a", text, href=href, **attributes)


BLOCK_TAGS = (
    "<p",
    "<table",
    "<pre",
    "<ul",
    "<ol",
    "<dl",
    "<h1",
    "<h2",
    "<h3",
    "<details",
    "<blockquote",
    "<div",
)
"""Start tags that open a raw HTML block for Python-Markdown (each followed by ``>`` or a space)."""


def block(*parts: object, class_: str | None = None, searchable: bool = True) -> str:
    """Raw HTML for a Markdown page, with blank lines around it so Markdown passes it through.

    Markdown (Python-Markdown, which both MkDocs and Zensical use) passes a block that opens with a
    block-level tag through untouched up to its matching closing tag, blank lines inside included, so
    no Markdown syntax in record text is ever interpreted. When every part opens with a block-level
    tag the parts are passed as they are; otherwise (or with a ``class_``, or not ``searchable``) they
    are wrapped in one element, so that no part is ever read as Markdown. A block that is not
    ``searchable`` carries ``data-search-exclude``: the site's search leaves it out of its index. Its
    wrapper is a ``<section>``, a tag no generated part holds inside it: the theme's search parser
    compares elements by their tag alone, so an excluded ``<div>`` stopped being excluded at the first
    ``</div>`` inside it (a calculator field's, a table's scroll box).
    """
    texts = [str(escape(part)) for part in parts if part != ""]
    if class_ is None and searchable and texts and all(_opens_block(text) for text in texts):
        return "\n" + "\n\n".join(texts) + "\n\n"
    opening = attrs({"class": class_, "data-search-exclude": not searchable})
    tag = "div" if searchable else "section"
    return f"\n<{tag}{opening}>{''.join(texts)}</{tag}>\n\n"


def _opens_block(text: str) -> bool:
    return _OPENS_BLOCK.match(text) is not None


_OPENS_BLOCK = re.compile(f"(?:{'|'.join(map(re.escape, BLOCK_TAGS))})[ >]")
"""A block-level start tag at the very start of the text (``match`` anchors it there)."""


@dataclass(frozen=True)
class Cell:
    """One table cell: what it shows, and the value a sortable column orders it by."""

    content: object
    sort: str | int | float | None = None
    title: str | None = None
    class_: str | None = None


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    sortable: bool = False,
    caption: str | None = None,
    numeric: Sequence[int] = (),
) -> Html:
    """An HTML table. A row is a sequence of cells, or a row :func:`table_row` made already. With
    ``sortable``, the site's script lets readers sort by any column and filter the rows; ``Cell.sort``
    gives the order (bytes as a number, say) where the shown text would sort badly. ``numeric`` columns
    are right-aligned and sort as numbers. The table itself has no class: the theme styles exactly the
    tables without one, so a page's tables look alike; style a table through the block around it."""
    body = "".join(row if isinstance(row, Html) else _row(row, numeric) for row in rows)
    return Html("".join(table_parts(headers, [body], sortable=sortable, caption=caption, numeric=numeric)))


def table_parts(
    headers: Sequence[str],
    rows: Iterable[str],
    *,
    sortable: bool = False,
    caption: str | None = None,
    numeric: Sequence[int] = (),
) -> Iterator[str]:
    """:func:`table` in parts, its rows given as HTML already (:func:`table_row`) and passed through
    as they come: a table of tens of thousands of rows is written without being joined."""
    plain = all(type(header) is str for header in headers)  # Html("<b>") == "<b>": keep them apart
    head = (_head if plain else _head.__wrapped__)(tuple(headers), tuple(numeric))
    caption_html = str(element("caption", caption)) if caption else ""
    yield f"<table{' data-sortable' if sortable else ''}>{caption_html}<thead><tr>{head}</tr></thead><tbody>\n"
    yield from rows
    yield "</tbody></table>"


@lru_cache(maxsize=256)
def _head(headers: tuple[str, ...], numeric: tuple[int, ...]) -> str:
    """The header cells, made once per set of headers: every page of a kind has the same tables."""
    return "".join(
        str(element("th", header, scope="col", data_type="number" if i in numeric else None))
        for i, header in enumerate(headers)
    )


def table_row(row: Sequence[object], numeric: Sequence[int] = ()) -> Html:
    """One row of a :func:`table`, made ahead of its table: an index page's rows are gathered one
    record at a time, and a row kept as its HTML is a fraction of the size of its cells."""
    return Html(_row(row, numeric))


def _row(row: Sequence[object], numeric: Sequence[int]) -> str:
    cells = []
    for i, value in enumerate(row):
        if not isinstance(value, Cell):
            cells.append(
                f'<td class="num">{escape(value)}</td>' if i in numeric else f"<td>{escape(value)}</td>"
            )
            continue
        classes = " ".join(c for c in (value.class_, "num" if i in numeric else None) if c) or None
        cells.append(element("td", value.content, data_sort=value.sort, title=value.title, class_=classes))
    return "<tr>" + "".join(cells) + "</tr>\n"
