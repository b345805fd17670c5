"""DeepSeek-V2 / V3 / V3.2 and Kimi K2: multi-head latent attention on every layer.

Semantics followed (vLLM ``vllm/model_executor/models/deepseek_v2.py``, which serves all four): each
layer caches one latent of ``kv_lora_rank`` values plus one decoupled RoPE key of ``qk_rope_head_dim``
values per token, shared by all heads, so per token and layer the cache is
``kv_lora_rank + qk_rope_head_dim`` values, not ``2 x num_key_value_heads x head_dim``: the config's
``num_key_value_heads`` (128 for V3) counts the heads the latent is expanded to at attention time.
``num_attention_heads``, ``qk_nope_head_dim`` and ``v_head_dim`` are kept for layouts that cache the
expanded heads. DeepSeek-V3.2 adds a sparse-attention indexer with its own per-token key cache
(``index_head_dim``, ``index_n_heads``). ``num_nextn_predict_layers`` multi-token-prediction layers
(one MLA layer each, ``deepseek_mtp.py``) follow the stack as MTP groups.

The same layout serves GLM-4.7-Flash (``glm4_moe_lite``) and A.X K1 (``axk1``), and with the indexer on
every layer A.X K2 (``axk2``): in transformers 5.24.0 each caches the latent and the RoPE key
(``cache.update(kv_nope, k_rot, ...)``) and A.X K2 its indexer keys in every layer
(``configuration_axk2.py`` sets every ``layer_types`` entry to ``indexed_attention``).
"""

from __future__ import annotations

from registry.engine.adapters._common import at_most_max_layers, build, num_layers
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import MLA, LayerGroups


def _mla(view: ConfigView, *, indexer: bool) -> MLA:
    return MLA(
        kv_lora_rank=view.require_int("kv_lora_rank"),
        qk_rope_head_dim=view.require_int("qk_rope_head_dim", minimum=0),
        num_heads=view.int_or_none("num_attention_heads"),
        qk_nope_head_dim=view.int_or_none("qk_nope_head_dim", minimum=0),
        v_head_dim=view.int_or_none("v_head_dim"),
        index_head_dim=view.require_int("index_head_dim") if indexer else None,
        index_n_heads=view.require_int("index_n_heads") if indexer else None,
    )


def _layout(view: ConfigView, mla: MLA) -> LayerGroups:
    mtp = view.int_or_none("num_nextn_predict_layers", minimum=0) or 0
    mtp = at_most_max_layers(view, "num_nextn_predict_layers", mtp)
    return build(view, [mla] * num_layers(view), mtp=[mla] * mtp)


def deepseek(view: ConfigView) -> LayerGroups:
    """MLA on all ``num_hidden_layers`` (``deepseek_v2``, ``deepseek_v3``, ``kimi_k2``)."""
    return _layout(view, _mla(view, indexer=False))


def deepseek_v32(view: ConfigView) -> LayerGroups:
    """MLA plus the DeepSeek Sparse Attention indexer's key cache on every layer."""
    return _layout(view, _mla(view, indexer=True))


def longcat_flash(view: ConfigView) -> LayerGroups:
    """LongCat-Flash: two MLA sublayers in each of its ``num_layers`` decoder layers.

    ``LongcatFlashDecoderLayer`` (``modeling_longcat_flash.py``, transformers 5.24.0) holds two
    ``LongcatFlashMLA`` attentions with cache indices ``2i`` and ``2i + 1``, and the configuration's
    ``num_hidden_layers`` is ``2 x num_layers`` (default 28): each sublayer caches its own latent and
    RoPE key, so the layout counts the sublayers.
    """
    layers = view.int_or_default("num_layers", 28, "LongcatFlashConfig")
    sublayers = at_most_max_layers(view, "num_layers", 2 * layers)
    view.notes.append(
        f"{layers} decoder layers of two MLA sublayers each: {sublayers} cached attention layers"
    )
    return build(view, [_mla(view, indexer=False)] * sublayers)
