"""gpt-oss: alternating sliding-window and full-attention layers.

Semantics followed (transformers ``configuration_gpt_oss.py``): ``layer_types`` names each layer;
without it, even layers (``(i + 1) % 2 != 0``) are ``sliding_attention`` and odd layers
``full_attention``. Sliding layers keep ``sliding_window`` tokens (class default 128); both kinds use
``num_key_value_heads`` heads of the config's explicit ``head_dim`` (64, not ``2880 / 64``). Read at
commit 02b8f42b4240dddea1b27c45d2dc95fb2682f841.
"""

from __future__ import annotations

from registry.engine.adapters._common import (
    FULL,
    SLIDING,
    build,
    every_nth,
    explicit_layer_types,
    full_attention,
    num_layers,
    sliding_attention,
)
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import LayerGroups, Mechanism

_KINDS = {"full_attention": FULL, "sliding_attention": SLIDING}


def gpt_oss(view: ConfigView) -> LayerGroups:
    """Sliding and full layers as ``layer_types`` (or the alternating default) says."""
    count = num_layers(view)
    kinds = explicit_layer_types(view, _KINDS, count) or every_nth(count, 2, FULL, SLIDING)
    by_kind: dict[str, Mechanism] = {FULL: full_attention(view)}
    if SLIDING in kinds:
        by_kind[SLIDING] = sliding_attention(view, view.int_or_default("sliding_window", 128, "GptOssConfig"))
    return build(view, [by_kind[kind] for kind in kinds])
