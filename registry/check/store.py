"""Where checked records wait between their uses: a temporary file, not memory.

The check reads every record once, and the site and the database use every record again, but each only
for a moment: a page is made from its record, a chunk of rows from a thousand. Holding every record in
memory from the check to the last page made memory grow with the registry (about 4 KB a record, most of
it pydantic's objects and the file's text). So the check writes each record, pickled, to a temporary
file as it is made, with what its :class:`~registry.check.index.Entry` shows (id, path, title, references,
links), and memory keeps its kind (a byte) and where it is in the file (32 bytes). A use of
``entry.record`` reads the record back (about 20 µs: 10,000 records in 0.2 to 0.4 s), ``entry.title``
its entry's fields (a few µs); the last few read are kept, and a page or a chunk of rows keeps what it
reads while it is made (:meth:`RecordStore.held`), so each reads a record once. What many pages ask of
one model (its layout, its config fields) the store keeps for it (:meth:`RecordStore.derived`).

The file is this process's own: created unlinked, gone when the store is, and it holds only what
this process wrote to it, which is why reading it with ``pickle`` is safe. Forked page workers read it
through their copy of its descriptor with ``pread``, which moves no shared file position, and never
write to it (all writing is done by the check, before there are workers).
"""

from __future__ import annotations

import os
import pickle
import tempfile
import threading
import weakref
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from registry.kinds.records import KINDS

if TYPE_CHECKING:
    from registry.check.load import Document
    from registry.kinds.records import Record

_KIND_NAMES = tuple(KINDS)

_NOT_MADE: Any = object()

RECENT = 64
"""Records kept in memory after use, besides those :meth:`RecordStore.held` keeps for a while. Few:
a model record with its config is about 18 KB in memory, and a page or a chunk of rows holds what it
reads itself."""

DOCUMENTS = 16
"""Documents kept after use."""

FIELDS = 4096
"""Entries' fields kept after use: a registry's many runs show the same few models, engines and
hardware, whose titles and links every page that names them asks for (about 400 bytes each)."""

T = TypeVar("T")

_PREAD = getattr(os, "pread", None)
"""Reading at an offset without moving the file's position, where the system has it: safe in forked
workers, which share the position with their parent, and without a lock."""


