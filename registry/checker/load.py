"""The canonical loader: one YAML file into plain values, keeping the 1-based line and column of every node.

Values are built from the parser's event stream (:mod:`registry.checker.builder`), so every refusal is a
located diagnostic. The event source is pluggable: ruamel.yaml's safe parser is the reference, and
libyaml's events, which the builder turns into the same values and marks, locate a valid document's nodes
when a finding needs them (:func:`located_load`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from registry.checker import libyaml
from registry.checker.builder import EventBuilder, Refused, position
from registry.checker.encoding import decode
from registry.checker.pointers import Position
from registry.codes import syntax
from registry.diagnostics import Diagnostic


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
        index keeps one of these beside every record (:attr:`registry.checker.index.Entry.document`),
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


EventSource = Callable[[str], Iterable[Any]]


def ruamel_events(text: str) -> Iterable[Any]:
    """The canonical event source: ruamel.yaml's safe parser."""
    from ruamel.yaml import YAML  # lazy

    events: Iterable[Any] = YAML(typ="safe", pure=True).parse(text)
    return events


def load_text(
    path: str,
    text: str,
    events: EventSource = ruamel_events,
    builder_class: type[EventBuilder] = EventBuilder,
) -> LoadResult:
    """Load one record's text: exactly one document whose root is a mapping. ``builder_class`` lets a
    reader of other YAML files (an imported report) relax what only records must keep."""
    if not text.strip() or all(
        line.lstrip().startswith("#") or not line.strip() for line in text.splitlines()
    ):
        return LoadResult(None, [syntax.EMPTY.diagnostic(path, 1, 1, "the file holds no YAML document")])
    builder = builder_class(path)
    try:
        stream = iter(events(text))
        documents: list[Any] = []
        for event in stream:
            if type(event).__name__ == "DocumentStartEvent":
                if documents:
                    line, column = position(event.start_mark)
                    message = "a second YAML document starts here; a record file holds one"
                    return LoadResult(
                        None, [syntax.MULTIPLE_DOCUMENTS.diagnostic(path, line, column, message)]
                    )
                documents.append(builder.build(stream))
        root = documents[0] if documents else None
    except Refused as refused:
        return LoadResult(None, [refused.diagnostic])
    except RecursionError:
        return LoadResult(
            None, [syntax.TOO_DEEP.diagnostic(path, 1, 1, "the file nests too deeply to parse")]
        )
    except Exception as error:  # the parser's own errors: MarkedYAMLError and kin
        return LoadResult(None, [_syntax_error(path, error)])
    if not isinstance(root, dict):
        kind = "nothing" if root is None else type(root).__name__
        message = f"the document's root is {kind}; a record is a mapping of field names to values"
        return LoadResult(None, [syntax.ROOT_NOT_MAPPING.diagnostic(path, 1, 1, message)])
    return LoadResult(
        Document(path, root, builder.positions, builder.key_positions, builder.block_scalars), []
    )


def _syntax_error(path: str, error: Exception) -> Diagnostic:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    line, column = position(mark) if mark is not None else (1, 1)
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    message = f"{problem} ({context})" if context else str(problem)
    message = message.replace("\t", "\\t")
    hint = "indent with spaces, never tabs" if "\\t" in message else ""
    return syntax.YAML_SYNTAX.diagnostic(path, line, column, message, hint=hint)


def load_canonical(path: str, raw: bytes, events: EventSource = ruamel_events) -> LoadResult:
    """Decode a file's bytes and load them with the canonical loader (ruamel.yaml's events by default):
    the reference the fast path is held to."""
    text, diagnostics = decode(path, raw)
    if text is None:
        return LoadResult(None, diagnostics)
    return load_text(path, text, events)


def located_load(path: str, text: str) -> LoadResult:
    """The canonical loader's result, with positions: a document that loads takes its positions from
    libyaml's events (the same builder, so the same values and marks, a test holds them equal); a file
    refused for what the parser made of its text is read by ruamel.yaml, whose findings are the ones the
    registry reports."""
    if not libyaml.AVAILABLE or libyaml.risky(text):
        return load_text(path, text)
    result = load_text(path, text, events=libyaml.c_events)
    if result.document is None and (not {d.code for d in result.diagnostics} <= _STRUCTURAL or "!" in text):
        return load_text(path, text)  # the parsers may word, or even see, this refusal differently
    return result


_STRUCTURAL = frozenset({"Y002", "Y003", "Y007", "Y008", "Y011", "Y012"})
"""Refusals the builder makes from the events' structure (duplicate keys, a second document, alias and
size limits, depth, key types, numbers), which both parsers' events present alike; a test holds them so.
Not where the text has a tag: libyaml reads ``{!,!`` as two empty keys tagged ``!`` (a duplicate key),
ruamel.yaml refuses to scan its second tag, and the registry reports what ruamel.yaml finds."""
