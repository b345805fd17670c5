"""Scaled-down configs of the causal-LM model types whose adapters came with the list of every
architecture (names a to l, and Qwen3.5 and Qwen4-Exp), in the shape and under the rules of :mod:`.configs`."""

from __future__ import annotations

from typing import Any

from tests.conformance.configs import _BASE, TIME_STEP_LIMIT, WINDOW, Case, _config

_FP32_REFERENCE = (
    "CPU runs take transformers' reference PyTorch path, which computes the state in float32: {}"
)


def _text(model_type: str, **fields: Any) -> dict[str, Any]:
    """A decoder config nested under a wrapper's ``text_config``."""
    return {"model_type": model_type, **_BASE, **fields}


_DELTA_NET: dict[str, Any] = {
    "head_dim": 16,
    "linear_num_key_heads": 2,
    "linear_num_value_heads": 4,
    "linear_key_head_dim": 8,
    "linear_value_head_dim": 6,
    "linear_conv_kernel_dim": 3,
}
"""Gated DeltaNet sizes that all differ, so a swapped factor changes the byte count."""

_QWEN3_5_MOE: dict[str, Any] = {
    "num_experts": 4,
    "num_experts_per_tok": 2,
    "moe_intermediate_size": 16,
    "shared_expert_intermediate_size": 16,
}


def _qwen3_5() -> list[Case]:
    state = _FP32_REFERENCE.format(
        "torch_chunk_gated_delta_rule casts q, k, v, beta and g to float32 (modeling_qwen3_5.py)"
    )
    dense = _text("qwen3_5_text", num_hidden_layers=4, full_attention_interval=2, **_DELTA_NET)
    moe = _text(
        "qwen3_5_moe_text",
        num_hidden_layers=3,
        layer_types=["linear_attention", "full_attention", "linear_attention"],
        **_DELTA_NET,
        **_QWEN3_5_MOE,
    )
    vision = {
        "depth": 1,
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_heads": 2,
        "out_hidden_size": 32,
        "patch_size": 14,
        "num_position_embeddings": 16,
    }
    # The published checkpoints are the multimodal wrappers; transformers maps each to its causal LM,
    # which it builds from the wrapper's text_config.
    return [
        Case("qwen3_5_text", dense, state="fp32", state_source=state),
        Case("qwen3_5_moe_text", moe, state="fp32", state_source=state),
        Case(
            "qwen3_5",
            {"model_type": "qwen3_5", "text_config": dense, "vision_config": vision},
            state="fp32",
            state_source=state,
        ),
        Case(
            "qwen3_5_moe",
            {"model_type": "qwen3_5_moe", "text_config": moe, "vision_config": vision},
            state="fp32",
            state_source=state,
        ),
    ]


_QWEN4_EXP: dict[str, Any] = {
    **_DELTA_NET,
    **_QWEN3_5_MOE,
    "hc_count": 2,
    "hc_lowrank": 8,
    "ple_embed_dim": 24,
    "ple_conv_kernel_size": 3,
    "ngram_size": 4,
    "heads_per_ngram": 2,
    "ngram_vocab_size_base": 97,
    "make_ngram_vocab_size_divisible_by": 8,
    "split_ngram_parts": 1,
    "indexer_n_heads": 2,
    "indexer_kv_heads": 1,
    "indexer_head_dim": 20,
    "indexer_budget": 4,
    "indexer_compress_ratio": 2,
}
"""Qwen4-Exp's extra sizes: the per-layer embedding's conv of 3 taps dilated by 4 (8 inputs) over 2 x 32
channels and 3 token ids, and an indexer key of 20 values (at least the 16 rotary dimensions, as the
configuration requires), all differing from the DeltaNet's."""


