"""The last step of every generated page: no address on it may run script or load from the network.

Record text reaches a page escaped (:mod:`registry.site._html`) or sanitized (:mod:`registry.site._sanitize`),
and a page is Markdown, which MkDocs turns into HTML with Python-Markdown: that renderer keeps a
``javascript:`` link as it is written. So every page the generator writes passes through
:func:`guard_page` on its way to the disk, and every address a browser would follow or fetch is held to
the site's rule, whatever produced it:

- a link (``href``, a Markdown link or reference, an autolink) goes to ``https:`` or stays within the
  site (a relative address, a ``#fragment``);
- an image or any other fetched source (``src``, ``srcset``, ``poster``, a Markdown image) is within the
  site: the site loads nothing from the network.

An address that breaks the rule is made inert: an HTML attribute's value becomes ``#``, and a Markdown
link's ``](`` is written ``]&#40;``, which shows the same text but is no longer link syntax. Addresses are
judged after decoding entities and dropping the whitespace and control characters browsers ignore, so
``jav&#x09;ascript&colon;`` is ``javascript:``.
"""

from __future__ import annotations

import html
import re

LINK_SCHEMES = frozenset({"https"})
"""The one scheme a link may name; anything else must be relative."""

_ATTRIBUTE_NAMES = frozenset(
    {"href", "src", "srcset", "poster", "action", "formaction", "xlink:href", "data", "background", "cite"}
)
"""The HTML attributes that hold an address a browser follows or fetches."""
_VALUE = re.compile(r"""=(?=(\s*)("[^"]*[:&][^"]*"|'[^']*[:&][^']*'|[^\s"'>]*[:&][^\s"'>]*))""")
"""An attribute's value that could name a scheme: one holding ``:`` or ``&`` (an entity such as ``&colon;``).
Any other value is relative, so only these are judged; the scan starts at ``=``, which keeps it fast.
The value is a lookahead, so that an ``=`` inside it is still a place to look when no attribute name
stands before the first."""
_NAME_BEFORE = re.compile(r"(?<![\w-])(xlink:href|[\w-]+)\s*$", re.I)
_MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>]*)")
_REFERENCE = re.compile(r"(?m)^( {0,3}\[[^\]\n]+\]:[ \t]*)<?(\S+?)>?(?=\s|$)")
_AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}):")
_IGNORED = re.compile(r"[\x00-\x20\x7f]+")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_PLAIN = re.compile(r"[\w./#?=%~+-]*")
"""An address written with none of ``:``, ``&`` (an entity) or a character browsers ignore: relative as
it stands, with no decoding to do (most addresses on a page: the site's own links)."""
_MARKERS = ("=", "](", "]:", "<")
"""What every address the guard judges is written with; a text holding none of them has no address (a
plain substring test: a regular expression for the same question cost more than the guard's own work)."""


def scheme_of(address: str) -> str | None:
    """The scheme of ``address`` as a browser reads it (entities decoded, ignored characters dropped),
    lower-cased; ``None`` for a relative address."""
    if _PLAIN.fullmatch(address):
        return None
    found = _SCHEME.match(_IGNORED.sub("", html.unescape(address)))
    return found.group(1).lower() if found else None


def allowed(address: str, *, fetched: bool = False) -> bool:
    """Whether a page may hold ``address``: relative always; ``https:`` for a link but not a source."""
    scheme = scheme_of(address)
    return scheme is None or (not fetched and scheme in LINK_SCHEMES)


def guard_page(text: str) -> str:
    """``text`` (a generated page, or a part of one) with every address the rule refuses made inert."""
    if not any(marker in text for marker in _MARKERS):  # many parts hold no address at all
        return text
    text = _attributes(text)
    text = _MARKDOWN_LINK.sub(_markdown_link, text)
    text = _REFERENCE.sub(_reference, text)
    return _AUTOLINK.sub(_autolink, text)


def _attributes(text: str) -> str:
    """``text`` with every refused address of an HTML attribute made ``#``; a judged value is passed
    over whole, as an HTML parser reads it."""
    parts: list[str] = []
    done = scanned = 0
    for match in _VALUE.finditer(text):
        if match.start() < scanned:
            continue
        named = _NAME_BEFORE.search(text, max(0, match.start() - 64), match.start())
        name = named.group(1).lower() if named else ""
        if name not in _ATTRIBUTE_NAMES:
            continue
        scanned = match.end(2)
        if not _allowed_value(name, match.group(2)):
            parts += [text[done : match.start()], f'={match.group(1)}"#"']
            done = scanned
    return "".join([*parts, text[done:]]) if parts else text


def _allowed_value(name: str, quoted: str) -> bool:
    value = quoted[1:-1] if quoted[:1] in "\"'" and len(quoted) > 1 else quoted
    if name == "srcset":
        return all(
            allowed(part.strip().split(" ")[0], fetched=True) for part in value.split(",") if part.strip()
        )
    return allowed(value, fetched=name not in {"href", "xlink:href", "cite", "action", "formaction"})


def _markdown_link(match: re.Match[str]) -> str:
    start = match.string.rfind("\n", 0, match.start()) + 1
    image = "![" in match.string[start : match.start()]
    return match.group(0) if allowed(match.group(1), fetched=image) else "]&#40;" + match.group(0)[2:]


def _reference(match: re.Match[str]) -> str:
    if allowed(match.group(2)):
        return match.group(0)
    return match.group(0).replace("]:", "]&#58;", 1)


def _autolink(match: re.Match[str]) -> str:
    return match.group(0) if allowed(match.group(1) + ":x") else "&lt;" + match.group(0)[1:]
