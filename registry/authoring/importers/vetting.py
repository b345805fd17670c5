"""An imported record checked, before it is written, with the rules ``registry check`` holds it to.

The record's text is loaded by the check's own loader and validated by the check's own stage (the JSON
Schema, the record model, single-line fields, number bounds), and its id is held to the registry's id
rule (:func:`registry.ids.id_problem`: the form, the names Windows reserves, no other record's id
differing only in case). Whatever the check would refuse stops the import with the source's place and
the check's code and message, before anything is written.

A draft is a record left for a person to complete: the findings that say only that a field it leaves out
for them is missing (S006 "add 'hardware'", an empty list where a ``TODO`` asks for its items) are what
makes it a draft, and are not refused; every other finding is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from registry.authoring.importers.mlperf_table import SourceError
from registry.checker.fastload import fast_load_bytes
from registry.checker.load import Document
from registry.checker.validate import validate
from registry.codes.schema import INCONSISTENT_FIELDS
from registry.diagnostics import Diagnostic, Severity
from registry.ids import id_problem

if TYPE_CHECKING:
    from registry.authoring.importers.writing import Planned

SHOWN = 3
"""Findings named in the error; the rest are counted."""
_NAMED = re.compile(r"'([A-Za-z_][\w.]*)'")


def vet(root: Path, record: Planned, text: str, *, draft: bool) -> None:
    """Raise :class:`SourceError` when the check would refuse ``text``, the record's text."""
    path = f"records/{record.id}.yaml"
    problems = [] if (problem := id_problem(root, record.id)) is None else [problem]
    loaded = fast_load_bytes(path, text.encode("utf-8"))
    if loaded.document is None:
        problems += [d.message for d in loaded.diagnostics if d.severity is Severity.ERROR]
    else:
        _, found = validate(loaded.document, root)
        problems += [
            f"{d.code} {d.message}"
            for d in found
            if d.severity is Severity.ERROR and not (draft and _left_for_a_person(d, loaded.document))
        ]
    if problems:
        more = f" (and {len(problems) - SHOWN} more)" if len(problems) > SHOWN else ""
        where = record.where or path
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
