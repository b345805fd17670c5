"""Llama 4: chunked local attention on RoPE layers, full attention on the NoPE layers.

Semantics followed (transformers ``configuration_llama4.py``, ``Llama4TextConfig``; vLLM
``llama4.py``): ``no_rope_layers[i] == 1`` means layer ``i`` **uses** RoPE and attends within its
``attention_chunk_size`` chunk; ``0`` means a NoPE layer with global attention. The list's name reads
the other way round, which is why it is a classic source of swapped layouts. An empty or absent list
defaults to a NoPE layer every ``no_rope_layer_interval`` layers (class default 4). An explicit
``layer_types`` (``chunked_attention`` / ``full_attention``) decides when present. Checkpoints wrap the
decoder in ``text_config``. Without a chunk size, the RoPE layers attend globally too. Read at commit
008e574391258935f3ecc3035c882e73bbcac419.
"""

from __future__ import annotations

from registry.engine.adapters._common import (
    CHUNKED,
    FULL,
    build,
    every_nth,
    explicit_layer_types,
    full_attention,
    head_dim,
    num_kv_heads,
    num_layers,
)
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import Chunked, LayerGroups, Mechanism

_KINDS = {"full_attention": FULL, "chunked_attention": CHUNKED}


def _kinds(view: ConfigView, count: int) -> list[str]:
    explicit = explicit_layer_types(view, _KINDS, count)
    if explicit is not None:
        return explicit
    flags = view.int_list("no_rope_layers")
    if not flags:
        interval = view.int_or_default("no_rope_layer_interval", 4, "Llama4TextConfig")
        return every_nth(count, interval, FULL, CHUNKED)
    if len(flags) < count:
        raise ConfigFieldError(
            view.model_type, "no_rope_layers", f"has {len(flags)} entries for {count} layers"
        )
    return [CHUNKED if flag else FULL for flag in flags[:count]]


def _chunk(view: ConfigView) -> int | None:
    if view.contains("attention_chunk_size"):
        chunk = view.int_or_none("attention_chunk_size")
        if chunk is None:
            view.notes.append("attention_chunk_size is null: the RoPE layers attend to the whole context")
        return chunk
    return view.int_or_default("attention_chunk_size", 8192, "Llama4TextConfig")


def llama4(view: ConfigView) -> LayerGroups:
    """Chunked layers where RoPE is used, full attention on NoPE layers."""
    count = num_layers(view)
    kinds = _kinds(view, count)
    chunk = _chunk(view) if CHUNKED in kinds else None
    full = full_attention(view)
    by_kind: dict[str, Mechanism] = {FULL: full, CHUNKED: full}
    if chunk is not None:
        size = head_dim(view)
        by_kind[CHUNKED] = Chunked(
            num_kv_heads=num_kv_heads(view), head_dim=size, v_head_dim=size, chunk=chunk
        )
    return build(view, [by_kind[kind] for kind in kinds])
