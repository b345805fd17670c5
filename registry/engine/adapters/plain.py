"""Decoders whose every layer is full attention, read by what their configuration class says.

One adapter, :func:`full_attention_class`, serves every ``model_type`` in :data:`CLASSES`: each entry
records, from that type's configuration and modeling files in transformers 5.24.0, the class defaults of
the fields a layout needs (used when the config leaves a field out, and noted), the older names some
configs publish them under (``n_layer``, ``n_head``, ``n_embd``: the class's ``attribute_map``), and how
its attention sizes K and V:

- ``field``: ``num_key_value_heads`` K/V heads (class default; ``None`` there means one per attention
  head) of ``head_dim`` values, the config's own when given, else ``hidden_size // num_attention_heads``
  (``getattr(config, "head_dim", config.hidden_size // config.num_attention_heads)`` in the modeling
  files);
- ``mha``: one K/V head per attention head, ``head_dim = hidden_size // num_attention_heads`` whatever
  else the config holds (GPT-2, GPT-J, GPT-NeoX, CodeGen, CTRL, BLOOM, BioGPT, GIT: the modeling files
  compute both and read no such field);
- ``required``: Hunyuan, whose attention reads ``head_dim`` with no fallback (the class default is
  ``None`` and the modeling file fails on it), so a config without one is refused;
- ``multi_query``: GPT-BigCode, one K/V head when ``multi_query`` (class default true), else one per
  attention head (``GPTBigCodeConfig.__post_init__``).

Per token and layer the cache is ``2 x kv_heads x head_dim`` values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from registry.engine.adapters._common import build, head_dim, num_kv_heads, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import Attention, LayerGroups

_NAMES = ("num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "head_dim")


@dataclass(frozen=True)
class _Class:
    """What one configuration class says about the fields a full-attention layout needs."""

    name: str
    defaults: Mapping[str, int]
    aliases: Mapping[str, str] = field(default_factory=dict)
    kv_heads: Literal["field", "mha", "multi_query"] = "field"
    head_dim: Literal["field", "derived", "required"] = "field"


_GPT2_NAMES = {"num_hidden_layers": "n_layer", "hidden_size": "n_embd", "num_attention_heads": "n_head"}

CLASSES: Mapping[str, _Class] = {
    "apertus": _Class(
        "ApertusConfig", {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    ),
    "apertus1p5_text": _Class(
        "Apertus1p5TextConfig", {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    ),
    "arcee": _Class("ArceeConfig", {"num_hidden_layers": 32, "hidden_size": 2560, "num_attention_heads": 32}),
    "aria_text": _Class(
        "AriaTextConfig", {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    ),
    "bitnet": _Class(
        "BitNetConfig",
        {"num_hidden_layers": 30, "hidden_size": 2560, "num_attention_heads": 20, "num_key_value_heads": 5},
    ),
    "diffllama": _Class(
        "DiffLlamaConfig", {"num_hidden_layers": 16, "hidden_size": 2048, "num_attention_heads": 32}
    ),
    "ernie4_5": _Class(
        "Ernie4_5Config",
        {
            "num_hidden_layers": 18,
            "hidden_size": 1024,
            "num_attention_heads": 16,
            "num_key_value_heads": 2,
            "head_dim": 128,
        },
    ),
    "ernie4_5_moe": _Class(
        "Ernie4_5_MoeConfig",
        {"num_hidden_layers": 28, "hidden_size": 2560, "num_attention_heads": 20, "num_key_value_heads": 4},
    ),
    "emu3": _Class(
        "Emu3TextConfig",
        {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8},
    ),
    "exaone": _Class(
        "ExaoneConfig",
        {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8},
    ),
    "flex_olmo": _Class(
        "FlexOlmoConfig", {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    ),
    "gemma": _Class(
        "GemmaConfig",
        {
            "num_hidden_layers": 28,
            "hidden_size": 3072,
            "num_attention_heads": 16,
            "num_key_value_heads": 16,
            "head_dim": 256,
        },
    ),
    "glm": _Class(
        "GlmConfig",
        {
            "num_hidden_layers": 40,
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "num_key_value_heads": 2,
            "head_dim": 128,
        },
    ),
    "glm4": _Class(
        "Glm4Config",
        {
            "num_hidden_layers": 40,
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "num_key_value_heads": 2,
            "head_dim": 128,
        },
    ),
    "granitemoe": _Class(
        "GraniteMoeConfig", {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    ),
    "granitemoeshared": _Class(
        "GraniteMoeSharedConfig", {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    ),
    "helium": _Class(
        "HeliumConfig",
        {
            "num_hidden_layers": 24,
            "hidden_size": 2560,
            "num_attention_heads": 20,
            "num_key_value_heads": 20,
            "head_dim": 128,
        },
    ),
    "hunyuan_v1_dense": _Class(
        "HunYuanDenseV1Config",
        {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32},
        head_dim="required",
    ),
    "hunyuan_v1_moe": _Class(
        "HunYuanMoEV1Config",
        {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32},
        head_dim="required",
    ),
    "hy_v3": _Class(
        "HYV3Config",
        {
            "num_hidden_layers": 80,
            "hidden_size": 4096,
            "num_attention_heads": 64,
            "num_key_value_heads": 8,
            "head_dim": 128,
        },
    ),
    "hyperclovax": _Class(
        "HyperCLOVAXConfig", {"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32}
    ),
    "internlm3": _Class(
        "InternLM3Config",
        {
            "num_hidden_layers": 48,
            "hidden_size": 4096,
            "num_attention_heads": 32,
            "num_key_value_heads": 2,
            "head_dim": 128,
        },
    ),
    "iquestcoder": _Class(
        "IQuestCoderConfig",
        {
            "num_hidden_layers": 80,
            "hidden_size": 5120,
            "num_attention_heads": 40,
            "num_key_value_heads": 8,
            "head_dim": 128,
        },
    ),
    "jais2": _Class("Jais2Config", {"num_hidden_layers": 32, "hidden_size": 3328, "num_attention_heads": 26}),
    "jetmoe": _Class(
        "JetMoeConfig",
        {"num_hidden_layers": 12, "hidden_size": 2048, "num_key_value_heads": 16, "head_dim": 128},
        aliases={"head_dim": "kv_channels"},
    ),
    "biogpt": _Class(
        "BioGptConfig",
        {"num_hidden_layers": 24, "hidden_size": 1024, "num_attention_heads": 16},
        kv_heads="mha",
        head_dim="derived",
    ),
    "bloom": _Class(
        "BloomConfig",
        {"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 8},
        # BloomConfig.__post_init__ lets a legacy n_embed replace hidden_size
        aliases={"num_hidden_layers": "n_layer", "num_attention_heads": "n_head", "hidden_size": "n_embed"},
        kv_heads="mha",
        head_dim="derived",
    ),
    "codegen": _Class(
        "CodeGenConfig",
        {"num_hidden_layers": 28, "hidden_size": 4096, "num_attention_heads": 16},
        aliases=_GPT2_NAMES,
        kv_heads="mha",
        head_dim="derived",
    ),
    "ctrl": _Class(
        "CTRLConfig",
        {"num_hidden_layers": 48, "hidden_size": 1280, "num_attention_heads": 16},
        aliases=_GPT2_NAMES,
        kv_heads="mha",
        head_dim="derived",
    ),
    "git": _Class(
        "GitConfig",
        {"num_hidden_layers": 6, "hidden_size": 768, "num_attention_heads": 12},
        kv_heads="mha",
        head_dim="derived",
    ),
    "gpt2": _Class(
        "GPT2Config",
        {"num_hidden_layers": 12, "hidden_size": 768, "num_attention_heads": 12},
        aliases=_GPT2_NAMES,
        kv_heads="mha",
        head_dim="derived",
    ),
    "gpt-sw3": _Class(
        "GPT2Config",
        {"num_hidden_layers": 12, "hidden_size": 768, "num_attention_heads": 12},
        aliases=_GPT2_NAMES,
        kv_heads="mha",
        head_dim="derived",
    ),
    "gpt_neox": _Class(
        "GPTNeoXConfig",
        {"num_hidden_layers": 44, "hidden_size": 6144, "num_attention_heads": 64},
        kv_heads="mha",
        head_dim="derived",
    ),
    "gpt_neox_japanese": _Class(
        "GPTNeoXJapaneseConfig",
        {"num_hidden_layers": 32, "hidden_size": 2560, "num_attention_heads": 32},
        kv_heads="mha",
        head_dim="derived",
    ),
    "gptj": _Class(
        "GPTJConfig",
        {"num_hidden_layers": 28, "hidden_size": 4096, "num_attention_heads": 16},
        aliases=_GPT2_NAMES,
        kv_heads="mha",
        head_dim="derived",
    ),
    "gpt_bigcode": _Class(
        "GPTBigCodeConfig",
        {"num_hidden_layers": 12, "hidden_size": 768, "num_attention_heads": 12},
        aliases=_GPT2_NAMES,
        kv_heads="multi_query",
        head_dim="derived",
    ),
}
"""Each model type's configuration class, as read in transformers 5.24.0
(``models/<type>/configuration_<type>.py`` and ``modeling_<type>.py``; ``exaone``, ``internlm3`` and
``iquestcoder`` run ``LlamaForCausalLM``; ``emu3``'s causal LM is its text model, whose fields sit in
``text_config`` with ``Emu3TextConfig``'s defaults; ``git``'s decoder is BERT-style self-attention)."""


def _normalized(view: ConfigView, cls: _Class) -> ConfigView:
    """The view with each needed field under its canonical name: the published alias when the config
    uses one, else the config's own, else the class default (noted)."""
    fields = dict(view.fields)
    for name in _NAMES:
        alias = cls.aliases.get(name)
        if alias is not None and view.has(alias):
            fields[name] = view.value(alias)
        elif not view.has(name) and name in cls.defaults:
            fields[name] = cls.defaults[name]
            view.notes.append(
                f"{alias or name} is not in the config; the {cls.name} default {cls.defaults[name]} applies"
            )
    normalized = ConfigView(view.model_type, fields)
    normalized.notes = view.notes
    return normalized


