"""Writing an importer's records: every record's text is made first (and loaded back by the writer),
then only the files whose text differs are written, each atomically, so a second import of the same
input changes no byte and a record that cannot be written leaves every file as it was."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registry.authoring.writer import record_text
from registry.files import write_atomic
from registry.ids import record_path


@dataclass(frozen=True)
class Planned:
    """A record an importer made: its id, its fields and the comment lines above some of them."""

    id: str
    fields: dict[str, Any]
    comments: dict[str, tuple[str, ...]]
    draft: bool = False
    """A record left for a person to complete: the check flags the fields its TODO comments name."""


@dataclass
class Written:
    """Which records were new, changed or left as they were."""

    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


def write_records(root: Path, records: list[Planned], written: Written) -> None:
    """Write every record whose text changed, after every record's text has been made."""
    texts = [(record.id, record_text(record.fields, record.comments)) for record in records]
    writes: list[tuple[Path, str]] = []
    for record_id, text in texts:
        path = record_path(root, record_id, create=True)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        bucket = written.new if old is None else written.unchanged if old == text else written.changed
        bucket.append(record_id)
        if old != text:
            writes.append((path, text))
    for path, text in writes:
        write_atomic(path, text)
