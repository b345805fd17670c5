"""Reformer (``reformer``): every layer keeps the hidden states of past tokens, not K and V, and its LSH
layers also the hash buckets of each token.

Semantics followed (transformers 5.24.0, ``models/reformer/configuration_reformer.py`` and
``modeling_reformer.py``):

- ``attn_layers`` (default ``local, lsh`` three times) names each layer's attention. With ``use_cache``,
  ``ReformerAttention.forward`` hands ``ReformerDynamicCache.update`` the layer's input (after its layer
  norm) of every token, ``(batch, tokens, hidden_size)`` in the model dtype, and the cache concatenates
  them in ``states_cache``: ``hidden_size`` (default 256) values per token in every layer
  (:attr:`~registry.engine.layers.Attention.hidden_state`); K and V are computed from them again.
- A local layer attends within chunks of ``local_attn_chunk_length`` (default 64) tokens and the
  ``local_num_chunks_before`` (default 1) chunks ahead of its own, so a next token reads at most
  ``(1 + local_num_chunks_before) × local_attn_chunk_length`` past tokens; transformers keeps every one
  all the same (``_retrieve_relevant_hidden_states`` picks the chunks it reads from them), so the layer
  is a window kept whole (:attr:`~registry.engine.layers.SlidingWindow.cached_whole`). The architectural
  minimum counts whole chunks, up to one chunk more than the least a next token reads.
- An LSH layer attends across the whole context, and keeps beside the hidden states the bucket each
  token was hashed to by each of ``num_hashes`` (default 1) hashes for each of ``num_attention_heads``
  (default 12) heads: ``(batch, heads, num_hashes, tokens)`` int64 in ``buckets_cache``
  (:attr:`~registry.engine.layers.Attention.buckets`). It hashes only once its input reaches
  ``lsh_attn_chunk_length`` (default 64) tokens: decoding, the step at which the context makes that many
  tokens hashes all of them; a single forward pass hashes when its input, padded to a multiple of the
  chunk lengths' least common multiple, is longer than one chunk. Until then it keeps no buckets
  (:attr:`~registry.engine.layers.Attention.buckets_from`); a forward pass of exactly one chunk (padded
  to no more) keeps none, where decoding to the same length keeps them. Buckets first hashed while
  decoding are concatenated onto the empty float32 tensor the layer kept until then, and ``torch.cat``
  promotes them to float32 (4 B) for the rest of the sequence; the engine counts the int64 that a prompt
  longer than one LSH chunk leaves, and says so.
"""

from __future__ import annotations

from registry.engine.adapters._common import at_most_max_layers, build
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import Attention, LayerGroups, Mechanism, SlidingWindow

_KINDS = ("local", "lsh")


def _layer_kinds(view: ConfigView) -> list[str]:
    kinds = view.str_list("attn_layers")
    if kinds is None:
        view.notes.append(
            "attn_layers is not in the config; the ReformerConfig default local, lsh × 3 applies"
        )
        kinds = ["local", "lsh"] * 3
    for index, kind in enumerate(kinds):
        if kind not in _KINDS:
            raise ConfigFieldError(
                view.model_type, f"attn_layers[{index}]", f"is {kind!r}, not 'local' or 'lsh'"
            )
    at_most_max_layers(view, "attn_layers", len(kinds))
    if not kinds:
        raise ConfigFieldError(view.model_type, "attn_layers", "is empty: a model has at least one layer")
    return kinds


def reformer(view: ConfigView) -> LayerGroups:
    """Every layer: its input hidden state of each token; LSH layers their buckets beside it."""
    fields = class_defaults(
        view,
        "ReformerConfig",
        hidden_size=256,
        num_attention_heads=12,
        attention_head_size=64,
        num_hashes=1,
        local_attn_chunk_length=64,
        local_num_chunks_before=1,
        lsh_attn_chunk_length=64,
    )
    hidden = fields.require_int("hidden_size")
    heads, size = fields.require_int("num_attention_heads"), fields.require_int("attention_head_size")
    local_chunk = fields.require_int("local_attn_chunk_length")
    before = fields.require_int("local_num_chunks_before", minimum=0)
    lsh_chunk = fields.require_int("lsh_attn_chunk_length")
    hashes = fields.require_int("num_hashes")
    local = SlidingWindow(
        heads, size, size, window=(1 + before) * local_chunk, cached_whole=True, hidden_state=hidden
    )
    lsh = Attention(heads, size, size, hidden_state=hidden, buckets=heads * hashes, buckets_from=lsh_chunk)
    kinds = _layer_kinds(view)
    layers: list[Mechanism] = [local if kind == "local" else lsh for kind in kinds]
    view.notes.append(
        "each layer caches its input hidden states in place of K and V, which it computes from them again "
        "at every step"
    )
    if "lsh" in kinds:
        view.notes.append(
            f"LSH layers keep int64 hash buckets from {lsh_chunk} tokens on; transformers keeps them in "
            "float32 when they are first hashed while decoding (a prompt of at most one LSH chunk)"
        )
    return build(view, layers)
