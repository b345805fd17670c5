"""libyaml (PyYAML's C parser), when it is installed, and which texts it may read for the registry.

Both loaders use it: the fast path builds values from its events (:mod:`registry.checker.fastload`), and
the canonical loader takes a valid document's positions from them (:mod:`registry.checker.load`). A text
where a YAML 1.1 parser and a YAML 1.2 parser could read differently is *risky* and goes to ruamel.yaml.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

CParser: Any
yaml_events: Any
try:
    from yaml import events as yaml_events
    from yaml._yaml import CParser
except ImportError:  # pragma: no cover - PyYAML without libyaml: everything takes the canonical path
    CParser = yaml_events = None

AVAILABLE = CParser is not None

_RISKY = ("\t", "\\", "\x85", "\u2028", "\u2029", "\ufeff", "?")
"""Tabs, backslash escapes, the line breaks YAML 1.1 knows and 1.2 does not, a byte-order mark, and ``?``
(a complex key's indicator, whose finding libyaml places a column apart: ``[?,``; no record needs one)."""

_ODD_ANCHOR = re.compile(r"(?:^|(?<=[\s\[{,]))[&*](?![*\s])[^\s\[\]{},]*[^\s\[\]{},0-9A-Za-z_-]", re.M)
"""An anchor or alias name with a character outside libyaml's alphabet (``&a:``): YAML 1.1 ends the name
there, YAML 1.2 takes the character into it, so the two read different documents. Only where a node
property can stand (after a space, a line's start or a flow indicator), and not Markdown's ``**``."""


def risky(text: str) -> bool:
    """Directives, tabs, backslash escapes, a line break YAML 1.1 knows and 1.2 does not, or an anchor
    name the two read differently."""
    return (
        text.startswith("%")
        or "\n%" in text
        or any(mark in text for mark in _RISKY)
        or _ODD_ANCHOR.search(text) is not None
    )


def c_events(text: str) -> Iterator[Any]:
    """libyaml's events for ``text``, the parser disposed of when they end."""
    parser = CParser(text)
    try:
        while (event := parser.get_event()) is not None:
            yield event
    finally:
        parser.dispose()