def _qwen4_exp() -> list[Case]:
    """The decoder by ``layer_types`` (one written ``full_attention``, as the checkpoint writes it), the
    wrapper by ``full_attention_interval``; each with a per-layer-embedding layer and a plain DeltaNet."""
    state = _FP32_REFERENCE.format(
        "Qwen4ExpTextGatedDeltaNet is Qwen 3.5's, whose torch_chunk_gated_delta_rule casts to float32 "
        "(modeling_qwen4_exp.py)"
    )
    kinds = [
        "linear_attention",
        "indexed_attention",
        "linear_attention",
        "linear_attention",
        "full_attention",
    ]
    text = _text("qwen4_exp_text", num_hidden_layers=5, layer_types=kinds, ple_layer_ids=[3], **_QWEN4_EXP)
    by_interval = _text(
        "qwen4_exp_text", num_hidden_layers=4, full_attention_interval=2, ple_layer_ids=[1], **_QWEN4_EXP
    )
    vision = {
        "depth": 1,
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_heads": 2,
        "out_hidden_size": 32,
        "patch_size": 14,
        "num_position_embeddings": 16,
    }
    return [
        Case("qwen4_exp_text", text, state="fp32", state_source=state),
        Case(
            "qwen4_exp",
            {"model_type": "qwen4_exp", "text_config": by_interval, "vision_config": vision},
            state="fp32",
            state_source=state,
        ),
    ]


def _falcon_h1() -> list[Case]:
    return [
        Case(
            "falcon_h1",
            _config(
                "falcon_h1",
                num_hidden_layers=2,
                head_dim=16,
                mamba_d_ssm=24,
                mamba_n_heads=4,
                mamba_d_head="auto",
                mamba_n_groups=2,
                mamba_d_state=5,
                mamba_d_conv=3,
                mamba_chunk_size=WINDOW,
                time_step_limit=TIME_STEP_LIMIT,
            ),
            state="fp32",
            state_source=_FP32_REFERENCE.format(
                "torch_forward casts the SSM inputs with float() (modeling_falcon_h1.py)"
            ),
        ),
    ]


def _window_off() -> list[Case]:
    """Mistral's adapter with no window (Mistral 7B v0.2 on): every layer full attention."""
    return [Case("mistral-no-window", _config("mistral", num_hidden_layers=2, sliding_window=None))]


def _gpt2_style(model_type: str, **fields: Any) -> dict[str, Any]:
    """A config in the older spelling (``n_layer``, ``n_embd``, ``n_head``) that its configuration class
    maps to the usual names, as the published checkpoints of these types write it."""
    return {
        "model_type": model_type,
        "vocab_size": 64,
        "n_layer": 2,
        "n_embd": 32,
        "n_head": 4,
        "n_positions": 128,
        "bos_token_id": 1,
        "eos_token_id": 2,
        "tie_word_embeddings": False,
        **fields,
    }


