"""Imported records checked, before any is written, with the rules ``registry check`` holds them to.

Each record's text is loaded by the check's own loader and validated by the check's own stage (the
JSON Schema, the record model, single-line fields, number bounds), and its id is held to the registry's
id rule (:func:`registry.ids.id_problem`: the form, the names Windows reserves, no other record's id
differing only in case) (:func:`vet`). Then the records that validated go through the check's later
stages together (:func:`vet_together`: references, the formulas, the bounds and the consistency of their
figures), beside the records they name, read from the registry: a throughput a thousand times its
request rate times its output length is refused there. Whatever the check would refuse stops the
import with the source's place and the check's code and message, before anything is written.

A draft is a record left for a person to complete: the findings that say only that a field it leaves out
for them is missing (S006 "add 'hardware'", an empty list where a ``TODO`` asks for its items) are what
makes it a draft, and are not refused; every other finding is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from registry.authoring.importers.mlperf_table import SourceError
from registry.checker.discover import discover
from registry.checker.fastload import fast_load_bytes
from registry.checker.index import depends_on, expected_id
from registry.checker.load import Document
from registry.checker.pipeline import Known, Loaded, later_stages, load_files
from registry.checker.validate import validate
from registry.codes.schema import INCONSISTENT_FIELDS
from registry.diagnostics import Diagnostic, Severity
from registry.ids import id_problem
from registry.kinds.records import Record

if TYPE_CHECKING:
    from registry.authoring.importers.writing import Planned

SHOWN = 3
"""Findings named in the error; the rest are counted."""
_NAMED = re.compile(r"'([A-Za-z_][\w.]*)'")


def vet(
    root: Path, record: Planned, text: str, *, draft: bool, listings: dict[Path, dict[str, str]] | None = None
) -> tuple[Record, Document] | None:
    """Raise :class:`SourceError` when the check would refuse ``text``, the record's text, on its own;
    the record and its document for :func:`vet_together` (``None`` for a draft that does not validate
    yet, as a draft does not)."""
    path = f"records/{record.id}.yaml"
    problems = [] if (problem := id_problem(root, record.id, listings)) is None else [problem]
    loaded = fast_load_bytes(path, text.encode("utf-8"))
    built = None
    if loaded.document is None:
        problems += [d.message for d in loaded.diagnostics if d.severity is Severity.ERROR]
    else:
        built, found = validate(loaded.document, root)
        problems += [
            f"{d.code} {d.message}"
            for d in found
            if d.severity is Severity.ERROR and not (draft and _left_for_a_person(d, loaded.document))
        ]
    _refuse(record, problems)
    return None if built is None or loaded.document is None else (built, loaded.document.released())


def vet_together(root: Path, records: list[tuple[Planned, tuple[Record, Document]]]) -> None:
    """Run the check's later stages on ``records`` (each validated) with the registry's records they
    name, and raise :class:`SourceError` for the first record they find an error in."""
    if not records:
        return
    staged = {f"records/{record.id}.yaml": (record, built) for record, built in records}
    loaded = Loaded(records={path: built for path, (_, built) in staged.items()})
    named = {target for _, (built, _) in staged.values() for target in depends_on(built)}
    wanted = sorted({f"records/{target}.yaml" for target in named} - set(staged))
    existing = [path for path in wanted if (root / path).is_file()]
    more = load_files(root, existing)
    loaded.records.update(more.records)
    files, _ = discover(root)
    ids = {record_id for record_id in map(expected_id, [*files, *staged]) if record_id is not None}
    broken = {record_id for record_id in map(expected_id, more.failed) if record_id is not None}
    later = later_stages(root, loaded, known=Known(frozenset(broken), frozenset(ids)))
    found: dict[str, list[str]] = {}
    for d in later.diagnostics:
        if d.path in staged and d.severity is Severity.ERROR:
            found.setdefault(d.path, []).append(f"{d.code} {d.message}")
    for path, problems in sorted(found.items()):
        _refuse(staged[path][0], problems)


def _refuse(record: Planned, problems: list[str]) -> None:
    if problems:
        more = f" (and {len(problems) - SHOWN} more)" if len(problems) > SHOWN else ""
        where = record.where or f"records/{record.id}.yaml"
        raise SourceError(
            f"{where}: {record.id} would not pass 'registry check', so nothing is written: "
            f"{'; '.join(problems[:SHOWN])}{more}"
        )


def _left_for_a_person(finding: Diagnostic, document: Document) -> bool:
    """A finding that says only that a field left out for a person is missing or empty."""
    data = document.data
    if finding.code == INCONSISTENT_FIELDS.code and "add " in finding.message:
        wanted = _NAMED.findall(finding.message.split("add ", 1)[1])
        return bool(wanted) and all(_absent(data, name) for name in wanted)
    top = finding.pointer.split("/")[1] if finding.pointer.count("/") >= 1 else ""
    return top != "" and data.get(top) == [] and finding.pointer.count("/") == 1


def _absent(data: dict[str, Any], dotted: str) -> bool:
    """Whether the field at ``dotted`` (``system.accelerators``) is missing or empty."""
    value: Any = data
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return True
        value = value[part]
    return value in (None, [], {})
