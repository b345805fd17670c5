"""Qwen 2 / 2-MoE / 3 / 3-MoE (optional windowed layers), Qwen3-VL-MoE's language model, and Qwen3-Next
(gated DeltaNet hybrid).

Semantics followed (transformers configuration files): ``sliding_window`` only counts when
``use_sliding_window`` is true (class default false); Qwen2.5 configs carry ``sliding_window: 131072``
with ``use_sliding_window: false``, which means no window at all. With the window on, which layers slide
differs by configuration class:

- ``Qwen2Config`` and ``Qwen3Config``: layers ``i >= max_window_layers`` (class default 28);
- ``Qwen2MoeConfig``: layers with an even index *below* ``max_window_layers``
  (``(i + 1) % 2 and i < max_window_layers``);
- ``Qwen3MoeConfig``: no ``layer_types`` and no ``max_window_layers`` field, so every layer slides
  (in transformers 5.24.0, ``Qwen3MoeAttention`` passes ``config.sliding_window`` in every layer, and
  ``get_layer_types_and_kwargs`` in ``cache_utils.py`` gives every layer a sliding-window cache when the
  config has a window).

An explicit ``layer_types`` list decides over all of these. No released Qwen MoE checkpoint switches the
window on; the conformance tests against transformers 5.24.0 check each rule.

Qwen3-Next (``configuration_qwen3_next.py``): without ``layer_types``, layer ``i`` is full attention when
``(i + 1) % full_attention_interval == 0`` (default 4), else a gated DeltaNet linear-attention layer
whose state is sized by the ``linear_*`` fields (see :func:`._state.gated_delta_net`).

Qwen3.5 and Qwen3.5-MoE (``configuration_qwen3_5.py``, ``configuration_qwen3_5_moe.py``, transformers
5.24.0): the same gated DeltaNet hybrid. The published checkpoints are multimodal wrappers (``qwen3_5``,
``qwen3_5_moe``) whose decoder sits under ``text_config`` (``qwen3_5_text``, ``qwen3_5_moe_text``).
``layer_types`` decides; without it, ``__post_init__`` builds it from ``full_attention_interval``
(default 4) by the Qwen3-Next rule. Fields the config leaves out take the text configuration classes'
defaults, which differ from Qwen3-Next's and between the two: ``head_dim`` 256 and
``num_key_value_heads`` 4 (``Qwen3_5TextConfig``) or 2 (``Qwen3_5MoeTextConfig``); the ``linear_*``
defaults are Qwen3-Next's (16 key heads, 32 value heads, sizes 128, kernel 4).

Qwen3-VL-MoE (``configuration_qwen3_vl_moe.py`` and ``cache_utils.py``, transformers 5.24.0): the cache
is the language model's, read from ``text_config``. ``Qwen3VLMoeTextConfig`` has no ``layer_types`` and no
``sliding_window`` field; its ``__post_init__`` sets ``sliding_window`` to None, but a ``sliding_window`` key
in the config arrives as an extra keyword that the base class sets afterwards, and
``get_layer_types_and_kwargs`` then gives every layer a sliding-window cache, as for ``Qwen3MoeConfig``
(``use_sliding_window`` is not read). The published configs have no such key: every layer is full
attention. An absent ``num_key_value_heads`` is the class default, 16, not the query head count.

Configuration files read at commit 008e574391258935f3ecc3035c882e73bbcac419.
"""

from __future__ import annotations

from collections.abc import Callable

from registry.engine.adapters._common import (
    FULL,
    FULL_OR_SLIDING_LAYER_TYPES,
    LINEAR,
    SLIDING,
    build,
    every_nth,
    explicit_layer_types,
    full_attention,
    gated_delta_net,
    head_dim,
    num_layers,
    sliding_attention,
)
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import Attention, LayerGroups, Mechanism, SlidingWindow

