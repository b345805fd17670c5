"""Jamba: Mamba layers with one attention layer every ``attn_layer_period`` layers.

Semantics followed (transformers ``configuration_jamba.py``, ``JambaConfig.layers_block_type``): layer
``i`` is attention when ``i % attn_layer_period == attn_layer_offset`` (0-based; class defaults 8 and 4,
so layers 4, 12, 20, ...), Mamba otherwise; an explicit ``layers_block_type`` list decides when given.
Mamba state (vLLM ``jamba.py``, ``mamba1_state_shape``) uses ``intermediate_size = mamba_expand x
hidden_size``, ``mamba_d_state`` and ``mamba_d_conv``. Attention layers slide only if ``sliding_window``
is set (``JambaConfig`` defaults it to null). Configuration read at commit
008f5c8c29be84d4721dc6d1e0fcd72300580be4.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import build, full_attention, num_layers, sliding_attention
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import LayerGroups, Mechanism

_SOURCE = "JambaConfig"


LAYER_TYPE_NAMES = {"linear_attention": "mamba", "full_attention": "attention"}
"""transformers 5's names for the mamba and attention layers (``_LEGACY_LAYER_TYPE_REMAP`` in
``configuration_utils.py``, 5.24.0), read as the legacy names the adapters use."""


def block_types(view: ConfigView, count: int, known: tuple[str, ...]) -> list[str] | None:
    """An explicit ``layers_block_type`` list, checked for length and values, or None; transformers 5's
    names are read as the legacy ones (``linear_attention`` is ``mamba``)."""
    listed = view.str_list("layers_block_type")
    if listed is None:
        return None
    types = [LAYER_TYPE_NAMES.get(name, name) for name in listed]
    if len(types) != count:
        raise ConfigFieldError(
            view.model_type,
            "layers_block_type",
            f"lists {len(types)} layers but num_hidden_layers is {count}",
        )
    for index, name in enumerate(types):
        if name not in known:
            raise ConfigFieldError(
                view.model_type,
                f"layers_block_type[{index}]",
                f"is {name!r}; expected one of {', '.join(known)}",
            )
    return types


def _attention(view: ConfigView) -> Mechanism:
    window = view.int_or_none("sliding_window")
    return full_attention(view) if window is None else sliding_attention(view, window)


def jamba(view: ConfigView) -> LayerGroups:
    """Attention layers at ``offset`` modulo ``period``, Mamba layers everywhere else."""
    count = num_layers(view)
    types = block_types(view, count, ("attention", "mamba"))
    if types is None:
        period = view.int_or_default("attn_layer_period", 8, _SOURCE)
        offset = view.int_or_default("attn_layer_offset", 4, _SOURCE, minimum=0)
        types = ["attention" if i % period == offset else "mamba" for i in range(count)]
    by_type: dict[str, Mechanism] = {}
    if "attention" in types:
        by_type["attention"] = _attention(view)
    if "mamba" in types:
        hidden = view.require_int("hidden_size")
        by_type["mamba"] = _state.mamba1(
            intermediate=view.int_or_default("mamba_expand", 2, _SOURCE) * hidden,
            state_size=view.int_or_default("mamba_d_state", 16, _SOURCE),
            conv_kernel=view.int_or_default("mamba_d_conv", 4, _SOURCE),
        )
    return build(view, [by_type[t] for t in types])
