"""Inkling (``inkling_text``) and Inkling 2 (``inkling2_text``, ``inkling2_loop_text``): attention and four
short convolutions side by side in every layer.

Semantics followed (transformers 5.24.0, ``models/inkling/configuration_inkling.py`` and
``modeling_inkling.py``; ``models/inkling2`` and ``models/inkling2_loop``, their configuration and
modeling files):

- ``layer_types``: ``hybrid`` (full attention) or ``hybrid_sliding`` (a window of
  ``sliding_window_size`` tokens: Inkling's default 512, Inkling 2's 1024); without it Inkling slides the
  layers in ``local_layer_ids``, and without that (or always, for Inkling 2, which has no such field)
  every layer whose index ``i`` has ``(i + 1) % 6 != 0`` (``__post_init__`` of each text config). The
  cache gives each layer a ``LinearAttentionAndFullAttentionLayer`` or
  ``LinearAttentionAndSlidingWindowAttentionLayer`` with ``number_of_conv_states = 4``.
- Attention: full layers use ``num_key_value_heads`` (default 8) heads of ``head_dim`` (128), sliding
  layers ``swa_num_key_value_heads`` (Inkling 16, Inkling 2 8) of ``swa_head_dim`` (128).
- The four convolutions of ``conv_kernel_size`` (default 4; checkpoints say ``sconv_kernel_size``):
  over K and V before attention (``k_sconv``, ``v_sconv``: K/V heads x head size channels each) and over
  the attention and MLP outputs (``attn_sconv``, ``mlp_sconv``: ``hidden_size`` channels each).
  ``InklingShortConvolution`` casts its input to float32 before the cache sees it, and so do Inkling 2's
  ``Inkling2ShortConvolution`` and the ``Inkling2DynamicShortConvolution`` of its full layers' K and V,
  so these conv states are float32 whatever the model dtype (the transformers rule
  :data:`REFERENCE_CONV_FP32`).
- Inkling 2 with a loop (``inkling2_loop_text``): the layers ``[loop_layer_index_start,
  loop_layer_index_end)`` (``loop_config``'s ``core_start`` and ``core_end``; defaults 6 and 18) run
  ``loop_num_passes`` times (``num_passes``; default 3). ``Inkling2LoopTextModel.forward`` appends a
  copy of those layers' cache layers for every pass after the first, after the model's own, so the cache
  has ``num_hidden_layers + (passes - 1) x (end - start)`` layers, laid out here in that order.
- The multi-token-prediction layers (``num_mtp_layers``) are not built by transformers
  (``InklingPreTrainedModel`` ignores the ``model.mtp`` weights), so they are not laid out.
"""

from __future__ import annotations

from dataclasses import dataclass

from registry.engine.adapters._common import at_most_max_layers, build, explicit_layer_types, num_layers
from registry.engine.adapters._config import ConfigValueError, ConfigView
from registry.engine.layers import Attention, LayerGroups, Parallel, Recurrent, SlidingWindow, StateTensor

SCONV = "inkling-sconv"
"""The variant of Inkling's short-convolution state (its four conv windows)."""
SCONV2 = "inkling2-sconv"
"""The variant of Inkling 2's short-convolution state (the same four windows, its own modeling code)."""
_KNOWN = {"hybrid": "full", "hybrid_sliding": "sliding"}


@dataclass(frozen=True)
class _Family:
    """What differs between the Inkling configuration classes: the defaults and the state's variant."""

    source: str
    variant: str
    window: int
    swa_kv_heads: int
    reads_local_layer_ids: bool


_INKLING = _Family("InklingTextConfig", SCONV, 512, 16, reads_local_layer_ids=True)
_INKLING2 = _Family("Inkling2TextConfig", SCONV2, 1024, 8, reads_local_layer_ids=False)
_INKLING2_LOOP = _Family("Inkling2LoopTextConfig", SCONV2, 1024, 8, reads_local_layer_ids=False)


