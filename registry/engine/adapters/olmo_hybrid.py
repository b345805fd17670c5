"""OLMo Hybrid: gated DeltaNet layers with a full-attention layer every fourth layer.

Semantics followed (transformers 5.24.0, ``configuration_olmo_hybrid.py`` and
``modeling_olmo_hybrid.py``): without ``layer_types``, layer ``i`` is full attention when
``i % 4 == 3`` and linear attention otherwise, and when that leaves no attention layer (fewer than four
layers) the last layer is made full attention. A linear layer is a gated DeltaNet whose short
convolution runs over ``2 x key_dim + value_dim`` channels (q, k and v) and whose state is
``(linear_num_value_heads, linear_key_head_dim, linear_value_head_dim)``, the shapes of
:func:`._state.gated_delta_net`. The ``linear_*`` sizes default from the attention ones:
heads = ``num_attention_heads``, ``linear_key_head_dim = int(0.75 x hidden_size / key heads)``,
``linear_value_head_dim = 2 x linear_key_head_dim``; conv kernel 4. Attention layers use
``num_key_value_heads`` (MHA when absent) and ``head_dim`` (``hidden_size // heads`` when absent).
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import (
    FULL,
    LINEAR,
    build,
    explicit_layer_types,
    full_attention,
    num_layers,
)
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import LayerGroups, Mechanism, Recurrent

_KINDS = {"full_attention": FULL, "linear_attention": LINEAR}
_SOURCE = "OlmoHybridConfig"


def _kinds(view: ConfigView, count: int) -> list[str]:
    kinds = explicit_layer_types(view, _KINDS, count)
    if kinds is not None:
        return kinds
    kinds = [FULL if i % 4 == 3 else LINEAR for i in range(count)]
    if FULL not in kinds:
        kinds[-1] = FULL
    return kinds


def _defaulted(view: ConfigView, name: str, default: int, rule: str) -> int:
    """A ``linear_*`` size, or its default derived from another field (noted)."""
    if view.has(name):
        return view.require_int(name)
    view.notes.append(f"{name} is not in the config; {_SOURCE} derives it as {rule} = {default}")
    return default


def _gated_delta_net(view: ConfigView) -> Recurrent:
    heads = view.require_int("num_attention_heads")
    k_heads = _defaulted(view, "linear_num_key_heads", heads, "num_attention_heads")
    v_heads = _defaulted(view, "linear_num_value_heads", heads, "num_attention_heads")
    k_dim = _defaulted(
        view,
        "linear_key_head_dim",
        int(0.75 * view.require_int("hidden_size") / k_heads),
        "int(0.75 x hidden_size / linear_num_key_heads)",
    )
    v_dim = _defaulted(view, "linear_value_head_dim", 2 * k_dim, "2 x linear_key_head_dim")
    return _state.gated_delta_net(
        num_k_heads=k_heads,
        num_v_heads=v_heads,
        head_k_dim=k_dim,
        head_v_dim=v_dim,
        conv_kernel=view.int_or_default("linear_conv_kernel_dim", 4, _SOURCE),
    )


def olmo_hybrid(view: ConfigView) -> LayerGroups:
    """Gated DeltaNet layers and full-attention layers, by ``layer_types`` or the class rule."""
    kinds = _kinds(view, num_layers(view))
    by_kind: dict[str, Mechanism] = {}
    if FULL in kinds:
        by_kind[FULL] = full_attention(view)
    if LINEAR in kinds:
        by_kind[LINEAR] = _gated_delta_net(view)
    return build(view, [by_kind[kind] for kind in kinds])
