"""The registry as a whole: records by id, and the checks that span records.

Cross-record checks: the id is the path, ids are unique, the kind matches the collection, every
reference (model, engine, hardware, related) exists and has the right kind, and every ``[[id]]`` link
in Markdown resolves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from sys import intern
from typing import Any, NamedTuple, TypeVar

from registry._diagnostics import Diagnostic
from registry._loader import Document
from registry._records import KINDS, WIKI_LINK, Record
from registry._root import RootNotFound, find_root
from registry._store import RecordStore
from registry.rules import refs

COLLECTIONS = {folder: kind for kind, folder in KINDS.items()}

T = TypeVar("T")

_REFERENCE_FIELDS = {"model": "model", "engine": "engine", "hardware": "hardware"}
"""A record's reference fields, with the kind of record each must name."""

__all__ = [
    "COLLECTIONS",
    "Entry",
    "Link",
    "Reference",
    "RegistryIndex",
    "RootNotFound",
    "check_references",
    "expected_id",
    "find_root",
    "index_records",
]


class Reference(NamedTuple):
    """A record's reference to another: a field (``model``, ``engine``, ``hardware``) or an item of
    ``related``, at ``pointer``."""

    pointer: str
    target: str
    how: str


class Link(NamedTuple):
    """A ``[[target]]`` link in a record's Markdown ``field``, at ``offset`` in its text."""

    field: str
    target: str
    offset: int


class Entry:
    """One valid record in the index: what the cross-record checks and the pages' links need (its id,
    path, kind, title, references and links), kept in memory; the record itself and the document that
    locates its findings wait in the :class:`~registry._store.RecordStore` and are read back on use.

    Kept small, since an index holds one for every record (about 600 bytes with its texts): references
    and links as one flat tuple each, every id as the one interned copy of its text."""

    __slots__ = ("_derived", "_links", "_number", "_references", "_store", "id", "kind", "path", "title")

    def __init__(self, path: str, record: Record, document: Document, store: RecordStore) -> None:
        self.id = intern(record.id)
        self.path = path
        self.kind = record.kind
        self.title = record.title
        self._references = tuple(item for pair in _references(record) for item in pair)
        self._links = tuple(item for link in _links(record) for item in link)
        self._store = store
        self._number = store.put(record, document)
        self._derived: dict[Callable[[Any], Any], Any] | None = None

    @property
    def record(self) -> Record:
        return self._store.record(self._number)

    @property
    def document(self) -> Document:
        return self._store.document(self._number)

    @property
    def json(self) -> str:
        """The record as JSON (:func:`~registry._records.record_json`), without making the record."""
        return self._store.json(self._number)

    @property
    def json_size(self) -> int:
        """The length in bytes of :attr:`json`, without reading it."""
        return self._store.json_size(self._number)

    @property
    def references(self) -> tuple[Reference, ...]:
        """The record's reference fields, then its ``related`` items, in order."""
        flat, found, related = self._references, [], 0
        for position in range(0, len(flat), 2):
            target, how = flat[position], flat[position + 1]
            if how == "related":
                found.append(Reference(f"/related/{related}", target, how))
                related += 1
            else:
                found.append(Reference(f"/{how}", target, how))
        return tuple(found)

    @property
    def links(self) -> tuple[Link, ...]:
        """The ``[[links]]`` of the record's Markdown fields, in order."""
        flat: tuple[Any, ...] = self._links
        return tuple(Link(flat[at], flat[at + 1], flat[at + 2]) for at in range(0, len(flat), 3))

    def derived(self, make: Callable[[Any], T]) -> T:
        """``make(self.record)``, made once for this entry and kept once for all entries that derive an
        equal value: what many pages and rows ask of one model (its cache layout, its config fields)
        without reading the record each time. The value is shared: never change it."""
        if self._derived is None:
            self._derived = {}
        if make not in self._derived:
            self._derived[make] = self._store.shared(make(self.record))
        value: T = self._derived[make]
        return value

    def __repr__(self) -> str:
        return f"Entry({self.id!r}, {self.path!r})"


def _references(record: Record) -> Iterator[tuple[str, str]]:
    """(target, how) of each reference field that is set, then of each ``related`` item."""
    for name in _REFERENCE_FIELDS:
        target = getattr(record, name, None)
        if isinstance(target, str):
            yield intern(target), name
    for target in record.related:
        yield intern(target), "related"


def _links(record: Record) -> Iterator[Link]:
    for name in ("notes", "methodology"):
        text = getattr(record, name, None)
        if text:
            for match in WIKI_LINK.finditer(text):
                yield Link(name, intern(match.group(1).strip()), match.start())


@dataclass
class RegistryIndex:
    root: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    """Ids whose file exists but did not load or validate: a reference to one is not dangling (the file's
    own findings say what is wrong), so it is not reported a second time from every record that names it."""
    store: RecordStore = field(default_factory=RecordStore)
    """Where the entries' records are."""

    def held(self) -> AbstractContextManager[None]:
        """A block that reads each record once: see :meth:`RecordStore.held`."""
        return self.store.held()

    def get(self, record_id: str) -> Entry | None:
        return self.entries.get(record_id)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries[key] for key in sorted(self.entries))

    def of_kind(self, kind: str) -> list[Entry]:
        return [entry for entry in self if entry.kind == kind]

    def part(self, ids: Iterable[str]) -> RegistryIndex:
        """The records ``ids`` of this index: iterating the part gives only them, while :meth:`get` still
        finds every record of the whole, so a record's references resolve as they do in the whole."""
        return _Part(self, ids)


