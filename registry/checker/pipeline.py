"""``registry check``: every stage of the data flow, every finding, in a stable order.

files ──load──▶ documents ──schema──▶ records ──index──▶ registry ──engine──▶ results ──▶ findings

A failing stage gates only what depends on it: a file that does not parse is not validated, and a
record that does not validate goes on through the later stages as far as what can still be read of it
allows (:mod:`registry.checker.salvage`), with a note where it cannot; every other file goes on through
every stage. The registry the database and the site are made from holds the valid records only.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from registry.checker.bounds import bound_findings
from registry.checker.cache import FileFacts, content_digest
from registry.checker.contexts import context_findings
from registry.checker.discover import discover
from registry.checker.encoding import too_large
from registry.checker.fastload import fast_load_bytes
from registry.checker.formulas import formula_findings
from registry.checker.index import (
    RegistryIndex,
    check_references,
    depends_on,
    expected_id,
    index_records,
)
from registry.checker.limits import MAX_FILE_BYTES
from registry.checker.load import Document
from registry.checker.peaks import peak_findings
from registry.checker.revisions import revision_findings
from registry.checker.salvage import salvage, skipped_note
from registry.checker.selection import report_on, selection_of
from registry.checker.units import unit_findings
from registry.checker.validate import validate
from registry.codes import refs
from registry.codes.schema import OUTDATED_SCHEMA_VERSION
from registry.diagnostics import Diagnostic, Severity
from registry.errors import RegistryError
from registry.ids import record_id as resolve_id
from registry.ids import record_path
from registry.kinds.records import Record
from registry.memory import return_freed_memory
from registry.results import Results, compute_results


@dataclass(kw_only=True)
class CheckResult:
    """What a check found: the findings reported, in their stable order, and the registry they were
    found in (the index of every record that validated)."""

    root: Path
    files: int
    diagnostics: list[Diagnostic]
    index: RegistryIndex
    selected: frozenset[str] | None = None
    failed_files: dict[str, list[Diagnostic]] = field(default_factory=dict)
    digests: Mapping[str, str] = field(default_factory=dict)
    """The content digest of each record file, of the bytes the check read (a file it could not read has
    none): what the database's fingerprint is made of."""
    results: Results | None = None
    """The engine's results for the registry (None for a check without formulas): what the findings
    about numbers, the database and the site are made of."""
    facts: dict[str, FileFacts] = field(default_factory=dict)
    """What each record file's findings depend on beyond its bytes, for a later check of what changed."""

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def ok(self) -> bool:
        """True when no finding has error severity."""
        return self.count(Severity.ERROR) == 0


def check(root: Path, paths: Sequence[Path] = (), *, formulas: bool = True) -> CheckResult:
    """Check the registry at ``root``; with ``paths``, report only on those files or folders, still
    resolving references against the whole registry."""
    selection = selection_of(root, paths) if paths else None
    files, diagnostics = discover(root)
    loaded = load_files(root, files)
    later = later_stages(root, loaded, formulas=formulas)
    diagnostics.extend(loaded.diagnostics)
    diagnostics.extend(later.diagnostics)
    checked, reported = report_on(selection, files, diagnostics)
    return_freed_memory()  # for the database build or the site that may follow
    return CheckResult(
        root=root,
        files=checked,
        diagnostics=reported,
        index=later.index,
        selected=selection,
        failed_files=loaded.failed,
        digests=loaded.digests,
        results=later.results,
        facts=file_facts(files, loaded),
    )


@dataclass
class Loaded:
    """What the first stages (read, parse, validate) made of some files, by path."""

    records: dict[str, tuple[Record, Document]] = field(default_factory=dict)
    """The records that validated, each with its document."""
    salvaged: dict[str, tuple[Record, Document]] = field(default_factory=dict)
    """Records built from what can still be read of a file with schema findings
    (:mod:`registry.checker.salvage`): checked by the later stages, never part of the registry."""
    failed: dict[str, list[Diagnostic]] = field(default_factory=dict)
    """The findings of each file that did not validate."""
    digests: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def load_files(root: Path, files: Iterable[str]) -> Loaded:
    """Read, parse and validate each of ``files``; a file that does not validate is built again from
    what can still be read, or noted as not checked further."""
    loaded = Loaded()
    for path in files:
        raw = read_file(root, path)
        if isinstance(raw, list):
            _fail(loaded, path, raw, None)
            continue
        loaded.digests[path] = content_digest(raw)
        parsed = fast_load_bytes(path, raw)
        if parsed.document is None:
            _fail(loaded, path, parsed.diagnostics, None)
            continue
        record, problems = validate(parsed.document, root)
        if record is not None:
            loaded.records[path] = (record, parsed.document.released())
        else:
            _fail(loaded, path, problems, parsed.document)
    return loaded


