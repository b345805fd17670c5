"""Decoders whose every layer is full attention, each read with its own configuration class's defaults.

Semantics followed (transformers 5.24.0, ``src/transformers/models/<type>/``): every decoder layer's
attention caches ``num_key_value_heads`` K and V heads of one head size; what differs between these
model types is where the sizes come from when the config leaves them out, and whether an explicit
``head_dim`` is read at all.

- ``nanochat``, ``nemotron``, ``olmo``, ``phi``: ``head_dim`` when the config gives one, else
  ``hidden_size // num_attention_heads``; an absent ``num_key_value_heads`` is MHA.
- ``olmoe``: the same, and ``OlmoeAttention`` passes ``getattr(config, "sliding_window", None)``, so a
  config that names a window slides every layer (no released OLMoE config does).
- ``seed_oss`` and ``solar_open``: the class defaults are GQA, 8 KV heads of 128 (``SeedOssConfig``,
  ``SolarOpenConfig``), not MHA.
- ``sarvam_moe`` (a GLM-4.5 architecture, ``Glm4MoeForCausalLM``): ``SarvamMoEConfig`` defaults to 4 KV
  heads of 64; ``sarvam_mla`` (``DeepseekV3ForCausalLM``) is multi-head latent attention read as
  DeepSeek-V3 (its legacy ``head_dim``, ``kv_lora_rank + qk_rope_head_dim`` for vLLM, is not a head size).
- ``stablelm``, ``persimmon``, ``opt``, ``xglm``, ``mpt``: the attention computes
  ``hidden_size // num_attention_heads`` itself and ignores any ``head_dim``; StableLM has
  ``num_key_value_heads`` (class default 32), the other four cache one K/V head per attention head
  (transformers' ``MptAttention`` reshapes K and V to ``n_heads`` whatever ``attn_config`` says).
  XGLM and MPT spell the fields ``d_model`` / ``attention_heads`` / ``num_layers`` and ``d_model`` /
  ``n_heads`` / ``n_layers`` (their ``attribute_map``).
"""

from __future__ import annotations

from registry.engine.adapters import deepseek, dense, mistral
from registry.engine.adapters._common import at_most_max_layers, build
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import Attention, LayerGroups


def nanochat(view: ConfigView) -> LayerGroups:
    """Every layer full attention (``NanoChatConfig``: MHA when ``num_key_value_heads`` is absent)."""
    return dense.plain(view)


def nemotron(view: ConfigView) -> LayerGroups:
    """Every layer full attention (``NemotronConfig``: head size derived when ``head_dim`` is null)."""
    return dense.plain(view)


def olmo(view: ConfigView) -> LayerGroups:
    """Every layer full attention (``OlmoConfig``)."""
    return dense.plain(view)


def phi(view: ConfigView) -> LayerGroups:
    """Every layer full attention (``PhiConfig``; the partial rotary factor does not touch the cache)."""
    return dense.plain(view)


def olmoe(view: ConfigView) -> LayerGroups:
    """Full attention, or a window on every layer when the config names one (``OlmoeAttention``)."""
    return mistral.whole_model_window(view)


def seed_oss(view: ConfigView) -> LayerGroups:
    """Every layer full attention; ``SeedOssConfig`` defaults to 8 KV heads of 128."""
    return dense.plain(class_defaults(view, "SeedOssConfig", num_key_value_heads=8, head_dim=128))


def solar_open(view: ConfigView) -> LayerGroups:
    """Every layer full attention; ``SolarOpenConfig`` defaults to 8 KV heads of 128."""
    return dense.plain(class_defaults(view, "SolarOpenConfig", num_key_value_heads=8, head_dim=128))


def sarvam_moe(view: ConfigView) -> LayerGroups:
    """GLM-4.5's layout; ``SarvamMoEConfig`` defaults to 4 KV heads of 64."""
    return dense.glm4_moe(class_defaults(view, "SarvamMoEConfig", num_key_value_heads=4, head_dim=64))


def sarvam_mla(view: ConfigView) -> LayerGroups:
    """DeepSeek-V3's MLA on every layer (``SarvamMLAConfig`` translates to the DeepSeek-V3 fields)."""
    return deepseek.deepseek(view)


_STANDARD = ("num_hidden_layers", "hidden_size", "num_attention_heads")


def derived_head_attention(
    view: ConfigView, kv_heads: int | None, names: tuple[str, str, str] = _STANDARD
) -> LayerGroups:
    """Full attention whose head size is always ``hidden_size // num_attention_heads``; ``names`` are the
    model's own spellings of the layer count, hidden size and head count (the standard ones also read)."""
    layers_name, hidden_name, heads_name = names
    aliases = [(standard,) if standard != own else () for own, standard in zip(names, _STANDARD, strict=True)]
    count = at_most_max_layers(view, layers_name, view.require_int(layers_name, *aliases[0]))
    hidden = view.require_int(hidden_name, *aliases[1])
    heads = view.require_int(heads_name, *aliases[2])
    if hidden % heads:
        raise ConfigFieldError(
            view.model_type, hidden_name, f"{hidden} is not a multiple of {heads_name} {heads}"
        )
    if view.has("head_dim"):
        view.notes.append(
            f"head_dim is ignored: {view.model_type}'s attention uses {hidden_name} // {heads_name}"
        )
    size = hidden // heads
    attention = Attention(
        num_kv_heads=heads if kv_heads is None else kv_heads, head_dim=size, v_head_dim=size
    )
    return build(view, [attention] * count)


def stablelm(view: ConfigView) -> LayerGroups:
    """``num_key_value_heads`` (``StableLmConfig`` default 32) heads of ``hidden_size // heads``."""
    view = class_defaults(view, "StableLmConfig", num_key_value_heads=32)
    return derived_head_attention(view, view.require_int("num_key_value_heads"))


def persimmon(view: ConfigView) -> LayerGroups:
    """MHA with heads of ``hidden_size // num_attention_heads``."""
    return derived_head_attention(view, None)


def opt(view: ConfigView) -> LayerGroups:
    """MHA with heads of ``hidden_size // num_attention_heads``."""
    return derived_head_attention(view, None)


def xglm(view: ConfigView) -> LayerGroups:
    """MHA over ``num_layers`` layers of ``attention_heads`` heads of ``d_model // attention_heads``."""
    return derived_head_attention(view, None, ("num_layers", "d_model", "attention_heads"))


def mpt(view: ConfigView) -> LayerGroups:
    """MHA over ``n_layers`` layers of ``n_heads`` heads of ``d_model // n_heads``."""
    return derived_head_attention(view, None, ("n_layers", "d_model", "n_heads"))
