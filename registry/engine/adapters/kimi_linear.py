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
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import MLA, LayerGroups, Mechanism


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


def kimi_linear(view: ConfigView) -> LayerGroups:
    """KDA layers from ``kda_layers``; every other layer is MLA."""
    count = num_layers(view)
    linear = view.sub("linear_attn_config")
    kda_layers = _kda_indices(linear, count)
    kda = _state.kda(
        num_heads=linear.require_int("num_heads"),
        head_dim=linear.require_int("head_dim"),
        conv_kernel=linear.require_int("short_conv_kernel_size"),
    )
    mla = MLA(
        kv_lora_rank=view.require_int("kv_lora_rank"),
        qk_rope_head_dim=view.require_int("qk_rope_head_dim", minimum=0),
        num_heads=view.int_or_none("num_attention_heads"),
        qk_nope_head_dim=view.int_or_none("qk_nope_head_dim", minimum=0),
        v_head_dim=view.int_or_none("v_head_dim"),
    )
    mechanisms: list[Mechanism] = [kda if i in kda_layers else mla for i in range(count)]
    return build(view, mechanisms)
