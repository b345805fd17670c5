"""CPM-Ant (``cpmant``): full attention whose cache starts with the model's own prompt tokens.

Semantics followed (transformers 5.24.0, ``models/cpmant/configuration_cpmant.py`` and
``modeling_cpmant.py``): ``CpmAntModel.forward`` prepends ``prompt_length`` (default 32) prompt tokens to
every input before the first layer, and every layer's ``cache.update`` keeps their K and V with the
sequence's own, so each layer holds ``prompt_length + t`` tokens: the prompt's part is fixed per sequence
(:attr:`~registry.engine.layers.Attention.prefix_tokens`). Attention is MHA: ``num_attention_heads``
(default 32) heads of ``dim_head`` (default 128) for K and V alike.
"""

from __future__ import annotations

from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import Attention, LayerGroups

_SOURCE = "CpmAntConfig"


def cpmant(view: ConfigView) -> LayerGroups:
    """Every layer: the prompt's K and V, then every token's."""
    count = num_layers(view)
    heads = view.int_or_default("num_attention_heads", 32, _SOURCE)
    size = view.int_or_default("dim_head", 128, _SOURCE)
    prompt = view.int_or_default("prompt_length", 32, _SOURCE, minimum=0)
    attention = Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size, prefix_tokens=prompt or None)
    return build(view, [attention] * count)
