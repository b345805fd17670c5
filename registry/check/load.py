"""Load one YAML file into plain values, keeping the 1-based line and column of every node.

The loader builds values from the parser's event stream itself instead of using a constructor: that is
what lets it refuse duplicate keys, tags, alias bombs and deep nesting with a located diagnostic, without
recursion, and resolve plain scalars by one fixed rule set (the YAML 1.2 core schema: ``yes`` stays a
string, dates stay strings, ``0o10`` is 8). The event source is pluggable so that a faster parser with the
same events can serve the hot path.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from registry.codes import syntax
from registry.diagnostics import Diagnostic

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_NODES = 200_000

Position = tuple[int, int]


@dataclass
class Document:
    """A loaded YAML file: its values and where each node stands.

    ``positions`` maps a JSON pointer (``"/claims/2/stated"``) to the 1-based (line, column) of the value
    node, ``key_positions`` to that of the mapping key that holds it. A document from the fast path
    carries its ``text`` instead and finds positions on first use, with the canonical loader: valid
    files, the common case, never pay for them.
    """

    path: str
    data: dict[str, Any]
    _positions: dict[str, Position] | None = field(default=None, repr=False)
    _key_positions: dict[str, Position] | None = field(default=None, repr=False)
    _block_scalars: set[str] | None = field(default=None, repr=False)
    text: str | None = field(default=None, repr=False)

    def _fill(self) -> None:
        from registry.check.fastload import located_load

        located = located_load(self.path, self.text or "").document
        self._positions = located._positions if located else {}
        self._key_positions = located._key_positions if located else {}
        self._block_scalars = located._block_scalars if located else set()

    @property
    def positions(self) -> dict[str, Position]:
        if self._positions is None:
            self._fill()
        assert self._positions is not None
        return self._positions

    @property
    def key_positions(self) -> dict[str, Position]:
        if self._key_positions is None:
            self._fill()
        assert self._key_positions is not None
        return self._key_positions

    @property
    def block_scalars(self) -> set[str]:
        if self._block_scalars is None:
            self._fill()
        assert self._block_scalars is not None
        return self._block_scalars

    def released(self) -> Document:
        """This document without its values, once the record has been made from them: what stays is
        what locates a finding (the positions, or the text they are found from on first use). The
        index keeps one of these beside every record (:attr:`registry.check.index.Entry.document`),
        without the values the record already holds."""
        return Document(
            self.path, {}, self._positions, self._key_positions, self._block_scalars, text=self.text
        )

    def locate(self, pointer: str, *, key: bool = False) -> Position:
        """The position of the node at ``pointer``, or of its nearest ancestor that exists."""
        table = self.key_positions if key else self.positions
        current = pointer
        while True:
            if current in table:
                return table[current]
            if current in self.positions:
                return self.positions[current]
            if current in ("", "/"):
                return (1, 1)
            current = current.rsplit("/", 1)[0]


@dataclass
class LoadResult:
    document: Document | None
    diagnostics: list[Diagnostic]


class _Refused(Exception):
    """Stop building: the file breaks a rule whose diagnostic is attached."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def escape_pointer_part(part: str | int) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


# YAML 1.2 core schema, https://yaml.org/spec/1.2.2/#1023-core-schema
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_TRUE = re.compile(r"^(?:true|True|TRUE)$")
_FALSE = re.compile(r"^(?:false|False|FALSE)$")
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")
_MAX_INT_DIGITS = 100
_SPECIAL_STARTS = frozenset("~nNtTfF0123456789+-.")

