"""Values and positions from a YAML event stream, built iteratively.

The canonical loader builds values from the parser's events itself instead of using a constructor: that
is what lets it refuse duplicate keys, tags, alias bombs and deep nesting with a located diagnostic,
without recursion, and resolve plain scalars by one fixed rule set (:mod:`registry.checker.yaml_rules`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from registry.checker.encoding import VALUE_FORBIDDEN, character_hint, describe_character
from registry.checker.limits import MAX_ALIASES, MAX_DEPTH, MAX_NODES
from registry.checker.pointers import Position, escape_pointer_part
from registry.checker.yaml_rules import ALLOWED_TAGS, STR_TAG, resolve_plain
from registry.codes import syntax
from registry.codes.rule import Rule
from registry.diagnostics import Diagnostic

NO_KEY = object()
"""A mapping's pending key before its key has been read."""


class Refused(Exception):
    """Stop building: the file breaks a rule whose diagnostic is attached."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class _Frame:
    """A mapping or sequence being built: its values so far, its pointer, the key that waits for its
    value, and what an anchor on it needs (its name, and the node count when it opened)."""

    __slots__ = ("anchor", "container", "key", "nodes_before", "pointer")

    def __init__(self, container: dict[str, Any] | list[Any], pointer: str, anchor: str | None, nodes: int):
        self.container = container
        self.pointer = pointer
        self.key: Any = NO_KEY
        self.anchor = anchor
        self.nodes_before = nodes

    def awaits_key(self) -> bool:
        """A mapping whose next node is a key."""
        return isinstance(self.container, dict) and self.key is NO_KEY

    def child_pointer(self) -> str:
        """The pointer of the node that comes next in this container."""
        if isinstance(self.container, dict):
            return self.pointer if self.key is NO_KEY else f"{self.pointer}/{escape_pointer_part(self.key)}"
        return f"{self.pointer}/{len(self.container)}"

    def attach(self, value: Any) -> None:
        if isinstance(self.container, dict):
            self.container[self.key] = value
            self.key = NO_KEY
        else:
            self.container.append(value)


class EventBuilder:
    """Turns an event stream into values and positions, iteratively."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.positions: dict[str, Position] = {}
        self.key_positions: dict[str, Position] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.block_scalars: set[str] = set()
        self.aliases = 0
        self.nodes = 0

    def refuse(self, rule: Rule, mark: Any, message: str, pointer: str = "", hint: str = "") -> Refused:
        line, column = position(mark)
        return Refused(rule.diagnostic(self.path, line, column, message, hint, pointer=pointer))

    def scalar(self, event: Any, pointer: str) -> Any:
        tag = _tag(event)
        if tag not in ALLOWED_TAGS:
            raise self.refuse(
                syntax.FORBIDDEN_TAG, event.start_mark, f"the tag {tag!r} is not allowed in a record", pointer
            )
        plain = event.implicit[0] and getattr(event, "style", None) in (None, "")
        if getattr(event, "style", None) in ("|", ">"):
            self.block_scalars.add(pointer)
        if getattr(event, "style", None) == '"':
            self._refuse_escaped_controls(event, pointer)
        if tag in (None, "!") and not plain:
            return event.value
        if tag == STR_TAG:
            return event.value
        try:
            value = resolve_plain(event.value)
        except ValueError as error:
            raise self.refuse(syntax.BAD_NUMBER, event.start_mark, str(error), pointer) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise self.refuse(
                syntax.BAD_NUMBER,
                event.start_mark,
                f"{event.value!r} is not a finite number; records hold finite numbers only",
                pointer,
            )
        return value

    def _refuse_escaped_controls(self, event: Any, pointer: str) -> None:
        """A double-quoted scalar can spell what :func:`registry.checker.encoding.decode` refuses as escapes
        (``"\\e[2J"``, ``"\\0"``, ``"\\u202e"``); the value is refused the same, with a line break or tab
        allowed."""
        found = VALUE_FORBIDDEN.search(event.value)
        if found is not None:
            message = f"an escape in the value spells {describe_character(found.group())}"
            hint = character_hint(found.group())
            raise self.refuse(syntax.ENCODING, event.start_mark, message, pointer, hint)

    def build(self, events: Iterator[Any]) -> Any:
        """Build the values of one document whose start event has been consumed."""
        stack: list[_Frame] = []
        root: Any = None
        root_set = False
        for event in events:
            name = type(event).__name__
            if name in ("MappingEndEvent", "SequenceEndEvent"):
                done = stack.pop()
                if done.anchor:
                    self.anchors[done.anchor] = (done.container, self.nodes - done.nodes_before)
                if not stack:
                    return done.container
                stack[-1].attach(done.container)
                continue
            if name == "DocumentEndEvent":
                return root
            parent_pointer = stack[-1].child_pointer() if stack else ""
            if name == "AliasEvent":
                value = self._alias(event, parent_pointer)
                if stack and stack[-1].awaits_key():
                    self._key(stack[-1], value, event)
                    continue
            elif name == "ScalarEvent":
                self._count(event)
                value = self.scalar(event, parent_pointer)
                if stack and stack[-1].awaits_key():
                    self._key(stack[-1], value, event)
                    continue
                if getattr(event, "anchor", None):
                    self.anchors[event.anchor] = (value, 1)
            elif name in ("MappingStartEvent", "SequenceStartEvent"):
                stack.append(self._open(event, stack, parent_pointer))
                continue
            else:
                continue
            if not stack:
                root, root_set = value, True
                self.positions.setdefault("", position(event.start_mark))
                continue
            if not stack[-1].awaits_key():
                where = position(event.start_mark)
                if name == "ScalarEvent" and event.value == "" and parent_pointer in self.key_positions:
                    # An empty value has no text of its own; parsers put its mark in different places
                    # (libyaml after the colon, ruamel.yaml at the next token), so it stands at its key.
                    where = self.key_positions[parent_pointer]
                self.positions.setdefault(parent_pointer, where)
            stack[-1].attach(value)
        return root if root_set else None

    def _open(self, event: Any, stack: list[_Frame], pointer: str) -> _Frame:
        """The frame of a mapping or sequence that starts at ``event``, once it passes the rules."""
        self._count(event)
        tag = _tag(event)
        if tag not in ALLOWED_TAGS:
            message = f"the tag {tag!r} is not allowed in a record"
            raise self.refuse(syntax.FORBIDDEN_TAG, event.start_mark, message, pointer)
        if stack and stack[-1].awaits_key():
            message = "a mapping key must be a plain string, not a collection"
            raise self.refuse(syntax.NON_STRING_KEY, event.start_mark, message, pointer)
        if len(stack) >= MAX_DEPTH:
            message = f"nesting deeper than {MAX_DEPTH} levels"
            raise self.refuse(syntax.TOO_DEEP, event.start_mark, message, pointer)
        container: dict[str, Any] | list[Any] = {} if type(event).__name__ == "MappingStartEvent" else []
        self.positions.setdefault(pointer, position(event.start_mark))
        return _Frame(container, pointer, getattr(event, "anchor", None), self.nodes)

    def _count(self, event: Any) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.refuse(
                syntax.ALIAS_LIMIT, event.start_mark, f"more than {MAX_NODES:,} nodes in one record"
            )

    def _alias(self, event: Any, pointer: str) -> Any:
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            raise self.refuse(
                syntax.ALIAS_LIMIT,
                event.start_mark,
                f"more than {MAX_ALIASES} aliases in one record",
                pointer,
            )
        if event.anchor not in self.anchors:
            raise self.refuse(
                syntax.YAML_SYNTAX,
                event.start_mark,
                f"alias *{event.anchor} names no anchor defined before it",
                pointer,
            )
        value, size = self.anchors[event.anchor]
        self.nodes += size
        if self.nodes > MAX_NODES:
            raise self.refuse(
                syntax.ALIAS_LIMIT,
                event.start_mark,
                f"aliases expand past {MAX_NODES:,} nodes (an alias bomb?)",
                pointer,
            )
        return value

    def _key(self, frame: _Frame, key: Any, event: Any) -> None:
        pointer = frame.pointer
        if not isinstance(key, str):
            raise self.refuse(
                syntax.NON_STRING_KEY,
                event.start_mark,
                f"a mapping key must be a string, not {key!r}",
                pointer,
            )
        if key in frame.container:
            first = self.key_positions.get(f"{pointer}/{escape_pointer_part(key)}", (0, 0))
            raise self.refuse(
                syntax.DUPLICATE_KEY,
                event.start_mark,
                f"duplicate key {key!r} (first at line {first[0]}, column {first[1]})",
                f"{pointer}/{escape_pointer_part(key)}",
            )
        frame.key = key
        self.key_positions[f"{pointer}/{escape_pointer_part(key)}"] = position(event.start_mark)


def position(mark: Any) -> Position:
    """A parser's 0-based mark as a 1-based (line, column): converted once, here."""
    return (mark.line + 1, mark.column + 1)


def _tag(event: Any) -> str | None:
    tag = getattr(event, "tag", None)
    return None if tag is None else str(tag)
