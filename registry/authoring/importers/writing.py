"""Writing an importer's records, the one way every importer writes: merged, checked, then all at once.

1. Each record is merged into the file already on disk (:mod:`registry.authoring.importers.merge`):
   what a person added is kept, and each source value that changed is listed; ``force`` replaces the
   file with the source's record instead.
2. Each record's text is made (and loaded back by the writer), then checked with the check's own rules,
   each on its own and then all together through the check's later stages, beside the records they
   name (:mod:`registry.authoring.importers.vetting`): a value ``registry check`` would refuse stops
   the import, naming the source's place, before anything is written.
3. Only the files whose text differs are written, all or none (:func:`registry.files.write_all_atomic`):
   a full disk, an error or Ctrl-C leaves every record as it was and no temporary file behind.

A second import of the same input changes no byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registry.authoring.importers.merge import Merged, merge
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.vetting import vet, vet_together
from registry.authoring.writer import record_text
from registry.checker.limits import MAX_FILE_BYTES
from registry.checker.load import Document
from registry.errors import RegistryError
from registry.files import own_folder, write_all_atomic
from registry.ids import record_path
from registry.kinds.records import Record
from registry.reading import read_regular


@dataclass(frozen=True)
class Planned:
    """A record an importer made: its id, its fields and the comment lines above some of them."""

    id: str
    fields: dict[str, Any]
    comments: dict[str, tuple[str, ...]]
    draft: bool = False
    """A record left for a person to complete: the check flags the fields its TODO comments name."""
    where: str = ""
    """Where in its source the record comes from (``file:line``, ``file: /pointer``), for an error."""


@dataclass
class Written:
    """Which records were new, changed or left as they were; what changed in each; which are drafts."""

    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    changes: dict[str, list[str]] = field(default_factory=dict)
    """For a changed record, each source value that changed: ``/metrics/0/stated: '1 s' -> '2 s'``."""
    drafts: list[str] = field(default_factory=list)
    """The records a person still has to complete, after the merge."""


def write_records(root: Path, records: list[Planned], written: Written, *, force: bool = False) -> None:
    """Merge (unless ``force``), check and write every record, all or none; see the module's docstring."""
    own_folder(root, root / "records", create=False)
    writes: list[tuple[Path, bytes]] = []
    validated: list[tuple[Planned, tuple[Record, Document]]] = []
    listings: dict[Path, dict[str, str]] = {}
    for record in records:
        path = record_path(root, record.id)
        old = _old_text(path)
        merged = _merged(root, path, old, record, force)
        try:
            text = record_text(merged.fields, merged.comments)
        except RegistryError as refused:  # a value YAML cannot hold as it is: say where it came from
            raise SourceError(f"{record.where or path}: {record.id}: {refused}") from None
        built = vet(root, record, text, draft=merged.draft, listings=listings)
        if built is not None:
            validated.append((record, built))
        bucket = written.new if old is None else written.unchanged if old == text else written.changed
        bucket.append(record.id)
        if merged.draft:
            written.drafts.append(record.id)
        if old != text:
            written.changes[record.id] = merged.changes
            writes.append((path, text.encode("utf-8")))
    vet_together(root, validated)
    write_all_atomic(writes)


def _old_text(path: Path) -> str | None:
    """The record file's text, read with a record's bounds; ``None`` when there is none."""
    if not path.exists():
        return None
    return read_regular(path, MAX_FILE_BYTES, follow_links=False).decode("utf-8", errors="replace")


def _merged(root: Path, path: Path, old: str | None, record: Planned, force: bool) -> Merged:
    if old is None or force:
        return Merged(dict(record.fields), dict(record.comments))
    return merge(str(path.relative_to(root)), old, record.fields, record.comments)
