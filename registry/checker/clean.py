"""The part of a checked registry that checks clean: what ``registry query`` and ``registry site`` build
from when a record has errors (an unfinished draft from ``registry new``, say), so that one record
does not keep a reader from the rest.

A record is left out when its file has a finding of error severity, or when it refers to a record left
out (by a reference field, ``related`` or a ``[[link]]``), and so on until nothing more is: every record
kept, and every record it points at, checked clean. The database and the pages then never show a number
the check rejects, nor a link to a page that is not there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from registry.checker.index import RegistryIndex, expected_id
from registry.checker.pipeline import CheckResult
from registry.diagnostics import Severity


@dataclass(frozen=True)
class CleanPart:
    """The records of a check that are kept, as a check result of their own, and the files left out."""

    result: CheckResult
    """The check with only the kept records in its index and only their findings (warnings); its
    engine results and file digests are the whole check's."""
    left_out: tuple[str, ...]
    """The record files left out, in path order: those with errors, then those that point at one."""
    errors: int
    """How many findings of error severity the whole check had."""


def clean_part(result: CheckResult) -> CleanPart:
    """The records of ``result`` that check clean and point only at records that do."""
    index = result.index
    failing = {d.path for d in result.diagnostics if d.severity is Severity.ERROR}
    out = {entry.id for entry in index if entry.path in failing}
    out |= set(index.broken) | {i for i in map(expected_id, failing) if i is not None}
    kept = {entry.id: entry for entry in index if entry.id not in out}
    while pointing := [
        record_id
        for record_id, entry in kept.items()
        if any(reference.target not in kept for reference in entry.references)
        or any(link.target in out for link in entry.links)
    ]:
        out.update(pointing)
        for record_id in pointing:
            del kept[record_id]
    part = RegistryIndex(index.root, kept, index.numbered, index.broken | out)
    clean = dataclasses.replace(result, index=part, diagnostics=[])
    left = left_out(clean)
    clean.diagnostics = [d for d in result.diagnostics if d.path not in left and d.path not in failing]
    return CleanPart(clean, left, result.count(Severity.ERROR))


def left_out(result: CheckResult) -> tuple[str, ...]:
    """The record files a check read that its index does not hold, in path order: none for a registry
    that checks clean, the files :func:`clean_part` leaves out for its part."""
    entries = result.index.entries
    files = {*result.digests, *result.failed_files}
    return tuple(
        sorted(
            path
            for path in files
            if (record_id := expected_id(path)) is None
            or record_id not in entries
            or entries[record_id].path != path
        )
    )