_NEXT_KINDS = {"full_attention": FULL, "linear_attention": LINEAR}
_CONFIG_CLASS = {"qwen2": "Qwen2Config", "qwen3": "Qwen3Config", "qwen2_moe": "Qwen2MoeConfig"}


def _window(view: ConfigView) -> int | None:
    """The window, or None when ``use_sliding_window`` is off (whatever ``sliding_window`` says)."""
    if view.value("use_sliding_window") is not True:
        return None
    return view.int_or_none("sliding_window")


def _window_kinds(view: ConfigView, count: int, window: int | None) -> list[str]:
    """Which layers slide when ``layer_types`` is absent, by configuration class (module docstring)."""
    if window is None:
        return [FULL] * count
    if view.model_type == "qwen3_moe":
        return [SLIDING] * count
    source = _CONFIG_CLASS.get(view.model_type, "Qwen2Config")
    first = view.int_or_default("max_window_layers", 28, source, minimum=0)
    if view.model_type == "qwen2_moe":
        return [SLIDING if i % 2 == 0 and i < first else FULL for i in range(count)]
    return [SLIDING if i >= first else FULL for i in range(count)]


def qwen2(view: ConfigView) -> LayerGroups:
    """Full attention, except the layers the configuration class slides when the window is switched on."""
    count = num_layers(view)
    window = _window(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or _window_kinds(
        view, count, window
    )
    by_kind: dict[str, Mechanism] = {FULL: full_attention(view)}
    if SLIDING in kinds:
        if window is None:
            window = view.require_int("sliding_window")
        by_kind[SLIDING] = sliding_attention(view, window)
    return build(view, [by_kind[kind] for kind in kinds])


def qwen3_vl_moe(view: ConfigView) -> LayerGroups:
    """Full attention in every layer, or a window in every layer when the config names one (module docstring)."""
    count = num_layers(view)
    size = head_dim(view)
    kv_heads = view.int_or_default("num_key_value_heads", 16, "Qwen3VLMoeTextConfig")
    window = view.int_or_none("sliding_window")
    if window is None:
        return build(view, [Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)] * count)
    sliding = SlidingWindow(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size, window=window)
    return build(view, [sliding] * count)


def _delta_net_hybrid(view: ConfigView, source: str, attention: Callable[[], Attention]) -> LayerGroups:
    """Gated DeltaNet layers with ``attention()`` every ``full_attention_interval`` layers, unless
    ``layer_types`` lists each layer (the attention fields are read only when a layer needs them)."""
    count = num_layers(view)
    kinds = explicit_layer_types(view, _NEXT_KINDS, count)
    if kinds is None:
        interval = view.int_or_default("full_attention_interval", 4, source)
        kinds = every_nth(count, interval, FULL, LINEAR)
    by_kind: dict[str, Mechanism] = {}
    if FULL in kinds:
        by_kind[FULL] = attention()
    if LINEAR in kinds:
        by_kind[LINEAR] = gated_delta_net(view, source)
    return build(view, [by_kind[kind] for kind in kinds])


def qwen3_next(view: ConfigView) -> LayerGroups:
    """Gated DeltaNet layers with a full-attention layer every ``full_attention_interval`` layers."""
    return _delta_net_hybrid(view, "Qwen3NextConfig", lambda: full_attention(view))


_QWEN3_5_KV_HEADS = {"Qwen3_5TextConfig": 4, "Qwen3_5MoeTextConfig": 2}


def qwen3_5(view: ConfigView) -> LayerGroups:
    """Qwen3.5 and Qwen3.5-MoE: the Qwen3-Next hybrid with their own class defaults (module docstring)."""
    source = "Qwen3_5MoeTextConfig" if view.model_type.startswith("qwen3_5_moe") else "Qwen3_5TextConfig"

    def attention() -> Attention:
        size = view.int_or_default("head_dim", 256, source)
        kv_heads = view.int_or_default("num_key_value_heads", _QWEN3_5_KV_HEADS[source], source)
        return Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)

    return _delta_net_hybrid(view, source, attention)
