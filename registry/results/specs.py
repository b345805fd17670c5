"""Run and claim specs: a record's run shape and its claims as the pure engine takes them."""

from __future__ import annotations

from registry.engine.claims import ClaimSpec
from registry.engine.dtypes import model_dtype_of
from registry.engine.engines import UnknownEngineError, get_engine
from registry.engine.units import parse_context
from registry.engine.variants import Run
from registry.kinds.records import Benchmark, Claim, KvEfficiency

RunRecord = KvEfficiency | Benchmark
"""A record with a run shape and claims."""

RUN_KINDS = ("kv-efficiency", "benchmark")
"""The kinds of :data:`RunRecord`."""


def run_of(record: RunRecord) -> Run | None:
    """The engine's run from a record's run shape; None for a benchmark that states no context (its
    claims each name their own: see :func:`claim_run`).

    A benchmark may leave its KV-cache format unstated; its run then keeps the engine's default, which
    no figure uses: the run's result says the format is not stated, and the record model requires each
    claim of such a run to name its own."""
    context = record.context
    return None if context is None else run_at(record, context)


def run_at(record: RunRecord, context_tokens: int) -> Run:
    """The engine's run from a record's run shape, at ``context_tokens``."""
    return make_run(
        context_tokens=context_tokens,
        batch=record.batch,
        engine_layout=record.layout,
        kv_dtype=record.precision.kv_cache or Run.kv_dtype,
        state_dtype=record.precision.recurrent_state,
        weights=record.precision.weights,
    )


def claim_run(record: RunRecord, run: Run | None, spec: ClaimSpec) -> Run:
    """The run a claim is computed under: the record's, else (a benchmark with no context) one at the
    claim's own context, which the record model requires such a claim to state."""
    if run is not None:
        return run
    if spec.context_tokens is None:
        raise ValueError(f"{record.id}: a claim of a run with no context states no context of its own")
    return run_at(record, spec.context_tokens)


def make_run(
    *,
    context_tokens: int,
    batch: int,
    engine_layout: str,
    kv_dtype: str,
    state_dtype: str | None,
    weights: str | None,
) -> Run:
    """The engine's run for a run shape's fields, as every command builds it: unquantized weights give the
    model (activation) dtype."""
    return Run(
        context_tokens=context_tokens,
        batch=batch,
        engine_layout=engine_layout,
        kv_dtype=kv_dtype,
        state_dtype=state_dtype,
        model_dtype=model_dtype_of(weights),
    )


def spec_of(claim: Claim) -> ClaimSpec:
    """A claim's fields as the pure engine takes them."""
    context = None if claim.context_tokens is None else parse_context(claim.context_tokens)
    return ClaimSpec(
        quantity=claim.quantity,
        stated=claim.stated,
        variant=claim.variant,
        versus=claim.versus,
        formula=claim.formula,
        context_tokens=context,
        kv_dtype=claim.kv_cache,
    )


def engine_key(written: str) -> str | None:
    """The formula engine's layout for a record's ``layout`` field: the field itself when the engine
    has rules for it as written, else None.

    A version pin the rules were not read at (``sglang@0.5.7``) is not mapped to another release: the
    check does not, so neither do the database and the site.
    """
    try:
        get_engine(written)
    except UnknownEngineError:
        return None
    return written
