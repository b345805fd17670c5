"""Decoders that interleave sliding-window and full-attention layers by a per-class rule.

Semantics followed (transformers 5.24.0, ``configuration_<type>.py`` and ``modeling_<type>.py``): the
cache gives a layer a window when ``layer_types`` names it ``sliding_attention`` (``cache_utils.py``,
``get_layer_types_and_kwargs``), and each configuration class fills ``layer_types`` by its own rule when
the config has none. An explicit ``layer_types`` always decides. The rules, layer ``i`` of ``n``:

- ``ministral``: every layer slides when ``sliding_window`` is set (``MinistralConfig`` default 4096,
  so a config without the key slides); ``null`` means full attention. 8 KV heads by default.
- ``ministral3``, ``phimoe``: no rule of their own; a ``sliding_window`` (class default null) slides
  every layer, as for Mistral. Ministral 3 defaults to 8 KV heads of 128, PhiMoE to 8 KV heads.
- ``olmo3``: full attention when ``(i + 1) % 4 == 0``, else a window (default 4096).
- ``vaultgemma``: full attention on odd layers, a window (default 4096) on even ones; 4 KV heads of 256.
- ``smollm3``: ``no_rope_layers[i]`` is 1 where the layer uses RoPE (default: 0 every
  ``no_rope_layer_interval`` layers, class default 4); only when ``use_sliding_window`` is true and
  ``sliding_window`` is set do the *NoPE* layers (flag 0) slide. 4 KV heads by default.
- ``mellum``: every layer full attention unless ``layer_types`` says otherwise (window default 1024);
  4 KV heads of 128. Its multi-token-prediction weights are not loaded (``_keys_to_ignore_on_load``).
- ``mimo_v2_flash``: full attention on layer 0 and when ``(i + 1) % 6 == 0``, else a window
  (default 129, or the hub's ``sliding_window_size`` + 1, since the reference attends to that many
  previous tokens plus the query). ``MiMoV2FlashAttention`` doubles ``num_key_value_heads`` on window
  layers; keys are ``head_dim`` (default 192) wide, values ``v_head_dim`` (default 128). The hub
  config's own ``hybrid_layer_pattern`` and ``swa_*`` sizes are not read by transformers 5.24.0; where
  the pattern disagrees with the layers transformers builds, the layout says so in a note.
- ``modernbert-decoder``: a window on every layer ``i`` with ``i % global_attn_every_n_layers != 0``
  (default 3) of ``sliding_window`` tokens: ``ModernBertDecoderConfig.__post_init__`` sets it to
  ``local_attention // 2`` (``local_attention`` default 128) and then lets a ``sliding_window`` the config
  states win (the base ``__post_init__`` sets the remaining keys), so the field transformers reads is
  ``sliding_window`` when the config has it, else half of ``local_attention``; heads are
  ``hidden_size // num_attention_heads`` and every head keeps its K and V (MHA).
"""

from __future__ import annotations

from registry.engine.adapters import mistral
from registry.engine.adapters._common import (
    FULL,
    FULL_OR_SLIDING_LAYER_TYPES,
    SLIDING,
    build,
    every_nth,
    explicit_layer_types,
    full_attention,
    head_dim,
    num_kv_heads,
    num_layers,
    sliding_attention,
)
from registry.engine.adapters._config import ConfigFieldError, ConfigValueError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import Attention, LayerGroups, Mechanism, SlidingWindow


def _layers(view: ConfigView, kinds: list[str]) -> LayerGroups:
    """The layout for resolved kinds: the config's KV heads, a window from ``sliding_window``."""
    by_kind: dict[str, Mechanism] = {FULL: full_attention(view)}
    if SLIDING in kinds:
        by_kind[SLIDING] = sliding_attention(view, view.require_int("sliding_window"))
    return build(view, [by_kind[kind] for kind in kinds])


def _whole_model(view: ConfigView) -> LayerGroups:
    """``layer_types`` when given, else a window on every layer when ``sliding_window`` is set."""
    count = num_layers(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count)
    if kinds is None:
        return mistral.whole_model_window(view)
    return _layers(view, kinds)


def ministral(view: ConfigView) -> LayerGroups:
    """Every layer slides unless ``sliding_window`` is null (``MinistralConfig`` default 4096)."""
    return _whole_model(class_defaults(view, "MinistralConfig", num_key_value_heads=8, sliding_window=4096))


def ministral3(view: ConfigView) -> LayerGroups:
    """A window on every layer only when the config names one; 8 KV heads of 128 by default."""
    return _whole_model(class_defaults(view, "Ministral3Config", num_key_value_heads=8, head_dim=128))


def phimoe(view: ConfigView) -> LayerGroups:
    """A window on every layer only when the config names one; 8 KV heads by default."""
    return _whole_model(class_defaults(view, "PhimoeConfig", num_key_value_heads=8))


def olmo3(view: ConfigView) -> LayerGroups:
    """Three window layers, then one full-attention layer (``Olmo3Config``)."""
    view = class_defaults(view, "Olmo3Config", sliding_window=4096)
    count = num_layers(view)
    return _layers(
        view,
        explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or every_nth(count, 4, FULL, SLIDING),
    )