class RecordStore:
    """Records, their entries' fields, their documents and their JSON, written once, read back by the
    number :meth:`put` gave. Where each is in the file is kept in arrays, 32 bytes a record, and its
    kind in one byte."""

    def __init__(self, recent: int = RECENT) -> None:
        self._file: Any = None  # made with the first record: a registry with none needs no file
        self._closed: weakref.finalize[Any, Any] | None = None
        self._offsets = array("q", [0])  # record n is the bytes from offsets[n] to offsets[n + 1]
        self._record_at = array("q")  # where in them its record starts (after its entry's fields),
        self._document_at = array("q")  # then its document, then its JSON
        self._json_at = array("q")
        self._kinds = bytearray()
        self._fields: dict[int, tuple[Any, ...]] = {}
        self._derived: dict[Callable[[Any], Any], list[Any]] = {}  # by record: no object made per record
        self._recent: dict[int, Record] = {}
        self._limit = recent
        self._documents: dict[int, Document] = {}
        self._shared: dict[Any, Any] = {}
        self._lock = threading.Lock()
        self._local = threading.local()

    def __len__(self) -> int:
        return len(self._json_at)

    def put(self, record: Record, document: Document, fields: tuple[Any, ...]) -> int:
        """Write ``record``, its entry's ``fields`` (what :meth:`fields` gives back), its ``document``
        (released: the text or positions that locate a finding) and the record as JSON
        (:func:`~registry.kinds.records.record_json`: the record dump's and the database's form, written
        while the record is at hand so that neither reads it back)."""
        from registry.kinds.records import record_json

        shown = pickle.dumps(fields, protocol=pickle.HIGHEST_PROTOCOL)
        pickled = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
        located = pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL)
        data = b"".join((shown, pickled, located, record_json(record).encode("utf-8", "surrogatepass")))
        with self._lock:
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="registry-records-", buffering=0)  # noqa: SIM115 - lives as long as the store
                self._closed = weakref.finalize(self, self._file.close)  # the file goes when the store does
            start = self._offsets[-1]
            self._file.seek(start)
            written = 0
            while written < len(data):  # a raw file may take fewer bytes than it is given
                written += self._file.write(data[written:]) or 0
            self._record_at.append(start + len(shown))
            self._document_at.append(start + len(shown) + len(pickled))
            self._json_at.append(start + len(shown) + len(pickled) + len(located))
            self._offsets.append(start + len(data))
            self._kinds.append(_KIND_NAMES.index(record.kind))
            return len(self._json_at) - 1

    def record(self, number: int) -> Record:
        """Record ``number``: the same object while it is among the most recently read, or held."""
        held: dict[int, Record] | None = getattr(self._local, "held", None)
        if held is None:
            return self._record(number)
        found = held.get(number)
        if found is None:
            found = held[number] = self._record(number)
        return found

    @contextmanager
    def held(self) -> Iterator[None]:
        """Keep every record this thread reads until the block ends: a page's records, or a chunk of the
        database's, each read once however often the block asks for it. A block inside another is
        part of it."""
        if getattr(self._local, "held", None) is not None:
            yield
            return
        self._local.held = {}
        try:
            yield
        finally:
            self._local.held = None

    def kind(self, number: int) -> str:
        """Record ``number``'s kind, known without reading it."""
        return _KIND_NAMES[self._kinds[number]]

    def fields(self, number: int) -> tuple[Any, ...]:
        """The entry's fields written with record ``number``; the last :data:`FIELDS` read are kept."""
        found: tuple[Any, ...] | None = self._fields.get(number)  # the common case, without a call
        if found is None:
            found = self._kept(self._fields, FIELDS, number, self._offsets[number], self._record_at[number])
        return found

    def derived(self, number: int, make: Callable[[Any], T]) -> T:
        """``make(record)`` for record ``number``, made once and kept, and kept once for all records that
        derive an equal value (:meth:`shared`): what many pages and rows ask of one model (its cache
        layout, its config fields) without reading the record each time. Never change the value.

        Kept in a list by record number, 8 bytes a record for each ``make``: a dict by number would make
        an object for each record as it derives, among the short-lived objects of reading records, and
        each would keep a page of memory from going back to the system."""
        made = self._derived.get(make)
        if made is None:
            made = self._derived.setdefault(make, [])
        if number >= len(made):
            made.extend([_NOT_MADE] * (len(self) - len(made)))
        value: T = made[number]
        if value is _NOT_MADE:
            value = made[number] = self.shared(make(self.record(number)))
        return value

    def document(self, number: int) -> Document:
        """Record ``number``'s document. Only a finding needs one; the last few are kept, since a
        document finds its positions on first use and a record with findings often has several."""
        start, end = self._document_at[number], self._json_at[number]
        document: Document = self._kept(self._documents, DOCUMENTS, number, start, end)
        return document

    def json(self, number: int) -> str:
        """Record ``number`` as JSON, read without making the record."""
        start, end = self._json_at[number], self._offsets[number + 1]
        return self._read(start, end).decode("utf-8", "surrogatepass")

    def json_size(self, number: int) -> int:
        """The length in bytes of record ``number``'s JSON, known without reading it."""
        return self._offsets[number + 1] - self._json_at[number]

    def shared(self, value: T) -> T:
        """``value``, or an equal value given before: what many records derive alike (the layout and
        config fields of one geometry) is then kept once. ``value`` is hashable, or a dict of hashable
        items."""
        key = tuple(sorted(value.items())) if isinstance(value, dict) else value
        with self._lock:
            found: T = self._shared.setdefault(key, value)
        return found

    def _record(self, number: int) -> Record:
        record: Record = self._kept(
            self._recent, self._limit, number, self._record_at[number], self._document_at[number]
        )
        return record

    def _kept(self, kept: dict[int, Any], limit: int, number: int, start: int, end: int) -> Any:
        """The object pickled from ``start`` to ``end``, from ``kept`` or read and kept. ``kept`` holds
        the ``limit`` most recently read (a hit does not reorder them: it is the common case and must
        cost no more than a lookup)."""
        found = kept.get(number)
        if found is None:
            found = pickle.loads(self._read(start, end))
            with self._lock:
                kept[number] = found
                if len(kept) > limit:
                    del kept[next(iter(kept))]
        return found

    def _read(self, start: int, end: int) -> bytes:
        data: bytes
        if _PREAD is not None:
            data = _PREAD(self._file.fileno(), end - start, start)
        else:  # no pread (Windows): move the file's position under the lock
            with self._lock:
                self._file.seek(start)
                data = self._file.read(end - start)
        if len(data) != end - start:  # the file is ours alone; a short read means it was damaged under us
            raise OSError(f"the record store returned {len(data)} of {end - start} bytes at {start}")
        return data

    def close(self) -> None:
        if self._closed is not None:
            self._closed()
        self._recent.clear()
        self._documents.clear()
        self._fields.clear()
        self._derived.clear()
        self._shared.clear()
