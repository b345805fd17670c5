"""Single-line fields hold one line (S008): only the Markdown fields, ``notes`` and ``methodology``, may
hold line breaks.

A record's text reaches the site's pages, which are Markdown read by extensions that look at the start
of every line: a title holding a line break and a line of three backticks would open a code fence that
swallows the rest of the page, or another record's. Refusing the line break where it is written (with
its line and column) keeps every value in its place; the Markdown fields are rendered on one line
instead (:mod:`registry.site._sanitize`).
"""

from __future__ import annotations

from typing import Any

from registry.checker.load import Document
from registry.checker.pointers import escape_pointer_part
from registry.codes.schema import LINE_BREAK
from registry.diagnostics import Diagnostic

MULTI_LINE_FIELDS = frozenset({"notes", "methodology"})
"""Fields of Markdown text, which may span lines wherever they appear."""


def line_breaks(document: Document) -> list[Diagnostic]:
    """An S008 for each key, and each string value outside a Markdown field, that holds a line break."""
    found: list[Diagnostic] = []
    stack: list[tuple[Any, str, bool]] = [(document.data, "", False)]
    while stack:
        value, pointer, multi_line = stack.pop()
        if isinstance(value, str):
            if not multi_line and ("\n" in value or "\r" in value):
                found.append(_finding(document, pointer, value))
        elif isinstance(value, dict):
            found.extend(
                _finding(document, f"{pointer}/{escape_pointer_part(key)}", key, key=True)
                for key in value
                if isinstance(key, str) and ("\n" in key or "\r" in key)
            )
            stack.extend(
                (item, f"{pointer}/{escape_pointer_part(str(key))}", multi_line or key in MULTI_LINE_FIELDS)
                for key, item in reversed(value.items())
            )
        elif isinstance(value, list):
            stack.extend((item, f"{pointer}/{i}", multi_line) for i, item in reversed(list(enumerate(value))))
    return found


def _finding(document: Document, pointer: str, value: str, *, key: bool = False) -> Diagnostic:
    line, column = document.locate(pointer, key=key)
    first = value.splitlines()[0] if value.splitlines() else ""
    shown = first if len(first) <= 60 else first[:57] + "..."
    field = pointer.rsplit("/", 1)[-1] or "the value"
    what = f"the key {shown!r}" if key else f"'{field}' (it starts {shown!r})"
    return LINE_BREAK.diagnostic(
        document.path,
        line,
        column,
        f"{what} holds a line break; it is a single-line field" if not key else f"{what} holds a line break",
        pointer=pointer,
    )
