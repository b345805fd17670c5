"""Rows of the run tables: runs (kv-efficiency and benchmark records in their shared shape) and claims."""

from __future__ import annotations

from typing import Any

from registry.checker.index import RegistryIndex
from registry.db._rows_models import result_columns
from registry.db._values import Columns, columns_of, context_tokens, quantity_float, quantity_value
from registry.engine.claims import ClaimVerdict
from registry.kinds.records import Benchmark, Claim, KvEfficiency
from registry.results import RUN_KINDS, Results, RunResult, outcome_of

Row = dict[str, Any]
RunRecord = KvEfficiency | Benchmark


def _runs(index: RegistryIndex, results: Results) -> list[tuple[RunRecord, RunResult]]:
    found: list[tuple[RunRecord, RunResult]] = []
    for entry in index:
        if entry.kind in RUN_KINDS:
            record, result = entry.record, results.runs[entry.id]
            assert isinstance(record, KvEfficiency | Benchmark)
            found.append((record, result))
    return found


def runs_columns(index: RegistryIndex, results: Results) -> Columns:
    """One row per kv-efficiency or benchmark record, with the engine's bytes for its own settings."""
    rows: list[Row] = []
    for run, result in _runs(index, results):
        row = _run_columns(run)
        row["engine_layout"] = result.engine_layout
        row.update(result_columns(result.result))
        rows.append(row)
    return columns_of(rows)


MEASURED_METRICS: dict[str, tuple[str, str]] = {
    "measured_ttft": ("ttft", "request"),
    "measured_tpot": ("tpot", "request"),
    "measured_throughput": ("output_throughput", "system"),
    "measured_memory": ("memory", "system"),
}
"""The benchmark metric (name and ``per``) behind each ``measured_*`` column of the runs table; the
figure is :meth:`Benchmark.headline`'s (statistic value, else mean, else median)."""


def measured_texts(run: RunRecord) -> dict[str, str | None]:
    """The four measured figures as written: a kv-efficiency record's own fields, a benchmark's
    headline metrics."""
    if isinstance(run, KvEfficiency):
        return {name: getattr(run, name) for name in MEASURED_METRICS}
    found = {name: run.headline(metric, per) for name, (metric, per) in MEASURED_METRICS.items()}
    return {name: None if metric is None else metric.stated for name, metric in found.items()}


def _run_columns(run: RunRecord) -> Row:
    workload = run.workload
    measured = measured_texts(run)
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
        "context_written": None if run.context_tokens is None else str(run.context_tokens),
        "batch": run.batch,
        "prefix_cache": run.prefix_cache,
        "workload": workload.description if workload else None,
        "input_tokens": workload.input_tokens if workload else None,
        "output_tokens": workload.output_tokens if workload else None,
        "requests": workload.requests if workload else None,
        "concurrency": workload.concurrency if workload else None,
        "dataset": workload.dataset if workload else None,
        "measured_ttft": measured["measured_ttft"],
        "measured_ttft_s": quantity_float(measured["measured_ttft"]),
        "measured_tpot": measured["measured_tpot"],
        "measured_tpot_s": quantity_float(measured["measured_tpot"]),
        "measured_throughput": measured["measured_throughput"],
        "measured_throughput_tok_s": quantity_float(measured["measured_throughput"]),
        "measured_memory": measured["measured_memory"],
        "measured_memory_bytes": quantity_value(measured["measured_memory"]),
        "claim_count": len(run.claims),
    }


# ---------------------------------------------------------------- claims


def claims_columns(index: RegistryIndex, results: Results) -> Columns:
    """One row per claim: stated against computed, the verdict, and the mistake named."""
    rows: list[Row] = []
    for run, result in _runs(index, results):
        for claim, checked in zip(run.claims, result.claims, strict=True):
            row = _claim_columns(run, checked.position, claim)
            if checked.verdict is None:
                row.update(_no_verdict("not-computable", result.problem or "the model has no cache layout"))
            else:
                row.update(verdict_columns(checked.verdict))
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


def verdict_columns(verdict: ClaimVerdict) -> Row:
    """The comparison columns of one claim from the engine's verdict."""
    outcome = outcome_of(verdict)
    stated = verdict.stated
    stated_value = None if stated is None else stated.value
    engine_value = verdict.engine_value
    difference = None if stated_value is None or engine_value is None else stated_value - engine_value
    relative = None if difference is None or not engine_value else float(difference / engine_value)
    match = verdict.misapplication
    return {
        "stated_value": stated_value,
        "stated_unit": None if stated is None else (stated.unit or None),
        "engine_value": engine_value,
        "difference": difference,
        "relative_difference": relative,
        "verdict": outcome.word,
        "misapplication": match.name if match else None,
        "message": outcome.message or None,
    }