def _sliding_flags(view: ConfigView, count: int, family: _Family) -> list[bool]:
    """Which layers slide: ``layer_types``, else ``local_layer_ids`` (Inkling), else all but every sixth."""
    kinds = explicit_layer_types(view, _KNOWN, count)
    if kinds is not None:
        return [kind == "sliding" for kind in kinds]
    local = view.int_list("local_layer_ids") if family.reads_local_layer_ids else None
    if local is not None:
        return [index in set(local) for index in range(count)]
    return [(index + 1) % 6 != 0 for index in range(count)]


def _convolutions(variant: str, kernel: int, kv_channels: int, hidden: int) -> Recurrent:
    """The four conv windows of one layer, each ``(kernel - 1, channels)`` in the engine's shape."""
    return Recurrent(
        variant=variant,
        tensors=(
            StateTensor("k_sconv", (kernel - 1, kv_channels), role="conv"),
            StateTensor("v_sconv", (kernel - 1, kv_channels), role="conv"),
            StateTensor("attn_sconv", (kernel - 1, hidden), role="conv"),
            StateTensor("mlp_sconv", (kernel - 1, hidden), role="conv"),
        ),
    )


def _layers(view: ConfigView, family: _Family) -> list[Parallel]:
    """Every model layer: full or sliding attention beside its four convolution windows."""
    count = num_layers(view)
    hidden = view.require_int("hidden_size")
    kernel_field = "sconv_kernel_size" if view.has("sconv_kernel_size") else "conv_kernel_size"
    kernel = view.int_or_default(kernel_field, 4, family.source, minimum=2)
    window = view.int_or_default("sliding_window_size", family.window, family.source)
    layers: list[Parallel] = []
    for sliding in _sliding_flags(view, count, family):
        if sliding:
            heads = view.int_or_default("swa_num_key_value_heads", family.swa_kv_heads, family.source)
            size = view.int_or_default("swa_head_dim", 128, family.source)
            attention: Attention | SlidingWindow = SlidingWindow(
                num_kv_heads=heads, head_dim=size, v_head_dim=size, window=window
            )
        else:
            heads = view.int_or_default("num_key_value_heads", 8, family.source)
            size = view.int_or_default("head_dim", 128, family.source)
            attention = Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size)
        layers.append(Parallel((attention, _convolutions(family.variant, kernel, heads * size, hidden))))
    return layers


def inkling(view: ConfigView) -> LayerGroups:
    """Inkling: every layer full or sliding attention beside its four convolution windows."""
    return build(view, _layers(view, _INKLING))


def inkling2(view: ConfigView) -> LayerGroups:
    """Inkling 2: Inkling's layers with its own defaults and no ``local_layer_ids``."""
    return build(view, _layers(view, _INKLING2))


def _loop_field(view: ConfigView, flat: str, nested: str, default: int) -> int:
    """A loop setting: ``loop_config[nested]`` over the flat ``flat`` field, as ``__post_init__`` reads them."""
    if view.value("loop_config") is not None:
        inner = view.sub("loop_config")
        if inner.has(nested):
            return inner.require_int(nested)
    return view.int_or_default(flat, default, _INKLING2_LOOP.source)


def inkling2_loop(view: ConfigView) -> LayerGroups:
    """Inkling 2 with a loop: the model's layers, then one copy of the looped layers per further pass."""
    layers = _layers(view, _INKLING2_LOOP)
    start = _loop_field(view, "loop_layer_index_start", "core_start", 6)
    end = _loop_field(view, "loop_layer_index_end", "core_end", 18)
    passes = _loop_field(view, "loop_num_passes", "num_passes", 3)
    if not start <= end <= len(layers):
        raise ConfigValueError(
            view.model_type,
            "loop_layer_index_end",
            f"is {end} with the loop starting at {start}; the looped layers must lie within the "
            f"{len(layers)} layers",
        )
    total = len(layers) + (passes - 1) * (end - start)
    at_most_max_layers(view, "loop_num_passes", total)
    view.notes.append(
        f"layers {start} to {end - 1} run {passes} times (loop_config); transformers gives every pass after "
        f"the first its own copy of their cache layers after the model's {len(layers)}, so the cache has "
        f"{total} layers"
    )
    return build(view, [*layers, *layers[start:end] * (passes - 1)])
