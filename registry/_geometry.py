"""A model record's cache layout: from its verbatim config through the adapters, or from its stated
layer groups. Everything that needs a model's geometry (the check, calc, the database, the site, new)
asks here, so the two ways of stating geometry are read in one place.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from registry._records import LayerGroupSpec, Model
from registry.engine.layout import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroup,
    Layout,
    Mechanism,
    NoCache,
    Recurrent,
    Shared,
    SlidingWindow,
    StateTensor,
)


def model_layout(model: Model) -> Layout:
    """The cache layout of a model record.

    Raises the adapters' ``UnsupportedModelType`` for a config whose ``model_type`` has no adapter, and
    ``ValueError`` (``LayoutError`` or the adapters' field errors) for a config that cannot be laid out.
    """
    if model.config is not None:
        return _layout_from_config_cached(_freeze(model.config))
    assert model.layout is not None  # the record model guarantees config or layout
    return layout_from_specs(model.layout, model_type=model.family or "stated")


def model_fields(model: Model) -> dict[str, int | float]:
    """The named numeric geometry fields a claim's formula may use."""
    from registry.engine.adapters import geometry_fields

    if model.config is not None:
        return dict(geometry_fields(model.config))
    fields: dict[str, int | float] = {}
    if model.layout:
        fields["num_hidden_layers"] = sum(group.layers for group in model.layout)
    return fields


def layout_from_specs(specs: list[LayerGroupSpec], model_type: str = "stated") -> Layout:
    """Turn stated layer groups into a layout; layers are numbered in the order the groups are listed."""
    groups = []
    start = 0
    for spec in specs:
        groups.append(LayerGroup(_mechanism(spec), tuple(range(start, start + spec.layers))))
        start += spec.layers
    return Layout(model_type=model_type, groups=tuple(groups),
                  notes=("the layout is stated by the record (source-reported), not derived from a config",))


def _mechanism(spec: LayerGroupSpec) -> Mechanism:
    v_head_dim = spec.v_head_dim if spec.v_head_dim is not None else spec.head_dim
    if spec.mechanism == "attention":
        return Attention(spec.num_kv_heads, spec.head_dim, v_head_dim)
    if spec.mechanism == "sliding-window":
        return SlidingWindow(spec.num_kv_heads, spec.head_dim, v_head_dim, spec.window)
    if spec.mechanism == "chunked":
        return Chunked(spec.num_kv_heads, spec.head_dim, v_head_dim, spec.chunk)
    if spec.mechanism == "mla":
        return MLA(spec.kv_lora_rank, spec.qk_rope_head_dim, index_head_dim=spec.index_head_dim)
    if spec.mechanism == "recurrent":
        return Recurrent(spec.variant or "recurrent", _state_tensors(spec))
    if spec.mechanism == "compressed":
        inner: MLA | Attention
        if spec.kv_lora_rank is not None or spec.num_kv_heads is None:
            inner = MLA(spec.kv_lora_rank, spec.qk_rope_head_dim)
        else:
            inner = Attention(spec.num_kv_heads, spec.head_dim, v_head_dim)
        return Compressed(spec.variant or "compressed", spec.compress_ratio, inner, spec.window, spec.index_head_dim)
    if spec.mechanism == "shared":
        return Shared(None)
    return NoCache()


def _state_tensors(spec: LayerGroupSpec) -> tuple[StateTensor, ...]:
    """A stated recurrent group: a state of heads × k × v, and a conv window when one is stated."""
    tensors = [StateTensor("state", (spec.state_heads, spec.state_k_dim, spec.state_v_dim), "state")]
    if spec.conv_kernel is not None or spec.conv_channels is not None:
        window = None if spec.conv_kernel is None else spec.conv_kernel - 1
        tensors.append(StateTensor("conv", (spec.conv_channels, window), "conv"))
    return tuple(tensors)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple((key, _freeze(item)) for key, item in value.items())
    if isinstance(value, list):
        return ("__list__", tuple(_freeze(item) for item in value))
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple) and value and value[0] == "__list__":
        return [_thaw(item) for item in value[1]]
    if isinstance(value, tuple):
        return {key: _thaw(item) for key, item in value}
    return value


@lru_cache(maxsize=4096)
def _layout_from_config_cached(frozen: Any) -> Layout:
    from registry.engine.adapters import layout_from_config

    return layout_from_config(_thaw(frozen))