def _plain() -> list[Case]:
    """Full attention in every layer, sized by each type's configuration class (``plain.CLASSES``).

    Where the class has a ``head_dim`` default the config leaves it out, so the default is what is
    tested; the types whose attention has one K/V head per query head keep the base config's
    ``num_key_value_heads``, which their modeling code never reads.
    """
    moe = {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16}
    rope = {"rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}}
    two = {"num_hidden_layers": 2}
    return [
        Case("apertus", _config("apertus", head_dim=16, **two)),
        Case("apertus1p5_text", _config("apertus1p5_text", **two)),
        Case("arcee", _config("arcee", head_dim=16, **two)),
        Case("aria_text", _config("aria_text", **two, **moe)),
        Case("bitnet", _config("bitnet", **two)),
        Case("diffllama", _config("diffllama", **two)),
        Case("ernie4_5", _config("ernie4_5", **two)),
        Case("ernie4_5_moe", _config("ernie4_5_moe", **two, **moe)),
        Case("exaone", _config("exaone", **two)),
        Case("flex_olmo", _config("flex_olmo", **two, **moe)),
        Case("gemma", _config("gemma", **two)),
        Case("glm", _config("glm", **two)),
        Case("glm4", _config("glm4", **two)),
        Case("granitemoe", _config("granitemoe", **two, num_local_experts=4)),
        Case("granitemoeshared", _config("granitemoeshared", **two, num_local_experts=4)),
        Case("helium", _config("helium", head_dim=8, **two)),  # o_proj maps hidden to hidden
        Case("hunyuan_v1_dense", _config("hunyuan_v1_dense", head_dim=16, **two, **rope)),
        Case("hunyuan_v1_moe", _config("hunyuan_v1_moe", head_dim=16, **two, **rope)),
        Case("hyperclovax", _config("hyperclovax", **two)),
        Case("internlm3", _config("internlm3", head_dim=16, **two)),
        Case("iquestcoder", _config("iquestcoder", head_dim=16, **two)),
        Case("jais2", _config("jais2", **two)),
        Case("jetmoe", _config("jetmoe", **two, kv_channels=12, num_local_experts=4)),
        Case("biogpt", _config("biogpt", **two)),
        Case("bloom", {**_gpt2_style("bloom"), "n_embed": 32}),
        Case("codegen", _gpt2_style("codegen", n_ctx=128, rotary_dim=4)),
        Case("ctrl", _gpt2_style("ctrl")),
        Case("gpt2", _gpt2_style("gpt2")),
        Case("gpt-sw3", _gpt2_style("gpt-sw3")),
        Case("gpt_neox", _config("gpt_neox", **two)),
        Case("gpt_neox_japanese", _config("gpt_neox_japanese", **two)),
        Case("gptj", _gpt2_style("gptj", rotary_dim=4)),
        Case("gpt_bigcode", _gpt2_style("gpt_bigcode")),
        Case("gpt_bigcode-mha", _gpt2_style("gpt_bigcode", multi_query=False)),
        Case(
            "emu3",
            {
                "model_type": "emu3",
                "text_config": _text("emu3_text_model", **two),
                "vq_config": {
                    "embed_dim": 4,
                    "codebook_size": 16,
                    "latent_channels": 4,
                    "base_channels": 8,
                    "channel_multiplier": [1],
                    "num_res_blocks": 1,
                    "attn_resolutions": [],
                    "temporal_downsample_factor": 1,
                },
                "vocabulary_map": {},
            },
        ),
        Case(
            "git",
            {
                **_config("git", **two),
                "vision_config": {
                    "hidden_size": 16,
                    "intermediate_size": 32,
                    "num_hidden_layers": 1,
                    "num_attention_heads": 2,
                    "image_size": 28,
                    "patch_size": 14,
                },
            },
        ),
        Case("hy_v3", _config("hy_v3", **two, **moe)),
        Case("doge", _config("doge", **two, sliding_window=WINDOW)),
        Case(
            "dbrx",
            {
                "model_type": "dbrx",
                "vocab_size": 64,
                "d_model": 32,
                "n_heads": 4,
                "n_layers": 2,
                "max_seq_len": 128,
                "attn_config": {"kv_n_heads": 2, "rope_theta": 10000.0, "clip_qkv": 8.0},
                "ffn_config": {"ffn_hidden_size": 48, "moe_num_experts": 2, "moe_top_k": 1},
                "tie_word_embeddings": False,
            },
        ),
    ]


def _local_global() -> list[Case]:
    """Sliding-window and full layers by each class's rule (``windowed.CLASSES``); where a class has a
    ``head_dim`` default the config leaves it out, so the default is what is tested."""
    window = {"sliding_window": WINDOW}
    moe = {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16}
    return [
        Case("afmoe", _config("afmoe", num_hidden_layers=4, global_attn_every_n_layers=2, **window, **moe)),
        Case(
            "beam",
            _config("beam", num_hidden_layers=8, head_dim=16, n_group=1, topk_group=1, **window, **moe),
        ),
        Case(
            "cohere2_moe",
            _config(
                "cohere2_moe",
                num_hidden_layers=5,
                first_k_dense_replace=2,
                sliding_window_pattern=2,
                **window,
                **moe,
            ),
        ),
        Case("cwm", _config("cwm", num_hidden_layers=5, head_dim=16, **window)),
        Case(
            "dots1",
            _config(
                "dots1",
                num_hidden_layers=3,
                max_window_layers=1,
                head_dim=16,
                n_routed_experts=4,
                num_experts_per_tok=2,
                moe_intermediate_size=16,
                first_k_dense_replace=1,
                n_shared_experts=1,
                **window,
            ),
        ),
        Case("exaone4", _config("exaone4", num_hidden_layers=4, sliding_window_pattern=2, **window)),
        Case("exaone_moe", _config("exaone_moe", num_hidden_layers=4, **window, **moe)),
        Case("flint", _config("flint", num_hidden_layers=7, head_dim=16, **window, **moe)),
        Case("granite_swa", _config("granite_swa", num_hidden_layers=5, **window)),
        Case("granitemoe_swa", _config("granitemoe_swa", num_hidden_layers=5, num_local_experts=4, **window)),
        Case("kolibri1", _config("kolibri1", num_hidden_layers=5, **window, **moe)),
        Case(
            "cohere_compass_text",
            _config(
                "cohere_compass_text",
                num_hidden_layers=3,
                # __post_init__ sets hidden_size // num_attention_heads, then the config's own head_dim,
                # set after it as an extra field, wins
                head_dim=16,
                layer_types=["sliding_attention", "full_attention", "sliding_attention"],
                rope_parameters={
                    kind: {"rope_type": "default", "rope_theta": 10000.0}
                    for kind in ("full_attention", "sliding_attention")
                },
                **window,
            ),
        ),
        Case(
            "gpt_neo",
            {
                "model_type": "gpt_neo",
                "vocab_size": 64,
                "hidden_size": 32,
                "num_heads": 4,
                "num_layers": 4,
                # As a scaled-down published config: the parent's attention_types (24 layers) beside the
                # attention_layers transformers reads, one per layer.
                "attention_types": [[["global", "local"], 12]],
                "attention_layers": ["global", "local", "global", "local"],
                "window_size": WINDOW,
                "max_position_embeddings": 128,
                "bos_token_id": 1,
                "eos_token_id": 2,
                "tie_word_embeddings": False,
            },
        ),
        Case(
            "gpt_neo-attention-types",
            {
                "model_type": "gpt_neo",
                "vocab_size": 64,
                "hidden_size": 32,
                "num_heads": 4,
                "num_layers": 4,
                # No attention_layers: transformers expands attention_types, here local layers first.
                "attention_types": [[["local", "global"], 2]],
                "window_size": WINDOW,
                "max_position_embeddings": 128,
                "bos_token_id": 1,
                "eos_token_id": 2,
                "tie_word_embeddings": False,
            },
        ),
        Case(
            "laguna",
            _config(
                "laguna",
                num_hidden_layers=3,
                layer_types=["sliding_attention", "full_attention", "sliding_attention"],
                **window,
                **moe,
            ),
        ),
    ]


_MLA: dict[str, Any] = {
    "num_key_value_heads": 4,
    "kv_lora_rank": 12,
    "q_lora_rank": 20,
    "qk_rope_head_dim": 4,
    "qk_nope_head_dim": 8,
    "v_head_dim": 6,
    "n_routed_experts": 4,
    "num_experts_per_tok": 2,
    "moe_intermediate_size": 16,
    "n_group": 1,
    "topk_group": 1,
}
"""MLA sizes that all differ (as :mod:`.configs` uses for DeepSeek), with a small router."""

_INDEXER: dict[str, Any] = {"index_head_dim": 8, "index_n_heads": 2, "index_topk": 4}


def _mla() -> list[Case]:
    """Latent attention, with the indexer on every layer or on the layers ``indexer_types`` names."""
    return [
        Case("glm4_moe_lite", _config("glm4_moe_lite", num_hidden_layers=2, **_MLA)),
        Case("axk1", _config("axk1", num_hidden_layers=2, **_MLA)),
        Case("axk2", _config("axk2", num_hidden_layers=2, **_MLA, **_INDEXER)),
        Case(
            "glm_moe_dsa",
            _config("glm_moe_dsa", num_hidden_layers=4, index_topk_pattern="FSFS", **_MLA, **_INDEXER),
        ),
        Case(
            "glm_moe_dsa-freq",
            _config("glm_moe_dsa", num_hidden_layers=5, index_topk_freq=2, **_MLA, **_INDEXER),
        ),
        Case("hy_v4", _config("hy_v4", num_hidden_layers=6, **_MLA, **_INDEXER)),
        Case(
            "longcat_flash",
            _config(
                "longcat_flash",
                num_layers=2,
                num_hidden_layers=4,  # the configuration class's property: two sublayers a layer
                head_dim=4,  # the rotary size, which the class keeps apart from qk_rope_head_dim
                ffn_hidden_size=16,
                expert_ffn_hidden_size=16,
                moe_topk=2,
                zero_expert_num=2,
                **{
                    k: v
                    for k, v in _MLA.items()
                    if k not in ("num_experts_per_tok", "moe_intermediate_size", "n_group", "topk_group")
                },
            ),
        ),
    ]


def _recurrent() -> list[Case]:
    """Mamba, Mamba-2 and short-convolution layers, alone or between attention layers."""
    mamba2 = _FP32_REFERENCE.format("the Mamba-2 torch_forward casts the SSM inputs with float()")
    lfm = {"conv_L_cache": 3}
    conv = "a short convolution keeps only its conv window, in the dtype of its inputs (Lfm2ShortConv)"
    return [
        Case(
            "falcon_mamba",
            _config(
                "falcon_mamba", num_hidden_layers=2, state_size=6, conv_kernel=3, expand=2, use_mambapy=False
            ),
            state="fp32",
            state_source=_FP32_REFERENCE.format(
                "slow_forward scans the SSM in float32 (modeling_falcon_mamba.py)"
            ),
        ),
        Case(
            "lfm2",
            _config("lfm2", num_hidden_layers=4, full_attn_idxs=[1, 3], **lfm),
            state="model",
            state_source=conv,
        ),
        Case(
            "lfm2_moe",
            _config(
                "lfm2_moe",
                num_hidden_layers=4,
                layer_types=["conv", "full_attention", "conv", "conv"],
                num_dense_layers=1,
                num_experts=4,
                num_experts_per_tok=2,
                moe_intermediate_size=16,
                **lfm,
            ),
            state="model",
            state_source=conv,
        ),
        Case(
            "lfm3",
            _config("lfm3", num_hidden_layers=6, head_dim=16, sliding_window=WINDOW, **lfm),
            state="model",
            state_source=conv,
        ),
        Case(
            "granitemoehybrid",
            _config(
                "granitemoehybrid",
                num_hidden_layers=3,
                layer_types=["mamba", "attention", "mamba"],
                mamba_n_heads=4,
                mamba_d_head="auto",
                mamba_d_state=6,
                mamba_d_conv=3,
                mamba_expand=2,
                mamba_n_groups=2,
                mamba_chunk_size=WINDOW,
                num_local_experts=4,
                num_experts_per_tok=2,
                time_step_limit=TIME_STEP_LIMIT,
            ),
            state="fp32",
            state_source=mamba2 + " (modeling_granitemoehybrid.py)",
        ),
        Case(
            "bailing_hybrid",
            _config(
                "bailing_hybrid",
                num_hidden_layers=4,
                layer_group_size=2,
                head_dim=8,
                short_conv_kernel_size=3,
                first_k_dense_replace=1,
                num_local_experts=4,
                **{k: v for k, v in _MLA.items() if k not in ("n_routed_experts", "q_lora_rank")},
            ),
        ),
    ]


def _gemma4() -> list[Case]:
    """Five sliding layers and a wider global one; the last layer reads the global layer's cache; the
    second config gives its global layers their own K/V heads (``attention_k_eq_v``)."""
    per_layer = {"hidden_size_per_layer_input": 8, "vocab_size_per_layer_input": 64}
    gemma = {"sliding_window": WINDOW, "head_dim": 8, "global_head_dim": 16, **per_layer}
    shared = _text("gemma4_text", num_hidden_layers=7, num_kv_shared_layers=1, **gemma)
    k_eq_v = _text(
        "gemma4_text", num_hidden_layers=6, attention_k_eq_v=True, num_global_key_value_heads=1, **gemma
    )
    vision = {
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 8,
        "patch_size": 4,
    }
    return [
        Case("gemma4_text", shared),
        Case("gemma4_text-k-eq-v", k_eq_v),
        Case("gemma4_unified_text", {**shared, "model_type": "gemma4_unified_text"}),
        Case(
            "gemma4",
            {"model_type": "gemma4", "text_config": shared, "vision_config": vision, "audio_config": None},
        ),
        Case(
            "gemma4_unified",
            {
                "model_type": "gemma4_unified",
                "text_config": {**shared, "model_type": "gemma4_unified_text"},
                "vision_config": vision,
                "audio_config": None,
            },
        ),
    ]


def _wrapped() -> list[Case]:
    """Vision-language wrappers of a decoder another adapter reads; the GOT-OCR 2 decoder slides its
    upper layers (Qwen 2's rule), so the wrapper is seen to pass the decoder's window on."""
    qwen2 = _text(
        "qwen2", num_hidden_layers=3, max_window_layers=1, use_sliding_window=True, sliding_window=WINDOW
    )
    vision = {
        "hidden_size": 16,
        "output_channels": 16,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "image_size": 32,
        "patch_size": 16,
        "global_attn_indexes": [0],
        "mlp_dim": 32,
    }
    return [
        Case(
            "got_ocr2",
            {
                "model_type": "got_ocr2",
                "text_config": qwen2,
                "vision_config": vision,
                "image_token_index": 60,
            },
        ),
        Case(
            "fuyu",
            {
                "model_type": "fuyu",
                "text_config": _text("persimmon", num_hidden_layers=2),
                "patch_size": 4,
                "num_channels": 3,
                "image_token_id": 60,
            },
        ),
    ]


def _inkling() -> list[Case]:
    """Inkling's sliding layers with their own K/V heads and head size, so a swapped field shows."""
    text = _text(
        "inkling_text",
        num_hidden_layers=3,
        layer_types=["hybrid_sliding", "hybrid", "hybrid_sliding"],
        head_dim=16,
        swa_num_attention_heads=4,
        swa_num_key_value_heads=1,
        swa_head_dim=8,
        sliding_window_size=WINDOW,
        d_rel=4,
        rel_extent=16,
        conv_kernel_size=3,
        mlp_layer_types=["dense", "sparse", "dense"],
        moe_intermediate_size=16,
        n_routed_experts=4,
        num_experts_per_tok=2,
        n_shared_experts=1,
    )
    conv = (
        "InklingShortConvolution casts its input with float() before the cache update (modeling_inkling.py)"
    )
    return [Case("inkling_text", text, state="fp32", state_source=_FP32_REFERENCE.format(conv))]


def _deepseek_v4() -> list[Case]:
    """Sliding, CSA and HCA layers as transformers 5 writes them (``layer_types``, ``compress_rates``),
    the HCA rate cut to 8 so that its windows close inside the longer sequence, and every size apart:
    head 24 (16 + 8 rotated), indexer keys 12, window 8."""
    config = _config(
        "deepseek_v4",
        num_hidden_layers=4,
        num_key_value_heads=1,
        head_dim=24,
        qk_rope_head_dim=8,
        q_lora_rank=16,
        layer_types=[
            "sliding_attention",
            "compressed_sparse_attention",
            "heavily_compressed_attention",
            "compressed_sparse_attention",
        ],
        compress_rates={"compressed_sparse_attention": 4, "heavily_compressed_attention": 8},
        sliding_window=WINDOW,
        index_n_heads=2,
        index_head_dim=12,
        index_topk=4,
        moe_intermediate_size=16,
        n_routed_experts=4,
        num_experts_per_tok=2,
        n_shared_experts=1,
        num_hash_layers=1,
        o_groups=2,
        o_lora_rank=8,
        hc_mult=2,
    )
    # The shape the rates take in the released models (128 and 4), with the class's default layer pattern
    # (two HCA layers, then CSA and HCA alternating: three HCA and one CSA of four), a window of 16 and
    # sizes apart; measured on both sides of 4, 16, 128 and 256, where each of its parts starts or stops.
    released_rates = _config(
        "deepseek_v4",
        num_hidden_layers=4,
        num_key_value_heads=1,
        head_dim=16,
        qk_rope_head_dim=4,
        q_lora_rank=16,
        compress_rates={"compressed_sparse_attention": 4, "heavily_compressed_attention": 128},
        sliding_window=2 * WINDOW,
        index_n_heads=2,
        index_head_dim=20,
        index_topk=4,
        moe_intermediate_size=16,
        n_routed_experts=4,
        num_experts_per_tok=2,
        n_shared_experts=1,
        num_hash_layers=1,
        o_groups=2,
        o_lora_rank=8,
        hc_mult=2,
        max_position_embeddings=512,
    )
    lengths = (127, 128, 129, 255, 256, 257)
    return [Case("deepseek_v4", config), Case("deepseek_v4-released-rates", released_rates, lengths=lengths)]


_INKLING2: dict[str, Any] = {
    "head_dim": 16,
    "swa_num_attention_heads": 4,
    "swa_num_key_value_heads": 1,
    "swa_head_dim": 8,
    "sliding_window_size": WINDOW,
    "d_rel": 4,
    "rel_extent": 16,
    "conv_kernel_size": 3,
    "moe_intermediate_size": 16,
    "n_routed_experts": 4,
    "num_experts_per_tok": 2,
    "unpadded_vocab_size": 64,
    "n_layers_per_attn_res_block": 1,
}
"""Inkling 2's sliding layers with their own K/V heads and head size, so a swapped field shows; one layer
per residual block, so that a loop may start and end at any layer."""


def _inkling2() -> list[Case]:
    """Inkling 2, and Inkling 2 with a loop over a full and a sliding layer run three times (two further
    passes, each with its own copies of their cache layers after the model's four)."""
    kinds = ["hybrid_sliding", "hybrid", "hybrid_sliding", "hybrid"]
    text = _text("inkling2_text", num_hidden_layers=3, layer_types=kinds[:3], **_INKLING2)
    loop = _text(
        "inkling2_loop_text",
        num_hidden_layers=4,
        layer_types=kinds,
        loop_config={"core_start": 1, "core_end": 3, "num_passes": 3, "gate_rank": 4},
        **_INKLING2,
    )
    conv = (
        "Inkling2ShortConvolution and Inkling2DynamicShortConvolution cast their input with float() "
        "before the cache update (modeling_inkling2.py, modeling_inkling2_loop.py)"
    )
    source = _FP32_REFERENCE.format(conv)
    return [
        Case("inkling2_text", text, state="fp32", state_source=source),
        Case("inkling2_loop_text", loop, state="fp32", state_source=source),
    ]


def _dory() -> list[Case]:
    """A looped stack of 1 input, 2 recurrent and 1 output layers run 3 times through the loop: per loop
    (the default) the cache holds two more copies of the recurrent layers; written by the last loop only,
    none. The released shape lists attention and mlp blocks separately, with every count doubled."""
    sizes = {"num_key_value_heads": 2, "head_dim": 12, "sliding_window": WINDOW, "n_recurrent_loops": 3}
    kinds = ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]
    released = [block for kind in kinds for block in (kind, "mlp")]
    stack = {"n_input_layers": 1, "n_output_layers": 1}
    return [
        Case("dory", _config("dory", num_hidden_layers=4, layer_types=kinds, **stack, **sizes)),
        Case(
            "dory-last-loop",
            _config(
                "dory",
                num_hidden_layers=4,
                layer_types=kinds,
                recurrent_kv_cache_mode="last_loop",
                **stack,
                **sizes,
            ),
        ),
        Case(
            "dory-released",
            _config(
                "dory",
                num_hidden_layers=8,
                layer_types=released,
                n_input_layers=2,
                n_output_layers=2,
                **sizes,
            ),
        ),
    ]


