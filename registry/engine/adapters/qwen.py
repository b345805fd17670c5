"""Qwen 2 / 2-MoE / 3 / 3-MoE (optional windowed upper layers) and Qwen3-Next (gated DeltaNet hybrid).

Semantics followed (transformers ``configuration_qwen2.py``; ``Qwen3Config``, ``Qwen2MoeConfig`` and
``Qwen3MoeConfig`` share it): ``sliding_window`` only counts when ``use_sliding_window`` is true (class
default false), and then only layers ``i >= max_window_layers`` slide; Qwen2.5 configs carry
``sliding_window: 131072`` with ``use_sliding_window: false``, which means no window at all.

Qwen3-Next (``configuration_qwen3_next.py``): without ``layer_types``, layer ``i`` is full attention when
``(i + 1) % full_attention_interval == 0`` (default 4), else a gated DeltaNet linear-attention layer
whose state is sized by the ``linear_*`` fields (see :func:`._state.gated_delta_net`).

Both configuration files read at commit 008e574391258935f3ecc3035c882e73bbcac419.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import (
    ATTENTION_LAYER_TYPES,
    FULL,
    LINEAR,
    SLIDING,
    build,
    every_nth,
    explicit_layer_types,
    full_attention,
    num_layers,
    sliding_attention,
)
from registry.engine.adapters._config import ConfigView
from registry.engine.layout import Layout, Mechanism, Recurrent

_WINDOW_KINDS = {k: v for k, v in ATTENTION_LAYER_TYPES.items() if v in (FULL, SLIDING)}
_NEXT_KINDS = {"full_attention": FULL, "linear_attention": LINEAR}


def _window(view: ConfigView) -> int | None:
    """The window, or None when ``use_sliding_window`` is off (whatever ``sliding_window`` says)."""
    if view.value("use_sliding_window") is not True:
        return None
    return view.int_or_none("sliding_window")


def qwen2(view: ConfigView) -> Layout:
    """Full attention, except layers from ``max_window_layers`` on when the window is switched on."""
    count = num_layers(view)
    window = _window(view)
    kinds = explicit_layer_types(view, _WINDOW_KINDS, count)
    if kinds is None:
        first = 0
        if window is not None:
            first = view.int_or_default("max_window_layers", 28, "Qwen2Config", minimum=0)
        kinds = [SLIDING if window is not None and i >= first else FULL for i in range(count)]
    by_kind: dict[str, Mechanism] = {FULL: full_attention(view)}
    if SLIDING in kinds:
        if window is None:
            window = view.require_int("sliding_window")
        by_kind[SLIDING] = sliding_attention(view, window)
    return build(view, [by_kind[kind] for kind in kinds])


def _gated_delta_net(view: ConfigView) -> Recurrent:
    source = "Qwen3NextConfig"
    return _state.gated_delta_net(
        num_k_heads=view.int_or_default("linear_num_key_heads", 16, source),
        num_v_heads=view.int_or_default("linear_num_value_heads", 32, source),
        head_k_dim=view.int_or_default("linear_key_head_dim", 128, source),
        head_v_dim=view.int_or_default("linear_value_head_dim", 128, source),
        conv_kernel=view.int_or_default("linear_conv_kernel_dim", 4, source),
    )


def qwen3_next(view: ConfigView) -> Layout:
    """Gated DeltaNet layers with a full-attention layer every ``full_attention_interval`` layers."""
    count = num_layers(view)
    kinds = explicit_layer_types(view, _NEXT_KINDS, count)
    if kinds is None:
        interval = view.int_or_default("full_attention_interval", 4, "Qwen3NextConfig")
        kinds = every_nth(count, interval, FULL, LINEAR)
    by_kind: dict[str, Mechanism] = {}
    if FULL in kinds:
        by_kind[FULL] = full_attention(view)
    if LINEAR in kinds:
        by_kind[LINEAR] = _gated_delta_net(view)
    return build(view, [by_kind[kind] for kind in kinds])
