"""Gemma 3n: Gemma-style local/global layers, the last ``num_kv_shared_layers`` reusing earlier caches.

Semantics followed (transformers ``configuration_gemma3n.py``, ``Gemma3nTextConfig.kv_sharing_roles``):
without ``layer_types``, every fifth layer (``(i + 1) % 5 == 0``) is full attention and the rest keep a
``sliding_window`` (class default 512). Layers at index ``num_hidden_layers - num_kv_shared_layers`` and
above are consumers: each reads the cache of the *producer*, the last earlier layer of the same type,
and stores nothing itself. A consumer type with no producer keeps its own cache. Read at commit
018548097621d331be9d60ab6cafdd71cfa67a43.
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
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import LayerGroups, Mechanism, Shared


def _producers(kinds: list[str], first_shared: int) -> dict[str, int]:
    """For each layer kind, the last layer before the shared range (the one whose cache is reused)."""
    producers: dict[str, int] = {}
    for index, kind in enumerate(kinds[:first_shared]):
        producers[kind] = index
    return producers


def gemma3n(view: ConfigView) -> LayerGroups:
    """Local and global layers; the shared tail becomes :class:`Shared` layers pointing at producers."""
    count = num_layers(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or every_nth(
        count, 5, FULL, SLIDING
    )
    window = view.int_or_default("sliding_window", 512, "Gemma3nTextConfig")
    shared = view.int_or_default("num_kv_shared_layers", 15, "Gemma3nTextConfig", minimum=0)
    if shared > count:
        raise ConfigFieldError(
            view.model_type, "num_kv_shared_layers", f"is {shared}, more than num_hidden_layers {count}"
        )
    first_shared = count - shared
    producers = _producers(kinds, first_shared)
    own: dict[str, Mechanism] = {FULL: full_attention(view), SLIDING: sliding_attention(view, window)}
    mechanisms: list[Mechanism] = []
    for index, kind in enumerate(kinds):
        if index >= first_shared and kind in producers:
            mechanisms.append(Shared(source_layer=producers[kind]))
        else:
            mechanisms.append(own[kind])
    return build(view, mechanisms)
