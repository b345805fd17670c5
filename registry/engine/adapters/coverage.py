"""What the adapters cover: the mechanisms each adapter lays out, and every causal-LM ``model_type`` of
transformers that has no adapter, with the reason.

The list of model types is transformers 5.24.0's ``MODEL_FOR_CAUSAL_LM_MAPPING_NAMES``
(``models/auto/modeling_auto.py``). Each of its entries is either a key of the adapter table or a key
of :data:`NO_ADAPTER`; a test reads the mapping from the installed transformers and holds that, and
another holds :data:`ADAPTER_MECHANISMS` to what each adapter really produces for the conformance
configs. The site's list of architectures is printed from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from registry.engine.adapters import (
    cohere,
    deepseek,
    dense,
    falcon,
    falcon_h1,
    gemma,
    gemma3n,
    gpt_oss,
    jamba,
    kimi_linear,
    llama4,
    mamba2_hybrid,
    minimax,
    mistral,
    qwen,
)
from registry.engine.adapters._config import ConfigView
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroups,
    Mechanism,
    NoCache,
    Parallel,
    Recurrent,
    Shared,
    SlidingWindow,
)

Adapter = Callable[[ConfigView], LayerGroups]

FULL = "full attention"
SLIDING = "sliding window"
CHUNKED = "chunked attention"
MLA_LATENT = "MLA latent"
MLA_INDEXED = "MLA latent + indexer keys"
SHARED = "shared KV"


def state(variant: str) -> str:
    """The label of a recurrent state of ``variant`` (``mamba2 state``)."""
    return f"{variant} state"


def side_by_side(*labels: str) -> str:
    """The label of a layer running several mechanisms at once (``full attention ∥ mamba2 state``)."""
    return " ∥ ".join(labels)


def mechanism_label(mechanism: Mechanism) -> str | None:
    """What one layer keeps, in a few words; ``None`` for a layer that keeps nothing."""
    match mechanism:
        case Attention():
            return FULL
        case SlidingWindow():
            return SLIDING
        case Chunked():
            return CHUNKED
        case MLA():
            return MLA_LATENT if mechanism.index_head_dim is None else MLA_INDEXED
        case Recurrent():
            return state(mechanism.variant)
        case Compressed():
            return f"compressed attention ({mechanism.variant})"
        case Shared():
            return SHARED
        case Parallel():
            return side_by_side(*(mechanism_label(part) or "" for part in mechanism.parts))
        case NoCache():
            return None
    raise TypeError(f"not a cache mechanism: {mechanism!r}")


def mechanism_labels(layout: LayerGroups) -> frozenset[str]:
    """The labels of every layer of ``layout`` (multi-token-prediction layers included)."""
    labels = (mechanism_label(group.mechanism) for group in (*layout.groups, *layout.mtp_groups))
    return frozenset(label for label in labels if label is not None)


ADAPTER_MECHANISMS: Mapping[Adapter, frozenset[str]] = {
    dense.plain: frozenset({FULL}),
    dense.glm4_moe: frozenset({FULL}),
    mistral.whole_model_window: frozenset({FULL, SLIDING}),
    qwen.qwen2: frozenset({FULL, SLIDING}),
    qwen.qwen3_next: frozenset({FULL, state("gated-deltanet")}),
    qwen.qwen3_5: frozenset({FULL, state("gated-deltanet")}),
    qwen.qwen3_vl_moe: frozenset({FULL, SLIDING}),
    gemma.gemma2: frozenset({FULL, SLIDING}),
    gemma.gemma3: frozenset({FULL, SLIDING}),
    cohere.cohere2: frozenset({FULL, SLIDING}),
    gemma3n.gemma3n: frozenset({FULL, SLIDING, SHARED}),
    gpt_oss.gpt_oss: frozenset({FULL, SLIDING}),
    llama4.llama4: frozenset({FULL, CHUNKED}),
    falcon.falcon: frozenset({FULL}),
    falcon_h1.falcon_h1: frozenset({side_by_side(FULL, state("mamba2"))}),
    deepseek.deepseek: frozenset({MLA_LATENT}),
    deepseek.deepseek_v32: frozenset({MLA_INDEXED}),
    kimi_linear.kimi_linear: frozenset({MLA_LATENT, state("kda")}),
    jamba.jamba: frozenset({FULL, state("mamba")}),
    mamba2_hybrid.bamba: frozenset({FULL, state("mamba2")}),
    mamba2_hybrid.nemotron_h: frozenset({FULL, state("mamba2")}),
    minimax.minimax: frozenset({FULL, state("lightning")}),
}
"""The mechanisms each adapter lays out across the configs it reads (the site's list prints them)."""


@dataclass(frozen=True)
class Reason:
    """Why a causal-LM ``model_type`` has no adapter: a short name and the explanation."""

    name: str
    text: str


ENCODER_DECODER = Reason(
    "encoder-decoder",
    "An encoder-decoder model; its causal-LM class is the decoder half run alone. Published checkpoints "
    "are encoder-decoder pairs whose decoder also caches cross-attention K and V over the encoder's "
    "output (transformers' EncoderDecoderCache): not the decoder-only cache the engine computes.",
)
ENCODER_ONLY = Reason(
    "encoder-only",
    "A bidirectional encoder (masked-language-model pretraining); its causal-LM class exists to train "
    "the encoder as the decoder of an encoder-decoder pair (is_decoder). Published checkpoints are "
    "encoders, which keep no KV cache when they run.",
)
NOT_YET = Reason(
    "no adapter yet",
    "A decoder-only language model whose cache layout has not yet been read from its transformers "
    "code; the engine refuses its configs (unsupported model type) rather than guess a layout.",
)

_ENCODER_DECODER = ("bart", "bigbird_pegasus", "blenderbot", "blenderbot-small")
_ENCODER_ONLY = ("bert", "bert-generation", "big_bird", "camembert", "data2vec-text", "electra", "ernie")
_NOT_YET = (
    "afmoe",
    "apertus",
    "apertus1p5_text",
    "arcee",
    "aria_text",
    "axk1",
    "axk2",
    "bailing_hybrid",
    "beam",
    "biogpt",
    "bitnet",
    "bloom",
    "blt",
    "codegen",
    "cohere2_moe",
    "cohere_compass_text",
    "cpmant",
    "ctrl",
    "cwm",
    "dbrx",
    "deepseek_v4",
    "diffllama",
    "doge",
    "dory",
    "dots1",
    "dots3_note",
    "dots3_note_text",
    "emu3",
    "ernie4_5",
    "ernie4_5_moe",
    "exaone",
    "exaone4",
    "exaone_moe",
    "falcon_mamba",
    "flex_olmo",
    "flint",
    "fuyu",
    "gemma",
    "gemma4",
    "gemma4_assistant",
    "gemma4_text",
    "gemma4_unified",
    "gemma4_unified_assistant",
    "gemma4_unified_text",
    "git",
    "glm",
    "glm4",
    "glm4_moe_lite",
    "glm_moe_dsa",
    "got_ocr2",
    "gpt-sw3",
    "gpt2",
    "gpt_bigcode",
    "gpt_neo",
    "gpt_neox",
    "gpt_neox_japanese",
    "gptj",
    "granite_swa",
    "granitemoe",
    "granitemoe_swa",
    "granitemoehybrid",
    "granitemoeshared",
    "helium",
    "hrm_text",
    "hunyuan_v1_dense",
    "hunyuan_v1_moe",
    "hy_v3",
    "hy_v4",
    "hyperclovax",
    "inkling2_loop_text",
    "inkling2_text",
    "inkling_text",
    "internlm3",
    "iquestcoder",
    "jais2",
    "jetmoe",
    "kolibri1",
    "laguna",
    "lara_mini",
    "lfm2",
    "lfm2_moe",
    "lfm3",
    "longcat_flash",
)

NO_ADAPTER: Mapping[str, Reason] = {
    **dict.fromkeys(_ENCODER_DECODER, ENCODER_DECODER),
    **dict.fromkeys(_ENCODER_ONLY, ENCODER_ONLY),
    **dict.fromkeys(_NOT_YET, NOT_YET),
}
"""Every causal-LM ``model_type`` of transformers 5.24.0 without an adapter, and why."""