def _lara_mini() -> list[Case]:
    """Lara Mini's three kinds of layer, in the released pattern's order; gated DeltaNet sizes that all
    differ, so a swapped factor changes the byte count."""
    kinds = [
        "linear_attention",
        "sliding_attention",
        "linear_attention",
        "full_attention",
        "sliding_attention",
    ]
    config = _config(
        "lara_mini",
        num_hidden_layers=5,
        layer_types=kinds,
        sliding_window=WINDOW,
        **_DELTA_NET,
        **_QWEN3_5_MOE,
    )
    state = _FP32_REFERENCE.format(
        "torch_chunk_gated_delta_rule casts q, k, v, beta and g to float32 (modeling_lara_mini.py)"
    )
    return [Case("lara_mini", config, state="fp32", state_source=state)]


def _reused_layers() -> list[Case]:
    """Layers whose cache holds more than one entry per model layer or per token: HRM-Text's two stacks of
    two layers, run in two high-level cycles of three low-level runs and one high-level run (16 cache
    layers, MHA with a head size unlike hidden / heads), and CPM-Ant's three prompt tokens cached ahead of
    every sequence."""
    hrm = _config("hrm_text", num_hidden_layers=2, head_dim=16, H_cycles=2, L_cycles=3)
    cpmant = _config(
        "cpmant",
        num_hidden_layers=2,
        dim_head=6,
        dim_ff=48,
        prompt_types=4,
        prompt_length=3,
        segment_types=4,
        position_bias_num_buckets=16,
        position_bias_max_distance=64,
    )
    whole = (
        "CpmAntModel.forward slices the cached tokens off the input itself, so generate passes it every "
        "token so far (CpmAntForCausalLM.prepare_inputs_for_generation)"
    )
    return [Case("hrm_text", hrm), Case("cpmant", cpmant, whole_input=whole)]