def _derived_head_dim(view: ConfigView) -> int:
    hidden, heads = view.require_int("hidden_size"), view.require_int("num_attention_heads")
    if hidden % heads:
        raise ConfigFieldError(
            view.model_type, "hidden_size", f"{hidden} is not a multiple of num_attention_heads {heads}"
        )
    return hidden // heads


def _kv_heads(view: ConfigView, cls: _Class) -> int:
    if cls.kv_heads == "field":
        return num_kv_heads(view)
    heads = view.require_int("num_attention_heads")
    if cls.kv_heads == "multi_query":
        if not view.contains("multi_query"):
            view.notes.append(f"multi_query is not in the config; the {cls.name} default (true) applies")
        return 1 if view.value("multi_query") in (None, True) else heads
    return heads


def full_attention_class(view: ConfigView) -> LayerGroups:
    """Every layer full attention, sized as the type's configuration class says (module docstring)."""
    cls = CLASSES[view.model_type]
    view = _normalized(view, cls)
    if cls.head_dim == "required":
        size = view.require_int("head_dim")
    else:
        size = _derived_head_dim(view) if cls.head_dim == "derived" else head_dim(view)
    attention = Attention(num_kv_heads=_kv_heads(view, cls), head_dim=size, v_head_dim=size)
    return build(view, [attention] * num_layers(view))


_DBRX = _Class(
    "DbrxConfig",
    {"num_hidden_layers": 24, "hidden_size": 2048, "num_attention_heads": 16},
    aliases={"num_hidden_layers": "n_layers", "hidden_size": "d_model", "num_attention_heads": "n_heads"},
)


def dbrx(view: ConfigView) -> LayerGroups:
    """DBRX: full attention with ``attn_config.kv_n_heads`` K/V heads (``DbrxAttentionConfig`` default 1)
    of ``d_model // n_heads`` values (``DbrxAttention`` in ``modeling_dbrx.py``, transformers 5.24.0)."""
    view = _normalized(view, _DBRX)
    kv_heads = view.sub("attn_config").int_or_default("kv_n_heads", 1, "DbrxAttentionConfig")
    size = _derived_head_dim(view)
    return build(view, [Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)] * num_layers(view))
