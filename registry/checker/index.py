"""The registry as a whole: records by id, and the checks that span records.

Cross-record checks: the id is the path, ids are unique, the kind matches the collection, every
reference (model, engine, hardware, related) exists and has the right kind, and every ``[[id]]`` link
in Markdown resolves.

Every valid record stays in memory, whole, with what its entry shows, for as long as the index lives:
the budget is a check of 10,000 records within 250 MiB peak, which keeping them costs well inside.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from registry.checker.load import Document
from registry.codes import refs
from registry.diagnostics import Diagnostic
from registry.kinds.records import KINDS, WIKI_LINK, Record
from registry.root import RootNotFound, find_root

COLLECTIONS = {folder: kind for kind, folder in KINDS.items()}

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
    "depends_on",
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


@dataclass(slots=True, eq=False)
class Entry:
    """One valid record in the index, as the cross-record checks, the database and the pages see it,
    made once when the record is indexed (:meth:`of`). One entry per record: two are equal when they
    are the same entry."""

    id: str
    kind: str
    path: str
    title: str
    record: Record
    document: Document
    """What locates a finding in the record's file."""
    references: tuple[Reference, ...]
    """The record's reference fields, then its ``related`` items, in order."""
    links: tuple[Link, ...]
    """The ``[[links]]`` of the record's Markdown fields, in order."""
    number: int
    """The record's place in the index, in the order of the paths (see :attr:`RegistryIndex.numbered`)."""

    @classmethod
    def of(cls, path: str, record: Record, document: Document, number: int) -> Entry:
        """The entry of ``record``, read from the file at ``path``, with its ``document``."""
        return cls(
            id=record.id,
            kind=record.kind,
            path=path,
            title=record.title,
            record=record,
            document=document,
            references=tuple(_references(record)),
            links=tuple(_links(record)),
            number=number,
        )


def _references(record: Record) -> Iterator[Reference]:
    """Each reference field that is set, then each ``related`` item."""
    for name in _REFERENCE_FIELDS:
        target = getattr(record, name, None)
        if isinstance(target, str):
            yield Reference(f"/{name}", target, name)
    system = getattr(record, "system", None)  # a benchmark's mixed system names each part's hardware
    for position, part in enumerate(system.accelerators or [] if system is not None else []):
        yield Reference(f"/system/accelerators/{position}/hardware", part.hardware, "hardware")
    for position, target in enumerate(record.related):
        yield Reference(f"/related/{position}", target, "related")


def _links(record: Record) -> Iterator[Link]:
    for name in ("notes", "methodology"):
        text = getattr(record, name, None)
        if text:
            for match in WIKI_LINK.finditer(text):
                yield Link(name, match.group(1).strip(), match.start())


@dataclass
class RegistryIndex:
    root: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    """The records by id, in the order of their paths."""
    numbered: list[Entry] = field(default_factory=list)
    """Every record of the whole registry by its :attr:`Entry.number` (a part's are its whole's)."""
    broken: set[str] = field(default_factory=set)
    """Ids whose file exists but did not load or validate: a reference to one is not dangling (the file's
    own findings say what is wrong), so it is not reported a second time from every record that names it."""

    known_ids: frozenset[str] | None = None
    """For an index of part of the registry: the id of every record of the whole, from which a dangling
    reference's hint is chosen as it would be in the whole."""

    def add(self, path: str, record: Record, document: Document) -> Entry:
        """Index ``record``, read from the file at ``path``, with its ``document``, after every record
        indexed before it (its number is their count)."""
        entry = Entry.of(path, record, document, len(self.numbered))
        self.entries[entry.id] = entry
        self.numbered.append(entry)
        return entry

    def get(self, record_id: str) -> Entry | None:
        return self.entries.get(record_id)

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
        entries = whole.entries
        super().__init__(
            whole.root, {record_id: entries[record_id] for record_id in ids}, whole.numbered, whole.broken
        )
        self._whole = whole

    def get(self, record_id: str) -> Entry | None:
        return self._whole.get(record_id)


def depends_on(record: Record) -> tuple[str, ...]:
    """The ids whose records the findings about ``record`` depend on: those it references and links."""
    targets = {reference.target for reference in _references(record)}
    targets.update(link.target for link in _links(record))
    return tuple(sorted(targets))


def expected_id(path: str) -> str | None:
    """``records/models/x.yaml`` → ``models/x``; None when the path cannot hold a record."""
    parts = path.split("/")
    if len(parts) != 3 or parts[0] != "records" or not parts[2].endswith(".yaml"):
        return None
    return f"{parts[1]}/{parts[2][: -len('.yaml')]}"


def index_records(
    root: Path, loaded: Mapping[str, tuple[Record, Document]], into: RegistryIndex | None = None
) -> tuple[RegistryIndex, list[Diagnostic]]:
    """Build the index from the validated records ``loaded``, each with its document by the path of its
    file, in the order of their paths, reporting id, collection and duplicate problems; ``into`` an
    index already holding others, which keep their ids."""
    index = RegistryIndex(root) if into is None else into
    diagnostics: list[Diagnostic] = []
    for path in sorted(loaded):
        record, document = loaded[path]
        record_id, kind = record.id, record.kind
        wanted = expected_id(path)
        if wanted is not None and record_id != wanted:
            line, column = document.locate("/id")
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
            kline, kcolumn = document.locate("/kind")
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
        first = index.get(record_id)
        if first is not None:
            line, column = document.locate("/id")
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
        index.add(path, record, document)
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
    import difflib  # lazy

    ids = index.entries if index.known_ids is None else index.known_ids
    close = difflib.get_close_matches(target, sorted(ids), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else ""


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"
