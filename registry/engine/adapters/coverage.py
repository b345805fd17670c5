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
FULL_INDEXED = "full attention + indexer keys"
SLIDING = "sliding window"
CHUNKED = "chunked attention"
MLA_LATENT = "MLA latent"
MLA_INDEXED = "MLA latent + indexer keys"
MLA_WINDOW = "MLA latent, sliding window"
SHARED = "shared KV"
HIDDEN = "hidden states"
HIDDEN_WINDOW = "hidden states, sliding window"
HIDDEN_BUCKETS = "hidden states + hash buckets"


def state(variant: str) -> str:
    """The label of a recurrent state of ``variant`` (``mamba2 state``)."""
    return f"{variant} state"


def compressed(variant: str) -> str:
    """The label of a sequence-compressed attention layer of ``variant`` (``compressed attention (csa)``)."""
    return f"compressed attention ({variant})"


def side_by_side(*labels: str) -> str:
    """The label of a layer running several mechanisms at once (``full attention ∥ mamba2 state``)."""
    return " ∥ ".join(labels)


def mechanism_label(mechanism: Mechanism) -> str | None:
    """What one layer keeps, in a few words; ``None`` for a layer that keeps nothing."""
    match mechanism:
        case Attention():
            if mechanism.hidden_state is not None:
                return HIDDEN if mechanism.buckets is None else HIDDEN_BUCKETS
            return FULL if mechanism.index_head_dim is None else FULL_INDEXED
        case SlidingWindow():
            return SLIDING if mechanism.hidden_state is None else HIDDEN_WINDOW
        case Chunked():
            return CHUNKED
        case MLA():
            if mechanism.window is not None:
                return MLA_WINDOW
            return MLA_LATENT if mechanism.index_head_dim is None else MLA_INDEXED
        case Recurrent():
            return state(mechanism.variant)
        case Compressed():
            return compressed(mechanism.variant)
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
    plain.full_attention_class: frozenset({FULL}),
    plain.dbrx: frozenset({FULL}),
    windowed.local_global: frozenset({FULL, SLIDING}),
    windowed.gpt_neo: frozenset({FULL, SLIDING}),
    dory.dory: frozenset({FULL, SLIDING}),
    mistral.whole_model_window: frozenset({FULL, SLIDING}),
    qwen.qwen2: frozenset({FULL, SLIDING}),
    qwen.qwen3_next: frozenset({FULL, state("gated-deltanet")}),
    qwen.qwen3_5: frozenset({FULL, state("gated-deltanet")}),
    qwen.qwen3_vl_moe: frozenset({FULL, SLIDING}),
    qwen4.qwen4_exp: frozenset(
        {
            FULL_INDEXED,
            state("gated-deltanet"),
            side_by_side(state("gated-deltanet"), state(qwen4.PLE_VARIANT)),
        }
    ),
    gemma.gemma2: frozenset({FULL, SLIDING}),
    gemma.gemma3: frozenset({FULL, SLIDING}),
    cohere.cohere2: frozenset({FULL, SLIDING}),
    gemma3n.gemma3n: frozenset({FULL, SLIDING, SHARED}),
    gemma4.gemma4: frozenset({FULL, SLIDING, SHARED}),
    gpt_oss.gpt_oss: frozenset({FULL, SLIDING}),
    llama4.llama4: frozenset({FULL, CHUNKED}),
    falcon.falcon: frozenset({FULL}),
    falcon_h1.falcon_h1: frozenset({side_by_side(FULL, state("mamba2"))}),
    deepseek.deepseek: frozenset({MLA_LATENT}),
    deepseek.deepseek_v32: frozenset({MLA_INDEXED}),
    deepseek.longcat_flash: frozenset({MLA_LATENT}),
    deepseek_v4.deepseek_v4: frozenset(
        {SLIDING, compressed(deepseek_v4.CSA_VARIANT), compressed(deepseek_v4.HCA_VARIANT)}
    ),
    dsa.indexed_mla: frozenset({MLA_LATENT, MLA_INDEXED}),
    kimi_linear.kimi_linear: frozenset({MLA_LATENT, state("kda")}),
    lara.lara_mini: frozenset({FULL, SLIDING, state("gated-deltanet")}),
    jamba.jamba: frozenset({FULL, state("mamba")}),
    mamba2_hybrid.bamba: frozenset({FULL, state("mamba2")}),
    mamba2_hybrid.nemotron_h: frozenset({FULL, state("mamba2")}),
    minimax.minimax: frozenset({FULL, state("lightning")}),
    minimax.minimax_m3: frozenset({FULL, FULL_INDEXED}),
    dense_classes.nanochat: frozenset({FULL}),
    dense_classes.nemotron: frozenset({FULL}),
    dense_classes.olmo: frozenset({FULL}),
    dense_classes.olmoe: frozenset({FULL, SLIDING}),
    dense_classes.phi: frozenset({FULL}),
    dense_classes.seed_oss: frozenset({FULL}),
    dense_classes.solar_open: frozenset({FULL}),
    dense_classes.sarvam_moe: frozenset({FULL}),
    dense_classes.sarvam_mla: frozenset({MLA_LATENT}),
    dense_classes.stablelm: frozenset({FULL}),
    dense_classes.persimmon: frozenset({FULL}),
    dense_classes.opt: frozenset({FULL}),
    dense_classes.xglm: frozenset({FULL}),
    dense_classes.mpt: frozenset({FULL}),
    interleaved.ministral: frozenset({FULL, SLIDING}),
    interleaved.ministral3: frozenset({FULL, SLIDING}),
    interleaved.phimoe: frozenset({SLIDING}),
    interleaved.olmo3: frozenset({FULL, SLIDING}),
    interleaved.vaultgemma: frozenset({FULL, SLIDING}),
    interleaved.smollm3: frozenset({FULL, SLIDING}),
    interleaved.mellum: frozenset({FULL, SLIDING}),
    interleaved.mimo_v2_flash: frozenset({FULL, SLIDING}),
    interleaved.modernbert_decoder: frozenset({FULL, SLIDING}),
    latent.minicpm3: frozenset({MLA_LATENT}),
    latent.youtu: frozenset({MLA_LATENT}),
    ssm.mamba: frozenset({state("mamba")}),
    ssm.mamba2: frozenset({state("mamba2")}),
    olmo_hybrid.olmo_hybrid: frozenset({FULL, state("gated-deltanet")}),
    multimodal.moss_transcribe_diarize: frozenset({FULL}),
    multimodal.phi4_multimodal: frozenset({SLIDING}),
    multimodal.moshi: frozenset({SLIDING}),
    multimodal.mllama: frozenset({FULL}),
    multimodal.musicgen_melody: frozenset({FULL}),
    zamba.zamba: frozenset({state("mamba"), side_by_side(FULL, state("mamba"))}),
    zamba.zamba2: frozenset({state("mamba2"), side_by_side(FULL, state("mamba2"))}),
    zaya.zaya: frozenset({side_by_side(FULL, state("cca")), side_by_side(SLIDING, state("cca"))}),
    recurrent.falcon_mamba: frozenset({state("mamba")}),
    recurrent.lfm2: frozenset({FULL, state("short-conv")}),
    recurrent.lfm3: frozenset({FULL, SLIDING, state("short-conv")}),
    recurrent.granitemoehybrid: frozenset({FULL, state("mamba2")}),
    recurrent.bailing_hybrid: frozenset({MLA_LATENT, state("kda")}),
    rnn.rwkv: frozenset({state("rwkv")}),
    rnn.recurrent_gemma: frozenset({SLIDING, state("rg-lru")}),
    rnn.xlstm: frozenset({state("mlstm")}),
    wrapped.got_ocr2: frozenset({FULL, SLIDING}),
    wrapped.fuyu: frozenset({FULL}),
    cpmant.cpmant: frozenset({FULL}),
    blt.blt: frozenset({FULL, SLIDING}),
    xlnet.xlnet: frozenset({HIDDEN, HIDDEN_WINDOW}),
    reformer.reformer: frozenset({HIDDEN_WINDOW, HIDDEN_BUCKETS}),
    hrm.hrm_text: frozenset({FULL}),
    dots3.dots3_note: frozenset({MLA_LATENT, MLA_INDEXED, MLA_WINDOW}),
    inkling.inkling: frozenset(
        {side_by_side(FULL, state(inkling.SCONV)), side_by_side(SLIDING, state(inkling.SCONV))}
    ),
    inkling.inkling2: frozenset(
        {side_by_side(FULL, state(inkling.SCONV2)), side_by_side(SLIDING, state(inkling.SCONV2))}
    ),
    inkling.inkling2_loop: frozenset(
        {side_by_side(FULL, state(inkling.SCONV2)), side_by_side(SLIDING, state(inkling.SCONV2))}
    ),
}
"""The mechanisms each adapter lays out across the configs it reads (the site's list prints them)."""

