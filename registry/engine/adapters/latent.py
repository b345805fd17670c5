"""MiniCPM3 and Youtu-LLM: multi-head latent attention, DeepSeek-V2 style, on every layer.

Semantics followed (transformers 5.24.0, ``modeling_minicpm3.py`` and ``modeling_youtu.py``): the
attention splits ``kv_a_proj_with_mqa``'s output into a latent of ``kv_lora_rank`` values and one RoPE
key of ``qk_rope_head_dim`` values, and hands those two to ``cache.update``; the per-head K and V are
expanded from the cached latent at every step. Per token and layer the cache is
``kv_lora_rank + qk_rope_head_dim`` values, as for DeepSeek-V3 (:mod:`.deepseek`); the config's
``num_key_value_heads`` counts expanded heads, not cached ones. Neither model has MTP layers.

Class defaults: ``MiniCPM3Config`` rank 256, RoPE key 32, no-RoPE key 64 and ``v_head_dim`` null,
which means ``hidden_size // num_attention_heads``; ``YoutuConfig`` rank 512, RoPE key 64, no-RoPE key
128, values 128.
"""

from __future__ import annotations

from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import MLA, LayerGroups


def _mla(view: ConfigView, v_head_dim: int | None) -> LayerGroups:
    latent = MLA(
        kv_lora_rank=view.require_int("kv_lora_rank"),
        qk_rope_head_dim=view.require_int("qk_rope_head_dim", minimum=0),
        num_heads=view.int_or_none("num_attention_heads"),
        qk_nope_head_dim=view.int_or_none("qk_nope_head_dim", minimum=0),
        v_head_dim=v_head_dim,
    )
    return build(view, [latent] * num_layers(view))


def minicpm3(view: ConfigView) -> LayerGroups:
    """The latent and RoPE key on every layer (``MiniCPM3Config`` defaults)."""
    view = class_defaults(view, "MiniCPM3Config", kv_lora_rank=256, qk_rope_head_dim=32, qk_nope_head_dim=64)
    values = view.int_or_none("v_head_dim")
    if values is None and view.has("hidden_size") and view.has("num_attention_heads"):
        values = view.require_int("hidden_size") // view.require_int("num_attention_heads")
    return _mla(view, values)


def youtu(view: ConfigView) -> LayerGroups:
    """The latent and RoPE key on every layer (``YoutuConfig`` defaults)."""
    view = class_defaults(
        view, "YoutuConfig", kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128
    )
    return _mla(view, view.int_or_none("v_head_dim"))