_STR_TAG = "tag:yaml.org,2002:str"
_ALLOWED_TAGS = {
    None,
    "!",
    _STR_TAG,
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


def resolve_plain(text: str) -> Any:
    """The value of a plain (unquoted) scalar under the YAML 1.2 core schema."""
    first = text[:1]
    if first and first not in _SPECIAL_STARTS:
        return text  # most scalars are words: no core-schema type starts with their first letter
    if _NULL.match(text):
        return None
    if _TRUE.match(text):
        return True
    if _FALSE.match(text):
        return False
    if _INT10.match(text):
        if len(text) > _MAX_INT_DIGITS:
            raise ValueError(f"integer with more than {_MAX_INT_DIGITS} digits")
        return int(text)
    if _INT8.match(text) or _INT16.match(text):
        # bounded like decimals: a 5,000-digit 0x... is too large even to print (int-to-text limit)
        if len(text) - 2 > _MAX_INT_DIGITS:
            raise ValueError(f"integer with more than {_MAX_INT_DIGITS} digits")
        return int(text[2:], 8 if text[1] == "o" else 16)
    if _FLOAT.match(text) and any(ch.isdigit() for ch in text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    return text


class _Builder:
    """Turns an event stream into values and positions, iteratively."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.positions: dict[str, Position] = {}
        self.key_positions: dict[str, Position] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.block_scalars: set[str] = set()
        self.aliases = 0
        self.nodes = 0

    def refuse(self, rule: Any, mark: Any, message: str, pointer: str = "") -> _Refused:
        line, column = _position(mark)
        return _Refused(rule.diagnostic(self.path, line, column, message, pointer=pointer))

    def scalar(self, event: Any, pointer: str) -> Any:
        tag = _tag(event)
        if tag not in _ALLOWED_TAGS:
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
        if tag == _STR_TAG:
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
        """A double-quoted scalar can spell what :func:`decode` refuses as escapes (``"\\e[2J"``,
        ``"\\0"``, ``"\\u202e"``); the value is refused the same, with a line break or tab allowed."""
        found = _VALUE_FORBIDDEN.search(event.value)
        if found is not None:
            message = f"an escape in the value spells {_describe_character(found.group())}"
            raise self.refuse(syntax.ENCODING, event.start_mark, message, pointer)

    def build(self, events: Iterator[Any]) -> Any:
        """Build the values of one document whose start event has been consumed."""
        # Stack of open containers: [container, pointer, pending key, pending key mark, start mark]
        stack: list[list[Any]] = []
        root: Any = None
        root_set = False
        for event in events:
            name = type(event).__name__
            if name in ("MappingEndEvent", "SequenceEndEvent"):
                done = stack.pop()
                value = done[0]
                anchor = done[5]
                if anchor:
                    self.anchors[anchor] = (value, self.nodes - done[6])
                if not stack:
                    return value
                self._attach(stack, value, done[4])
                continue
            if name == "DocumentEndEvent":
                return root
            parent_pointer = self._child_pointer(stack) if stack else ""
            if name == "AliasEvent":
                value = self._alias(event, parent_pointer)
                if stack and isinstance(stack[-1][0], dict) and stack[-1][2] is _NO_KEY:
                    self._key(stack[-1], value, event)
                    continue
            elif name == "ScalarEvent":
                self._count(event)
                value = self.scalar(event, parent_pointer)
                if stack and isinstance(stack[-1][0], dict) and stack[-1][2] is _NO_KEY:
                    self._key(stack[-1], value, event)
                    continue
                if getattr(event, "anchor", None):
                    self.anchors[event.anchor] = (value, 1)
            elif name in ("MappingStartEvent", "SequenceStartEvent"):
                self._count(event)
                tag = _tag(event)
                if tag not in _ALLOWED_TAGS:
                    raise self.refuse(
                        syntax.FORBIDDEN_TAG,
                        event.start_mark,
                        f"the tag {tag!r} is not allowed in a record",
                        parent_pointer,
                    )
                if stack and isinstance(stack[-1][0], dict) and stack[-1][2] is _NO_KEY:
                    raise self.refuse(
                        syntax.NON_STRING_KEY,
                        event.start_mark,
                        "a mapping key must be a plain string, not a collection",
                        parent_pointer,
                    )
                if len(stack) >= MAX_DEPTH:
                    raise self.refuse(
                        syntax.TOO_DEEP,
                        event.start_mark,
                        f"nesting deeper than {MAX_DEPTH} levels",
                        parent_pointer,
                    )
                container: Any = {} if name == "MappingStartEvent" else []
                self.positions.setdefault(parent_pointer, _position(event.start_mark))
                stack.append(
                    [
                        container,
                        parent_pointer,
                        _NO_KEY,
                        None,
                        event.start_mark,
                        getattr(event, "anchor", None),
                        self.nodes,
                    ]
                )
                continue
            else:
                continue
            if not stack:
                root, root_set = value, True
                self.positions.setdefault("", _position(event.start_mark))
                continue
            if not isinstance(stack[-1][0], dict) or stack[-1][2] is not _NO_KEY:
                position = _position(event.start_mark)
                if name == "ScalarEvent" and event.value == "" and parent_pointer in self.key_positions:
                    # An empty value has no text of its own; parsers put its mark in different places
                    # (libyaml after the colon, ruamel.yaml at the next token), so it stands at its key.
                    position = self.key_positions[parent_pointer]
                self.positions.setdefault(parent_pointer, position)
            self._attach(stack, value, event.start_mark)
        return root if root_set else None

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

    def _child_pointer(self, stack: list[list[Any]]) -> str:
        container, pointer, key = stack[-1][0], stack[-1][1], stack[-1][2]
        if isinstance(container, dict):
            return pointer if key is _NO_KEY else f"{pointer}/{escape_pointer_part(key)}"
        return f"{pointer}/{len(container)}"

    def _key(self, frame: list[Any], key: Any, event: Any) -> None:
        pointer = frame[1]
        if not isinstance(key, str):
            raise self.refuse(
                syntax.NON_STRING_KEY,
                event.start_mark,
                f"a mapping key must be a string, not {key!r}",
                pointer,
            )
        if key in frame[0]:
            first = self.key_positions.get(f"{pointer}/{escape_pointer_part(key)}", (0, 0))
            raise self.refuse(
                syntax.DUPLICATE_KEY,
                event.start_mark,
                f"duplicate key {key!r} (first at line {first[0]}, column {first[1]})",
                f"{pointer}/{escape_pointer_part(key)}",
            )
        frame[2] = key
        self.key_positions[f"{pointer}/{escape_pointer_part(key)}"] = _position(event.start_mark)

    def _attach(self, stack: list[list[Any]], value: Any, mark: Any) -> None:
        frame = stack[-1]
        if isinstance(frame[0], dict):
            frame[0][frame[2]] = value
            frame[2] = _NO_KEY
        else:
            frame[0].append(value)


_NO_KEY = object()


def _position(mark: Any) -> Position:
    return (mark.line + 1, mark.column + 1)


def _tag(event: Any) -> str | None:
    tag = getattr(event, "tag", None)
    return None if tag is None else str(tag)


EventSource = Callable[[str], Iterable[Any]]


def ruamel_events(text: str) -> Iterable[Any]:
    """The canonical event source: ruamel.yaml's safe parser."""
    from ruamel.yaml import YAML

    events: Iterable[Any] = YAML(typ="safe", pure=True).parse(text)
    return events


def decode(path: str, raw: bytes) -> tuple[str | None, list[Diagnostic]]:
    """Bytes to text, refusing oversized, binary and non-UTF-8 files with a located diagnostic."""
    if len(raw) > MAX_FILE_BYTES:
        return None, [too_large(path, len(raw))]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        # the bytes before the first bad one are valid UTF-8: count columns in characters, as the parser does
        before = raw[: error.start].decode("utf-8")
        line, column = line_column(before, len(before))
        message = f"byte 0x{raw[error.start]:02x} is not valid UTF-8"
        return None, [syntax.ENCODING.diagnostic(path, line, column, message)]
    text = text.removeprefix("\ufeff")
    control = _FORBIDDEN.search(text)
    if control is not None:
        line, column = line_column(text, control.start())
        message = f"the file holds {_describe_character(control.group())}"
        return None, [syntax.ENCODING.diagnostic(path, line, column, message)]
    return text, []


def too_large(path: str, size: int) -> Diagnostic:
    """The finding for a file of ``size`` bytes, past :data:`MAX_FILE_BYTES`."""
    message = f"the file has {size:,} bytes; a record holds at most {MAX_FILE_BYTES:,}"
    return syntax.TOO_LARGE.diagnostic(path, 1, 1, message)


def line_column(text: str, index: int) -> Position:
    """The 1-based line and column of ``text[index]``, counting line breaks as YAML does: CR LF, LF or a
    lone CR (so that a CR-only file is located as the parser locates it)."""
    line = text.count("\n", 0, index) + text.count("\r", 0, index) - text.count("\r\n", 0, index) + 1
    start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    return line, index - start + 1


# What a reviewer would not see as it is read: C0 and C1 controls but tab and line breaks, DEL,
# the line and paragraph separators (line breaks to some editors, not to YAML 1.2), the bidirectional
# embeddings, overrides and isolates (the "Trojan Source" reordering, CVE-2021-42574), noncharacters.
_UNSEEN = "\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff"
_FORBIDDEN = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_UNSEEN}]")
# Inside a value, spelt as escapes: the same, and a carriage return too (a value may hold a line break).
_VALUE_FORBIDDEN = re.compile(f"[\x00-\x08\x0b-\x1f{_UNSEEN}]")