CACHE_OUTSIDE: Mapping[str, str] = {
    "blt": (
        "transformers 5.24.0 cannot build BLT's cache itself: BltModel.forward asks for "
        "DynamicCache(config=BltConfig), and BltConfig has no num_hidden_layers. Handed an "
        "EncoderDecoderCache of two empty DynamicCaches, the model fills it (the local encoder's K and V in "
        "one half, the local decoder's in the other), and the conformance tests measure both halves."
    ),
    "reformer": (
        "transformers 5.24.0 keeps Reformer's state in its own ReformerDynamicCache (states_cache: every "
        "layer's input hidden states; buckets_cache: the LSH layers' hash buckets, int64), which the model "
        "returns as past_buckets_states; the conformance tests measure those tensors."
    ),
    "xlnet": (
        "transformers 5.24.0 keeps XLNet's state in no cache object: XLNetModel returns each layer's input "
        "hidden states as mems (with use_mems), which the next call takes back; the conformance tests "
        "measure those tensors, in fp32: its relative positional embedding is built in float32 whatever "
        "the model dtype, and a bf16 model fails on it."
    ),
}
"""Model types read by an adapter whose state transformers keeps outside the cache objects other models
build (in a cache handed in to the model, returned beside the output, or in a cache class of the model's
own), and how it is measured (the site's list prints it beside the mechanisms)."""


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

