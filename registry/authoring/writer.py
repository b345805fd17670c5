"""The record writer of ``registry new`` and ``registry import-config``: a record's fields become a tree
of ruamel.yaml nodes, in canonical key order and with their comments, dumped once as ``registry fmt``
dumps a record (:mod:`registry.authoring.emit`), so a written record is already in canonical form.

A field's value is written in block style; the lists inside a field named in ``flow`` (a ``config``
copied from config.json) in flow style, unless every item is a mapping. A string is plain when the
registry's loader reads it back as the same string, else double-quoted; a float keeps the digits Python
writes for it. The text is loaded back with the registry's own loader and must give exactly the fields'
values (types included), or :class:`~registry.errors.RegistryError` says why not.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from registry.authoring.comments import Comment, Placement
from registry.authoring.emit import dump, round_trip_yaml, same_value
from registry.authoring.order import reorder
from registry.checker.load import load_text
from registry.checker.yaml_rules import resolve_plain
from registry.errors import RegistryError
from registry.kinds.records import MODEL_CLASSES
from registry.reading import FLOAT_TAG


@dataclass(frozen=True)
class Item:
    """A sequence item with comment lines above it."""

    value: Any
    above: tuple[str, ...] = ()


@dataclass(frozen=True)
class Todo:
    """An empty value a person must fill: written as ``null`` or ``[]`` with ``# TODO: what``."""

    what: str
    empty: Any = None


_YAML11_BOOLEANS = {"y", "n", "yes", "no", "on", "off"}
"""Strings YAML 1.1 tools read as booleans: quoted, although the registry reads YAML 1.2."""
_PLAIN = re.compile(r"[A-Za-z0-9~][A-Za-z0-9_.,/()+~:@=?&%# '-]*")


def scalar(text: str, *, flow: bool = False) -> str:
    """How a string is written as a YAML scalar that the registry's loader reads back exactly: plain
    when that is safe, else double-quoted (a JSON string is a valid YAML double-quoted scalar)."""
    try:
        resolved = resolve_plain(text)
    except ValueError:  # a plain scalar the loader refuses (an integer of 101 digits): quoted, it is text
        resolved = None
    plain = _PLAIN.fullmatch(text) and text == text.strip() and isinstance(resolved, str)
    awkward = ": " in text or " #" in text or text.endswith(":") or (flow and "," in text)
    awkward = awkward or text.lower() in _YAML11_BOOLEANS
    if plain and not awkward and text != "~":
        return text
    return json.dumps(text, ensure_ascii=False)


def _comment_lines(lines: tuple[str, ...]) -> list[str]:
    return [f"# {line}".rstrip() for line in lines]


def _mappings_only(items: list[Any]) -> bool:
    return all(isinstance(item, dict | Item) for item in items)


class _Builder:
    """Builds the node tree of one record, collecting the comments' places as it goes."""

    def __init__(self, yaml: YAML) -> None:
        self.constructor = yaml.constructor
        self.resolver = yaml.resolver
        self.placement = Placement()

    def entry(self, node: CommentedMap, key: str, value: Any, flow_lists: bool) -> None:
        """``key: value`` in the block mapping ``node``; a :class:`Todo` gets its comment at the line's end."""
        name = self.string(key, flow=False)
        if isinstance(value, Todo):
            node[name] = self.flow(value.empty)
            self.placement.end_of_line[(id(node), name)] = Comment(0, 0, f"# TODO: {value.what}", True, 2)
        else:
            node[name] = self.block(value, flow_lists)

    def block(self, value: Any, flow_lists: bool) -> Any:
        """A value after a key: a mapping or a list as a block unless it is empty (or, with ``flow_lists``,
        a list with an item that is not a mapping, or a number JSON cannot spell,
        ``{"__float__": "Infinity"}``), which is written in flow style."""
        if flow_lists and isinstance(value, dict) and set(value) == {FLOAT_TAG}:
            return self.flow(value)
        if isinstance(value, dict) and value:
            node = CommentedMap()
            for key, inner in value.items():
                self.entry(node, key, inner, flow_lists)
            return node
        if isinstance(value, list) and value and (not flow_lists or _mappings_only(value)):
            seq = CommentedSeq()
            for position, item in enumerate(value):
                inner = item.value if isinstance(item, Item) else item
                if isinstance(item, Item) and item.above:
                    self.placement.before[(id(seq), position)] = _comment_lines(item.above)
                seq.append(self.block(inner, flow_lists) if isinstance(inner, dict) else self.flow(inner))
            return seq
        return self.flow(value) if isinstance(value, dict | list) else self.scalar(value, flow=False)

    def flow(self, value: Any) -> Any:
        """A value in flow style: ``[a, b]``, ``{k: v}``, or a scalar safe inside brackets."""
        node: CommentedSeq | CommentedMap
        if isinstance(value, list):
            node = CommentedSeq(self.flow(item) for item in value)
        elif isinstance(value, dict):
            node = CommentedMap((self.string(k, flow=True), self.flow(v)) for k, v in value.items())
        else:
            return self.scalar(value, flow=True)
        node.fa.set_flow_style()
        return node

    def scalar(self, value: Any, *, flow: bool) -> Any:
        """A scalar node as ruamel.yaml's round-trip loader makes it from the scalar's text, so that it is
        written back as ``fmt`` writes it (a float keeps the digits Python writes for it)."""
        if value is None or isinstance(value, bool | int):
            return value
        if isinstance(value, float):
            return self.construct(repr(value))
        return self.string(str(value), flow=flow)

    def string(self, text: str, *, flow: bool) -> Any:
        """A string node: plain when :func:`scalar` writes it plain, else double-quoted."""
        return self.construct(text) if scalar(text, flow=flow) == text else DoubleQuotedScalarString(text)

    def construct(self, text: str) -> Any:
        """The node ruamel.yaml's round-trip loader makes of a plain scalar (a date-like string is a date
        to ruamel.yaml, a string to the registry: either way it is written back as it reads)."""
        tag = self.resolver.resolve(ScalarNode, text, (True, False))
        return self.constructor.construct_object(ScalarNode(tag, text))


def plain_value(value: Any) -> Any:
    """The data a field's value stands for: a :class:`Todo` is its empty value, an :class:`Item` its value."""
    if isinstance(value, Todo):
        return value.empty
    if isinstance(value, Item):
        return plain_value(value.value)
    if isinstance(value, dict):
        return {key: plain_value(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [plain_value(item) for item in value]
    return value


def record_text(
    fields: dict[str, Any], comments: dict[str, tuple[str, ...]], flow: tuple[str, ...] = ()
) -> str:
    """A record's text in canonical form: each field, with ``comments[field]`` as comment lines above it;
    the lists inside the fields named in ``flow`` are written in flow style."""
    yaml = round_trip_yaml()
    builder = _Builder(yaml)
    root = CommentedMap()
    for key, value in fields.items():
        builder.entry(root, key, value, flow_lists=key in flow)
        if comments.get(key):
            builder.placement.before[(id(root), key)] = _comment_lines(comments[key])
    kind = fields.get("kind")
    kind = kind if isinstance(kind, str) and kind in MODEL_CLASSES else None
    reorder(root, MODEL_CLASSES[kind] if kind else None)
    text = dump(yaml, root, builder.placement, kind)
    written = load_text("<record>", text)
    if written.document is None:
        problem = written.diagnostics[0].message if written.diagnostics else "the text does not load"
    elif not same_value(written.document.data, plain_value(fields)):
        problem = "the text reads back as other values"
    else:
        return text
    raise RegistryError(f"the record cannot be written as YAML that reads back the same: {problem}")
