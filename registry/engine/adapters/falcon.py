"""Falcon (7B / 40B / 180B): multi-query or grouped attention chosen by two flags.

Semantics followed (transformers ``modeling_falcon.py``, ``FalconAttention``): with
``new_decoder_architecture`` (40B, 180B) a layer keeps ``num_kv_heads`` K/V heads; otherwise
``multi_query`` (7B; class default true) means a single K/V head, and neither flag means one per
attention head. ``head_dim`` is ``hidden_size // num_attention_heads`` (``FalconConfig.head_dim``).
Older Falcon configs spell the fields ``n_layer``, ``n_head``, ``n_head_kv`` and ``n_embed``
(``FalconConfig.attribute_map`` and its ``n_embed`` alias); both spellings are read. Configuration read
at commit 055855363e97555535aa9d133f53d99ef75bfd9c.
"""

from __future__ import annotations

from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import Attention, LayerGroups


def _kv_heads(view: ConfigView, heads: int) -> int:
    if view.value("new_decoder_architecture") is True:
        if view.first_present(("num_kv_heads", "n_head_kv")) is None:
            view.notes.append(f"num_kv_heads is not in the config; FalconConfig defaults it to {heads}")
            return heads
        return view.require_int("num_kv_heads", "n_head_kv")
    multi_query = view.value("multi_query")
    if multi_query is None:
        view.notes.append("multi_query is not in the config; the FalconConfig default (true) applies")
    return 1 if multi_query in (None, True) else heads


def falcon(view: ConfigView) -> LayerGroups:
    """Every layer full attention with the flag-selected number of K/V heads."""
    layers = num_layers(view, "n_layer")
    heads = view.require_int("num_attention_heads", "n_head")
    hidden = view.require_int("hidden_size", "n_embed")
    if hidden % heads:
        raise ConfigFieldError(
            view.model_type, "hidden_size", f"{hidden} is not a multiple of num_attention_heads {heads}"
        )
    size = hidden // heads
    kv_heads = _kv_heads(view, heads)
    # transformers' FalconAttention (new decoder architecture) repeats K and V to every query head
    # before caching them; the architectural cache, and vLLM's, keep ``num_kv_heads``.
    broadcast = heads if view.value("new_decoder_architecture") is True and kv_heads != heads else None
    attention = Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size, broadcast_heads=broadcast)
    return build(view, [attention] * layers)