class _Part(RegistryIndex):
    def __init__(self, whole: RegistryIndex, ids: Iterable[str]) -> None:
        entries = {record_id: whole.entries[record_id] for record_id in ids}
        super().__init__(whole.root, entries, whole.broken, whole.store)
        self._whole = whole

    def get(self, record_id: str) -> Entry | None:
        return self._whole.get(record_id)


def expected_id(path: str) -> str | None:
    """``records/models/x.yaml`` → ``models/x``; None when the path cannot hold a record."""
    parts = path.split("/")
    if len(parts) != 3 or parts[0] != "records" or not parts[2].endswith(".yaml"):
        return None
    return f"{parts[1]}/{parts[2][: -len('.yaml')]}"


def index_records(
    root: Path, loaded: list[Entry], store: RecordStore
) -> tuple[RegistryIndex, list[Diagnostic]]:
    """Build the index from the entries of validated records, whose records are in ``store``, reporting
    id, collection and duplicate problems."""
    index = RegistryIndex(root, store=store)
    diagnostics: list[Diagnostic] = []
    first_path: dict[str, str] = {}
    for entry in sorted(loaded, key=lambda item: item.path):
        path, record_id, kind = entry.path, entry.id, entry.kind
        wanted = expected_id(path)
        if wanted is not None and record_id != wanted:
            line, column = entry.document.locate("/id")
            diagnostics.append(
                refs.ID_MISMATCH.diagnostic(
                    path,
                    line,
                    column,
                    f"id {record_id!r} is not the file's path; it should be {wanted!r}",
                    pointer="/id",
                )
            )
        folder = path.split("/")[1] if path.count("/") >= 2 else ""
        if folder in COLLECTIONS and COLLECTIONS[folder] != kind:
            kline, kcolumn = entry.document.locate("/kind")
            diagnostics.append(
                refs.WRONG_COLLECTION.diagnostic(
                    path,
                    kline,
                    kcolumn,
                    f"a {kind} record in records/{folder}/, which holds {COLLECTIONS[folder]} records; "
                    f"it belongs in records/{KINDS[kind]}/",
                    pointer="/kind",
                )
            )
        if record_id in first_path:
            line, column = entry.document.locate("/id")
            diagnostics.append(
                refs.DUPLICATE_ID.diagnostic(
                    path,
                    line,
                    column,
                    f"id {record_id!r} is already declared by {first_path[record_id]}",
                    pointer="/id",
                )
            )
            continue
        first_path[record_id] = path
        index.entries[record_id] = entry
    return index, diagnostics


def check_references(index: RegistryIndex) -> list[Diagnostic]:
    """Every reference and every [[link]] of every record resolves to a record of the right kind."""
    diagnostics: list[Diagnostic] = []
    for entry in index:
        diagnostics.extend(_references_of(index, entry))
        diagnostics.extend(_links_of(index, entry))
    return diagnostics


def _references_of(index: RegistryIndex, entry: Entry) -> Iterator[Diagnostic]:
    for reference in entry.references:
        pointer, target = reference.pointer, reference.target
        if reference.how == "related" and target == entry.id:
            line, column = entry.document.locate(pointer)
            yield refs.SELF_REFERENCE.diagnostic(
                entry.path, line, column, "the record lists itself as related", pointer=pointer
            )
            continue
        yield from _resolve(index, entry, pointer, target, _REFERENCE_FIELDS.get(reference.how))


def _resolve(
    index: RegistryIndex, entry: Entry, pointer: str, target: str, kind: str | None
) -> Iterator[Diagnostic]:
    found = index.get(target)
    if found is None and target in index.broken:
        return
    if found is None:
        line, column = entry.document.locate(pointer)
        yield refs.DANGLING_REFERENCE.diagnostic(
            entry.path,
            line,
            column,
            f"{pointer.lstrip('/').split('/')[0]!r} names {target!r}, which is not a record",
            hint=_suggest(index, target),
            pointer=pointer,
        )
    elif kind is not None and found.kind != kind:
        line, column = entry.document.locate(pointer)
        yield refs.WRONG_REFERENCE_KIND.diagnostic(
            entry.path,
            line,
            column,
            f"{pointer.lstrip('/')!r} names {target!r}, {_a(found.kind)} record, "
            f"where {_a(kind)} record belongs",
            pointer=pointer,
        )


def _links_of(index: RegistryIndex, entry: Entry) -> Iterator[Diagnostic]:
    for link in entry.links:
        target = link.target
        if target != entry.id and (index.get(target) is not None or target in index.broken):
            continue
        pointer = f"/{link.field}"
        text = getattr(entry.record, link.field)
        line, column = _position_in_block(entry.document, pointer, text, link.offset)
        if target == entry.id:
            yield refs.SELF_REFERENCE.diagnostic(
                entry.path, line, column, f"[[{target}]] links the record to itself", pointer=pointer
            )
        elif index.get(target) is None:
            yield refs.BROKEN_LINK.diagnostic(
                entry.path,
                line,
                column,
                f"[[{target}]] names no record",
                hint=_suggest(index, target),
                pointer=pointer,
            )


def _position_in_block(document: Document, pointer: str, text: str, offset: int) -> tuple[int, int]:
    """The line of a link inside a block scalar: the field's line plus the lines before the link."""
    line, column = document.locate(pointer)
    lines_before = text.count("\n", 0, offset)
    in_line = offset - (text.rfind("\n", 0, offset) + 1)
    if pointer in document.block_scalars:
        key_column = document.locate(pointer, key=True)[1]
        return line + 1 + lines_before, key_column + 2 + in_line
    if lines_before == 0:
        return line, column + in_line
    return line + lines_before, in_line + 1


def _suggest(index: RegistryIndex, target: str) -> str:
    import difflib

    close = difflib.get_close_matches(target, list(index.entries), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else ""


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"
