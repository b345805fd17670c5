"""Rows of the run tables: runs (kv-efficiency and benchmark records in their shared shape) and claims."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from registry.check.formulas import RUN_KINDS
from registry.check.index import Entry, RegistryIndex
from registry.db._engine_results import cache_result, engine_key
from registry.db._rows_models import result_columns
from registry.db._values import Columns, columns_of, context_tokens, quantity_float, quantity_value
from registry.engine.claims import ClaimSpec, ClaimVerdict, check_claim
from registry.engine.compute import CacheResult
from registry.engine.layout import Layout
from registry.engine.variants import Run
from registry.kinds.geometry import model_layout_or_error
from registry.kinds.records import Benchmark, Claim, KvEfficiency

Row = dict[str, Any]
RunRecord = KvEfficiency | Benchmark


def _runs(index: RegistryIndex) -> list[RunRecord]:
    found: list[RunRecord] = []
    for entry in index:
        if entry.kind in RUN_KINDS:
            record = entry.record
            assert isinstance(record, KvEfficiency | Benchmark)
            found.append(record)
    return found


def run_model(index: RegistryIndex, run: RunRecord) -> tuple[Entry | None, Layout | None, str | None]:
    """The run's model's entry and cache layout, or why there is none."""
    entry = index.get(run.model)
    if entry is None or entry.kind != "model":
        return None, None, f"{run.model} is not a model record"
    return entry, *entry.derived(model_layout_or_error)


def engine_run(run: RunRecord, key: str) -> Run:
    """The conditions the engine computes a run under, exactly as the check takes them, with the
    engine layout ``key``."""
    from dataclasses import replace

    from registry.check.formulas import run_of

    return replace(run_of(run), engine=key)


def claim_spec(claim: Claim) -> ClaimSpec:
    """A claim as the engine takes it, exactly as the check takes it."""
    from registry.check.formulas import spec_of

    return spec_of(claim)


def run_result(layout: Layout, run: RunRecord) -> CacheResult | str:
    """The engine's computation of the run's own setting, or why there is none."""
    key = engine_key(run.layout)
    if key is None:
        return f"the formula engine has no rules for the layout {run.layout!r}"
    setting = engine_run(run, key)
    return cache_result(
        layout,
        key,
        setting.kv_dtype,
        setting.context_tokens,
        setting.batch,
        setting.state_dtype,
        model_dtype=setting.model_dtype,
    )


def runs_columns(index: RegistryIndex) -> Columns:
    """One row per kv-efficiency or benchmark record, with the engine's bytes for its own settings."""
    rows: list[Row] = []
    for run in _runs(index):
        row = _run_columns(run)
        row["engine_layout"] = engine_key(run.layout)
        _, layout, error = run_model(index, run)
        if layout is None:
            row.update(result_columns(error or "the model has no cache layout"))
        else:
            row.update(result_columns(run_result(layout, run)))
        rows.append(row)
    return columns_of(rows)


def _run_columns(run: RunRecord) -> Row:
    workload = run.workload
    return {
        "id": run.id,
        "kind": run.kind,
        "title": run.title,
        "evidence": run.evidence,
        "model_id": run.model,
        "engine_id": run.engine,
        "engine_version": run.engine_version,
        "layout": run.layout,
        "hardware_id": run.hardware,
        "hardware_count": run.hardware_count,
        "weights_dtype": run.precision.weights,
        "kv_dtype": run.precision.kv_cache,
        "state_dtype": run.precision.recurrent_state,
        "context_tokens": run.context,
        "context_written": str(run.context_tokens),
        "batch": run.batch,
        "prefix_cache": run.prefix_cache,
        "workload": workload.description if workload else None,
        "input_tokens": workload.input_tokens if workload else None,
        "output_tokens": workload.output_tokens if workload else None,
        "requests": workload.requests if workload else None,
        "concurrency": workload.concurrency if workload else None,
        "dataset": workload.dataset if workload else None,
        "measured_ttft": run.measured_ttft,
        "measured_ttft_s": quantity_float(run.measured_ttft),
        "measured_tpot": run.measured_tpot,
        "measured_tpot_s": quantity_float(run.measured_tpot),
        "measured_throughput": run.measured_throughput,
        "measured_throughput_tok_s": quantity_float(run.measured_throughput),
        "measured_memory": run.measured_memory,
        "measured_memory_bytes": quantity_value(run.measured_memory),
        "claim_count": len(run.claims),
    }