def _describe_character(char: str) -> str:
    code = f"U+{ord(char):04X}"
    if char in "\u2028\u2029":
        return f"the separator {code} (a line break to some editors, not to YAML)"
    if "\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069":
        return f"the bidirectional control {code} (it shows text in another order than it is read)"
    if char in "\ufffe\uffff":
        return f"the noncharacter {code}"
    return f"the control character {code}"


def load_text(path: str, text: str, events: EventSource = ruamel_events) -> LoadResult:
    """Load one record's text: exactly one document whose root is a mapping."""
    if not text.strip() or all(
        line.lstrip().startswith("#") or not line.strip() for line in text.splitlines()
    ):
        return LoadResult(None, [syntax.EMPTY.diagnostic(path, 1, 1, "the file holds no YAML document")])
    builder = _Builder(path)
    try:
        stream = iter(events(text))
        documents: list[Any] = []
        for event in stream:
            name = type(event).__name__
            if name == "DocumentStartEvent":
                if documents:
                    line, column = _position(event.start_mark)
                    return LoadResult(
                        None,
                        [
                            syntax.MULTIPLE_DOCUMENTS.diagnostic(
                                path,
                                line,
                                column,
                                "a second YAML document starts here; a record file holds one",
                            )
                        ],
                    )
                documents.append(builder.build(stream))
        root = documents[0] if documents else None
    except _Refused as refused:
        return LoadResult(None, [refused.diagnostic])
    except RecursionError:
        return LoadResult(
            None, [syntax.TOO_DEEP.diagnostic(path, 1, 1, "the file nests too deeply to parse")]
        )
    except Exception as error:  # the parser's own errors: MarkedYAMLError and kin
        return LoadResult(None, [_syntax_error(path, error)])
    if not isinstance(root, dict):
        kind = "nothing" if root is None else type(root).__name__
        return LoadResult(
            None,
            [
                syntax.ROOT_NOT_MAPPING.diagnostic(
                    path,
                    1,
                    1,
                    f"the document's root is {kind}; a record is a mapping of field names to values",
                )
            ],
        )
    return LoadResult(
        Document(path, root, builder.positions, builder.key_positions, builder.block_scalars), []
    )


def _syntax_error(path: str, error: Exception) -> Diagnostic:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    line, column = _position(mark) if mark is not None else (1, 1)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    message = f"{problem} ({context})" if context else str(problem)
    message = message.replace("\t", "\\t")
    hint = "indent with spaces, never tabs" if "\\t" in message else ""
    return syntax.YAML_SYNTAX.diagnostic(path, line, column, message, hint=hint)


def load_bytes(path: str, raw: bytes, events: EventSource = ruamel_events) -> LoadResult:
    text, diagnostics = decode(path, raw)
    if text is None:
        return LoadResult(None, diagnostics)
    return load_text(path, text, events)
