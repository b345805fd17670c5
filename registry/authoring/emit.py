"""A record's text from a tree of ruamel.yaml nodes: the one way ``fmt``, ``new`` and ``import-config``
write YAML, so that what ``new`` writes is already what ``fmt`` would make of it.

The form: the modeline ``# yaml-language-server: $schema=../../schemas/<kind>.schema.json`` first, 2-space
mapping indent, sequences written ``  - `` under their key, no line re-wrapping, ``null`` spelled out,
quotes and block scalars as the nodes say, one final newline; comments where a :class:`Placement` puts
them.
"""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML

from registry.authoring.comments import Placement, attach

MODELINE = "# yaml-language-server: $schema=../../schemas/{kind}.schema.json"
"""The first line of every record: it points editors at the kind's JSON Schema."""

_WIDTH = 1_000_000_000  # never re-wrap a line


def round_trip_yaml() -> YAML:
    """ruamel.yaml in round-trip mode, set up to write the canonical form (and to read what it rewrites)."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = _WIDTH
    yaml.allow_unicode = True
    # [0.0, {__float__: Infinity}], not [0.0, __float__: Infinity]: a mapping in a list reads as one
    yaml.brace_single_entry_mapping_in_flow_sequence = True
    yaml.representer.add_representer(type(None), _represent_null)
    return yaml


def _represent_null(representer: Any, value: None) -> Any:
    """``null`` spelled out: ruamel.yaml would write nothing after the colon, which reads as a forgotten
    value (and JSON-born ``config`` fields are ``null``)."""
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def dump(yaml: YAML, data: Any, placement: Placement, kind: str | None) -> str:
    """The text of ``data`` with the placed comments, headed by the modeline when ``kind`` is known."""
    attach(data, placement)
    out = io.StringIO()
    yaml.dump(data, out)
    body = placement.restore(out.getvalue()).rstrip("\n") + "\n"
    head = [MODELINE.format(kind=kind)] if kind else []
    head += placement.head
    return "".join(line + "\n" for line in head) + body + "".join(line + "\n" for line in placement.tail)


def same_value(a: Any, b: Any) -> bool:
    """Equal values of equal types, all the way down (``1``, ``1.0`` and ``True`` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