def _fail(loaded: Loaded, path: str, problems: list[Diagnostic], document: Document | None) -> None:
    """A file that did not validate: its findings, and the record the later stages can still check, or
    a note that they do not."""
    found = problems
    # A file that does not parse (Y), or a record of an earlier version (S009), says so itself: it is
    # refused as a whole, so no part of it is built and no note is needed.
    if document is not None and not any(d.code == OUTDATED_SCHEMA_VERSION.code for d in problems):
        record, blocking = salvage(document)
        if record is not None:
            loaded.salvaged[path] = (record, document.released())
        else:
            found = [*problems, skipped_note(path, problems, blocking)]
    loaded.failed[path] = found
    loaded.diagnostics.extend(found)


@dataclass
class Later:
    """What the stages after validation found: the registry of valid records and its results, the
    index they were checked in (with the salvaged records), and the findings."""

    index: RegistryIndex
    results: Results | None
    checked: RegistryIndex
    diagnostics: list[Diagnostic]


@dataclass(frozen=True)
class Known:
    """For a check of part of the registry: what the rest of it holds (:mod:`registry.checker.incremental`)."""

    broken: frozenset[str]
    """Ids of the files outside the part that do not become records."""
    ids: frozenset[str]
    """The id of every record of the whole registry."""


def later_stages(root: Path, loaded: Loaded, *, formulas: bool = True, known: Known | None = None) -> Later:
    """Index, references and formulas over every record ``loaded`` (the salvaged ones too), and the
    registry of the valid records with its results."""
    checked, diagnostics = index_records(root, loaded.records)
    # the salvaged records after the valid ones: a valid record keeps its id against a broken copy
    diagnostics.extend(index_records(root, loaded.salvaged, into=checked)[1])
    checked.broken.update(filter(None, map(expected_id, loaded.failed)))
    if known is not None:
        checked.broken.update(known.broken)
        checked.known_ids = known.ids
    diagnostics.extend(check_references(checked))
    diagnostics.extend(revision_findings(checked))
    diagnostics.extend(context_findings(checked))
    diagnostics.extend(peak_findings(checked))
    diagnostics.extend(unit_findings(checked))
    checked_results = compute_results(checked) if formulas else None
    if checked_results is not None:
        diagnostics.extend(formula_findings(checked, checked_results))
        diagnostics.extend(bound_findings(checked, checked_results))
    if not loaded.salvaged:
        return Later(checked, checked_results, checked, diagnostics)
    index, _ = index_records(root, loaded.records)
    index.broken.update(filter(None, map(expected_id, loaded.failed)))
    results = compute_results(index) if formulas else None
    return Later(index, results, checked, diagnostics)


def file_facts(files: Iterable[str], loaded: Loaded) -> dict[str, FileFacts]:
    """What each file's findings depend on beyond its own bytes: its record's id and the ids it names
    (see :class:`~registry.checker.cache.FileFacts`)."""
    facts: dict[str, FileFacts] = {}
    for path in files:
        found = loaded.records.get(path) or loaded.salvaged.get(path)
        valid = path not in loaded.failed
        if found is None:
            facts[path] = FileFacts(None, (), valid)
        else:
            facts[path] = FileFacts(found[0].id, depends_on(found[0]), valid)
    return facts


def load_file(root: Path, path: str) -> tuple[Record, Document] | list[Diagnostic]:
    """Load and validate one file: the record and its document (:meth:`released <Document.released>`:
    what locates a finding, without the values the record was made from), or the diagnostics that stop
    it."""
    raw = read_file(root, path)
    return raw if isinstance(raw, list) else record_from_bytes(root, path, raw)


def read_file(root: Path, path: str) -> bytes | list[Diagnostic]:
    """A record file's bytes, or why they cannot be read. No more is read than a record may hold: a
    50 MB file is refused by its size, not loaded first."""
    try:
        # A string, not root / path: pathlib interns the name of every file it is given, for good.
        with open(os.path.join(root, path), "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_FILE_BYTES:
                return [too_large(path, size)]
            return handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        return [refs.OUTSIDE_RECORDS.diagnostic(path, 1, 1, f"cannot read the file: {error.strerror}")]


def record_from_bytes(root: Path, path: str, raw: bytes) -> tuple[Record, Document] | list[Diagnostic]:
    """Parse and validate a record file's bytes into its record, as :func:`load_file`."""
    result = fast_load_bytes(path, raw)
    if result.document is None:
        return result.diagnostics
    record, problems = validate(result.document, root)
    if record is None:
        return problems
    return record, result.document.released()


R = TypeVar("R")


def load_record(root: Path, record_id: str, cls: type[R]) -> R:
    """The record ``record_id`` of the registry at ``root``, which must load, validate and be a ``cls``."""
    path = record_path(root, resolve_id(record_id)).relative_to(root).as_posix()
    if not (root / path).is_file():
        raise RegistryError(f"no record {record_id!r} (looked for {path})")
    loaded = load_file(root, path)
    if isinstance(loaded, list):
        raise RegistryError(f"{path} does not load or validate; run 'registry check {path}'")
    record = loaded[0]
    if not isinstance(record, cls):
        raise RegistryError(f"{record_id} is a {record.kind} record, not {cls.__name__.lower()}")
    return record