# ---------------------------------------------------------------- claims


def claims_columns(index: RegistryIndex) -> Columns:
    """One row per claim: stated against computed, the verdict, and the mistake named."""
    from registry.check.formulas import run_of
    from registry.kinds.geometry import model_fields

    rows: list[Row] = []
    for run in _runs(index):
        model, layout, error = run_model(index, run)
        for position, claim in enumerate(run.claims):
            row = _claim_columns(run, position, claim)
            if model is None or layout is None:
                row.update(_no_verdict("not-computable", error or "the model has no cache layout"))
            else:
                verdict = check_claim(claim_spec(claim), layout, model.derived(model_fields), run_of(run))
                row.update(verdict_columns(verdict))
            rows.append(row)
    return columns_of(rows)


def _claim_columns(run: RunRecord, position: int, claim: Claim) -> Row:
    return {
        "run_id": run.id,
        "claim_index": position,
        "quantity": claim.quantity,
        "variant": claim.variant,
        "versus": claim.versus,
        "context_tokens": context_tokens(claim.context_tokens) or run.context,
        "kv_dtype": claim.kv_cache or run.precision.kv_cache,
        "stated": claim.stated,
        "formula": claim.formula,
        "basis": claim.basis,
    }


def _no_verdict(verdict: str, message: str) -> Row:
    return {
        "stated_value": None,
        "stated_unit": None,
        "engine_value": None,
        "difference": None,
        "relative_difference": None,
        "verdict": verdict,
        "misapplication": None,
        "message": message,
    }


def _verdict_word(verdict: ClaimVerdict) -> tuple[str, str]:
    """The verdict in one word, and the check's reason when there is no comparison."""
    for word, reason in (
        ("unreadable", verdict.stated_error),
        ("wrong-dimension", verdict.wrong_dimension),
        ("unknown-variant", verdict.unknown_variant),
        ("unsupported", verdict.unsupported),
        ("not-computable", verdict.not_computable),
    ):
        if reason:
            return word, reason
    if verdict.agrees is None:
        return "not-computable", "the engine gives no value"
    return ("agrees", "") if verdict.agrees else ("disagrees", "")


def verdict_columns(verdict: ClaimVerdict) -> Row:
    """The comparison columns of one claim from the engine's verdict."""
    word, reason = _verdict_word(verdict)
    stated = verdict.stated
    stated_value = None if stated is None else stated.value
    engine_value = verdict.engine_value
    difference = None if stated_value is None or engine_value is None else stated_value - engine_value
    relative = None if difference is None or not engine_value else float(difference / engine_value)
    match = verdict.misapplication
    if word == "disagrees":
        reason = match.description if match else _nearest(verdict)
    return {
        "stated_value": stated_value,
        "stated_unit": None if stated is None else (stated.unit or None),
        "engine_value": engine_value,
        "difference": difference,
        "relative_difference": relative,
        "verdict": word,
        "misapplication": match.name if match else None,
        "message": reason or None,
    }


def _nearest(verdict: ClaimVerdict) -> str:
    if not verdict.nearest:
        return "no known misapplication explains the stated value"
    names = ", ".join(f"{c.name} ({_short(c.value)})" for c in verdict.nearest)
    return f"no known misapplication explains the stated value; nearest: {names}"


def _short(value: Fraction) -> str:
    return f"{float(value):,.6g}"
