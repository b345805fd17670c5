"""Config adapters: a published ``config.json`` in, a normalized :class:`~registry.engine.layers.LayerGroups` out.

One adapter per ``model_type`` family, each following the semantics of a named transformers or vLLM
file (cited in its module). Every adapter resolves the mechanism of each layer first (``layer_types``,
a sliding-window pattern, an interval, 1-based or 0-based index lists, per-layer flags) and only then
applies that mechanism's fields to that layer, so a model-level ``num_key_value_heads x head_dim`` is
never applied to an MLA, recurrent, shared or chunked layer.

Errors::

    ValueError
    ├── UnsupportedModelType   no adapter for this model_type (or no model_type at all)
    └── ConfigFieldError       a known model_type whose config lacks or garbles a needed field
        └── ConfigValueError   ... states it with a value no model can have (-32 layers, '8', 10^99)

:func:`geometry_fields` is separate: it gives the formula-expression evaluator the config's numbers, and
:func:`stated_dtype` the dtype the config says the model computes in, and :func:`max_context_from_config` the
longest context it says the model takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from registry.engine.adapters import (
    blt,
    cohere,
    cpmant,
    deepseek,
    deepseek_v4,
    dense,
    dense_classes,
    dory,
    dots3,
    dsa,
    falcon,
    falcon_h1,
    gemma,
    gemma3n,
    gemma4,
    gpt_oss,
    hrm,
    inkling,
    interleaved,
    jamba,
    kimi_linear,
    lara,
    latent,
    llama4,
    mamba2_hybrid,
    minimax,
    mistral,
    multimodal,
    olmo_hybrid,
    plain,
    qwen,
    qwen4,
    recurrent,
    reformer,
    rnn,
    ssm,
    windowed,
    wrapped,
    xlnet,
    zamba,
    zaya,
)
from registry.engine.adapters._config import (
    ConfigFieldError,
    ConfigValueError,
    ConfigView,
    UnsupportedModelType,
    merged_fields,
    read_config,
    stated_dtype,
)
from registry.engine.adapters.context import ContextMaximum, max_context_from_config
from registry.engine.adapters.coverage import (
    ADAPTER_MECHANISMS,
    CACHE_OUTSIDE,
    NO_ADAPTER,
    Adapter,
    Reason,
)
from registry.engine.layers import LayerGroups

_ADAPTERS: dict[str, Adapter] = {
    "llama": dense.plain,
    "granite": dense.plain,
    "olmo2": dense.plain,
    "cohere": dense.plain,
    "glm4_moe": dense.glm4_moe,
    "mistral": mistral.whole_model_window,
    "mixtral": mistral.whole_model_window,
    "phi3": mistral.whole_model_window,
    "starcoder2": mistral.whole_model_window,
    "qwen2": qwen.qwen2,
    "qwen2_moe": qwen.qwen2,
    "qwen3": qwen.qwen2,
    "qwen3_moe": qwen.qwen2,
    "qwen3_next": qwen.qwen3_next,
    "qwen3_5": qwen.qwen3_5,
    "qwen3_5_text": qwen.qwen3_5,
    "qwen3_5_moe": qwen.qwen3_5,
    "qwen3_5_moe_text": qwen.qwen3_5,
    "qwen4_exp": qwen4.qwen4_exp,
    "qwen4_exp_text": qwen4.qwen4_exp,
    "qwen3_vl_moe": qwen.qwen3_vl_moe,
    "qwen3_vl_moe_text": qwen.qwen3_vl_moe,
    "gemma2": gemma.gemma2,
    "gemma3": gemma.gemma3,
    "gemma3_text": gemma.gemma3,
    "cohere2": cohere.cohere2,
    "gemma3n": gemma3n.gemma3n,
    "gemma3n_text": gemma3n.gemma3n,
    "gpt_oss": gpt_oss.gpt_oss,
    "llama4": llama4.llama4,
    "llama4_text": llama4.llama4,
    "falcon": falcon.falcon,
    "falcon_h1": falcon_h1.falcon_h1,
    "deepseek_v2": deepseek.deepseek,
    "deepseek_v3": deepseek.deepseek,
    "kimi_k2": deepseek.deepseek,
    "deepseek_v32": deepseek.deepseek_v32,
    "deepseek_v4": deepseek_v4.deepseek_v4,
    "glm4_moe_lite": deepseek.deepseek,
    "longcat_flash": deepseek.longcat_flash,
    "axk1": deepseek.deepseek,
    "axk2": deepseek.deepseek_v32,
    "glm_moe_dsa": dsa.indexed_mla,
    "hy_v4": dsa.indexed_mla,
    "falcon_mamba": recurrent.falcon_mamba,
    "lfm2": recurrent.lfm2,
    "lfm2_moe": recurrent.lfm2,
    "lfm3": recurrent.lfm3,
    "granitemoehybrid": recurrent.granitemoehybrid,
    "bailing_hybrid": recurrent.bailing_hybrid,
    "got_ocr2": wrapped.got_ocr2,
    "fuyu": wrapped.fuyu,
    "doge": mistral.whole_model_window,
    "dory": dory.dory,
    "dbrx": plain.dbrx,
    "gpt_neo": windowed.gpt_neo,
    **dict.fromkeys(
        (
            "gemma4",
            "gemma4_text",
            "gemma4_unified",
            "gemma4_unified_text",
        ),
        gemma4.gemma4,
    ),
    "inkling_text": inkling.inkling,
    "dots3_note": dots3.dots3_note,
    "dots3_note_text": dots3.dots3_note,
    "blt": blt.blt,
    "cpmant": cpmant.cpmant,
    "hrm_text": hrm.hrm_text,
    "inkling2_text": inkling.inkling2,
    "inkling2_loop_text": inkling.inkling2_loop,
    "kimi_linear": kimi_linear.kimi_linear,
    "lara_mini": lara.lara_mini,
    "jamba": jamba.jamba,
    "bamba": mamba2_hybrid.bamba,
    "nemotron_h": mamba2_hybrid.nemotron_h,
    "minimax": minimax.minimax,
    "minimax_text_01": minimax.minimax,
    "minimax_m2": minimax.minimax,
    "minimax_m3_vl_text": minimax.minimax_m3,
    # m-z of transformers' causal-LM mapping
    "mamba": ssm.mamba,
    "recurrent_gemma": rnn.recurrent_gemma,
    "reformer": reformer.reformer,
    "rwkv": rnn.rwkv,
    "xlstm": rnn.xlstm,
    "xlnet": xlnet.xlnet,
    "mamba2": ssm.mamba2,
    "mellum": interleaved.mellum,
    "mimo_v2_flash": interleaved.mimo_v2_flash,
    "minicpm3": latent.minicpm3,
    "ministral": interleaved.ministral,
    "ministral3": interleaved.ministral3,
    "modernbert-decoder": interleaved.modernbert_decoder,
    "mllama": multimodal.mllama,
    "moshi": multimodal.moshi,
    "moss_transcribe_diarize": multimodal.moss_transcribe_diarize,
    "mpt": dense_classes.mpt,
    "musicgen_melody": multimodal.musicgen_melody,
    "nanochat": dense_classes.nanochat,
    "nemotron": dense_classes.nemotron,
    "olmo": dense_classes.olmo,
    "olmo3": interleaved.olmo3,
    "olmo_hybrid": olmo_hybrid.olmo_hybrid,
    "olmoe": dense_classes.olmoe,
    "opt": dense_classes.opt,
    "persimmon": dense_classes.persimmon,
    "phi": dense_classes.phi,
    "phi4_multimodal": multimodal.phi4_multimodal,
    "phimoe": interleaved.phimoe,
    "sarvam_mla": dense_classes.sarvam_mla,
    "sarvam_moe": dense_classes.sarvam_moe,
    "seed_oss": dense_classes.seed_oss,
    "smollm3": interleaved.smollm3,
    "solar_open": dense_classes.solar_open,
    "stablelm": dense_classes.stablelm,
    "vaultgemma": interleaved.vaultgemma,
    "xglm": dense_classes.xglm,
    "youtu": latent.youtu,
    "zamba": zamba.zamba,
    "zamba2": zamba.zamba2,
    "zaya": zaya.zaya,
    **dict.fromkeys(plain.CLASSES, plain.full_attention_class),
    **dict.fromkeys(windowed.CLASSES, windowed.local_global),
}

SUPPORTED_MODEL_TYPES: tuple[str, ...] = tuple(sorted(_ADAPTERS))
"""Every ``model_type`` an adapter exists for, sorted."""


def adapter_of(model_type: str) -> Adapter | None:
    """The adapter that reads configs of ``model_type``, or None when there is none."""
    return _ADAPTERS.get(model_type)


@dataclass(frozen=True)
class Coverage:
    """One ``model_type``: the adapter that reads it (``module.function``) and the mechanisms it lays
    out, or the reason it has none."""

    model_type: str
    adapter: str | None
    mechanisms: frozenset[str]
    reason: Reason | None
    note: str = ""
    """What a reader of the list must know beside the mechanisms (:data:`~.coverage.CACHE_OUTSIDE`)."""


def coverage() -> tuple[Coverage, ...]:
    """Every ``model_type`` with an adapter or a reason for having none, sorted by name."""
    rows = [
        Coverage(
            name,
            f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}",
            ADAPTER_MECHANISMS[fn],
            None,
            CACHE_OUTSIDE.get(name, ""),
        )
        for name, fn in _ADAPTERS.items()
    ]
    rows += [Coverage(name, None, frozenset(), reason) for name, reason in NO_ADAPTER.items()]
    return tuple(sorted(rows, key=lambda row: row.model_type))


def _wrapped_model_type(config: Mapping[str, Any]) -> str | None:
    """The decoder's ``model_type`` inside a multimodal wrapper's ``text_config``, if it names one."""
    text = config.get("text_config")
    inner = text.get("model_type") if isinstance(text, Mapping) else None
    return inner if isinstance(inner, str) else None


def layer_groups_from_config(config: Mapping[str, Any]) -> LayerGroups:
    """The cache layout of the model a ``config.json`` describes.

    A wrapper whose own ``model_type`` has no adapter (LLaVA-style multimodal models) is read through
    its ``text_config`` when that names a supported decoder; the layout then carries the decoder's
    ``model_type`` and a note naming the wrapper.

    Raises :class:`UnsupportedModelType` for a ``model_type`` without an adapter (never a guess) and
    :class:`ConfigFieldError` naming the field when a known type's config lacks or garbles one.
    """
    view = read_config(config)
    adapter = _ADAPTERS.get(view.model_type)
    inner = _wrapped_model_type(config)
    if adapter is None and inner is not None and inner in _ADAPTERS:
        wrapper, view = view.model_type, ConfigView(inner, view.fields)
        view.notes.append(f"{wrapper} wraps a {inner} decoder; the layout is read from its text_config")
        adapter = _ADAPTERS[inner]
    if adapter is None:
        raise UnsupportedModelType(view.model_type, SUPPORTED_MODEL_TYPES)
    return adapter(view)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _derived_head_dim(fields: Mapping[str, int | float]) -> int | None:
    """``hidden_size // num_attention_heads`` when both are whole numbers and the division is exact."""
    hidden, heads = fields.get("hidden_size"), fields.get("num_attention_heads")
    if not isinstance(hidden, int) or not isinstance(heads, int) or heads <= 0:
        return None
    return hidden // heads if hidden % heads == 0 else None


def geometry_fields(config: Mapping[str, Any]) -> dict[str, int | float]:
    """The config's numeric top-level fields (``text_config`` merged over them) for formula expressions.

    Booleans, strings, lists and nested objects are left out. One name may be *derived*: ``head_dim``,
    added as ``hidden_size // num_attention_heads`` only when the config has no ``head_dim`` and the
    division is exact, the value transformers would use. Works for any ``model_type``.
    """
    if not isinstance(config, Mapping):
        raise ConfigFieldError("config", "config", f"must be a JSON object, not {type(config).__name__}")
    merged = merged_fields(config)
    fields: dict[str, int | float] = {k: v for k, v in merged.items() if isinstance(k, str) and _is_number(v)}
    derived = _derived_head_dim(fields)
    if "head_dim" not in fields and derived is not None:
        fields["head_dim"] = derived
    return fields


__all__ = [
    "NO_ADAPTER",
    "SUPPORTED_MODEL_TYPES",
    "Adapter",
    "ConfigFieldError",
    "ConfigValueError",
    "ContextMaximum",
    "Coverage",
    "UnsupportedModelType",
    "adapter_of",
    "coverage",
    "geometry_fields",
    "layer_groups_from_config",
    "max_context_from_config",
    "stated_dtype",
]
