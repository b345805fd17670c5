"""ZAYA: compressed convolutional attention (CCA), attention and a small recurrent state in every layer.

Semantics followed (transformers 5.24.0, ``configuration_zaya.py`` and ``modeling_zaya.py``): every
layer is ``hybrid`` (full attention) or ``hybrid_sliding`` (a window of ``sliding_window`` tokens),
class default ``hybrid`` everywhere, and the cache gives it K and V of ``num_key_value_heads`` heads of
``head_dim`` (class defaults 2 and 128) *and* two states of the CCA block beside them, so each layer is
:class:`~registry.engine.layers.Parallel` attention and state:

- the queries and keys pass through a depthwise then a grouped convolution of ``cca_time0`` and
  ``cca_time1`` taps (class defaults 2 and 2), which together need the last
  ``(cca_time0 - 1) + (cca_time1 - 1)`` inputs of ``(num_attention_heads + num_key_value_heads) x
  head_dim`` channels; transformers keeps exactly those positions (``ZayaCCA.forward`` hands the cache
  ``qk_states[..., -conv_kernel_size:]``), so the window is laid out as a state of that shape, not as a
  ``conv_kernel - 1`` convolution window;
- half of every value head comes from the previous token: the cache keeps that token's delayed value
  projection, ``num_key_value_heads x head_dim / 2`` values.

Both states are held in the model dtype on transformers' reference path.
"""

from __future__ import annotations

from registry.engine.adapters._common import build, explicit_layer_types, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import (
    Attention,
    LayerGroups,
    Mechanism,
    Parallel,
    Recurrent,
    SlidingWindow,
    StateTensor,
)

_FULL, _SLIDING = "full", "sliding"
_KINDS = {"hybrid": _FULL, "hybrid_sliding": _SLIDING}


def _cca(view: ConfigView, heads: int, kv_heads: int, size: int) -> Recurrent:
    positions = (view.require_int("cca_time0") - 1) + (view.require_int("cca_time1") - 1)
    if positions < 1:
        raise ConfigFieldError(
            view.model_type, "cca_time0", "and cca_time1 leave the convolution no past input"
        )
    return Recurrent(
        variant="cca",
        tensors=(
            StateTensor("qk-conv", (positions, (heads + kv_heads) * size)),
            StateTensor("delayed-v", (kv_heads * size // 2,)),
        ),
    )


def zaya(view: ConfigView) -> LayerGroups:
    """Attention (full or windowed) beside the CCA block's states, on every layer."""
    view = class_defaults(view, "ZayaConfig", num_key_value_heads=2, head_dim=128, cca_time0=2, cca_time1=2)
    count = num_layers(view)
    kinds = explicit_layer_types(view, _KINDS, count) or [_FULL] * count
    heads, kv_heads = view.require_int("num_attention_heads"), view.require_int("num_key_value_heads")
    size = view.require_int("head_dim")
    state = _cca(view, heads, kv_heads, size)
    by_kind: dict[str, Mechanism] = {_FULL: Parallel((Attention(kv_heads, size, size), state))}
    if _SLIDING in kinds:
        window = view.require_int("sliding_window")
        by_kind[_SLIDING] = Parallel((SlidingWindow(kv_heads, size, size, window), state))
    return build(view, [by_kind[kind] for kind in kinds])