_DOTS3: dict[str, Any] = {
    "num_hidden_layers": 4,
    "num_key_value_heads": 4,
    "q_lora_rank": 8,
    "kv_lora_rank": 10,
    "qk_rope_head_dim": 4,
    "qk_nope_head_dim": 8,
    "v_head_dim": 6,
    "head_dim": 12,
    "index_head_dim": 8,
    "index_n_heads": 2,
    "index_topk": 4,
    "n_routed_experts": 4,
    "num_experts_per_tok": 2,
    "moe_intermediate_size": 16,
    "shared_experts_intermediate_size": 16,
    "sliding_window_size": WINDOW,
    "swa_num_attention_heads": 2,
    "swa_num_key_value_heads": 2,
    "swa_q_lora_rank": 8,
    "swa_kv_lora_rank": 12,
    "swa_head_dim": 12,
    "swa_qk_nope_head_dim": 6,
    "swa_v_head_dim": 6,
}
"""Dots 3 Note's global and sliding layers with latent ranks and RoPE sizes of their own, in the released
pattern (layers 0 and 1 global, 2 and 3 sliding), as the checkpoints write them (``swa_*`` fields)."""


def _dots3_note() -> list[Case]:
    """With the indexer (the released default) and without it (``use_dsa: false``); and the published
    wrapper, whose text fields sit at its top level."""
    adapters = {"vision_config": {"adapter_out_dim": 32}, "audio_config": {"adapter_out_dim": 32}}
    wrapper = {**_config("dots3_note", **_DOTS3), **adapters}
    why = "Dots3NoteForCausalLM is built from the wrapper's text config (Dots3NoteTextConfig)"
    return [
        Case("dots3_note_text", _config("dots3_note_text", **_DOTS3)),
        Case("dots3_note_text-no-dsa", _config("dots3_note_text", use_dsa=False, **_DOTS3)),
        Case("dots3_note", wrapper, decoder_only=why),
    ]


