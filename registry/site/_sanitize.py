"""A record's Markdown fields (``notes``, ``methodology``) as safe HTML.

Record text arrives by pull request, so it is treated as hostile: it is rendered as GitHub-Flavored
Markdown by cmark-gfm (GitHub's own renderer, through ``cmarkgfm``; in its safe mode, which leaves raw
HTML out and blanks ``javascript:`` links) and the result is cleaned by nh3 (the ammonia sanitizer)
against an allow-list. Whatever survives is plain
formatting: no script, no event handler, no style, no image, no form, no ``id`` or ``class`` (a record
could otherwise dress text up as one of the site's verdict badges), and links only to ``https:`` or
relative addresses (the rule :mod:`registry.site._guard` holds every page to).

The HTML is written on one line, its line breaks as ``&#10;`` (the same text to a browser): the page
is Markdown read by extensions that look at the start of every line, raw HTML or not, so a line of
three backticks or ``--8<--`` in a record's text would otherwise open a code fence or include a file
across the rest of the page.

``[[id]]`` links become real links to the record's page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import cmarkgfm  # type: ignore[import-untyped]  # no stubs are published
import nh3
from cmarkgfm.cmark import Options  # type: ignore[import-untyped]

from registry.kinds.records import WIKI_LINK
from registry.site._guard import LINK_SCHEMES
from registry.site._html import Html

ALLOWED_TAGS = frozenset(
    {
        "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "dl", "dt", "em", "h3", "h4", "h5",
        "h6", "hr", "i", "li", "ol", "p", "pre", "s", "strong", "sub", "sup", "table", "tbody", "td",
        "th", "thead", "tr", "ul",
    }
)  # fmt: skip
"""Tags a Markdown field may produce. ``h1`` and ``h2`` are left out: the page owns its outline."""

ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}}
ALLOWED_SCHEMES = LINK_SCHEMES
REMOVED_WITH_CONTENT = frozenset({"script", "style", "template", "iframe", "object", "noscript", "textarea"})

LinkResolver = Callable[[str], "tuple[str, str] | None"]
"""Maps a record id to (href, link text), or ``None`` when no such record exists."""


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(REMOVED_WITH_CONTENT),
        attributes={tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(ALLOWED_SCHEMES),
        strip_comments=True,
        link_rel="noopener noreferrer nofollow",
    )


def _convert(text: str) -> str:
    """GitHub-Flavored Markdown (tables, fenced code, strikethrough, autolinks) as HTML, the way a
    contributor's pull request shows it on GitHub. Chosen over Python-Markdown for speed: cmark is
    written in C, and a large registry's site renders the notes of thousands of records."""
    return str(cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_VALIDATE_UTF8))


def prepare() -> None:
    """Build the cleaner now (before worker processes fork and share it)."""
    _cleaner()


def clean_html(fragment: str) -> Html:
    """An HTML fragment cleaned against the allow-list, on one line."""
    return Html(_one_line(_cleaner().clean(fragment)))


def render_markdown(text: str, resolve: LinkResolver | None = None) -> Html:
    """A Markdown field as sanitized HTML, with each resolvable ``[[id]]`` a link to the record.

    A resolvable link is rewritten to a Markdown link before rendering: record ids and the page
    addresses made from them use only ``a-z 0-9 . _ - /``, so the rewrite cannot smuggle markup in, and
    the sanitizer then treats it like any other link. An ``[[id]]`` naming no record (an error
    ``registry check`` reports) stays the plain text it is.
    """

    def swap(match: re.Match[str]) -> str:
        found = resolve(match.group(1).strip()) if resolve else None
        if found is None or not _SAFE.fullmatch(found[0]) or not _SAFE.fullmatch(found[1]):
            return match.group(0)
        href, label = found
        return f"[{label.replace('_', chr(92) + '_')}]({href})"

    prepared = WIKI_LINK.sub(swap, text)
    return Html(_one_line(_cleaner().clean(_convert(prepared))))


def _one_line(fragment: str) -> str:
    """``fragment`` with its line breaks as character references: see the module's docstring."""
    return fragment.rstrip("\n").replace("\r", "&#13;").replace("\n", "&#10;")


_SAFE = re.compile(r"[A-Za-z0-9._/#-]{1,400}")
"""What a rewritten [[id]] link's text and address may contain: nothing Markdown or HTML reads as syntax."""
