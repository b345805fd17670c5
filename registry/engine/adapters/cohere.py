"""Cohere: Command R (``cohere``) is full attention; Command R7B / A (``cohere2``) interleaves windows.

Semantics followed (transformers ``configuration_cohere2.py``): without ``layer_types``, layer ``i`` is
full attention when ``(i + 1) % sliding_window_pattern == 0`` (class default 4: three sliding layers,
then one full), sliding otherwise, with ``Cohere2Config`` window 4096. ``cohere`` (``modeling_cohere.py``)
has no window: every layer is full attention. Read at commit 008e574391258935f3ecc3035c882e73bbcac419.
"""

from __future__ import annotations

from registry.engine.adapters._config import ConfigView
from registry.engine.adapters.gemma import local_global
from registry.engine.layers import LayerGroups


def cohere2(view: ConfigView) -> LayerGroups:
    """Three sliding-window layers per full layer unless the config says otherwise."""
    return local_global(view, pattern=4, window=4096, source="Cohere2Config")
