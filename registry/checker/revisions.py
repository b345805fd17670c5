"""A model's ``config_source.revision`` is a commit (R010): a branch or tag moves, so the verbatim config
could no longer be compared with the file it was read from. A warning, since the config itself may be
right; ``registry import-config`` says the same when it writes the record."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from registry.checker.index import Entry
from registry.codes import refs
from registry.diagnostics import Diagnostic
from registry.kinds.model import Model, revision_problem

POINTER = "/config_source/revision"


def revision_findings(entries: Iterable[Entry]) -> Iterator[Diagnostic]:
    """An R010 for each model whose config_source names a branch or tag rather than a commit."""
    for entry in entries:
        record = entry.record
        if not isinstance(record, Model) or record.config_source is None:
            continue
        problem = revision_problem(record.config_source.revision)
        if problem is not None:
            line, column = entry.document.locate(POINTER)
            yield refs.REVISION_NOT_A_COMMIT.diagnostic(entry.path, line, column, problem, pointer=POINTER)
