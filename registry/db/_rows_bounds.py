"""Rows of ``benchmark_bounds``: each bound on a benchmark figure as the check computed it (read from
the results, never recomputed), and each benchmark's memory fit in the same shape."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from registry.bounds import Bound
from registry.checker.index import RegistryIndex
from registry.db._values import Columns, as_json, columns_of
from registry.kinds.records import Benchmark
from registry.results import MemoryFit, Results, RunResult

Row = dict[str, Any]

UNITS = {"tok/s": "tokens/s", "req/s": "requests/s", "s": "s", "W": "W", "B": "B"}
"""The database's names of the bounds' units, as benchmark_metrics names them."""


def benchmark_bounds_columns(index: RegistryIndex, results: Results) -> Columns:
    rows: list[Row] = []
    for entry in index:
        run = results.runs.get(entry.id)
        if entry.kind == "benchmark" and run is not None:
            record = entry.record
            assert isinstance(record, Benchmark)
            rows.extend(_rows(record, run))
    return columns_of(rows)


def _rows(record: Benchmark, run: RunResult) -> Iterator[Row]:
    for bound in run.bounds:
        yield _bound_row(record, bound)
    if run.fit is not None:
        yield _fit_row(record, run.fit)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _bound_row(record: Benchmark, bound: Bound) -> Row:
    metric = record.metrics[bound.position]
    slip = bound.slip
    return {
        "benchmark_id": record.id,
        "position": bound.position,
        "bound": bound.kind,
        "metric": metric.metric,
        "statistic": metric.statistic,
        "per": metric.per,
        "side": bound.side,
        "stated": bound.stated,
        "value": float(bound.measured),
        "bound_value": _float(bound.limit if bound.computable else None),
        "unit": UNITS.get(bound.unit, bound.unit),
        "reached": _float(bound.reached if bound.computable else None),
        "tolerance": float(bound.tolerance) if bound.computable else None,
        "exceeded": bound.exceeded if bound.computable else None,
        "slip": slip.description if slip else None,
        "reason": bound.reason,
        "description": bound.what or None,
        "inputs": as_json(dict(bound.inputs)) if bound.computable else None,
        "derivation": list(bound.trace) if bound.computable else None,
    }


def _fit_row(record: Benchmark, fit: MemoryFit | str) -> Row:
    computable = isinstance(fit, MemoryFit)
    row: Row = {
        "benchmark_id": record.id,
        "position": None,
        "bound": "memory-fit",
        "metric": None,
        "statistic": None,
        "per": None,
        "side": "ceiling",
        "stated": None,
        "value": None,
        "bound_value": None,
        "unit": "B",
        "reached": None,
        "tolerance": None,
        "exceeded": None,
        "slip": None,
        "reason": None if computable else fit,
        "description": None,
        "inputs": None,
        "derivation": None,
    }
    if isinstance(fit, MemoryFit):
        row |= {
            "stated": f"{float(fit.needed):,.0f} B",
            "value": float(fit.needed),
            "bound_value": float(fit.memory),
            "reached": float(fit.needed / fit.memory),
            "tolerance": 0.0,
            "exceeded": fit.exceeds,
            "description": f"the memory of {fit.count} x {record.hardware}",
            "inputs": as_json(
                {
                    "weights": f"{float(fit.weights):,.0f} B ({fit.counted_as})",
                    "replicas": fit.replicas,
                    "kv cache": f"{float(fit.cache):,.0f} B"
                    if fit.cache_not_counted is None
                    else f"not counted: {fit.cache_not_counted}",
                    "memory": f"{float(fit.memory):,.0f} B",
                }
            ),
            "derivation": [
                f"weights {float(fit.weights):,.0f} B x {fit.replicas} + cache {float(fit.cache):,.0f} B "
                f"= {float(fit.needed):,.0f} B of {float(fit.memory):,.0f} B"
            ],
        }
    return row
