"""Gemma 4 and its unified variant: local sliding-window layers with a wider global layer every few
layers, and the last layers reading earlier layers' caches.

Semantics followed (transformers 5.24.0, ``configuration_gemma4.py``, ``configuration_gemma4_unified.py``,
``configuration_gemma4_assistant.py`` and ``cache_utils.py``); published checkpoints are multimodal
wrappers whose decoder sits under ``text_config``:

- ``layer_types`` decides, else five sliding layers then one full (``(i + 1) % 6 == 0``); the last
  layer is always made full.
- Sliding layers keep ``sliding_window`` tokens (default 512; halved plus one when
  ``use_bidirectional_attention`` is ``"all"``) of ``num_key_value_heads`` (default 4) heads of
  ``head_dim`` (default 256).
- Full layers use ``global_head_dim`` (default 512) and, when ``attention_k_eq_v`` is true (default
  false), ``num_global_key_value_heads`` heads where the config gives it; a ``per_layer_config`` in the
  config (what ``to_dict`` writes) replaces that rule with its own ``head_dim`` and
  ``num_key_value_heads`` per layer.
- The last ``num_kv_shared_layers`` layers (default 0) keep no cache and read the last earlier layer of
  their own type (``kv_sharing_modes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from registry.engine.adapters._common import (
    FULL,
    FULL_OR_SLIDING_LAYER_TYPES,
    SLIDING,
    build,
    every_nth,
    explicit_layer_types,
    num_layers,
)
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import Attention, LayerGroups, Mechanism, Shared, SlidingWindow


def _source(view: ConfigView) -> str:
    return "Gemma4UnifiedTextConfig" if "unified" in view.model_type else "Gemma4TextConfig"


def _window(view: ConfigView) -> int:
    window = view.int_or_default("sliding_window", 512, _source(view))
    return window // 2 + 1 if view.value("use_bidirectional_attention") == "all" else window


def _overrides(view: ConfigView, kinds: list[str]) -> Mapping[int, Mapping[str, Any]]:
    """Each layer's own ``head_dim`` / ``num_key_value_heads``: ``per_layer_config`` when the config has
    one, else the full layers' global sizes."""
    raw = view.value("per_layer_config")
    if raw is not None:
        if not isinstance(raw, Mapping):
            raise ConfigFieldError(view.model_type, "per_layer_config", "must be an object keyed by layer")
        try:
            return {int(k): v for k, v in raw.items() if isinstance(v, Mapping)}
        except ValueError:
            raise ConfigFieldError(
                view.model_type, "per_layer_config", "has a key that is not a layer index"
            ) from None
    layer: dict[str, Any] = {"head_dim": view.int_or_default("global_head_dim", 512, _source(view))}
    if view.value("attention_k_eq_v") is True and view.has("num_global_key_value_heads"):
        layer["num_key_value_heads"] = view.require_int("num_global_key_value_heads")
    return {i: layer for i, kind in enumerate(kinds) if kind == FULL}


def _sharing(view: ConfigView, kinds: list[str]) -> list[int | None]:
    """For each layer, the earlier layer whose cache it reads, or None when it keeps its own."""
    count = len(kinds)
    shared = view.int_or_none("num_kv_shared_layers", minimum=0) or 0
    first = count - min(shared, count)
    source: list[int | None] = [None] * count
    for i in range(first, count):
        producers = [j for j in range(first) if kinds[j] == kinds[i]]
        source[i] = producers[-1] if producers else -1
    return source


def gemma4(view: ConfigView) -> LayerGroups:
    """Sliding and global layers with their own sizes; shared layers keep nothing (module docstring)."""
    count = num_layers(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or every_nth(
        count, 6, FULL, SLIDING
    )
    kinds[-1] = FULL
    overrides = _overrides(view, kinds)
    window = _window(view) if SLIDING in kinds else None
    base_kv = view.int_or_default("num_key_value_heads", 4, _source(view))
    base_head = view.int_or_default("head_dim", 256, _source(view))
    mechanisms: list[Mechanism] = []
    for i, (kind, reads) in enumerate(zip(kinds, _sharing(view, kinds), strict=True)):
        if reads is not None:
            mechanisms.append(Shared(source_layer=None if reads < 0 else reads))
            continue
        layer = ConfigView(
            view.model_type, {"head_dim": base_head, "num_key_value_heads": base_kv, **overrides.get(i, {})}
        )
        size, kv_heads = layer.require_int("head_dim"), layer.require_int("num_key_value_heads")
        if kind == SLIDING and window is not None:
            mechanisms.append(
                SlidingWindow(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size, window=window)
            )
        else:
            mechanisms.append(Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size))
    return build(view, mechanisms)
