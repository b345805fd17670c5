"""The architectural formulas: what one token (or one sequence's state) costs in one layer, per mechanism.

Each formula states itself and cites where it comes from. Engine layouts (:mod:`registry.engine.engines`)
call them with the sizes they actually use; :mod:`registry.engine.compute` adds the results up over layer
groups. Everything is exact: integers, or fractions for sub-byte formats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from registry.engine import trace as tr
from registry.engine.layers import StateTensor
from registry.engine.plan import MissingDimension


def attention_entry_bytes(num_kv_heads: int, head_dim: int, v_head_dim: int, element: Fraction) -> Fraction:
    """Bytes one token costs in one full-attention layer: ``kv_heads × (head_dim + v_head_dim) × bytes``.

    With equal K and V head sizes this is the familiar ``2 × kv_heads × head_dim × bytes`` (K and V
    both cached; Vaswani et al. 2017, GQA: Ainslie et al. 2023). ``v_head_dim = 0`` is a layer whose
    single cached vector serves as both K and V (DeepSeek-V4's shared-KV MQA).
    """
    return num_kv_heads * (head_dim + v_head_dim) * element


def attention_factors(
    num_kv_heads: int, head_dim: int, v_head_dim: int, element: Fraction
) -> list[tr.Factor]:
    """The factors of :func:`attention_entry_bytes` as a person writes them (``2 × 8 × 128 × 2``)."""
    if head_dim == v_head_dim:
        return [2, num_kv_heads, head_dim, element]
    if v_head_dim == 0:
        return [num_kv_heads, head_dim, element]
    return [num_kv_heads, tr.parenthesized_sum([head_dim, v_head_dim]), element]


def mla_entry_bytes(kv_lora_rank: int, qk_rope_head_dim: int, element: Fraction) -> Fraction:
    """Bytes one token costs in one MLA layer: ``(kv_lora_rank + qk_rope_head_dim) × bytes``.

    MLA caches the compressed latent ``c_t`` and the decoupled RoPE key, shared by all heads; K and V
    are rebuilt from the latent at read time (DeepSeek-V2, arXiv:2405.04434, §2.1; DeepSeek-V3,
    arXiv:2412.19437, §2.1.1). There is no per-head K, no separate V, no factor 2.
    """
    return (kv_lora_rank + qk_rope_head_dim) * element


def mla_factors(kv_lora_rank: int, qk_rope_head_dim: int, element: Fraction) -> list[tr.Factor]:
    """``(512 + 64) × 2``; a latent without a RoPE part is written ``512 × 2``."""
    if qk_rope_head_dim == 0:
        return [kv_lora_rank, element]
    return [tr.parenthesized_sum([kv_lora_rank, qk_rope_head_dim]), element]


def mla_expanded_entry_bytes(
    num_heads: int, qk_nope_head_dim: int, qk_rope_head_dim: int, v_head_dim: int, element: Fraction
) -> Fraction:
    """Bytes per token per layer when an implementation caches MLA's K and V *after* expansion.

    ``num_heads × (qk_nope_head_dim + qk_rope_head_dim)`` for K plus ``num_heads × v_head_dim`` for V,
    times bytes: the per-head tensors the latent expands to (what transformers 4.x caches for DeepSeek).
    """
    return num_heads * (qk_nope_head_dim + qk_rope_head_dim + v_head_dim) * element


def indexer_entry_bytes(index_head_dim: int, element: Fraction) -> Fraction:
    """Bytes per token per layer of a sparse-attention indexer key cache: ``index_head_dim × bytes``.

    DeepSeek-V3.2's lightning indexer keeps one key of ``index_head_dim`` values per token, shared by its
    query heads (DeepSeek-V3.2-Exp report, §2.1), next to the MLA latent.
    """
    return index_head_dim * element


def hidden_state_entry_bytes(hidden_state: int, element: Fraction) -> Fraction:
    """Bytes one token costs in a layer that caches its input hidden state in place of K and V:
    ``hidden_size × bytes``.

    Transformer-XL's segment memory (Dai et al. 2019, §3.2) and XLNet's ``mems`` (Yang et al. 2019,
    §2.5; ``XLNetModel.cache_mem`` in transformers' ``modeling_xlnet.py``) keep each layer's input, one
    vector of the model's width per token, and compute K and V from it again at every step.
    """
    return hidden_state * element


def state_tensor_elements(tensor: StateTensor) -> int:
    """Values in one state tensor: the product of its shape; raises when a size is unknown."""
    if any(size is None for size in tensor.shape):
        raise MissingDimension([f"{tensor.name} shape"])
    return math.prod(size for size in tensor.shape if size is not None)


def state_bytes(tensors: Sequence[StateTensor], elements: Sequence[Fraction]) -> Fraction:
    """Bytes of one layer's recurrent state for one sequence: ``Σ prod(shape) × bytes``, fixed in ``t``.

    A recurrent layer (Mamba: Gu & Dao 2023; gated DeltaNet: Yang et al. 2024; KDA) folds the whole
    past into matrices of fixed size plus a short-convolution window, so this does not depend on context.
    """
    return sum(
        (state_tensor_elements(t) * e for t, e in zip(tensors, elements, strict=True)),
        start=Fraction(0),
    )


def window_tokens(context_tokens: int, window: int) -> int:
    """Tokens a sliding-window layer must keep at context ``t``: ``min(t, window)``."""
    return min(context_tokens, window)


def chunk_tokens(context_tokens: int, chunk: int) -> int:
    """Tokens of the current chunk at context ``t``: ``((t - 1) mod chunk) + 1``, at most ``chunk``.

    Chunked attention (Llama 4 ``attention_chunk_size``) attends only within fixed, aligned chunks, so
    only the chunk holding the latest token is needed.
    """
    return (context_tokens - 1) % chunk + 1 if context_tokens > 0 else 0


def compressed_entries(context_tokens: int, ratio: int) -> int:
    """Entries of a sequence-compressed cache at context ``t``: ``⌈t / ratio⌉`` (one per ``ratio`` tokens)."""
    return -(-context_tokens // ratio)
