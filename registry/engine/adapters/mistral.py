"""Decoders with one optional sliding window applied to every layer.

Semantics followed (transformers ``modeling_mistral.py``, ``modeling_mixtral.py``, ``modeling_phi3.py``,
``modeling_starcoder2.py``): the attention passes ``sliding_window=config.sliding_window`` in every
layer, so a non-null window bounds every layer's cache to the last ``window`` tokens, and a null window
(Mistral 7B v0.2 onward) means full attention. An absent key takes the configuration class default:
4096 for ``MistralConfig``, none for ``MixtralConfig``, ``Phi3Config`` and ``Starcoder2Config``.

Phi-3 configs set a window (2047 for the 4k model) that vLLM may not apply; the layout follows
transformers and says so in a note.
"""

from __future__ import annotations

from registry.engine.adapters._common import build, full_attention, num_layers, sliding_attention
from registry.engine.adapters._config import ConfigView
from registry.engine.layout import Layout

_CLASS_DEFAULT_WINDOW: dict[str, int | None] = {
    "mistral": 4096,
    "mixtral": None,
    "phi3": None,
    "starcoder2": None,
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


def whole_model_window(view: ConfigView) -> Layout:
    """Every layer sliding-window attention when ``sliding_window`` is set, else full attention."""
    window = _window(view)
    count = num_layers(view)
    if window is None:
        return build(view, [full_attention(view)] * count)
    if view.model_type == "phi3":
        view.notes.append("phi3: the window follows transformers; serving engines may run full attention")
    return build(view, [sliding_attention(view, window)] * count)
