"""MiniMax: lightning (linear) attention layers with softmax attention layers between them.

Semantics followed: MiniMax-Text-01 configs (``minimax_text_01``, served by vLLM
``minimax_text_01.py``) list ``attn_type_list`` per layer, **0 = lightning linear attention, 1 =
softmax attention** (vLLM ``ModelConfig`` counts attention layers as ``t == 1``). The transformers port
(``minimax``, ``configuration_minimax.py``) names them in ``layer_types`` (``linear_attention`` /
``full_attention``) and, without either list, alternates starting with a full layer. A lightning layer
keeps one ``(num_attention_heads, head_dim, head_dim)`` state (``linear_attention_state_shape``); a
softmax layer keeps K and V for ``num_key_value_heads`` heads. MiniMax-M2 (``minimax_m2``) is softmax
attention throughout unless its config lists linear layers. ``configuration_minimax.py`` read at commit
008e574391258935f3ecc3035c882e73bbcac419.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import (
    FULL,
    LINEAR,
    build,
    every_nth,
    explicit_layer_types,
    full_attention,
    head_dim,
    num_layers,
)
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import LayerGroups, Mechanism

_KINDS = {"full_attention": FULL, "linear_attention": LINEAR}
_ATTN_TYPES = {0: LINEAR, 1: FULL}


def _from_attn_type_list(view: ConfigView, count: int) -> list[str] | None:
    flags = view.int_list("attn_type_list")
    if flags is None:
        return None
    if len(flags) != count:
        raise ConfigFieldError(
            view.model_type, "attn_type_list", f"lists {len(flags)} layers but num_hidden_layers is {count}"
        )
    for index, flag in enumerate(flags):
        if flag not in _ATTN_TYPES:
            raise ConfigFieldError(
                view.model_type,
                f"attn_type_list[{index}]",
                f"is {flag}; 0 is lightning, 1 is softmax attention",
            )
    return [_ATTN_TYPES[flag] for flag in flags]


def _kinds(view: ConfigView, count: int) -> list[str]:
    kinds = explicit_layer_types(view, _KINDS, count) or _from_attn_type_list(view, count)
    if kinds is not None:
        return kinds
    if view.model_type == "minimax":
        view.notes.append("no layer_types: MiniMaxConfig alternates full and linear layers, full first")
        return every_nth(count, 2, LINEAR, FULL)
    if view.model_type == "minimax_m2":
        return [FULL] * count
    raise ConfigFieldError(
        view.model_type, "attn_type_list", "is required (0 = lightning, 1 = softmax per layer)"
    )


def minimax(view: ConfigView) -> LayerGroups:
    """Lightning state on linear layers, a K/V cache on softmax layers."""
    count = num_layers(view)
    kinds = _kinds(view, count)
    by_kind: dict[str, Mechanism] = {}
    if FULL in kinds:
        by_kind[FULL] = full_attention(view)
    if LINEAR in kinds:
        by_kind[LINEAR] = _state.lightning(view.require_int("num_attention_heads"), head_dim(view))
    return build(view, [by_kind[kind] for kind in kinds])
