"""The registry as a whole: records by id, and the checks that span records.

Cross-record checks: the id is the path, ids are unique, the kind matches the collection, every
reference (model, engine, hardware, related) exists and has the right kind, and every ``[[id]]`` link
in Markdown resolves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from registry.check.lines import Lines
from registry.check.load import Document
from registry.check.store import RecordStore
from registry.codes import refs
from registry.diagnostics import Diagnostic
from registry.kinds.records import KINDS, WIKI_LINK, Record
from registry.root import RootNotFound, find_root

COLLECTIONS = {folder: kind for kind, folder in KINDS.items()}

T = TypeVar("T")

_REFERENCE_FIELDS = {"model": "model", "engine": "engine", "hardware": "hardware"}
"""A record's reference fields, with the kind of record each must name."""

__all__ = [
    "COLLECTIONS",
    "Entries",
    "Entry",
    "Link",
    "Reference",
    "RegistryIndex",
    "RootNotFound",
    "Stored",
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
    """One valid record in the index, as the cross-record checks and the pages' links see it: its id,
    kind, path, title, references and links. Only the id and the record's number in the
    :class:`~registry.check.store.RecordStore` are in memory: the rest, the record itself and the document
    that locates its findings are read back from the store on use (the fields a few µs, and kept for
    the records most asked for), so an index of any size holds little more than its ids.

    An entry is a view: :meth:`RegistryIndex.get` makes one on each call, and two entries are equal
    when they show the same record."""

    __slots__ = ("_number", "_store", "id")

    def __init__(self, record_id: str, number: int, store: RecordStore) -> None:
        self.id = record_id
        self._number = number
        self._store = store

    @property
    def number(self) -> int:
        """The record's number in the index's :class:`~registry.check.store.RecordStore`."""
        return self._number

    @property
    def kind(self) -> str:
        return self._store.kind(self._number)

    @property
    def path(self) -> str:
        path: str = self._store.fields(self._number)[0]
        return path

    @property
    def title(self) -> str:
        title: str = self._store.fields(self._number)[1]
        return title

    @property
    def record(self) -> Record:
        return self._store.record(self._number)

    @property
    def document(self) -> Document:
        return self._store.document(self._number)

    @property
    def json(self) -> str:
        """The record as JSON (:func:`~registry.kinds.records.record_json`), without making the record."""
        return self._store.json(self._number)

    @property
    def json_size(self) -> int:
        """The length in bytes of :attr:`json`, without reading it."""
        return self._store.json_size(self._number)

    @property
    def references(self) -> tuple[Reference, ...]:
        """The record's reference fields, then its ``related`` items, in order."""
        flat, found, related = self._store.fields(self._number)[2], [], 0
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
        flat: tuple[Any, ...] = self._store.fields(self._number)[3]
        return tuple(Link(flat[at], flat[at + 1], flat[at + 2]) for at in range(0, len(flat), 3))

    def derived(self, make: Callable[[Any], T]) -> T:
        """``make(self.record)``, made once for this record (see :meth:`RecordStore.derived
        <registry.check.store.RecordStore.derived>`). The value is shared: never change it."""
        return self._store.derived(self._number, make)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and other._store is self._store and other._number == self._number

    def __hash__(self) -> int:
        return hash((id(self._store), self._number))

    def __repr__(self) -> str:
        return f"Entry({self.id!r}, {self.path!r})"


class Entries(Mapping[str, Entry]):
    """The index's records by id: each id and the number of its record in the store, and nothing else
    in memory (an :class:`Entry` is made on each lookup)."""

    def __init__(self, store: RecordStore, numbers: dict[str, int] | None = None) -> None:
        self._store = store
        self._numbers: dict[str, int] = {} if numbers is None else numbers

    def add(self, record_id: str, number: int) -> None:
        """Record ``number`` of the store, whose id is ``record_id``."""
        self._numbers[record_id] = number

    def part(self, ids: Iterable[str]) -> Entries:
        """The entries ``ids`` alone."""
        numbers = self._numbers
        return Entries(self._store, {record_id: numbers[record_id] for record_id in ids})

    def get(self, record_id: str, default: Any = None) -> Any:
        number = self._numbers.get(record_id)
        return default if number is None else Entry(record_id, number, self._store)

    def __getitem__(self, record_id: str) -> Entry:
        return Entry(record_id, self._numbers[record_id], self._store)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._numbers

    def __iter__(self) -> Iterator[str]:
        return iter(self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)


class Stored:
    """The records a check has written to its store, in order, with each one's id and the path of its
    file, for :func:`index_records`.

    The ids and paths are kept as text, one buffer each, while the check reads the registry: an object
    for each, made among the many short-lived objects of reading a file, would stay scattered through
    memory that would otherwise go back to the system (5 MiB more at the end of a check of 30,000
    records, measured). They are made as objects once, together, when the index is built."""

    def __init__(self) -> None:
        self.store = RecordStore()
        self._ids = Lines()
        self._paths = Lines()

    def add(self, path: str, record: Record, document: Document) -> None:
        """Write ``record``, read from the file at ``path``, with its ``document`` and its entry's fields
        (path, title, references, links and id: what :class:`Entry` shows) to the store."""
        references = tuple(item for pair in _references(record) for item in pair)
        links = tuple(item for link in _links(record) for item in link)
        self.store.put(record, document, (path, record.title, references, links, record.id))
        self._ids.append(record.id)  # neither an id nor a record's path holds a line break
        self._paths.append(path)

    def ids_and_paths(self) -> tuple[list[str], list[str]]:
        """Each stored record's id and path, by its number in the store."""
        return self._ids.texts(), self._paths.texts()


def _references(record: Record) -> Iterator[tuple[str, str]]:
    """(target, how) of each reference field that is set, then of each ``related`` item."""
    for name in _REFERENCE_FIELDS:
        target = getattr(record, name, None)
        if isinstance(target, str):
            yield target, name
    for target in record.related:
        yield target, "related"


def _links(record: Record) -> Iterator[Link]:
    for name in ("notes", "methodology"):
        text = getattr(record, name, None)
        if text:
            for match in WIKI_LINK.finditer(text):
                yield Link(name, match.group(1).strip(), match.start())


@dataclass
class RegistryIndex:
    root: Path
    store: RecordStore = field(default_factory=RecordStore)
    """Where the entries' records are."""
    broken: set[str] = field(default_factory=set)
    """Ids whose file exists but did not load or validate: a reference to one is not dangling (the file's
    own findings say what is wrong), so it is not reported a second time from every record that names it."""
    entries: Entries = field(init=False)

    def __post_init__(self) -> None:
        self.entries = Entries(self.store)

    def held(self) -> AbstractContextManager[None]:
        """A block that reads each record once: see :meth:`RecordStore.held`."""
        return self.store.held()

    def get(self, record_id: str) -> Entry | None:
        found: Entry | None = self.entries.get(record_id)
        return found

    def at(self, number: int) -> Entry:
        """The entry of record ``number`` in the :attr:`store` (see :attr:`Entry.number`)."""
        return Entry(self.store.fields(number)[4], number, self.store)

    def __iter__(self) -> Iterator[Entry]:
        entries = self.entries
        return (entries[key] for key in sorted(entries))

    def of_kind(self, kind: str) -> list[Entry]:
        return [entry for entry in self if entry.kind == kind]

    def part(self, ids: Iterable[str]) -> RegistryIndex:
        """The records ``ids`` of this index: iterating the part gives only them, while :meth:`get` still
        finds every record of the whole, so a record's references resolve as they do in the whole."""
        return _Part(self, ids)


class _Part(RegistryIndex):
    def __init__(self, whole: RegistryIndex, ids: Iterable[str]) -> None:
        super().__init__(whole.root, whole.store, whole.broken)
        self.entries = whole.entries.part(ids)
        self._whole = whole

    def get(self, record_id: str) -> Entry | None:
        return self._whole.get(record_id)


def expected_id(path: str) -> str | None:
    """``records/models/x.yaml`` → ``models/x``; None when the path cannot hold a record."""
    parts = path.split("/")
    if len(parts) != 3 or parts[0] != "records" or not parts[2].endswith(".yaml"):
        return None
    return f"{parts[1]}/{parts[2][: -len('.yaml')]}"


def index_records(root: Path, stored: Stored) -> tuple[RegistryIndex, list[Diagnostic]]:
    """Build the index from the validated records in ``stored``, in the order of their paths, reporting
    id, collection and duplicate problems."""
    store = stored.store
    index = RegistryIndex(root, store)
    diagnostics: list[Diagnostic] = []
    ids, paths = stored.ids_and_paths()
    entries = index.entries
    for number in sorted(range(len(ids)), key=paths.__getitem__):
        path, record_id, kind = paths[number], ids[number], store.kind(number)
        wanted = expected_id(path)
        if wanted is not None and record_id != wanted:
            line, column = store.document(number).locate("/id")
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
            kline, kcolumn = store.document(number).locate("/kind")
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
        first = entries.get(record_id)
        if first is not None:
            line, column = store.document(number).locate("/id")
            diagnostics.append(
                refs.DUPLICATE_ID.diagnostic(
                    path,
                    line,
                    column,
                    f"id {record_id!r} is already declared by {first.path}",
                    pointer="/id",
                )
            )
            continue
        entries.add(record_id, number)
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
