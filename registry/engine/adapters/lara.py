"""Lara Mini (``lara_mini``): gated DeltaNet layers between sliding-window and full attention layers.

Semantics followed (transformers 5.24.0, ``models/lara_mini/configuration_lara_mini.py`` and
``modeling_lara_mini.py``):

- ``layer_types`` decides each layer: ``linear_attention``, ``sliding_attention`` or ``full_attention``;
  without it ``LaraMiniConfig.__post_init__`` repeats the released pattern of period 5 (linear, sliding,
  linear, full, sliding). ``DynamicCache`` gives the sliding layers a window of ``sliding_window``
  (default 512) and the linear layers one conv and one recurrent state each.
- Attention (``LaraMiniAttention``): ``num_key_value_heads`` (default 4) heads of ``head_dim`` (128) in
  full and sliding layers alike; the full layers only skip the rotary embedding, which the cache does not
  see.
- The linear layers (``LaraMiniGatedDeltaNet``, Qwen 3.5's gated DeltaNet): a convolution of
  ``linear_conv_kernel_dim`` (4) over query, key and value (``2 x linear_num_key_heads x
  linear_key_head_dim + linear_num_value_heads x linear_value_head_dim`` channels; defaults 8, 16 and
  128) in the model dtype, and a ``(value heads, key size, value size)`` state that
  ``torch_chunk_gated_delta_rule`` computes in float32 (the transformers rule for ``gated-deltanet``).
"""

from __future__ import annotations

from registry.engine.adapters._common import (
    FULL,
    LINEAR,
    SLIDING,
    DeltaNetDefaults,
    build,
    explicit_layer_types,
    gated_delta_net,
    num_layers,
)
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import Attention, LayerGroups, Mechanism, SlidingWindow

_SOURCE = "LaraMiniConfig"
_KINDS = {"full_attention": FULL, "sliding_attention": SLIDING, "linear_attention": LINEAR}
_PATTERN = (LINEAR, SLIDING, LINEAR, FULL, SLIDING)
"""The released pattern ``__post_init__`` repeats when the config lists no ``layer_types``."""
_DELTA_NET = DeltaNetDefaults(key_heads=8, value_heads=16)
"""``LaraMiniConfig``'s gated DeltaNet defaults: half Qwen3-Next's heads, the same sizes and kernel."""


def _mechanism(view: ConfigView, kind: str) -> Mechanism:
    """The cache of one kind of layer, with the class defaults for the fields the config leaves out."""
    if kind == LINEAR:
        return gated_delta_net(view, _SOURCE, _DELTA_NET)
    heads = view.int_or_default("num_key_value_heads", 4, _SOURCE)
    size = view.int_or_default("head_dim", 128, _SOURCE)
    if kind == SLIDING:
        window = view.int_or_default("sliding_window", 512, _SOURCE)
        return SlidingWindow(num_kv_heads=heads, head_dim=size, v_head_dim=size, window=window)
    return Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size)


def lara_mini(view: ConfigView) -> LayerGroups:
    """Each layer as ``layer_types`` (or the released pattern) says."""
    count = num_layers(view)
    kinds = explicit_layer_types(view, _KINDS, count) or [_PATTERN[i % len(_PATTERN)] for i in range(count)]
    by_kind = {kind: _mechanism(view, kind) for kind in dict.fromkeys(kinds)}
    return build(view, [by_kind[kind] for kind in kinds])
