"""Kimi Linear: Kimi Delta Attention (recurrent) layers with MLA full-attention layers between them.

Semantics followed (vLLM ``vllm/transformers_utils/configs/kimi_linear.py``, ``KimiLinearConfig``):
``linear_attn_config.kda_layers`` and ``full_attn_layers`` list layers **1-based**
(``is_kda_layer(i)`` tests ``(i + 1) in kda_layers``). A layer not listed as KDA is an MLA layer
(``kimi_linear.py``: ``KimiMLAAttention``). When ``full_attn_layers`` is given, the two lists must
together name every layer once, so a list written 0-based is caught instead of silently shifting every
layer by one. KDA state shapes follow
``MambaStateShapeCalculator.kda_state_shape`` with ``num_heads``, ``head_dim`` and
``short_conv_kernel_size`` from ``linear_attn_config``. ``KimiLinearConfig`` read at commit
6b06599499a6f9d6f140ae26ff95b3cbd2e7e75c.

transformers 5 writes the same model flattened (``KimiLinearConfig.__post_init__`` in
``configuration_kimi_linear.py``, 5.24.0): ``layer_types``, one 0-based entry per layer,
``linear_attention`` (KDA) or ``full_attention`` (MLA), and ``linear_num_heads``, ``linear_head_dim``
and ``linear_conv_kernel_dim`` for ``num_heads``, ``head_dim`` and ``short_conv_kernel_size``. Both
forms are read, with ``KimiLinearConfig``'s precedence: ``layer_types`` over the lists, the nested
dimensions over the flat ones.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import MLA, LayerGroups, Mechanism, Recurrent


def _zero_based(view: ConfigView, name: str, count: int) -> set[int]:
    """The 1-based layer numbers in ``linear_attn_config[name]`` as 0-based indices, range-checked."""
    numbers = view.int_list(name)
    if numbers is None:
        raise ConfigFieldError(view.model_type, name, "is required (a list of 1-based layer numbers)")
    for number in numbers:
        if not 1 <= number <= count:
            raise ConfigFieldError(
                view.model_type,
                name,
                f"lists layer {number}, outside 1..{count} (these lists are 1-based)",
            )
    return {number - 1 for number in numbers}


def _kda_indices(linear: ConfigView, count: int) -> set[int]:
    """0-based KDA layers; when ``full_attn_layers`` is given the two lists must partition the stack."""
    kda = _zero_based(linear, "kda_layers", count)
    if not linear.contains("full_attn_layers"):
        return kda
    full = _zero_based(linear, "full_attn_layers", count)
    if kda & full or len(kda | full) != count:
        raise ConfigFieldError(
            linear.model_type,
            "kda_layers",
            f"and full_attn_layers must together list each of the {count} layers once (1-based); "
            f"they list {len(kda)} + {len(full)} layers with {len(kda & full)} in both",
        )
    return kda


_FLAT_TYPES = {"linear_attention": True, "full_attention": False}
"""transformers 5's ``layer_types`` names: is the layer KDA."""


def _flat_kda_indices(view: ConfigView, count: int) -> set[int]:
    """0-based KDA layers from transformers 5's ``layer_types`` (one entry per layer)."""
    types = view.str_list("layer_types")
    if types is None:
        raise ConfigFieldError(
            view.model_type,
            "linear_attn_config",
            "is required, or transformers 5's layer_types with linear_num_heads, linear_head_dim and "
            "linear_conv_kernel_dim",
        )
    if len(types) != count:
        raise ConfigFieldError(
            view.model_type, "layer_types", f"lists {len(types)} layers but num_hidden_layers is {count}"
        )
    for index, name in enumerate(types):
        if name not in _FLAT_TYPES:
            raise ConfigFieldError(
                view.model_type,
                f"layer_types[{index}]",
                f"is {name!r}; expected linear_attention or full_attention",
            )
    return {index for index, name in enumerate(types) if _FLAT_TYPES[name]}


_DIMENSIONS = (
    ("num_heads", "linear_num_heads"),
    ("head_dim", "linear_head_dim"),
    ("short_conv_kernel_size", "linear_conv_kernel_dim"),
)
"""Each KDA dimension's name in ``linear_attn_config`` and its flattened transformers 5 field."""


def _kda_dimension(view: ConfigView, nested: str, flat: str) -> int:
    """``linear_attn_config[nested]`` when the config has it there, else the flattened ``flat`` field
    (``KimiLinearConfig`` takes the nested value first)."""
    if view.has("linear_attn_config") and view.sub("linear_attn_config").has(nested):
        return view.sub("linear_attn_config").require_int(nested)
    return view.require_int(flat)


def _kda_layers(view: ConfigView, count: int) -> tuple[set[int], Recurrent]:
    """The 0-based KDA layers and their state. The layers come from ``layer_types`` when the config has
    it (transformers 5 writes it, and ``KimiLinearConfig`` lets it decide), else from the 1-based lists
    of ``linear_attn_config`` (the hub's configs)."""
    if view.has("layer_types") or not view.has("linear_attn_config"):
        indices = _flat_kda_indices(view, count)
    else:
        indices = _kda_indices(view.sub("linear_attn_config"), count)
    heads, head_dim, kernel = (_kda_dimension(view, nested, flat) for nested, flat in _DIMENSIONS)
    return indices, _state.kda(num_heads=heads, head_dim=head_dim, conv_kernel=kernel)


def kimi_linear(view: ConfigView) -> LayerGroups:
    """KDA layers from ``kda_layers`` (or ``layer_types``); every other layer is MLA."""
    count = num_layers(view)
    kda_layers, kda = _kda_layers(view, count)
    mla = MLA(
        kv_lora_rank=view.require_int("kv_lora_rank"),
        qk_rope_head_dim=view.require_int("qk_rope_head_dim", minimum=0),
        num_heads=view.int_or_none("num_attention_heads"),
        qk_nope_head_dim=view.int_or_none("qk_nope_head_dim", minimum=0),
        v_head_dim=view.int_or_none("v_head_dim"),
    )
    mechanisms: list[Mechanism] = [kda if i in kda_layers else mla for i in range(count)]
    return build(view, mechanisms)
