"""A model record's cache layout: from its verbatim config through the adapters, or from its stated
layer groups. Everything that needs a model's geometry (the check, calc, the database, the site, new)
asks here, so the two ways of stating geometry are read in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar

from registry.engine.adapters import geometry_fields, layer_groups_from_config
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroup,
    LayerGroups,
    Mechanism,
    NoCache,
    Recurrent,
    Shared,
    SlidingWindow,
    StateTensor,
)
from registry.kinds.records import LayerGroupSpec, Model

T = TypeVar("T")


def _per_record(read: Callable[[Model], T]) -> Callable[[Model], T]:
    """``read`` remembered for each recently seen model record, by the record object itself (the memo
    keeps the object, so its id stays its own): a model's page asks for its geometry several times, and
    freezing a large config to look it up by content costs more than the lookup saves. Records are
    frozen, so what was read stays true. (What many pages ask of one model, an index entry keeps:
    :meth:`registry.checker.index.Entry.derived`.)"""
    known: dict[int, tuple[Model, T]] = {}

    @wraps(read)
    def remembered(model: Model) -> T:
        found = known.get(id(model))
        if found is not None and found[0] is model:
            return found[1]
        value = read(model)
        if len(known) >= PER_RECORD_SIZE:
            known.pop(next(iter(known)))
        known[id(model)] = (model, value)
        return value

    return remembered


PER_RECORD_SIZE = 16
"""Model records whose layout and fields are remembered; past this many the oldest is forgotten. Few:
the memo keeps each record, about 18 KB with its config."""


@_per_record
def model_layer_groups(model: Model) -> LayerGroups:
    """The cache layout of a model record.

    Raises the adapters' ``UnsupportedModelType`` for a config whose ``model_type`` has no adapter, and
    ``ValueError`` (``LayerGroupsError`` or the adapters' field errors) for a config that cannot be laid out.
    """
    if model.layout is not None:  # a stated layout is the record's own reading and wins
        return layer_groups_from_specs(model.id, model.layout)
    assert model.config is not None  # the record model guarantees config or layout
    return _layer_groups_from_config_cached(_freeze(model.config))


def model_layer_groups_or_error(model: Model) -> tuple[LayerGroups | None, str | None]:
    """The model's cache layout, or why there is none (an unsupported ``model_type``, a bad field)."""
    try:
        return model_layer_groups(model), None
    except ValueError as error:
        return None, str(error) or type(error).__name__


def model_fields(model: Model) -> dict[str, int | float]:
    """The named numeric geometry fields a claim's formula may use (a new dict each call)."""
    return dict(_model_fields(model))


@_per_record
def _model_fields(model: Model) -> dict[str, int | float]:
    if model.config is not None:
        return dict(geometry_fields(model.config))
    fields: dict[str, int | float] = {}
    if model.layout:
        fields["num_hidden_layers"] = sum(group.layers for group in model.layout)
    return fields


def layer_groups_from_specs(model_type: str, specs: list[LayerGroupSpec]) -> LayerGroups:
    """A model record's explicit ``layout`` as an engine layout: each group on the layers its
    ``layer_indices`` name when it interleaves with others, else numbered in the order given."""
    groups: list[LayerGroup] = []
    first = 0
    for spec in specs:
        indices = sorted(spec.layer_indices) if spec.layer_indices else range(first, first + spec.layers)
        groups.append(LayerGroup(_mechanism(spec), tuple(indices)))
        first += spec.layers
    return LayerGroups(model_type=model_type, groups=tuple(groups))


def _state(spec: LayerGroupSpec) -> Recurrent:
    """A recurrent group's state: ``heads x k x v`` values, and a short convolution of ``kernel - 1``
    positions over ``conv_channels`` when either is stated (shaped as ``adapters._state`` shapes it)."""
    tensors = [StateTensor("state", (spec.state_heads, spec.state_k_dim, spec.state_v_dim))]
    if spec.conv_kernel is not None or spec.conv_channels is not None:
        positions = None if spec.conv_kernel is None else spec.conv_kernel - 1
        tensors.insert(0, StateTensor("conv", (positions, spec.conv_channels), role="conv"))
    return Recurrent(spec.variant or "recurrent", tuple(tensors))


def _mechanism(spec: LayerGroupSpec) -> Mechanism:
    """The engine mechanism a model record's explicit layer group describes; unknown sizes stay None."""
    v_head = spec.v_head_dim or spec.head_dim
    if spec.mechanism == "attention":
        return Attention(spec.num_kv_heads, spec.head_dim, v_head)
    if spec.mechanism == "sliding-window":
        latent = None if spec.kv_lora_rank is None else MLA(spec.kv_lora_rank, spec.qk_rope_head_dim)
        return SlidingWindow(spec.num_kv_heads, spec.head_dim, v_head, spec.window, latent=latent)
    if spec.mechanism == "chunked":
        return Chunked(spec.num_kv_heads, spec.head_dim, v_head, spec.chunk)
    if spec.mechanism == "mla":
        return MLA(spec.kv_lora_rank, spec.qk_rope_head_dim, index_head_dim=spec.index_head_dim)
    if spec.mechanism == "recurrent":
        return _state(spec)
    if spec.mechanism == "compressed":
        inner: MLA | Attention = (
            MLA(spec.kv_lora_rank, spec.qk_rope_head_dim)
            if spec.kv_lora_rank is not None
            else Attention(spec.num_kv_heads, spec.head_dim, v_head)
        )
        return Compressed(
            spec.variant or "compressed", spec.compress_ratio, inner, spec.window, spec.index_head_dim
        )
    if spec.mechanism == "shared":
        return Shared(None)
    return NoCache()


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
def _layer_groups_from_config_cached(frozen: Any) -> LayerGroups:
    return layer_groups_from_config(_thaw(frozen))