def _blt() -> list[Case]:
    """BLT's three stacks with sizes of their own: a local encoder of two layers with two K/V heads, a
    global transformer of two layers, a local decoder of three with one, both local stacks' bytes in a
    window (the released ``local_attention_window_len``) or, with ``null``, in full causal attention;
    the entropy patcher runs as in the released config (``patch_in_forward``). transformers cannot build
    the cache itself, so it is handed one (``held``)."""
    local = {
        "hidden_size": 32,
        "num_attention_heads": 4,
        "intermediate_size": 48,
        "hidden_size_global": 48,
        "vocab_size": 64,
        "max_position_embeddings": 128,
    }
    config = {
        "model_type": "blt",
        "vocab_size": 64,
        "max_position_embeddings": 128,
        "local_attention_window_len": WINDOW,
        "encoder_hash_byte_group_vocab": 50,
        "encoder_hash_byte_group_size": [3, 4],
        "encoder_config": {**local, "num_key_value_heads": 2, "num_hidden_layers": 2},
        "decoder_config": {**local, "num_key_value_heads": 1, "num_hidden_layers": 3},
        "global_config": {
            "hidden_size": 48,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "intermediate_size": 64,
            "max_position_embeddings": 128,
        },
        "patcher_config": {
            "hidden_size": 16,
            "num_attention_heads": 2,
            "num_hidden_layers": 1,
            "intermediate_size": 32,
            "vocab_size": 64,
            "max_position_embeddings": 128,
        },
    }
    return [
        Case("blt", config, held="handed in"),
        Case("blt-no-window", {**config, "local_attention_window_len": None}, held="handed in"),
    ]


def cases_a_l() -> list[Case]:
    """Every case of this half, in a stable order; names are unique and used as test ids."""
    return [
        *_window_off(),
        *_plain(),
        *_local_global(),
        *_mla(),
        *_recurrent(),
        *_gemma4(),
        *_wrapped(),
        *_qwen3_5(),
        *_qwen4_exp(),
        *_falcon_h1(),
        *_inkling(),
        *_deepseek_v4(),
        *_dory(),
        *_inkling2(),
        *_lara_mini(),
        *_reused_layers(),
        *_dots3_note(),
        *_blt(),
    ]
