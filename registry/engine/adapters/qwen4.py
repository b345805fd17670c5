"""Qwen4-Exp (``qwen4_exp`` and its decoder, ``qwen4_exp_text``): gated DeltaNet layers with
indexed-attention layers between them, and per-layer embeddings in some of the DeltaNet layers.

Semantics followed (transformers 5.24.0, ``models/qwen4_exp/configuration_qwen4_exp.py`` and
``modeling_qwen4_exp.py``). The published checkpoints are the multimodal wrapper, whose decoder sits under
``text_config``; fields it leaves out take ``Qwen4ExpTextConfig``'s defaults.

- ``layer_types`` decides each layer: ``linear_attention`` or ``indexed_attention`` (``full_attention``,
  as the released checkpoint writes it, is read as ``indexed_attention``, as ``__post_init__`` does);
  without it, layer ``i`` is indexed when ``(i + 1) % full_attention_interval == 0`` (default 4).
- An indexed layer (``Qwen4ExpTextAttention``, a ``DynamicIndexedLayer`` in the cache) keeps K and V of
  ``num_key_value_heads`` (2) heads of ``head_dim`` (256), and beside them one raw key of
  ``indexer_head_dim`` values per token (``Qwen4ExpTextQSAIndexer`` calls ``cache.update_indexer`` before
  it pools the keys into blocks of ``indexer_compress_ratio`` at each step, so no pooled key is kept).
  The indexer has no default and the model cannot be built without it: the field is required.
- The first indexed layer also keeps every token's position ids: ``Qwen4ExpTextModel.forward`` stores the
  three rows of the multimodal RoPE positions in its ``indexer_position_ids``, int64, for all indexers
  (:attr:`~registry.engine.layers.Attention.cached_position_ids`).
- A linear layer (``Qwen4ExpTextGatedDeltaNet``, Qwen 3.5's) keeps the conv window and the recurrent
  state of :func:`._state.gated_delta_net`, with Qwen 3.5's ``linear_*`` defaults (16 key heads,
  32 value heads, sizes 128, kernel 4).
- The linear layers named in ``ple_layer_ids`` (1-based; linear layers only, as the configuration
  checks) run a per-layer embedding (``Qwen4ExpTextPLELayer``) beside the DeltaNet, which keeps two
  more states in the same cache layer (``number_of_conv_states`` 3): the window of a convolution of
  ``ple_conv_kernel_size`` (4) taps dilated by ``ngram_size`` (3) over ``hc_count x hidden_size``
  (4 x 2048) channels, ``(kernel - 1) x ngram_size`` inputs in the model dtype
  (:func:`._state.dilated_conv`), and the last ``ngram_size - 1`` token ids in int64
  (``Qwen4ExpTextNGramEmbedding``, :func:`._state.token_ids`).
"""

from __future__ import annotations

from dataclasses import replace

from registry.engine.adapters import _state
from registry.engine.adapters._common import (
    LINEAR,
    build,
    every_nth,
    explicit_layer_types,
    gated_delta_net,
    num_layers,
)
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import Attention, LayerGroups, Mechanism, Parallel, Recurrent

_SOURCE = "Qwen4ExpTextConfig"
INDEXED = "indexed"
FIRST_INDEXED = "first indexed"
_KINDS = {"linear_attention": LINEAR, "indexed_attention": INDEXED, "full_attention": INDEXED}
POSITION_ROWS = 3
"""Rows of position ids the first indexed layer keeps per token: the multimodal RoPE's three
(``position_ids[1:]`` of the four rows ``Qwen4ExpTextModel.forward`` builds, or the three it is given)."""
PLE_VARIANT = "ple"
"""The per-layer embedding's state beside the DeltaNet's: its dilated conv window and its token ids."""


def _kinds(view: ConfigView, count: int) -> list[str]:
    """Each layer's kind, from ``layer_types`` or the ``full_attention_interval`` rule."""
    kinds = explicit_layer_types(view, _KINDS, count)
    if kinds is not None:
        return kinds
    interval = view.int_or_default("full_attention_interval", 4, _SOURCE)
    return every_nth(count, interval, INDEXED, LINEAR)


def _ple_layers(view: ConfigView, kinds: list[str]) -> set[int]:
    """The 0-based layers ``ple_layer_ids`` names (1-based), each a linear layer."""
    numbers = view.int_list("ple_layer_ids") or []
    for number in numbers:
        if not 1 <= number <= len(kinds):
            raise ConfigFieldError(
                view.model_type, "ple_layer_ids", f"lists layer {number}, outside 1..{len(kinds)} (1-based)"
            )
        if kinds[number - 1] != LINEAR:
            raise ConfigFieldError(
                view.model_type,
                "ple_layer_ids",
                f"lists layer {number}, which is not a linear_attention layer",
            )
    return {number - 1 for number in numbers}


def _ple(view: ConfigView) -> Recurrent:
    """The per-layer embedding's two states (module docstring)."""
    ngram = view.int_or_default("ngram_size", 3, _SOURCE, minimum=2)
    channels = view.int_or_default("hc_count", 4, _SOURCE) * view.int_or_default("hidden_size", 2048, _SOURCE)
    kernel = view.int_or_default("ple_conv_kernel_size", 4, _SOURCE)
    return Recurrent(
        variant=PLE_VARIANT,
        tensors=(
            _state.dilated_conv("dilated conv", kernel, ngram, channels),
            _state.token_ids("n-gram token ids", ngram - 1),
        ),
    )


def _indexed(view: ConfigView) -> Attention:
    size = view.int_or_default("head_dim", 256, _SOURCE)
    return Attention(
        num_kv_heads=view.int_or_default("num_key_value_heads", 2, _SOURCE),
        head_dim=size,
        v_head_dim=size,
        index_head_dim=view.require_int("indexer_head_dim"),
    )


def qwen4_exp(view: ConfigView) -> LayerGroups:
    """Each layer as ``layer_types`` (or the interval) says; the first indexed layer with the position ids,
    the ``ple_layer_ids`` layers with the per-layer embedding's states beside the DeltaNet's."""
    kinds = _kinds(view, num_layers(view))
    ple = _ple_layers(view, kinds)
    by_kind: dict[str, Mechanism] = {}
    if LINEAR in kinds:
        by_kind[LINEAR] = delta_net = gated_delta_net(view, _SOURCE)
        if ple:
            by_kind[PLE_VARIANT] = Parallel((delta_net, _ple(view)))
    if INDEXED in kinds:
        by_kind[INDEXED] = indexed = _indexed(view)
        by_kind[FIRST_INDEXED] = replace(indexed, cached_position_ids=POSITION_ROWS)
        kinds[kinds.index(INDEXED)] = FIRST_INDEXED
    return build(view, [by_kind[PLE_VARIANT if index in ple else kind] for index, kind in enumerate(kinds)])