def vaultgemma(view: ConfigView) -> LayerGroups:
    """Alternating window (even) and full-attention (odd) layers (``VaultGemmaConfig``)."""
    view = class_defaults(view, "VaultGemmaConfig", num_key_value_heads=4, head_dim=256, sliding_window=4096)
    count = num_layers(view)
    return _layers(
        view,
        explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or every_nth(count, 2, FULL, SLIDING),
    )


def _smollm3_kinds(view: ConfigView, count: int) -> list[str]:
    flags = view.int_list("no_rope_layers")
    if flags is None:
        interval = view.int_or_default("no_rope_layer_interval", 4, "SmolLM3Config")
        flags = [int((i + 1) % interval != 0) for i in range(count)]
    if len(flags) < count:
        raise ConfigFieldError(
            view.model_type, "no_rope_layers", f"has {len(flags)} entries for {count} layers"
        )
    slides = view.value("use_sliding_window") is True and view.has("sliding_window")
    return [SLIDING if slides and not flags[i] else FULL for i in range(count)]


def smollm3(view: ConfigView) -> LayerGroups:
    """Full attention, except the NoPE layers when the window is switched on (``SmolLM3Config``)."""
    view = class_defaults(view, "SmolLM3Config", num_key_value_heads=4)
    count = num_layers(view)
    return _layers(
        view, explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or _smollm3_kinds(view, count)
    )


def mellum(view: ConfigView) -> LayerGroups:
    """Full attention on every layer unless ``layer_types`` names windows (``MellumConfig``)."""
    view = class_defaults(view, "MellumConfig", num_key_value_heads=4, head_dim=128, sliding_window=1024)
    count = num_layers(view)
    return _layers(view, explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or [FULL] * count)


def _mimo_window(view: ConfigView) -> int:
    if view.has("sliding_window_size"):
        return view.require_int("sliding_window_size", minimum=0) + 1
    return view.require_int("sliding_window")


def _note_hub_pattern(view: ConfigView, kinds: list[str]) -> None:
    """The hub config's ``hybrid_layer_pattern`` (1 = window) is not read by transformers; say so where it
    disagrees with the layers transformers builds."""
    pattern = view.int_list("hybrid_layer_pattern")
    if pattern is not None and pattern != [int(kind == SLIDING) for kind in kinds]:
        view.notes.append(
            "hybrid_layer_pattern differs from the layers transformers builds (layer_types, or its default "
            "rule), and transformers does not read it; the layout follows transformers"
        )


def mimo_v2_flash(view: ConfigView) -> LayerGroups:
    """Full attention on layer 0 and every sixth layer; window layers with twice the KV heads."""
    view = class_defaults(
        view, "MiMoV2FlashConfig", num_key_value_heads=4, head_dim=192, v_head_dim=128, sliding_window=129
    )
    count = num_layers(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or [
        FULL if i == 0 or (i + 1) % 6 == 0 else SLIDING for i in range(count)
    ]
    _note_hub_pattern(view, kinds)
    keys, values, kv_heads = head_dim(view), view.require_int("v_head_dim"), num_kv_heads(view)
    by_kind: dict[str, Mechanism] = {FULL: Attention(num_kv_heads=kv_heads, head_dim=keys, v_head_dim=values)}
    if SLIDING in kinds:
        window = _mimo_window(view)
        by_kind[SLIDING] = SlidingWindow(
            num_kv_heads=2 * kv_heads, head_dim=keys, v_head_dim=values, window=window
        )
    return build(view, [by_kind[kind] for kind in kinds])


def modernbert_decoder(view: ConfigView) -> LayerGroups:
    """Windows of ``sliding_window`` (else ``local_attention // 2``) tokens, a global layer every
    ``global_attn_every_n_layers``."""
    view = class_defaults(view, "ModernBertDecoderConfig", local_attention=128, global_attn_every_n_layers=3)
    count = num_layers(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count)
    if kinds is None:
        every = view.require_int("global_attn_every_n_layers")
        kinds = [SLIDING if i % every else FULL for i in range(count)]
    hidden, heads = view.require_int("hidden_size"), view.require_int("num_attention_heads")
    if hidden % heads:
        raise ConfigFieldError(view.model_type, "hidden_size", f"{hidden} is not a multiple of {heads} heads")
    size = hidden // heads
    by_kind: dict[str, Mechanism] = {FULL: Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size)}
    if SLIDING in kinds:
        by_kind[SLIDING] = SlidingWindow(
            num_kv_heads=heads, head_dim=size, v_head_dim=size, window=_modernbert_window(view)
        )
    return build(view, [by_kind[kind] for kind in kinds])


def _modernbert_window(view: ConfigView) -> int:
    """``sliding_window`` as the config states it, else ``local_attention // 2`` (module docstring). A
    stated ``null`` reaches the cache as no window at all, which ``DynamicSlidingWindowLayer`` cannot
    build (``torch.tensor(None)``), so it is refused; so is a ``local_attention`` below 2 without one."""
    if view.contains("sliding_window"):
        if not view.has("sliding_window"):
            raise ConfigValueError(
                view.model_type,
                "sliding_window",
                "is null but layers slide; transformers cannot build their cache without a window",
            )
        return view.require_int("sliding_window")
    local = view.int_or_none("local_attention")
    if local is None or local < 2:
        raise ConfigFieldError(view.model_type, "local_attention", "must be at least 2 for window layers")
    return local // 2
