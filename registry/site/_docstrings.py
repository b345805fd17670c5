"""Docstrings as page text: the reference pages print the code's own words, so they cannot drift."""

from __future__ import annotations

import inspect
import re

from registry.site._html import Html
from registry.site._sanitize import render_markdown

_RST_LITERAL = re.compile(r"``(.+?)``")
_RST_ROLE = re.compile(r":(?:class|func|mod|data|meth|attr):`~?([^`]+)`")


def doc_markdown(obj: object) -> str:
    """An object's docstring as Markdown: ``literal`` becomes `literal`, :role:`x.y` becomes `y`."""
    text = inspect.cleandoc(getattr(obj, "__doc__", None) or "")
    text = _RST_ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1]}`", text)
    text = text.replace("::\n", ":\n")
    return _RST_LITERAL.sub(lambda m: f"`{m.group(1)}`", text)


def doc_html(obj: object) -> Html:
    """An object's docstring rendered and sanitized like any other Markdown on the site."""
    return render_markdown(doc_markdown(obj))


def first_line(obj: object) -> str:
    return doc_markdown(obj).split("\n", 1)[0]
