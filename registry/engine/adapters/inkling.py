"""Inkling (``inkling_text``): attention and four short convolutions side by side in every layer.

Semantics followed (transformers 5.24.0, ``models/inkling/configuration_inkling.py`` and
``modeling_inkling.py``):

- ``layer_types``: ``hybrid`` (full attention) or ``hybrid_sliding`` (a window of
  ``sliding_window_size`` tokens, default 512); without it the layers in ``local_layer_ids`` slide, and
  without that every layer whose index ``i`` has ``(i + 1) % 6 != 0`` does
  (``InklingTextConfig.__post_init__``). The cache gives each layer a
  ``LinearAttentionAndFullAttentionLayer`` or ``LinearAttentionAndSlidingWindowAttentionLayer`` with
  ``number_of_conv_states = 4``.
- Attention (``InklingAttention``): full layers use ``num_key_value_heads`` (default 8) heads of
  ``head_dim`` (128), sliding layers ``swa_num_key_value_heads`` (16) of ``swa_head_dim`` (128).
- The four convolutions of ``conv_kernel_size`` (default 4; checkpoints say ``sconv_kernel_size``):
  over K and V before attention (``k_sconv``, ``v_sconv``: K/V heads x head size channels each) and over
  the attention and MLP outputs (``attn_sconv``, ``mlp_sconv``: ``hidden_size`` channels each).
  ``InklingShortConvolution`` casts its input to float32 before the cache sees it, so these conv states
  are float32 whatever the model dtype (the transformers rule :data:`REFERENCE_CONV_FP32`).
- The multi-token-prediction layers (``num_mtp_layers``) are not built by transformers
  (``InklingPreTrainedModel`` ignores the ``model.mtp`` weights), so they are not laid out.
"""

from __future__ import annotations

from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import Attention, LayerGroups, Parallel, Recurrent, SlidingWindow, StateTensor

_SOURCE = "InklingTextConfig"
SCONV = "inkling-sconv"
"""The variant of Inkling's short-convolution state (its four conv windows)."""
_KNOWN = ("hybrid", "hybrid_sliding")


def _sliding_flags(view: ConfigView, count: int) -> list[bool]:
    """Which layers slide: ``layer_types``, else ``local_layer_ids``, else all but every sixth."""
    names = view.str_list("layer_types")
    if names is not None:
        if len(names) != count:
            raise ConfigFieldError(
                view.model_type, "layer_types", f"lists {len(names)} layers but num_hidden_layers is {count}"
            )
        for index, name in enumerate(names):
            if name not in _KNOWN:
                raise ConfigFieldError(
                    view.model_type, f"layer_types[{index}]", f"is {name!r}; this adapter knows {_KNOWN}"
                )
        return [name == "hybrid_sliding" for name in names]
    local = view.int_list("local_layer_ids")
    if local is not None:
        return [index in set(local) for index in range(count)]
    return [(index + 1) % 6 != 0 for index in range(count)]


def _convolutions(kernel: int, kv_channels: int, hidden: int) -> Recurrent:
    """The four conv windows of one layer, each ``(kernel - 1, channels)`` in the engine's shape."""
    return Recurrent(
        variant=SCONV,
        tensors=(
            StateTensor("k_sconv", (kernel - 1, kv_channels), role="conv"),
            StateTensor("v_sconv", (kernel - 1, kv_channels), role="conv"),
            StateTensor("attn_sconv", (kernel - 1, hidden), role="conv"),
            StateTensor("mlp_sconv", (kernel - 1, hidden), role="conv"),
        ),
    )


def inkling(view: ConfigView) -> LayerGroups:
    """Every layer: full or sliding attention beside its four convolution windows."""
    count = num_layers(view)
    hidden = view.require_int("hidden_size")
    kernel_field = "sconv_kernel_size" if view.has("sconv_kernel_size") else "conv_kernel_size"
    kernel = view.int_or_default(kernel_field, 4, _SOURCE, minimum=2)
    window = view.int_or_default("sliding_window_size", 512, _SOURCE)
    layers: list[Parallel] = []
    for sliding in _sliding_flags(view, count):
        if sliding:
            heads = view.int_or_default("swa_num_key_value_heads", 16, _SOURCE)
            size = view.int_or_default("swa_head_dim", 128, _SOURCE)
            attention: Attention | SlidingWindow = SlidingWindow(
                num_kv_heads=heads, head_dim=size, v_head_dim=size, window=window
            )
        else:
            heads = view.int_or_default("num_key_value_heads", 8, _SOURCE)
            size = view.int_or_default("head_dim", 128, _SOURCE)
            attention = Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size)
        layers.append(Parallel((attention, _convolutions(kernel, heads * size, hidden))))
    return build(view, layers)
