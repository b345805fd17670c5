"""A run's context beyond its model's maximum (R012): a kv-efficiency or benchmark record, or one of its
claims, states a context longer than the model's ``max_context_tokens``.

A figure at a context the model does not take describes no use of it, and a reader takes it for one. A
record may still state one on purpose (a paper's extrapolation past the trained length): it then says why
in ``beyond_max_context``, which silences the warning; a reason left on a record none of whose contexts
is beyond the maximum is reported too, so that it cannot outlive the figure it explained. A model that
states no maximum gives nothing to compare with.
"""

from __future__ import annotations

from collections.abc import Iterator

from registry.checker.index import Entry, RegistryIndex
from registry.codes import refs
from registry.diagnostics import Diagnostic
from registry.engine.units import parse_context
from registry.kinds.records import Benchmark, KvEfficiency, Model

REASON_POINTER = "/beyond_max_context"


def stated_contexts(record: KvEfficiency | Benchmark) -> Iterator[tuple[str, int]]:
    """Each context the record states, with the JSON pointer of the node that states it: the run's own,
    then each claim's."""
    if record.context_tokens is not None:
        yield "/context_tokens", parse_context(record.context_tokens)
    for number, claim in enumerate(record.claims):
        if claim.context_tokens is not None:
            yield f"/claims/{number}/context_tokens", parse_context(claim.context_tokens)


def context_findings(index: RegistryIndex) -> Iterator[Diagnostic]:
    """An R012 for each context of each run of ``index`` beyond its model's maximum, unless the record
    gives its reason; and one for a reason given where no context is beyond it."""
    for entry in index:
        record = entry.record
        if not isinstance(record, KvEfficiency | Benchmark):
            continue
        model_entry = index.get(record.model)
        model = model_entry.record if model_entry is not None else None
        if not isinstance(model, Model) or model.max_context_tokens is None:
            continue
        yield from _run_findings(entry, record, model)


def _run_findings(entry: Entry, record: KvEfficiency | Benchmark, model: Model) -> Iterator[Diagnostic]:
    limit = model.max_context_tokens
    assert limit is not None
    beyond = [
        (pointer, tokens) for pointer, tokens in stated_contexts(record) if model.exceeds_max_context(tokens)
    ]
    if beyond and record.beyond_max_context is None:
        for pointer, tokens in beyond:
            line, column = entry.document.locate(pointer)
            message = (
                f"context {tokens:,} tokens is beyond {model.id}'s maximum of {limit:,} "
                "(its max_context_tokens)"
            )
            yield refs.BEYOND_MAX_CONTEXT.diagnostic(entry.path, line, column, message, pointer=pointer)
    if not beyond and record.beyond_max_context is not None:
        line, column = entry.document.locate(REASON_POINTER)
        message = (
            f"beyond_max_context gives a reason, but no context of the record is beyond {model.id}'s "
            f"maximum of {limit:,} tokens"
        )
        hint = "remove beyond_max_context: it explains a context this record no longer states"
        yield refs.BEYOND_MAX_CONTEXT.diagnostic(
            entry.path, line, column, message, hint, pointer=REASON_POINTER
        )
