"""Rows of the model tables: models, layer_groups and kv_at_context."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from registry.checker.index import RegistryIndex
from registry.db._values import Columns, as_json, columns_of
from registry.engine.compute import CacheResult, Ladder
from registry.engine.groups import GroupResult
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroup,
    LayerGroups,
    Mechanism,
    SlidingWindow,
    parts_of,
)
from registry.kinds.records import Model
from registry.results import (
    CONTEXT_LADDER,
    ENGINE_LAYOUTS,
    KV_DTYPES,
    STANDARD_CONTEXTS,
    ModelGeometry,
    Results,
    reasons,
)

Row = dict[str, Any]

_COUNT_COLUMNS = {
    "attention": "full_attention_layers",
    "sliding-window": "sliding_window_layers",
    "chunked": "chunked_layers",
    "mla": "mla_layers",
    "recurrent": "recurrent_layers",
    "compressed": "compressed_layers",
    "shared": "shared_layers",
    "no-cache": "no_cache_layers",
}


Found = list[tuple[Model, ModelGeometry]]
"""Every model record of a part of the index, with its geometry."""


def models(index: RegistryIndex, results: Results) -> Found:
    """Every model record with its geometry (a layout, or the reason it has none)."""
    found: Found = []
    for entry in index.of_kind("model"):
        model = entry.record
        assert isinstance(model, Model)
        found.append((model, results.models[entry.id]))
    return found


def _one(values: Iterable[Any]) -> Any:
    """The value every layer agrees on; None when they differ or there is none."""
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None


def _dimensions(mechanism: Mechanism) -> Row:
    """The sizes a mechanism states, by column name (a compressed layer's entry sizes included)."""
    inner = mechanism.inner if isinstance(mechanism, Compressed) else mechanism
    return {
        "num_kv_heads": getattr(inner, "num_kv_heads", None),
        "head_dim": getattr(inner, "head_dim", None),
        "v_head_dim": getattr(inner, "v_head_dim", None),
        "window": getattr(mechanism, "window", None),
        "chunk": getattr(mechanism, "chunk", None),
        "kv_lora_rank": getattr(inner, "kv_lora_rank", None),
        "qk_rope_head_dim": getattr(inner, "qk_rope_head_dim", None),
        "compress_ratio": getattr(mechanism, "ratio", None),
        "index_head_dim": getattr(mechanism, "index_head_dim", None),
    }


def _geometry(layout: LayerGroups) -> Row:
    # A layer running two mechanisms side by side (Falcon-H1) counts as a layer with each.
    mechanisms = [part for mechanism in layout.mechanisms() for part in parts_of(mechanism)]
    attention = [m for m in mechanisms if isinstance(m, Attention | SlidingWindow | Chunked)]
    mla = [m for m in mechanisms if isinstance(m, MLA)]
    row: Row = {
        "num_layers": layout.num_layers,
        "mtp_layers": sum(group.count for group in layout.mtp_groups),
        "num_kv_heads": _one(m.num_kv_heads for m in attention),
        "head_dim": _one(m.head_dim for m in attention),
        "v_head_dim": _one(m.v_head_dim for m in attention),
        "kv_lora_rank": _one(m.kv_lora_rank for m in mla),
        "qk_rope_head_dim": _one(m.qk_rope_head_dim for m in mla),
        "sliding_window": _one(m.window for m in mechanisms if isinstance(m, SlidingWindow)),
        "attention_chunk": _one(m.chunk for m in mechanisms if isinstance(m, Chunked)),
    }
    for column in _COUNT_COLUMNS.values():
        row[column] = 0
    for mechanism in mechanisms:
        row[_COUNT_COLUMNS[mechanism.kind]] += 1
    return row


def _blank_geometry() -> Row:
    names = (
        "num_layers",
        "mtp_layers",
        "num_kv_heads",
        "head_dim",
        "v_head_dim",
        "kv_lora_rank",
        "qk_rope_head_dim",
        "sliding_window",
        "attention_chunk",
        *_COUNT_COLUMNS.values(),
    )
    return dict.fromkeys(names)


def models_columns(found: Found) -> Columns:
    """One row per model: identity, where its geometry comes from, and the geometry columns."""
    rows: list[Row] = []
    for model, geometry in found:
        layout = geometry.layout
        heads = geometry.fields.get("num_attention_heads")
        source = model.config_source
        row: Row = {
            "id": model.id,
            "name": model.name,
            "org": model.org,
            "family": model.family,
            "params_total_b": model.params_total_b,
            "params_active_b": model.params_active_b,
            "release_date": _date(model.release_date),
            "license": model.license,
            "max_context_tokens": model.max_context_tokens,
            "geometry": "config" if model.config is not None else "layout",
            "model_type": model.config.get("model_type") if model.config is not None else None,
            "config_repository": source.repository if source else None,
            "config_revision": source.revision if source else None,
            "num_attention_heads": heads if isinstance(heads, int) else None,
            **(_geometry(layout) if layout is not None else _blank_geometry()),
            "layout_error": geometry.error,
            "config": as_json(model.config),
        }
        if not isinstance(row["model_type"], str):
            row["model_type"] = None
        rows.append(row)
    return columns_of(rows)


def _date(text: str | None) -> Any:
    return None if text is None else datetime.date.fromisoformat(text)


def layer_groups_columns(found: Found, results: Results) -> Columns:
    """One row per model, engine layout and layer group (multi-token-prediction groups last)."""
    rows: list[Row] = []
    for model, geometry in found:
        layout = geometry.layout
        if layout is None:
            continue
        groups = (*layout.groups, *layout.mtp_groups)
        for engine in ENGINE_LAYOUTS:
            result = results.figures.groups(layout, engine)
            outcomes = result.groups if isinstance(result, CacheResult) else (None,) * len(groups)
            for position, (group, outcome) in enumerate(zip(groups, outcomes, strict=True)):
                mtp = position >= len(layout.groups)
                rows.append(_group_row(model.id, engine, position, group, mtp, outcome, result))
    return columns_of(rows)


def _group_row(
    model_id: str,
    engine: str,
    position: int,
    group: LayerGroup,
    mtp: bool,
    outcome: GroupResult | None,
    result: CacheResult | str,
) -> Row:
    row: Row = {
        "model_id": model_id,
        "layout": engine,
        "group_index": position,
        "mechanism": group.mechanism.kind,
        "variant": getattr(group.mechanism, "variant", None),
        "mtp": mtp,
        "layer_count": group.count,
        "layers": list(group.layers),
        **_dimensions(group.mechanism),
    }
    if outcome is None:  # the engine refused the whole computation; its message says why
        row.update(
            supported=None,
            unsupported_reason=None,
            not_computable=str(result),
            kv_steady_state_bytes_per_token_bf16=None,
            fixed_bytes_bf16=None,
        )
        return row
    row.update(
        supported=outcome.supported,
        unsupported_reason=outcome.reason or None,
        not_computable="; ".join(outcome.not_computable) or None,
        kv_steady_state_bytes_per_token_bf16=outcome.steady_state_bytes_per_token,
        fixed_bytes_bf16=outcome.fixed_bytes,
    )
    return row


LADDER_LAYOUTS = [(e, d) for e in ENGINE_LAYOUTS for d in KV_DTYPES]
LADDER = [(e, d, label, t) for e, d in LADDER_LAYOUTS for label, t in CONTEXT_LADDER]
"""Every (engine layout, KV dtype, context label, tokens) a model has a ``kv_at_context`` row for."""


def kv_at_context_columns(found: Found, results: Results) -> Columns:
    """One row per model, engine layout, KV dtype and ladder context, built column by column.

    Models of one geometry (many records) share one list of figures.
    """
    by_geometry: dict[int, list[_Figures]] = {}
    models: list[Model] = []
    figures: list[_Figures] = []
    for model, geometry in found:
        layout = geometry.layout
        if layout is None:
            continue
        if id(geometry) not in by_geometry:
            standard = results.figures.standard(layout)
            by_geometry[id(geometry)] = [
                rung for e, d in LADDER_LAYOUTS for rung in _rungs(standard.get(e, d))
            ]
        models.extend([model] * len(LADDER))
        figures.extend(by_geometry[id(geometry)])
    steps = LADDER * (len(models) // len(LADDER))
    totals = [row[1] for row in figures]
    return {
        "model_id": [m.id for m in models],
        "layout": [step[0] for step in steps],
        "kv_dtype": [step[1] for step in steps],
        "context": [step[2] for step in steps],
        "context_tokens": [step[3] for step in steps],
        "within_max_context": [
            None if m.max_context_tokens is None else step[3] <= m.max_context_tokens
            for m, step in zip(models, steps, strict=True)
        ],
        "computable": [total is not None for total in totals],
        "kv_bytes_per_token": [row[0] for row in figures],
        "kv_steady_state_bytes_per_token": [row[6] for row in figures],
        "total_bytes": totals,
        "growing_bytes": [row[2] for row in figures],
        "window_bytes": [row[3] for row in figures],
        "fixed_bytes": [row[4] for row in figures],
        "total_gib": [None if total is None else total / 2**30 for total in totals],
        "not_computable": [row[5] for row in figures],
    }


_Figures = tuple[Any, int | None, int | None, int | None, int | None, str | None, Any]
"""A ``kv_at_context`` row's figures: bytes per token at the context, total, growing, window and fixed
bytes, why some are missing, and bytes per token once every window is full."""


def _rungs(ladder: Ladder | str) -> list[_Figures]:
    """The figures of each context of a ladder; for a ladder the engine refused, its message at each."""
    if isinstance(ladder, str):
        return [(None, None, None, None, None, ladder, None)] * len(STANDARD_CONTEXTS)
    why, steady = reasons(ladder), ladder.steady_state_bytes_per_token
    return [
        (per_token, total, growing, window, fixed, why, steady)
        for per_token, total, growing, window, fixed in zip(
            ladder.bytes_per_token,
            ladder.total_bytes,
            ladder.growing_bytes,
            ladder.window_bytes,
            ladder.fixed_bytes,
            strict=True,
        )
    ]


def result_columns(result: CacheResult | str) -> Row:
    """The byte columns a computed result fills."""
    if isinstance(result, str):
        return dict.fromkeys(
            (
                "kv_bytes_per_token",
                "kv_steady_state_bytes_per_token",
                "total_bytes",
                "growing_bytes",
                "window_bytes",
                "fixed_bytes",
            ),
            None,
        ) | {"not_computable": result}
    return {
        "kv_bytes_per_token": result.bytes_per_token,
        "kv_steady_state_bytes_per_token": result.steady_state_bytes_per_token,
        "total_bytes": result.total_bytes,
        "growing_bytes": result.growing_bytes,
        "window_bytes": result.window_bytes,
        "fixed_bytes": result.fixed_bytes,
        "not_computable": reasons(result),
    }
