"""Decoders whose every layer is full attention with one set of KV heads.

Semantics followed (transformers ``src/transformers/models/<type>/modeling_<type>.py``): each decoder
layer's attention projects ``num_key_value_heads`` K and V heads of ``head_dim`` values, where
``head_dim`` is the config's own when given, else ``hidden_size // num_attention_heads``
(``LlamaAttention``: ``getattr(config, "head_dim", config.hidden_size // config.num_attention_heads)``).
This holds for ``llama``, ``granite``, ``olmo2``, ``cohere`` (Command R) and ``glm4_moe`` (GLM-4.5).
``Glm4MoeConfig`` (read at commit 008c726d1655845afb7ca71013b984ceac231e57) defaults to 96 heads and a
hidden size of 4096, which do not divide, so a GLM config needs its explicit ``head_dim`` and one
without it is refused rather than rounded.

Per token and layer the cache is ``2 x num_key_value_heads x head_dim`` values.
"""

from __future__ import annotations

from registry.engine.adapters._common import at_most_max_layers, build, full_attention, num_layers
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import LayerGroups


def plain(view: ConfigView) -> LayerGroups:
    """Every layer full attention (``llama``, ``granite``, ``olmo2``, ``cohere``)."""
    return build(view, [full_attention(view)] * num_layers(view))


def glm4_moe(view: ConfigView) -> LayerGroups:
    """GLM-4.5 (``glm4_moe``): full attention everywhere, plus ``num_nextn_predict_layers`` MTP layers.

    vLLM's ``glm4_moe_mtp.py`` builds each MTP layer as another ``Glm4MoeDecoderLayer``, so an MTP
    layer carries the same attention cache as the stack when speculative decoding uses it.
    """
    attention = full_attention(view)
    mtp = view.int_or_none("num_nextn_predict_layers", minimum=0) or 0
    mtp = at_most_max_layers(view, "num_nextn_predict_layers", mtp)
    return build(view, [attention] * num_layers(view), mtp=[attention] * mtp)
