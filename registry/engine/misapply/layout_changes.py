"""LayerGroups changes: the right run with the cache laid out wrongly (GQA heads where MLA caches a latent, V
counted at K's size, a window ignored, a hybrid's state left out)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroups,
    Mechanism,
    NoCache,
    Recurrent,
    SlidingWindow,
    parts_of,
)
from registry.engine.misapply.situation import Change, Side, mechanism_kinds, with_layer_groups
from registry.engine.variants import (
    Fields,
    attention_heads,
    attention_only,
    field_int,
    hidden_head_dim,
    map_layer_groups,
    no_window,
)

KV = Attention | SlidingWindow | Chunked
"""The mechanisms that cache K and V heads."""


def _map_kv(side: Side, change: Callable[[KV], Mechanism]) -> Side | None:
    """``side`` with ``change`` applied to every layer that caches K and V heads."""
    return with_layer_groups(
        side, map_layer_groups(side.layout, lambda m: change(m) if isinstance(m, KV) else m)
    )


def _first_attention(layout: LayerGroups) -> Mechanism | None:
    for group in layout.groups:
        for mechanism in parts_of(group.mechanism):
            if isinstance(mechanism, KV | MLA):
                return mechanism
    return None


def gqa_on_mla(head_size: Callable[[MLA, Fields], int | None], kv_heads: int | None = None) -> Change:
    """The model-level ``num_key_value_heads x head_dim`` GQA formula in place of every MLA latent.

    ``kv_heads`` fixes the head count where a format states its own: a GGUF of an MLA model says
    ``head_count_kv = 1`` (llama.cpp caches the latent as one head), so a GQA formula read off the GGUF
    counts one K and one V head of ``embedding_length / head_count``.
    """

    def change(side: Side) -> Side | None:
        if side.variant not in ("actual", "naive-gqa") or MLA not in mechanism_kinds(side.model):
            return None
        config_kv_heads = field_int(side.fields, "num_key_value_heads")

        def swap(mechanism: Mechanism) -> Mechanism:
            if not isinstance(mechanism, MLA):
                return mechanism
            heads = kv_heads or config_kv_heads or mechanism.num_heads or attention_heads(side.fields)
            size = head_size(mechanism, side.fields)
            return Attention(heads, size, size)

        return with_layer_groups(side, map_layer_groups(side.model, swap))

    return change


def qk_head(mechanism: MLA, fields: Fields) -> int | None:
    """``qk_nope_head_dim + qk_rope_head_dim``: the query/key head size MLA attends with (192 in V3)."""
    nope, rope = mechanism.qk_nope_head_dim, mechanism.qk_rope_head_dim
    return None if nope is None or rope is None else nope + rope


def mla_kv_doubled(side: Side) -> Side | None:
    """The latent and RoPE key counted twice, once as K and once as V."""

    def swap(mechanism: Mechanism) -> Mechanism:
        if isinstance(mechanism, MLA) and mechanism.kv_lora_rank is not None:
            rope = mechanism.qk_rope_head_dim
            size = None if rope is None else mechanism.kv_lora_rank + rope
            return Attention(1, size, size)
        return mechanism

    return with_layer_groups(side, map_layer_groups(side.layout, swap))


def mla_rope_omitted(side: Side) -> Side | None:
    """``layers x kv_lora_rank x bytes``: the latent without its decoupled RoPE key (arXiv:2405.04434)."""
    return with_layer_groups(
        side,
        map_layer_groups(side.layout, lambda m: replace(m, qk_rope_head_dim=0) if isinstance(m, MLA) else m),
    )


def v_at_k_size(side: Side) -> Side | None:
    """``heads x 2 x k_head x bytes`` where V is smaller: ``61 x 2 x 128 x (128 + 64) x 2`` for V3."""
    return _map_kv(side, lambda m: replace(m, v_head_dim=m.head_dim))


def heads_as_kv_heads(side: Side) -> Side | None:
    """``num_attention_heads`` K and V heads per layer where GQA caches ``num_key_value_heads``."""
    heads = attention_heads(side.fields)
    return None if heads is None else _map_kv(side, lambda m: replace(m, num_kv_heads=heads))


def kv_factor_missing(side: Side) -> Side | None:
    """``kv_heads x head_dim x bytes``: the K half of ``2 x kv_heads x head_dim x bytes``."""
    return _map_kv(side, lambda m: replace(m, v_head_dim=0))


def head_dim_from_hidden(side: Side) -> Side | None:
    """``hidden_size / num_attention_heads`` in place of the config's own ``head_dim`` (Qwen3, Gemma)."""
    given, derived = field_int(side.fields, "head_dim"), hidden_head_dim(side.fields)
    if given is None or derived is None or given == derived:
        return None
    return _map_kv(
        side, lambda m: replace(m, head_dim=derived, v_head_dim=derived) if m.head_dim == given else m
    )


def window_ignored(side: Side) -> Side | None:
    """Every sliding or chunked layer charged ``t`` tokens instead of ``min(t, window)``."""
    return with_layer_groups(side, no_window(side.layout, side.fields))


def window_layers_dropped(side: Side) -> Side | None:
    """Only the full-attention layers counted, as if local layers kept nothing."""
    return with_layer_groups(
        side,
        map_layer_groups(side.layout, lambda m: NoCache() if isinstance(m, SlidingWindow | Chunked) else m),
    )


def hybrid_kv_everywhere(side: Side) -> Side | None:
    """Each recurrent layer charged the cache of the model's first attention layer."""
    attention = _first_attention(side.layout)
    if attention is None:
        return None
    return with_layer_groups(
        side, map_layer_groups(side.layout, lambda m: attention if isinstance(m, Recurrent) else m)
    )


def state_ignored(side: Side) -> Side | None:
    """The :func:`~registry.engine.variants.attention_only` layout: recurrent layers keep nothing."""
    return with_layer_groups(side, attention_only(side.layout, side.fields))


def indexer_omitted(side: Side) -> Side | None:
    """The cache without a sparse indexer's key per token (DeepSeek-V3.2's, MiniMax-M3's), every other
    term kept.

    The indexer is sized 0 rather than removed: an engine that lays out an indexed model's latent its
    own way (vLLM's and SGLang's 656-byte fp8 record) keeps that record, so the mistake is
    ``61 x 656`` for DeepSeek-V3.2 in fp8, not the plain latent's ``61 x 576`` (sgl-project/sglang#11309).
    """

    def swap(mechanism: Mechanism) -> Mechanism:
        if isinstance(mechanism, MLA | Compressed | Attention) and mechanism.index_head_dim:
            return replace(mechanism, index_head_dim=0)
        return mechanism

    return with_layer_groups(side, map_layer_groups(side.layout, swap))
