"""The registry without its drafts: what ``registry query`` and ``registry site`` build from when a
record is still being written, so that one unfinished record does not keep a reader from the rest.

A *draft* is a record file that does not yet read or validate as written: it has a finding of error
severity from the syntax or schema stage (a field ``registry new`` left empty for a person to fill, a
misspelt field). A draft is left out, and so is every record that points at one (by a reference
field, ``related`` or a ``[[link]]``), and so on until nothing more is. Any other error (a stated
number the geometry contradicts, a dangling reference) is not a draft's: it stays, and the part does
not check clean, so the database and the site are still refused. They never show a number the check
rejects, nor a link to a page that is not there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from registry.checker.index import RegistryIndex, expected_id
from registry.checker.pipeline import CheckResult
from registry.codes import schema, syntax
from registry.diagnostics import Diagnostic, Severity

DRAFT_CODES = frozenset(rule.code for rule in (*syntax.RULES, *schema.RULES))
"""The codes whose errors make a record a draft: it does not read or validate as written."""


@dataclass(frozen=True)
class CleanPart:
    """The records of a check without its drafts, as a check result of their own, and the files left
    out."""

    result: CheckResult
    """The check with the drafts, and the records pointing at one, out of its index and their findings
    out of its diagnostics (its ``ok`` says whether anything else has errors); its engine results and
    file digests are the whole check's."""
    left_out: tuple[str, ...]
    """The record files left out, in path order: the drafts and those that point at one."""


def is_draft_error(diagnostic: Diagnostic) -> bool:
    """An error of the syntax or schema stage: its record does not read or validate as written."""
    return diagnostic.severity is Severity.ERROR and diagnostic.code in DRAFT_CODES


def without_drafts(result: CheckResult) -> CleanPart:
    """The records of ``result`` that are not drafts and point at none."""
    index = result.index
    drafts = {d.path for d in result.diagnostics if is_draft_error(d) and expected_id(d.path)}
    drafts |= {path for path in result.failed_files if expected_id(path)}
    out = {entry.id for entry in index if entry.path in drafts}
    out |= {record_id for record_id in map(expected_id, drafts) if record_id is not None}
    kept = {entry.id: entry for entry in index if entry.id not in out}
    while pointing := [
        record_id
        for record_id, entry in kept.items()
        if any(reference.target in out for reference in entry.references)
        or any(link.target in out for link in entry.links)
    ]:
        out.update(pointing)
        for record_id in pointing:
            del kept[record_id]
    part = RegistryIndex(index.root, kept, index.numbered, index.broken | out)
    left = drafts | {entry.path for entry in index if entry.id in out}
    diagnostics = [d for d in result.diagnostics if d.path not in left]
    return CleanPart(dataclasses.replace(result, index=part, diagnostics=diagnostics), tuple(sorted(left)))


def left_out(result: CheckResult) -> tuple[str, ...]:
    """The record files a check read that its index does not hold, in path order: none for a registry
    that checks clean, the files :func:`without_drafts` leaves out for its part."""
    entries = result.index.entries
    files = {*result.digests, *result.failed_files}
    return tuple(
        sorted(
            path
            for path in files
            if (record_id := expected_id(path)) is not None
            and (record_id not in entries or entries[record_id].path != path)
        )
    )
