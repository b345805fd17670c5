"""Gemma 2 and Gemma 3: local sliding-window layers interleaved with global layers.

Semantics followed (transformers ``configuration_gemma2.py``, ``configuration_gemma3.py``): an explicit
``layer_types`` list decides; otherwise layer ``i`` is global when ``(i + 1) % pattern == 0``. Gemma 2
alternates (pattern 2: layers 0, 2, 4, ... local); Gemma 3 uses ``sliding_window_pattern`` (class default
6: five local layers, then one global). Gemma 3 checkpoints are multimodal wrappers whose decoder fields
sit under ``text_config``. Local layers keep ``sliding_window`` tokens; both kinds use the config's
``num_key_value_heads`` and explicit ``head_dim``. Read at commits 008e574391258935f3ecc3035c882e73bbcac419
(Gemma 2) and 008f5c8c29be84d4721dc6d1e0fcd72300580be4 (Gemma 3).
"""

from __future__ import annotations

from registry.engine.adapters._common import (
    FULL,
    FULL_OR_SLIDING_LAYER_TYPES,
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


def local_global(
    view: ConfigView, *, pattern: int, window: int, source: str, pattern_source: str | None = None
) -> LayerGroups:
    """Sliding-window layers with a global layer every ``pattern`` layers, unless ``layer_types`` says.

    ``pattern`` and ``window`` are the configuration class defaults, used only when the config lacks
    ``sliding_window_pattern`` (or its private spelling ``_sliding_window_pattern``) and ``sliding_window``;
    ``pattern_source`` names where the default pattern comes from when it is not a class field.
    """
    count = num_layers(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count)
    if kinds is None:
        key = view.first_present(("sliding_window_pattern", "_sliding_window_pattern"))
        period = (
            view.require_int(key)
            if key
            else view.int_or_default("sliding_window_pattern", pattern, pattern_source or source)
        )
        kinds = every_nth(count, period, FULL, SLIDING)
    size = view.int_or_default("sliding_window", window, source)
    by_kind: dict[str, Mechanism] = {FULL: full_attention(view), SLIDING: sliding_attention(view, size)}
    return build(view, [by_kind[kind] for kind in kinds])


def gemma2(view: ConfigView) -> LayerGroups:
    """Gemma 2: alternating local (even layers) and global (odd layers); ``Gemma2Config`` window 4096."""
    return local_global(
        view, pattern=2, window=4096, source="Gemma2Config", pattern_source="Gemma 2 alternating-layer"
    )


GEMMA3_TEXT_DEFAULTS = {"num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256}
"""``Gemma3TextConfig``'s defaults for the head fields (transformers ``configuration_gemma3.py``, 5.24.0).
Published Gemma 3 configs may leave them out of ``text_config`` (the 4B checkpoint does), and transformers
then lays the model out with these values."""


def gemma3(view: ConfigView) -> LayerGroups:
    """Gemma 3: five local layers per global one by default; ``Gemma3TextConfig`` window 4096; head
    fields the config leaves out take the class defaults, as transformers does (each one noted)."""
    missing = {name: value for name, value in GEMMA3_TEXT_DEFAULTS.items() if not view.contains(name)}
    if missing:
        notes = view.notes
        view = ConfigView(view.model_type, {**view.fields, **missing})
        view.notes = notes
        view.notes.extend(
            f"{name} is not in the config; the Gemma3TextConfig default {value} applies"
            for name, value in missing.items()
        )
    return local_global(view, pattern=6, window=4096, source="Gemma3TextConfig")
