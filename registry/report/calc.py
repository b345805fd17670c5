"""``registry calc``: the engine on a config.json file or a model record, for any context, batch,
dtypes and engine layout. Importable for notebooks: :func:`calc_config` and :func:`calc_model`."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from registry.config_file import read_config as read_bounded
from registry.engine.adapters import layer_groups_from_config
from registry.engine.compute import CacheResult, compute
from registry.engine.layers import LayerGroups
from registry.engine.units import format_bytes, format_int
from registry.results.geometry import model_dtype


def calc_config(
    config: dict[str, Any],
    *,
    context_tokens: int,
    batch: int = 1,
    kv_dtype: str = "bf16",
    state_dtype: str | None = None,
    engine_layout: str = "vllm",
    weights: str | None = None,
) -> CacheResult:
    """The cache of the model described by a config.json mapping; the model dtype (where an engine keeps
    state in it) is the one ``weights`` names when unquantized, else the config's (:func:`model_dtype`)."""
    return _calc(
        layer_groups_from_config(config),
        _Formats(kv_dtype, state_dtype, model_dtype(config, weights), engine_layout),
        context_tokens,
        batch,
    )


def calc_model(
    root: Path,
    model_id: str,
    *,
    context_tokens: int,
    batch: int = 1,
    kv_dtype: str = "bf16",
    state_dtype: str | None = None,
    engine_layout: str = "vllm",
    weights: str | None = None,
) -> CacheResult:
    """The cache of a model record of the registry at ``root`` (``models/deepseek-v3``); the model dtype
    as for :func:`calc_config`, from the record's ``config`` when it has one."""
    # the record model and its loader (pydantic, jsonschema) only when a record is asked for
    from registry.checker.pipeline import load_record  # lazy
    from registry.ids import record_id  # lazy
    from registry.kinds.geometry import model_layer_groups  # lazy
    from registry.kinds.records import Model  # lazy

    wanted = record_id(model_id, "models")
    record = load_record(root, wanted, Model)
    formats = _Formats(kv_dtype, state_dtype, model_dtype(record.config or {}, weights), engine_layout)
    return _calc(model_layer_groups(record), formats, context_tokens, batch)


@dataclass(frozen=True)
class _Formats:
    """The formats and engine layout one calculation asks for."""

    kv_dtype: str
    state_dtype: str | None
    model_dtype: str | None
    engine_layout: str


def _calc(model: LayerGroups, formats: _Formats, context_tokens: int, batch: int) -> CacheResult:
    return compute(
        model,
        context_tokens=context_tokens,
        batch=batch,
        kv_dtype=formats.kv_dtype,
        state_dtype=formats.state_dtype,
        model_dtype=formats.model_dtype,
        engine_layout=formats.engine_layout,
    )


def read_config(path: Path) -> dict[str, Any]:
    """A config.json, read with a record's bounds and its geometry checked
    (:func:`registry.config_file.read_config`)."""
    return read_bounded(path)


def _number(value: int | Fraction | None) -> int | str | None:
    if value is None:
        return None
    fraction = Fraction(value)
    return int(fraction) if fraction.denominator == 1 else str(fraction)


def as_json(result: CacheResult) -> dict[str, Any]:
    """The documented JSON shape of a calculation (exact integers; a fraction of a byte as "a/b")."""
    return {
        "model_type": result.model_type,
        "layout": result.engine_layout,
        "context_tokens": result.context_tokens,
        "batch": result.batch,
        "kv_dtype": result.kv_dtype,
        "state_dtype": result.state_dtype,
        "total_bytes": result.total_bytes,
        "bytes_per_token": _number(result.bytes_per_token),
        "steady_state_bytes_per_token": _number(result.steady_state_bytes_per_token),
        "growing_bytes": result.growing_bytes,
        "window_bytes": result.window_bytes,
        "fixed_bytes": result.fixed_bytes,
        "groups": [
            {
                "mechanism": group.mechanism,
                "variant": group.variant,
                "layers": group.layer_count,
                "layer_indices": list(group.layers),
                "supported": group.supported,
                "reason": group.reason or None,
                "bytes_per_token": _number(group.bytes_per_token),
                "steady_state_bytes_per_token": _number(group.steady_state_bytes_per_token),
                "bytes": group.bytes_at_context,
                "not_computable": list(group.not_computable),
            }
            for group in result.groups
        ],
        "not_computable": list(result.not_computable),
        "unsupported": list(result.unsupported),
        "trace": list(result.trace),
    }


def as_text(result: CacheResult) -> str:
    """The trace, then a breakdown table by layer group: per token at the context, per token once every
    window is full (steady state), and the bytes at the context."""
    lines = [*result.trace, ""]
    header = f"{'group':<28} {'layers':>6} {'per token':>14} {'steady state':>14} {'at context':>18}"
    lines += [header, "-" * len(header)]
    for group in result.groups:
        name = group.mechanism + (f" ({group.variant})" if group.variant else "")
        if not group.supported:
            lines.append(f"{name:<28} {group.layer_count:>6}  not supported: {group.reason}")
            continue
        if group.bytes_at_context is None:
            lines.append(
                f"{name:<28} {group.layer_count:>6}  not computable: {', '.join(group.not_computable)}"
            )
            continue
        per_token, steady = (
            "-" if value is None else format_bytes(value)
            for value in (group.bytes_per_token, group.steady_state_bytes_per_token)
        )
        at_context = format_bytes(group.bytes_at_context)
        lines.append(f"{name:<28} {group.layer_count:>6} {per_token:>14} {steady:>14} {at_context:>18}")
    lines.append("-" * len(header))
    if result.total_bytes is None:
        lines.append(
            "total: not computable" + (f" ({'; '.join(result.unsupported or result.not_computable)})")
        )
    else:
        lines.append(
            f"total: {format_int(result.total_bytes)} B = {format_bytes(result.total_bytes)}"
            f" at {format_int(result.context_tokens)} tokens × batch {result.batch}"
        )
    return "\n".join(lines) + "\n"
