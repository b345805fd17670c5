"""The registry as a whole: records by id, and the checks that span records.

Cross-record checks: the id is the path, ids are unique, the kind matches the collection, every
reference (model, engine, hardware, related) exists and has the right kind, and every ``[[id]]`` link
in Markdown resolves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from registry._diagnostics import Diagnostic
from registry._loader import Document
from registry._records import KINDS, WIKI_LINK, Record
from registry._root import RootNotFound, find_root
from registry.rules import refs

COLLECTIONS = {folder: kind for kind, folder in KINDS.items()}

__all__ = [
    "COLLECTIONS",
    "Entry",
    "RegistryIndex",
    "RootNotFound",
    "check_references",
    "expected_id",
    "find_root",
    "index_records",
]


@dataclass
class Entry:
    """One valid record in the index."""

    id: str
    path: str
    record: Record
    document: Document


@dataclass
class RegistryIndex:
    root: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    """Ids whose file exists but did not load or validate: a reference to one is not dangling (the file's
    own findings say what is wrong), so it is not reported a second time from every record that names it."""

    def get(self, record_id: str) -> Entry | None:
        return self.entries.get(record_id)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries[key] for key in sorted(self.entries))

    def of_kind(self, kind: str) -> list[Entry]:
        return [entry for entry in self if entry.record.kind == kind]

    def part(self, ids: Iterable[str]) -> RegistryIndex:
        """The records ``ids`` of this index: iterating the part gives only them, while :meth:`get` still
        finds every record of the whole, so a record's references resolve as they do in the whole."""
        return _Part(self, ids)


class _Part(RegistryIndex):
    def __init__(self, whole: RegistryIndex, ids: Iterable[str]) -> None:
        super().__init__(whole.root, {record_id: whole.entries[record_id] for record_id in ids}, whole.broken)
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
    root: Path, loaded: list[tuple[str, Record, Document]]
) -> tuple[RegistryIndex, list[Diagnostic]]:
    """Build the index from validated records, reporting id, collection and duplicate problems."""
    index = RegistryIndex(root)
    diagnostics: list[Diagnostic] = []
    first_path: dict[str, str] = {}
    for path, record, document in sorted(loaded, key=lambda item: item[0]):
        wanted = expected_id(path)
        if wanted is not None and record.id != wanted:
            line, column = document.locate("/id")
            diagnostics.append(
                refs.ID_MISMATCH.diagnostic(
                    path,
                    line,
                    column,
                    f"id {record.id!r} is not the file's path; it should be {wanted!r}",
                    pointer="/id",
                )
            )
        folder = path.split("/")[1] if path.count("/") >= 2 else ""
        if folder in COLLECTIONS and COLLECTIONS[folder] != record.kind:
            kline, kcolumn = document.locate("/kind")
            diagnostics.append(
                refs.WRONG_COLLECTION.diagnostic(
                    path,
                    kline,
                    kcolumn,
                    f"a {record.kind} record in records/{folder}/, which holds {COLLECTIONS[folder]} records; "
                    f"it belongs in records/{KINDS[record.kind]}/",
                    pointer="/kind",
                )
            )
        if record.id in first_path:
            line, column = document.locate("/id")
            diagnostics.append(
                refs.DUPLICATE_ID.diagnostic(
                    path,
                    line,
                    column,
                    f"id {record.id!r} is already declared by {first_path[record.id]}",
                    pointer="/id",
                )
            )
            continue
        first_path[record.id] = path
        index.entries[record.id] = Entry(record.id, path, record, document)
    return index, diagnostics


_REFERENCE_FIELDS = {"model": "model", "engine": "engine", "hardware": "hardware"}


def check_references(index: RegistryIndex) -> list[Diagnostic]:
    """Every reference and every [[link]] of every record resolves to a record of the right kind."""
    diagnostics: list[Diagnostic] = []
    for entry in index:
        diagnostics.extend(_references_of(index, entry))
        diagnostics.extend(_links_of(index, entry))
    return diagnostics


def _references_of(index: RegistryIndex, entry: Entry) -> Iterator[Diagnostic]:
    record, document = entry.record, entry.document
    for field_name, kind in _REFERENCE_FIELDS.items():
        target = getattr(record, field_name, None)
        if not isinstance(target, str):
            continue
        yield from _resolve(index, entry, f"/{field_name}", target, kind)
    for position, target in enumerate(record.related):
        pointer = f"/related/{position}"
        if target == record.id:
            line, column = document.locate(pointer)
            yield refs.SELF_REFERENCE.diagnostic(
                entry.path, line, column, "the record lists itself as related", pointer=pointer
            )
            continue
        yield from _resolve(index, entry, pointer, target, None)


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
    elif kind is not None and found.record.kind != kind:
        line, column = entry.document.locate(pointer)
        yield refs.WRONG_REFERENCE_KIND.diagnostic(
            entry.path,
            line,
            column,
            f"{pointer.lstrip('/')!r} names {target!r}, {_a(found.record.kind)} record, "
            f"where {_a(kind)} record belongs",
            pointer=pointer,
        )


def _links_of(index: RegistryIndex, entry: Entry) -> Iterator[Diagnostic]:
    for field_name in ("notes", "methodology"):
        text = getattr(entry.record, field_name, None)
        if not text:
            continue
        pointer = f"/{field_name}"
        for match in WIKI_LINK.finditer(text):
            target = match.group(1).strip()
            if target != entry.id and (index.get(target) is not None or target in index.broken):
                continue
            line, column = _position_in_block(entry.document, pointer, text, match.start())
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
