"""DeepSeek-V4 (``deepseek_v4``): sliding-window, CSA and HCA layers, each of one ``head_dim`` vector
that is both key and value.

Semantics followed (transformers 5.24.0, ``configuration_deepseek_v4.py`` and ``modeling_deepseek_v4.py``):
each layer is ``sliding_attention`` (only the last ``sliding_window`` tokens), ``compressed_sparse_attention``
(CSA: one compressed entry per ``compress_rates["compressed_sparse_attention"]`` tokens, default 4, with a
lightning indexer keeping ``index_head_dim`` values per entry) or ``heavily_compressed_attention`` (HCA:
one entry per ``compress_rates["heavily_compressed_attention"]`` tokens, default 128, no indexer); the
compressed layers also keep the sliding window. The kinds come from ``layer_types`` (as transformers 5
writes the config), else from the hub's ``compress_ratios`` (0, 4 or 128 per layer, then one per
multi-token-prediction layer), else the class default: two HCA layers, then CSA and HCA alternating.
``compress_rate_csa`` / ``compress_rate_hca`` override the rates as the class folds them in.

Every layer's key is also its value (``num_key_value_heads`` 1, ``kv_proj`` to ``head_dim``); the
``qk_rope_head_dim`` trailing values are rotated. Compressed layers state that vector as a latent of
``head_dim − qk_rope_head_dim`` values plus the RoPE part, as the model records do; sliding layers as
one K/V head of ``head_dim``, which transformers caches as separate keys and values, with that same
latent beside it for the layouts that store the vector once (SGLang's DeepSeek-V4 pool, vLLM's
DeepSeek-V4 SWA cache).
``qk_rope_head_dim`` is ``head_dim × partial_rotary_factor`` when the config has the factor, else the
field, else ``head_dim × 64 / 512`` (the class default).
"""

from __future__ import annotations

from collections.abc import Mapping

from registry.engine.adapters._common import at_most_max_layers, build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import MLA, Compressed, LayerGroups, Mechanism, SlidingWindow

SLIDING, CSA, HCA = "sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"
CSA_VARIANT, HCA_VARIANT = "csa", "hca"
"""The variants the layout names, as the model records do."""
_BY_RATIO: Mapping[int, str] = {0: SLIDING, 4: CSA, 128: HCA}
_SOURCE = "DeepseekV4Config"


def _rates(view: ConfigView) -> dict[str, int]:
    """``compress_rates`` with the class defaults, then the scalar overrides, as ``__post_init__``."""
    rates = {CSA: 4, HCA: 128}
    if view.has("compress_rates"):
        given = view.sub("compress_rates")
        rates = {name: given.int_or_default(name, rates[name], _SOURCE) for name in rates}
    for name, scalar in ((CSA, "compress_rate_csa"), (HCA, "compress_rate_hca")):
        if view.has(scalar):
            rates[name] = view.require_int(scalar)
    return rates


def _kinds(view: ConfigView, count: int) -> tuple[list[str], list[str]]:
    """Each layer's type, and the types of the multi-token-prediction layers ``compress_ratios`` lists."""
    listed = view.str_list("layer_types")
    if listed is not None:
        if len(listed) < count:
            raise ConfigFieldError(
                view.model_type, "layer_types", f"lists {len(listed)} layers but num_hidden_layers is {count}"
            )
        return [_known(view, f"layer_types[{i}]", kind) for i, kind in enumerate(listed[:count])], []
    ratios = view.int_list("compress_ratios")
    if ratios is not None:
        if len(ratios) < count:
            raise ConfigFieldError(
                view.model_type,
                "compress_ratios",
                f"lists {len(ratios)} layers but num_hidden_layers is {count}",
            )
        kinds = [_from_ratio(view, i, ratio) for i, ratio in enumerate(ratios)]
        return kinds[:count], kinds[count:]
    view.notes.append(
        "neither layer_types nor compress_ratios is in the config; the DeepseekV4Config default applies"
    )
    return [HCA] * min(count, 2) + [CSA if i % 2 else HCA for i in range(max(count - 2, 0))], []


def _known(view: ConfigView, field: str, kind: str) -> str:
    if kind not in (SLIDING, CSA, HCA):
        raise ConfigFieldError(view.model_type, field, f"is {kind!r}; expected {SLIDING}, {CSA} or {HCA}")
    return kind


def _from_ratio(view: ConfigView, index: int, ratio: int) -> str:
    if ratio not in _BY_RATIO:
        raise ConfigFieldError(
            view.model_type, f"compress_ratios[{index}]", f"is {ratio}; expected 0, 4 or 128"
        )
    return _BY_RATIO[ratio]


def _rope(view: ConfigView, size: int) -> int:
    factor = view.value("partial_rotary_factor")
    if isinstance(factor, int | float) and not isinstance(factor, bool) and 0 <= factor <= 1:
        return int(size * factor)
    if view.has("qk_rope_head_dim"):
        return view.require_int("qk_rope_head_dim", minimum=0)
    view.notes.append(
        f"qk_rope_head_dim is not in the config; the {_SOURCE} default head_dim × 64 / 512 applies"
    )
    return int(size * 64 / 512)


def deepseek_v4(view: ConfigView) -> LayerGroups:
    """Sliding-window, CSA and HCA layers, each with the sliding window of uncompressed tokens."""
    count = num_layers(view)
    kinds, mtp_kinds = _kinds(view, count)
    size = view.int_or_default("head_dim", 512, _SOURCE)
    rope = _rope(view, size)
    window = view.int_or_default("sliding_window", 128, _SOURCE)
    rates = _rates(view)
    latent = MLA(kv_lora_rank=size - rope, qk_rope_head_dim=rope)
    mechanisms: Mapping[str, Mechanism] = {
        SLIDING: SlidingWindow(num_kv_heads=1, head_dim=size, v_head_dim=size, window=window, latent=latent),
        CSA: Compressed(
            CSA_VARIANT, rates[CSA], latent, window, view.int_or_default("index_head_dim", 128, _SOURCE)
        ),
        HCA: Compressed(HCA_VARIANT, rates[HCA], latent, window),
    }
    mtp = at_most_max_layers(
        view, "num_nextn_predict_layers", view.int_or_none("num_nextn_predict_layers", minimum=0) or 0
    )
    return build(view, [mechanisms[k] for k in kinds], mtp=[mechanisms[k] for k in mtp_kinds[:mtp]])
