"""Decoders with one optional sliding window applied to every layer.

Semantics followed (transformers ``modeling_mistral.py``, ``modeling_mixtral.py``, ``modeling_phi3.py``,
``modeling_starcoder2.py``): the attention passes ``sliding_window=config.sliding_window`` in every
layer, so a non-null window bounds every layer's cache to the last ``window`` tokens, and a null window
(Mistral-7B-Instruct-v0.3, for one) means full attention. An absent key takes the configuration class
default: 4096 for ``MistralConfig``, none for ``MixtralConfig``, ``Phi3Config`` and ``Starcoder2Config``
(configuration files read at commits 001f85b38fb432858ace93f18622f07cec46d874 for Mistral and
008e574391258935f3ecc3035c882e73bbcac419 for the other three). Doge (``modeling_doge.py``, transformers
5.24.0) passes its ``sliding_window`` the same way; ``DogeConfig`` has no window by default.
"""

from __future__ import annotations

from registry.engine.adapters._common import build, full_attention, num_layers, sliding_attention
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import LayerGroups

_CLASS_DEFAULT_WINDOW: dict[str, int | None] = {
    "mistral": 4096,
    "mixtral": None,
    "phi3": None,
    "starcoder2": None,
    "doge": None,
}


def _window(view: ConfigView) -> int | None:
    if view.contains("sliding_window"):
        return view.int_or_none("sliding_window")
    default = _CLASS_DEFAULT_WINDOW.get(view.model_type)
    if default is not None:
        view.notes.append(
            f"sliding_window is not in the config; the {view.model_type} configuration class default "
            f"{default} applies to every layer"
        )
    return default


def whole_model_window(view: ConfigView) -> LayerGroups:
    """Every layer sliding-window attention when ``sliding_window`` is set, else full attention."""
    window = _window(view)
    count = num_layers(view)
    if window is None:
        return build(view, [full_attention(view)] * count)
    return build(view, [sliding_attention(view, window)] * count)