ASSISTANT = Reason(
    "assistant",
    "A drafting model for speculative decoding that runs only beside its target model: it keeps no "
    "cache of its own and reads every layer's K and V from the target (Gemma4AssistantConfig shares all "
    "its layers, and its forward requires the target's shared_kv_states). Its cache is the target's.",
)

_ENCODER_DECODER = ("bart", "bigbird_pegasus", "blenderbot", "blenderbot-small")
_ENCODER_ONLY = ("bert", "bert-generation", "big_bird", "camembert", "data2vec-text", "electra", "ernie")
_ENCODER_DECODER_M_Z = (
    "marian",
    "mbart",
    "musicgen",
    "mvp",
    "pegasus",
    "plbart",
    "prophetnet",
    "trocr",
    "whisper",
)
_ENCODER_ONLY_M_Z = (
    "megatron-bert",
    "rembert",
    "roberta",
    "roberta-prelayernorm",
    "roc_bert",
    "roformer",
    "xlm-roberta",
    "xlm-roberta-xl",
    "xmod",
)
_OWN_REASONS: Mapping[str, Reason] = {
    "openai-gpt": Reason(
        "no cache",
        "transformers' OpenAI GPT (GPT-1) keeps no cache at all: OpenAIGPTLMHeadModel takes no past keys "
        "and values and recomputes the whole sequence at every step, so there is no cache to lay out.",
    ),
    "xlm": Reason(
        "masked-LM encoder",
        "XLM's published checkpoints are masked-language-model (and translation-LM) encoders; "
        "XLMWithLMHeadModel is their prediction head, and run as a decoder it keeps the encoder-decoder "
        "kind of cache, not the decoder-only cache the engine computes.",
    ),
}
"""Model types whose reason is their own, read from their transformers code."""

NO_ADAPTER: Mapping[str, Reason] = {
    **dict.fromkeys(_ENCODER_DECODER + _ENCODER_DECODER_M_Z, ENCODER_DECODER),
    **dict.fromkeys(_ENCODER_ONLY + _ENCODER_ONLY_M_Z, ENCODER_ONLY),
    **dict.fromkeys(("gemma4_assistant", "gemma4_unified_assistant"), ASSISTANT),
    **_OWN_REASONS,
}
"""Every causal-LM ``model_type`` of transformers 5.24.0 without an adapter, and why."""
