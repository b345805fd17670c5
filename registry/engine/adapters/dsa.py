"""MLA with a sparse-attention indexer that only some layers run: GLM-5 (``glm_moe_dsa``) and Hunyuan V4
(``hy_v4``).

Semantics followed (transformers 5.24.0, ``configuration_glm_moe_dsa.py``, ``configuration_hy_v4.py`` and
their modeling files): every layer caches the MLA latent and RoPE key, as DeepSeek-V3.2
(:mod:`.deepseek`); ``indexer_types[i]`` says whether layer ``i`` runs its own indexer (``"full"``, and
keeps its ``index_head_dim`` keys per token) or reuses the previous full layer's selection
(``"shared"``, and keeps no indexer keys). Without ``indexer_types`` the classes build it:

- ``glm_moe_dsa``: from ``index_topk_pattern`` (a string of ``F`` and ``S``, or a list) when given,
  else layer ``i`` is full when ``max(i - offset + 1, 0) % freq == 0`` with ``index_topk_freq``
  (default 1) and ``index_skip_topk_offset`` (default 2);
- ``hy_v4``: layer 0 and every layer with ``(i - 1) % 4 == 0`` are full.

``index_head_dim`` and ``index_n_heads`` take the class defaults when the config leaves them out
(128 and 32 for GLM-5, 128 and 16 for Hunyuan V4).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from registry.engine.adapters._common import at_most_max_layers, build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import MLA, LayerGroups

_FULL, _SHARED = "full", "shared"


def _glm_moe_dsa(view: ConfigView, count: int) -> list[str]:
    pattern = view.value("index_topk_pattern")
    if isinstance(pattern, str):
        codes = {"F": _FULL, "S": _SHARED}
        if len(pattern) != count or set(pattern) - set(codes):
            raise ConfigFieldError(
                view.model_type, "index_topk_pattern", f"must be {count} letters F or S, not {pattern!r}"
            )
        return [codes[c] for c in pattern]
    if pattern is not None:
        listed = view.str_list("index_topk_pattern") or []
        return _checked(view, "index_topk_pattern", listed, count)
    freq = max(view.int_or_default("index_topk_freq", 1, "GlmMoeDsaConfig"), 1)
    offset = view.int_or_default("index_skip_topk_offset", 2, "GlmMoeDsaConfig", minimum=0)
    return [_FULL if max(i - offset + 1, 0) % freq == 0 else _SHARED for i in range(count)]


def _hy_v4(view: ConfigView, count: int) -> list[str]:
    return [_FULL if i == 0 or (i - 1) % 4 == 0 else _SHARED for i in range(count)]


def _checked(view: ConfigView, name: str, types: list[str], count: int) -> list[str]:
    if len(types) != count:
        raise ConfigFieldError(
            view.model_type, name, f"lists {len(types)} layers but num_hidden_layers is {count}"
        )
    for index, value in enumerate(types):
        if value not in (_FULL, _SHARED):
            raise ConfigFieldError(
                view.model_type, f"{name}[{index}]", f"is {value!r}; expected 'full' or 'shared'"
            )
    return types


_CLASSES: Mapping[str, tuple[str, int, Callable[[ConfigView, int], list[str]]]] = {
    "glm_moe_dsa": ("GlmMoeDsaConfig", 32, _glm_moe_dsa),
    "hy_v4": ("HYV4Config", 16, _hy_v4),
}


def indexed_mla(view: ConfigView) -> LayerGroups:
    """MLA on every layer, with indexer keys on the layers whose indexer type is ``full``."""
    source, index_heads, default_types = _CLASSES[view.model_type]
    count = num_layers(view)
    listed = view.str_list("indexer_types")
    types = (
        _checked(view, "indexer_types", listed, count) if listed is not None else default_types(view, count)
    )
    latent = MLA(
        kv_lora_rank=view.require_int("kv_lora_rank"),
        qk_rope_head_dim=view.require_int("qk_rope_head_dim", minimum=0),
        num_heads=view.int_or_none("num_attention_heads"),
        qk_nope_head_dim=view.int_or_none("qk_nope_head_dim", minimum=0),
        v_head_dim=view.int_or_none("v_head_dim"),
    )
    indexed = MLA(
        kv_lora_rank=latent.kv_lora_rank,
        qk_rope_head_dim=latent.qk_rope_head_dim,
        num_heads=latent.num_heads,
        qk_nope_head_dim=latent.qk_nope_head_dim,
        v_head_dim=latent.v_head_dim,
        index_head_dim=view.int_or_default("index_head_dim", 128, source),
        index_n_heads=view.int_or_default("index_n_heads", index_heads, source),
    )
    layers = [indexed if kind == _FULL else latent for kind in types]
    mtp = at_most_max_layers(
        view, "num_nextn_predict_layers", view.int_or_none("num_nextn_predict_layers", minimum=0) or 0
    )
    return build(view, layers, mtp=[indexed] * mtp)
