"""Stacks of recurrent or short-convolution layers, alone or between attention layers: Falcon-Mamba,
LFM2 / LFM2-MoE / LFM3, Granite 4.0 hybrid and Ling hybrid (:func:`bailing_hybrid`).

Semantics followed (transformers 5.24.0, each ``models/<type>/configuration_<type>.py`` and
``modeling_<type>.py``):

- ``falcon_mamba``: every layer a Mamba (1) mixer: conv over ``intermediate_size`` channels with kernel
  ``conv_kernel`` (default 4), SSM state ``(intermediate_size, state_size)`` (default 16);
  ``intermediate_size`` is the config's when it states one, else ``expand x hidden_size`` (default 2),
  as ``FalconMambaConfig.__post_init__`` sets it.
- ``lfm2``, ``lfm2_moe``: ``layer_types`` (``full_attention`` / ``conv``), else the layers in
  ``full_attn_idxs`` are attention and the rest short convolutions, and without either every layer is
  attention. A conv layer keeps the last inputs of a ``conv_L_cache``-wide convolution over
  ``hidden_size`` channels (default 3); attention uses ``num_key_value_heads`` (default 8) heads of
  ``hidden_size // num_attention_heads``.
- ``lfm3``: ``layer_types`` (``full_attention`` / ``sliding_attention`` / ``conv``), else layer ``i`` is
  full attention when ``i % 4 == 2``, sliding when ``i % 4 == 0`` and ``i > 0``, conv otherwise;
  ``head_dim`` default 128, ``num_key_value_heads`` 4, ``sliding_window`` 256, ``conv_L_cache`` 7.
- ``granitemoehybrid``: ``layer_types`` (or ``layers_block_type``), ``mamba`` / ``linear_attention``
  for a Mamba-2 layer and ``attention`` / ``full_attention`` for attention (transformers remaps the
  older names, ``configuration_utils._LEGACY_LAYER_TYPE_REMAP``), every layer Mamba-2 without one; the
  Mamba-2 state is Bamba's (:mod:`.mamba2_hybrid`), from ``GraniteMoeHybridConfig``'s defaults.
"""

from __future__ import annotations

from collections.abc import Mapping

from registry.engine.adapters import _state
from registry.engine.adapters._common import FULL, LINEAR, SLIDING, build, every_nth, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters.mamba2_hybrid import mamba2_from_expand
from registry.engine.layers import MLA, Attention, LayerGroups, Mechanism, Recurrent, SlidingWindow

CONV = "conv"
MAMBA = "mamba"


def falcon_mamba(view: ConfigView) -> LayerGroups:
    """A Mamba mixer in every layer."""
    source = "FalconMambaConfig"
    intermediate = view.int_or_none("intermediate_size")
    if intermediate is None:
        intermediate = view.int_or_default("expand", 2, source) * view.require_int("hidden_size")
    state = _state.mamba1(
        intermediate=intermediate,
        state_size=view.int_or_default("state_size", 16, source),
        conv_kernel=view.int_or_default("conv_kernel", 4, source),
    )
    return build(view, [state] * num_layers(view))


def _kinds(view: ConfigView, count: int, known: Mapping[str, str]) -> list[str] | None:
    """``layer_types`` (or ``layers_block_type``) translated by ``known``; None when neither is given."""
    name = "layer_types" if view.has("layer_types") else "layers_block_type"
    listed = view.str_list(name)
    if listed is None:
        return None
    if len(listed) != count:
        raise ConfigFieldError(
            view.model_type, name, f"lists {len(listed)} layers but num_hidden_layers is {count}"
        )
    for index, value in enumerate(listed):
        if value not in known:
            raise ConfigFieldError(
                view.model_type,
                f"{name}[{index}]",
                f"is {value!r}; this adapter knows {', '.join(sorted(known))}",
            )
    return [known[value] for value in listed]


def _short_conv(view: ConfigView, source: str, default: int) -> Recurrent:
    return _state.short_conv(
        view.int_or_default("conv_L_cache", default, source), view.require_int("hidden_size")
    )


def _attention_sizes(
    view: ConfigView, source: str, kv_default: int, head_default: int | None
) -> tuple[int, int]:
    kv_heads = view.int_or_default("num_key_value_heads", kv_default, source)
    if head_default is not None:
        return kv_heads, view.int_or_default("head_dim", head_default, source)
    hidden, heads = view.require_int("hidden_size"), view.require_int("num_attention_heads")
    if hidden % heads:
        raise ConfigFieldError(view.model_type, "hidden_size", f"{hidden} is not a multiple of {heads} heads")
    return kv_heads, hidden // heads


