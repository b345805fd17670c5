"""MiniMax: lightning (linear) attention layers with softmax attention layers between them.

Semantics followed: MiniMax-Text-01 configs (``minimax_text_01``, served by vLLM
``minimax_text_01.py``) list ``attn_type_list`` per layer, **0 = lightning linear attention, 1 =
softmax attention** (vLLM ``ModelConfig`` counts attention layers as ``t == 1``). The transformers port
(``minimax``, ``configuration_minimax.py``) names them in ``layer_types`` (``linear_attention`` /
``full_attention``) and, without either list, alternates starting with a full layer. A lightning layer
keeps one ``(num_attention_heads, head_dim, head_dim)`` state (``linear_attention_state_shape``); a
softmax layer keeps K and V for ``num_key_value_heads`` heads. MiniMax-M2 (``minimax_m2``) is softmax
attention throughout unless its config lists linear layers. ``configuration_minimax.py`` read at commit
008e574391258935f3ecc3035c882e73bbcac419. MiniMax-M3 (``minimax_m3_vl_text``, :func:`minimax_m3`) is
softmax attention throughout, its sparse layers with an indexer key cache beside K and V.
"""

from __future__ import annotations

from dataclasses import replace

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
from registry.engine.layers import Attention, LayerGroups, Mechanism

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


M3_SPARSE = "minimax_m3_sparse"
_M3_KINDS = {"full_attention": FULL, M3_SPARSE: M3_SPARSE}
_M3_SOURCE = "MiniMaxM3VLTextConfig"


def _m3_kinds(view: ConfigView, count: int) -> list[str]:
    """``layer_types``, else the hub's ``sparse_attention_config.sparse_attention_freq`` (1 = sparse),
    else every layer full attention, as ``MiniMaxM3VLTextConfig.__post_init__`` resolves them."""
    kinds = explicit_layer_types(view, _M3_KINDS, count)
    if kinds is not None:
        return kinds
    flags = (
        view.sub("sparse_attention_config").int_list("sparse_attention_freq")
        if view.has("sparse_attention_config")
        else None
    )
    if flags is None:
        view.notes.append(f"no layer_types nor sparse_attention_freq: {_M3_SOURCE} makes every layer full")
        return [FULL] * count
    if len(flags) != count:
        raise ConfigFieldError(
            view.model_type,
            "sparse_attention_config.sparse_attention_freq",
            f"lists {len(flags)} layers but num_hidden_layers is {count}",
        )
    return [M3_SPARSE if flag else FULL for flag in flags]


def _m3_index_head_dim(view: ConfigView) -> int:
    """The hub's ``sparse_attention_config.sparse_index_dim`` wins over a flat ``index_head_dim``, as
    ``MiniMaxM3VLTextConfig.__post_init__`` sets it."""
    if view.has("sparse_attention_config"):
        legacy = view.sub("sparse_attention_config").int_or_none("sparse_index_dim")
        if legacy is not None:
            return legacy
    return view.int_or_default("index_head_dim", 128, _M3_SOURCE)


def minimax_m3(view: ConfigView) -> LayerGroups:
    """MiniMax-M3 (``minimax_m3_vl_text``): GQA on every layer, and on its sparse layers the lightning
    indexer's key of ``index_head_dim`` values per token beside K and V.

    ``MiniMaxM3VLAttention`` caches K and V of ``num_key_value_heads`` heads of ``head_dim`` (class
    defaults 4 and 128); a ``minimax_m3_sparse`` layer's ``MiniMaxM3VLIndexer`` projects one key per token
    (``k_proj`` to ``index_head_dim``) into ``MiniMaxM3VLSparseCacheLayer.idx_keys``
    (``modeling_minimax_m3_vl.py``, transformers 5.24.0). The indexer's ``index_n_heads`` score queries
    only and are not cached.
    """
    count = num_layers(view)
    kinds = _m3_kinds(view, count)
    size = view.int_or_default("head_dim", 128, _M3_SOURCE)
    full = Attention(
        num_kv_heads=view.int_or_default("num_key_value_heads", 4, _M3_SOURCE), head_dim=size, v_head_dim=size
    )
    by_kind: dict[str, Mechanism] = {FULL: full}
    if M3_SPARSE in kinds:
        by_kind[M3_SPARSE] = replace(full, index_head_dim=_m3_index_head_dim(view))
    return build(view, [by_kind[kind] for kind in kinds])
