"""A run beyond its model's maximum context (R012): a kv-efficiency or benchmark record, or one of its
claims, states a context longer than the model's ``max_context_tokens``, or its workload's requests hold
more tokens, input and output together, than that maximum.

A figure at a context the model does not take describes no use of it, and a reader takes it for one; a
workload of such requests is one a server started on the model's config refuses. A record may still state
one on purpose (a paper's extrapolation past the trained length): it then says why in
``beyond_max_context``, which silences the warning; a reason left on a record nothing of which is beyond
the maximum is reported too, so that it cannot outlive the figure it explained. A model that states no
maximum gives nothing to compare with.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from registry.checker.index import Entry, RegistryIndex
from registry.codes import refs
from registry.diagnostics import Diagnostic
from registry.engine.units import parse_context
from registry.kinds.records import Benchmark, KvEfficiency, Model

REASON_POINTER = "/beyond_max_context"

LENGTHS_WORDS = {
    "fixed": " (every request's)",
    "max": " (caps, which let a request hold that many)",
    "mean": " (means, so some requests hold more)",
}
"""What a benchmark workload's ``lengths`` makes of its token counts, said after them: a mean beyond the
maximum still means some request is beyond it, and a cap beyond it lets requests be."""


@dataclass(frozen=True)
class Beyond:
    """One length of a run beyond its model's maximum: the JSON pointer of the node that states it, the
    tokens, and what they are, in words, for the message."""

    pointer: str
    tokens: int
    what: str


def stated_contexts(record: KvEfficiency | Benchmark) -> Iterator[tuple[str, int]]:
    """Each context the record states, with the JSON pointer of the node that states it: the run's own,
    then each claim's."""
    if record.context_tokens is not None:
        yield "/context_tokens", parse_context(record.context_tokens)
    for number, claim in enumerate(record.claims):
        if claim.context_tokens is not None:
            yield f"/claims/{number}/context_tokens", parse_context(claim.context_tokens)


def workload_length(record: KvEfficiency | Benchmark) -> Beyond | None:
    """The tokens one request of the run's workload holds once answered, its input and output tokens
    together (those of the two it states), with words naming them; None when it states neither."""
    workload = record.workload
    if workload is None:
        return None
    named = [
        (name, tokens) for name in ("input_tokens", "output_tokens") if (tokens := getattr(workload, name))
    ]
    if not named:
        return None
    total = sum(tokens for _, tokens in named)
    names = " + ".join(name for name, _ in named)
    figures = " + ".join(f"{tokens:,}" for _, tokens in named)
    amount = f"{figures} = {total:,}" if len(named) > 1 else figures
    lengths = LENGTHS_WORDS.get(getattr(workload, "lengths", None) or "", "")
    return Beyond(f"/workload/{named[0][0]}", total, f"the workload's {names}{lengths}, {amount} tokens,")


def context_findings(index: RegistryIndex) -> Iterator[Diagnostic]:
    """An R012 for each context of each run of ``index``, and each workload, beyond its model's maximum,
    unless the record gives its reason; and one for a reason given where nothing is beyond it."""
    for entry in index:
        record = entry.record
        if not isinstance(record, KvEfficiency | Benchmark):
            continue
        model_entry = index.get(record.model)
        model = model_entry.record if model_entry is not None else None
        if not isinstance(model, Model) or model.max_context_tokens is None:
            continue
        yield from _run_findings(entry, record, model)


def _beyond(record: KvEfficiency | Benchmark, model: Model) -> list[Beyond]:
    """Every length of the run beyond the model's maximum, contexts first, then the workload's."""
    lengths = [
        Beyond(pointer, tokens, f"context {tokens:,} tokens") for pointer, tokens in stated_contexts(record)
    ]
    workload = workload_length(record)
    if workload is not None:
        lengths.append(workload)
    return [length for length in lengths if model.exceeds_max_context(length.tokens)]


def _run_findings(entry: Entry, record: KvEfficiency | Benchmark, model: Model) -> Iterator[Diagnostic]:
    limit = model.max_context_tokens
    assert limit is not None
    beyond = _beyond(record, model)
    if beyond and record.beyond_max_context is None:
        for length in beyond:
            line, column = entry.document.locate(length.pointer)
            message = f"{length.what} is beyond {model.id}'s maximum of {limit:,} (its max_context_tokens)"
            yield refs.BEYOND_MAX_CONTEXT.diagnostic(
                entry.path, line, column, message, pointer=length.pointer
            )
    if not beyond and record.beyond_max_context is not None:
        line, column = entry.document.locate(REASON_POINTER)
        message = (
            f"beyond_max_context gives a reason, but neither a context nor the workload of the record is beyond "
            f"{model.id}'s "
            f"maximum of {limit:,} tokens"
        )
        hint = "remove beyond_max_context: it explains a length this record no longer states"
        yield refs.BEYOND_MAX_CONTEXT.diagnostic(
            entry.path, line, column, message, hint, pointer=REASON_POINTER
        )