def lfm2(view: ConfigView) -> LayerGroups:
    """Attention on ``full_attn_idxs`` (or as ``layer_types`` says), short convolutions elsewhere."""
    source = "Lfm2MoeConfig" if view.model_type == "lfm2_moe" else "Lfm2Config"
    count = num_layers(view)
    kinds = _kinds(view, count, {"full_attention": FULL, "conv": CONV})
    if kinds is None:
        indices = view.int_list("full_attn_idxs")
        kinds = [FULL if indices is None or i in indices else CONV for i in range(count)]
    by_kind: dict[str, Mechanism] = {}
    if FULL in kinds:
        kv_heads, size = _attention_sizes(view, source, 8, None)
        by_kind[FULL] = Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)
    if CONV in kinds:
        by_kind[CONV] = _short_conv(view, source, 3)
    return build(view, [by_kind[kind] for kind in kinds])


def _lfm3_default(count: int) -> list[str]:
    return [FULL if i % 4 == 2 else SLIDING if i % 4 == 0 and i > 0 else CONV for i in range(count)]


def lfm3(view: ConfigView) -> LayerGroups:
    """Short convolutions with full and sliding-window attention layers between them."""
    source = "Lfm3Config"
    count = num_layers(view)
    known = {"full_attention": FULL, "sliding_attention": SLIDING, "conv": CONV}
    kinds = _kinds(view, count, known) or _lfm3_default(count)
    kv_heads, size = _attention_sizes(view, source, 4, 128)
    by_kind: dict[str, Mechanism] = {FULL: Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)}
    if SLIDING in kinds:
        window = view.int_or_default("sliding_window", 256, source)
        by_kind[SLIDING] = SlidingWindow(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size, window=window)
    if CONV in kinds:
        by_kind[CONV] = _short_conv(view, source, 7)
    return build(view, [by_kind[kind] for kind in kinds])


_GRANITE_KINDS = {"mamba": MAMBA, "linear_attention": MAMBA, "attention": FULL, "full_attention": FULL}


def granitemoehybrid(view: ConfigView) -> LayerGroups:
    """Mamba-2 and attention layers as ``layer_types`` lists them; every layer Mamba-2 without it."""
    source = "GraniteMoeHybridConfig"
    count = num_layers(view)
    kinds = _kinds(view, count, _GRANITE_KINDS)
    if kinds is None:
        view.notes.append(f"layer_types is not in the config: {source} makes every layer Mamba-2")
        kinds = [MAMBA] * count
    by_kind: dict[str, Mechanism] = {}
    if FULL in kinds:
        # GraniteMoeHybridConfig: a null or absent num_key_value_heads means one per attention head
        kv_heads = view.int_or_none("num_key_value_heads") or view.require_int("num_attention_heads")
        size = _attention_sizes(view, source, kv_heads, None)[1]
        by_kind[FULL] = Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)
    if MAMBA in kinds:
        by_kind[MAMBA] = mamba2_from_expand(view, source)
    return build(view, [by_kind[kind] for kind in kinds])


def bailing_hybrid(view: ConfigView) -> LayerGroups:
    """Ling hybrid (``bailing_hybrid``): MLA every ``layer_group_size`` layers, Kimi Delta Attention between.

    ``BailingHybridConfig.__post_init__`` (transformers 5.24.0) makes layer ``i`` full (MLA) attention
    when ``(i + 1) % layer_group_size == 0`` (default 6) unless ``layer_types`` says; the linear layers
    run KDA with ``num_attention_heads`` heads of ``head_dim`` (default 128) and a short convolution of
    ``short_conv_kernel_size`` (default 4) over q, k and v (see :func:`._state.kda`). The MLA layers keep
    the latent and RoPE key, as DeepSeek-V3's (:mod:`.deepseek`).
    """
    source = "BailingHybridConfig"
    count = num_layers(view)
    kinds = _kinds(view, count, {"full_attention": FULL, "linear_attention": LINEAR, "attention": FULL})
    if kinds is None:
        group = view.int_or_default("layer_group_size", 6, source)
        kinds = every_nth(count, group, FULL, LINEAR)
    by_kind: dict[str, Mechanism] = {}
    if FULL in kinds:
        by_kind[FULL] = MLA(
            kv_lora_rank=view.int_or_default("kv_lora_rank", 512, source),
            qk_rope_head_dim=view.int_or_default("qk_rope_head_dim", 64, source, minimum=0),
            num_heads=view.int_or_none("num_attention_heads"),
            qk_nope_head_dim=view.int_or_default("qk_nope_head_dim", 128, source, minimum=0),
            v_head_dim=view.int_or_default("v_head_dim", 128, source),
        )
    if LINEAR in kinds:
        by_kind[LINEAR] = _state.kda(
            num_heads=view.int_or_default("num_attention_heads", 32, source),
            head_dim=view.int_or_default("head_dim", 128, source),
            conv_kernel=view.int_or_default("short_conv_kernel_size", 4, source),
        )
    return build(view, [by_kind[kind] for kind in kinds])
