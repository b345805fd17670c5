"""What the later stages can still check of a record that breaks the schema.

A record with a misspelt field and a wrong claim should show both findings in one run, not the schema's
first and the claim's only after the typo is fixed. So a record whose schema stage failed is built again
from what can still be read: an unknown field is left out, a field whose value is refused is left out
when the record is whole without it, and a required field that only describes the record (its title,
evidence, sources, name, ..., which no later stage reads) is given a neutral stand-in. The record so
built goes through the index, the references and the formulas like any other, after the valid records
(a valid record keeps its id against a broken copy); it is never part of the registry the database and
the site are made from, and its schema findings stay reported.

What cannot be built is said plainly: a record without a readable kind or id, or one whose refused
value is needed by the later stages (its model, a claim, its config, its precision) is not checked
further, and :func:`skipped_note` says so and why, as a finding of its own. A file that does not parse,
or a record of an earlier schema version, needs no note: its Y or S009 finding says it is refused as a
whole.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from pydantic import ValidationError as PydanticError

from registry.checker.load import Document
from registry.checker.pointers import pointer_of
from registry.codes import refs
from registry.diagnostics import Diagnostic, Severity
from registry.kinds.records import MODEL_CLASSES, Record

_UNREAD = "(not readable)"

STAND_INS: dict[str, Any] = {
    "title": _UNREAD,
    "evidence": "source-reported",
    "sources": [{"title": _UNREAD, "url": "https://example.invalid/"}],
    "name": _UNREAD,
    "org": _UNREAD,
    "vendor": _UNREAD,
    "repository": _UNREAD,
    "version": _UNREAD,
}
"""Required fields that only describe a record, with what stands in for a missing or refused value
while the later stages check the rest: none of them reads these fields, and no finding quotes them."""

_VALIDATOR_STEP = re.compile(r"^(str|int|float|bool|none)$|\[|^(constrained|function|tagged|union)-")
"""The steps pydantic adds to an error's location for a union's branches or a validator, which name no
node of the record."""

_ROUNDS = 8
"""How many times a record is built again, each time without what the last attempt refused."""


def salvage(document: Document) -> tuple[Record | None, list[Any]]:
    """The record the later stages can check from ``document``, whose schema stage failed; or None and
    the location of the part that stops it (``["kind"]``, ``["claims", 0]``; ``[]`` for the record as a
    whole)."""
    kind = document.data.get("kind")
    if not isinstance(kind, str) or kind not in MODEL_CLASSES:
        return None, ["kind"]
    data = copy.deepcopy(document.data)
    for _ in range(_ROUNDS):
        try:
            return MODEL_CLASSES[kind].model_validate(data), []  # type: ignore[return-value]
        except PydanticError as error:
            blocking = _repair(data, error)
        if blocking is not None:
            return None, blocking
    return None, []


def _repair(data: dict[str, Any], error: PydanticError) -> list[Any] | None:
    """Leave out or stand in for each refused part of ``data``; the location of the first part that can
    be neither (a required field the later stages read), or None when every part was repaired."""
    for item in error.errors(include_url=False):
        path = [p for p in item["loc"] if not (isinstance(p, str) and _VALIDATOR_STEP.search(p))]
        if not path:
            return []
        if path[0] in STAND_INS:
            data[str(path[0])] = copy.deepcopy(STAND_INS[str(path[0])])
        elif item["type"] == "missing" or not _remove(data, path):
            return path
    return None


def _remove(data: dict[str, Any], path: list[Any]) -> bool:
    """Remove the refused node at ``path`` when it is a mapping's value, never a list or a list's item
    (the positions of the items after it locate their findings). False when it cannot be removed."""
    last = len(path) - 1
    if not isinstance(path[last], str):
        return False
    parent: Any = data
    for part in path[:last]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return False
    if not isinstance(parent, dict) or path[last] not in parent:
        return False
    del parent[path[last]]
    return True


def skipped_note(path: str, findings: list[Diagnostic], blocking: list[Any]) -> Diagnostic:
    """The note that a file's later stages did not run: what stopped them (the finding at ``blocking``,
    the part of the record that cannot be built, else the file's first error), and what was not checked."""
    errors = sorted((d for d in findings if d.severity is Severity.ERROR), key=Diagnostic.sort_key)
    pointer = pointer_of(blocking or [])
    at = [d for d in errors if blocking and (d.pointer + "/").startswith(pointer + "/")]
    first = (at or errors)[0] if at or errors else None
    code = f" ({first.code} at line {first.line})" if first is not None else ""
    if blocking:
        why = f"the record cannot be built without '{_field_name(blocking)}'"
    else:
        why = "the record cannot be built from what can be read of it"
    message = f"{why}{code}, so its references, links and numbers are not checked"
    named = pointer if blocking or first is None else first.pointer
    return refs.NOT_CHECKED_FURTHER.diagnostic(path, 1, 1, message, pointer=named)


def _field_name(path: list[Any]) -> str:
    text = str(path[0])
    for part in path[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text
