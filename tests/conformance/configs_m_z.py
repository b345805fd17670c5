"""Scaled-down configs of the causal-LM model types whose adapters came with the list of every
architecture (names m to z), in the shape and under the rules of :mod:`.configs`."""

from __future__ import annotations

from typing import Any

from tests.conformance.configs import _BASE, TIME_STEP_LIMIT, WINDOW, Case, _config


def _text(model_type: str, **fields: Any) -> dict[str, Any]:
    """A decoder config nested under a wrapper's ``text_config``."""
    return {"model_type": model_type, **_BASE, **fields}


_MOE = {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16}


def _full_attention() -> list[Case]:
    """Every layer full attention; each class's defaults or head-size rule in play."""
    glm_moe = {
        "moe_intermediate_size": 16,
        "n_routed_experts": 4,
        "num_experts_per_tok": 2,
        "n_group": 1,
        "topk_group": 1,
        "first_k_dense_replace": 1,
    }
    return [
        Case("nanochat", _config("nanochat", num_hidden_layers=2)),
        Case("nemotron", _config("nemotron", num_hidden_layers=2, head_dim=16)),
        Case("olmo", _config("olmo", num_hidden_layers=2)),
        Case("olmoe", _config("olmoe", num_hidden_layers=2, num_experts=4, num_experts_per_tok=2)),
        Case("olmoe-window", _config("olmoe", num_hidden_layers=2, sliding_window=WINDOW, **_MOE)),
        Case("phi", _config("phi", num_hidden_layers=2)),
        Case("seed_oss", _config("seed_oss", num_hidden_layers=2, head_dim=16)),
        Case("solar_open", _config("solar_open", num_hidden_layers=2, head_dim=16, **glm_moe)),
        Case("sarvam_moe", _config("sarvam_moe", num_hidden_layers=2, head_dim=16, **glm_moe)),
        Case(
            "sarvam_mla",
            _config(
                "sarvam_mla",
                num_hidden_layers=2,
                num_key_value_heads=4,
                kv_lora_rank=12,
                q_lora_rank=None,
                qk_rope_head_dim=4,
                qk_nope_head_dim=8,
                v_head_dim=6,
                n_shared_experts=1,
                **glm_moe,
            ),
        ),
        Case("stablelm", _config("stablelm", num_hidden_layers=2)),
        # MHA classes: the shared base's num_key_value_heads is not read.
        Case("persimmon", _config("persimmon", num_hidden_layers=2)),
        Case("opt", _config("opt", num_hidden_layers=2, ffn_dim=48, word_embed_proj_dim=32)),
        Case(
            "xglm",
            _config(
                "xglm", num_layers=2, d_model=32, attention_heads=4, ffn_dim=48, max_position_embeddings=128
            ),
        ),
        Case("mpt", _config("mpt", n_layers=2, d_model=32, n_heads=4, expansion_ratio=2, max_seq_len=128)),
    ]


def _interleaved() -> list[Case]:
    """Window and full layers by each class's rule."""
    return [
        Case("ministral", _config("ministral", num_hidden_layers=2, head_dim=16, sliding_window=WINDOW)),
        Case(
            "ministral-layer-types",
            _config(
                "ministral",
                num_hidden_layers=3,
                head_dim=16,
                sliding_window=WINDOW,
                layer_types=["sliding_attention", "full_attention", "sliding_attention"],
            ),
        ),
        Case("ministral3", _config("ministral3", num_hidden_layers=2, head_dim=16, sliding_window=WINDOW)),
        # Released Ministral 3 configs carry sliding_window null: full attention.
        Case(
            "ministral3-no-window",
            _config("ministral3", num_hidden_layers=2, head_dim=16, sliding_window=None),
        ),
        Case(
            "phimoe",
            _config(
                "phimoe",
                num_hidden_layers=2,
                sliding_window=WINDOW,
                num_local_experts=4,
                num_experts_per_tok=2,
            ),
        ),
        Case("olmo3", _config("olmo3", num_hidden_layers=5, sliding_window=WINDOW)),
        Case("vaultgemma", _config("vaultgemma", num_hidden_layers=3, head_dim=16, sliding_window=WINDOW)),
        Case(
            "smollm3",
            _config(
                "smollm3",
                num_hidden_layers=4,
                no_rope_layer_interval=2,
                use_sliding_window=True,
                sliding_window=WINDOW,
            ),
        ),
        Case(
            "mellum",
            _config(
                "mellum",
                num_hidden_layers=3,
                head_dim=16,
                sliding_window=WINDOW,
                layer_types=["sliding_attention", "full_attention", "sliding_attention"],
                **_MOE,
            ),
        ),
        Case(
            "mimo_v2_flash",
            _config(
                "mimo_v2_flash",
                num_hidden_layers=7,
                head_dim=12,
                v_head_dim=6,
                num_key_value_heads=1,
                sliding_window=WINDOW,
                n_routed_experts=4,
                num_experts_per_tok=2,
                moe_intermediate_size=16,
            ),
        ),
        Case(
            "modernbert-decoder",
            _config(
                "modernbert-decoder",
                num_hidden_layers=4,
                # Both fields, apart as in published configs: transformers reads sliding_window.
                local_attention=8 * WINDOW,
                sliding_window=WINDOW,
                global_attn_every_n_layers=2,
            ),
        ),
        Case(
            "modernbert-decoder-local-attention",
            _config(
                "modernbert-decoder",
                num_hidden_layers=4,
                # No sliding_window: transformers takes half of local_attention.
                local_attention=2 * WINDOW,
                global_attn_every_n_layers=2,
            ),
        ),
    ]


def _latent() -> list[Case]:
    """MLA latent and RoPE key, sizes that all differ."""
    mla = {
        "kv_lora_rank": 12,
        "q_lora_rank": 20,
        "qk_rope_head_dim": 4,
        "qk_nope_head_dim": 8,
        "v_head_dim": 6,
        "num_key_value_heads": 4,
    }
    return [
        Case("minicpm3", _config("minicpm3", num_hidden_layers=2, **mla)),
        Case("youtu", _config("youtu", num_hidden_layers=2, **mla)),
    ]


_FP32_REFERENCE = (
    "CPU runs take transformers' reference PyTorch path, which computes the state in float32: {}"
)


def _indexed() -> list[Case]:
    """GQA with a sparse indexer's key cache beside K and V on the sparse layers (layers 1 and 3)."""
    sparse = {
        "sparse_index_dim": 12,
        "sparse_num_index_heads": 2,
        "sparse_block_size": 4,
        "sparse_topk_blocks": 2,
        "sparse_local_block": 1,
        "sparse_attention_freq": [0, 1, 0, 1],
    }
    moe = {"num_local_experts": 4, "num_experts_per_tok": 2, "shared_intermediate_size": 16}
    fields = {"head_dim": 16, "rotary_dim": 8, "dense_intermediate_size": 48, **moe}
    return [
        Case(
            "minimax_m3_vl_text",
            _config("minimax_m3_vl_text", num_hidden_layers=4, sparse_attention_config=sparse, **fields),
        ),
    ]


def _ssm() -> list[Case]:
    """State-space models: every layer a conv window and an SSM state."""
    return [
        Case(
            "mamba",
            _config("mamba", num_hidden_layers=2, state_size=6, conv_kernel=3, expand=2),
            state="fp32",
            state_source=_FP32_REFERENCE.format(
                "mamba_selective_scan keeps the state in float (modeling_mamba.py)"
            ),
        ),
        Case(
            "mamba2",
            _config(
                "mamba2",
                num_hidden_layers=2,
                num_heads=4,
                head_dim=16,
                n_groups=2,
                state_size=6,
                conv_kernel=3,
                expand=2,
                chunk_size=8,
                time_step_limit=TIME_STEP_LIMIT,
            ),
            state="fp32",
            state_source=_FP32_REFERENCE.format(
                "the chunked scan casts its inputs with float() (modeling_mamba2.py)"
            ),
        ),
    ]


def _linear_attention() -> list[Case]:
    """Gated DeltaNet hybrids."""
    return [
        Case(
            "olmo_hybrid",
            _config(
                "olmo_hybrid",
                num_hidden_layers=4,
                head_dim=16,
                linear_num_key_heads=2,
                linear_num_value_heads=4,
                linear_key_head_dim=8,
                linear_value_head_dim=6,
                linear_conv_kernel_dim=3,
            ),
            state="fp32",
            state_source=_FP32_REFERENCE.format(
                "torch_chunk_gated_delta_rule casts q, k, v, beta and g to float32 (modeling_olmo_hybrid.py)"
            ),
        ),
    ]


def _multimodal() -> list[Case]:
    """The text decoder's cache inside speech, audio and vision models (encoders shrunk to one layer)."""
    audio = {
        "num_mel_bins": 8,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "intermediate_size": 32,
        "hidden_size": 16,
        "max_source_positions": 16,
    }
    phi4_vision = {
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "image_size": 28,
        "crop_size": 28,
        "patch_size": 14,
    }
    phi4_audio = {
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_blocks": 1,
        "num_attention_heads": 2,
        "ext_pw_out_channel": 16,
        "depthwise_separable_out_channel": 16,
        "nemo_conv_channels": 16,
        "input_size": 8,
    }
    mllama_vision = {
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": 1,
        "num_global_layers": 1,
        "attention_heads": 2,
        "image_size": 28,
        "patch_size": 14,
        "vision_output_dim": 32,
        "intermediate_layers_indices": [0],
        "max_num_tiles": 4,
    }
    return [
        Case(
            "moss_transcribe_diarize",
            {
                "model_type": "moss_transcribe_diarize",
                "text_config": _text("qwen3", num_hidden_layers=2, head_dim=16),
                "audio_config": audio,
            },
        ),
        Case(
            "phi4_multimodal",
            _config(
                "phi4_multimodal",
                num_hidden_layers=2,
                sliding_window=WINDOW,
                vision_config=phi4_vision,
                audio_config=phi4_audio,
            ),
        ),
        Case("moshi", _config("moshi", num_hidden_layers=2, sliding_window=WINDOW, ffn_dim=48)),
        Case(
            "mllama",
            {
                "model_type": "mllama",
                "text_config": _text("mllama_text_model", num_hidden_layers=4, cross_attention_layers=[1]),
                "vision_config": mllama_vision,
                "image_token_index": 60,
            },
        ),
    ]


def _zamba() -> list[Case]:
    """Mamba layers, some running the shared attention block beside the mixer."""
    source = _FP32_REFERENCE.format("the reference scans compute the state in float ({})")
    attention = {"num_attention_heads": 4, "num_key_value_heads": 2}
    return [
        Case(
            "zamba",
            _config(
                "zamba",
                num_hidden_layers=4,
                layers_block_type=["mamba", "hybrid", "mamba", "hybrid"],
                n_mamba_heads=2,
                mamba_d_state=6,
                mamba_d_conv=3,
                mamba_expand=2,
                use_mamba_kernels=False,
                **attention,
            ),
            state="fp32",
            state_source=source.format("modeling_zamba.py"),
        ),
        Case(
            "zamba2",
            _config(
                "zamba2",
                num_hidden_layers=4,
                layers_block_type=["mamba", "hybrid", "mamba", "hybrid"],
                n_mamba_heads=4,
                mamba_ngroups=2,
                mamba_d_state=6,
                mamba_d_conv=3,
                mamba_expand=2,
                chunk_size=8,
                use_mamba_kernels=False,
                **attention,
            ),
            state="fp32",
            state_source=source.format("modeling_zamba2.py"),
        ),
    ]


def _zaya() -> list[Case]:
    """CCA: attention beside a convolution window and a delayed value in every layer."""
    return [
        Case(
            "zaya",
            _config(
                "zaya",
                num_hidden_layers=3,
                head_dim=12,
                layer_types=["hybrid", "hybrid_sliding", "hybrid"],
                sliding_window=WINDOW,
                num_experts=2,
                num_experts_per_tok=1,
                moe_intermediate_size=16,
                router_hidden_size=8,
                cca_time0=3,
                cca_time1=2,
            ),
            state="model",
            state_source="ZayaCCA hands the cache slices of its projections, in the model dtype (modeling_zaya.py)",
        ),
    ]


def _musicgen_melody() -> list[Case]:
    """The audio decoder of a composite config (text and audio encoders at their smallest)."""
    decoder = {
        "vocab_size": 64,
        "num_hidden_layers": 2,
        "ffn_dim": 48,
        "num_attention_heads": 4,
        "hidden_size": 32,
        "num_codebooks": 1,
        "max_position_embeddings": 128,
        "pad_token_id": 63,
        "bos_token_id": 63,
    }
    t5 = {
        "model_type": "t5",
        "d_model": 16,
        "d_kv": 4,
        "d_ff": 32,
        "num_layers": 1,
        "num_heads": 2,
        "vocab_size": 64,
    }
    return [
        Case(
            "musicgen_melody",
            {
                "model_type": "musicgen_melody",
                "decoder": decoder,
                "text_encoder": t5,
                "audio_encoder": {"model_type": "encodec"},
            },
            decoder_only=(
                "transformers' causal-LM auto class cannot build MusicgenMelodyForCausalLM from the composite "
                "config; the model is the decoder, built from the composite config's decoder"
            ),
            auto_class="mapped-class",
        ),
    ]


def cases_m_z() -> list[Case]:
    """Every case of this module, in a stable order; names are unique and used as test ids."""
    return [
        *_full_attention(),
        *_interleaved(),
        *_latent(),
        *_indexed(),
        *_ssm(),
        *_linear_attention(),
        *_multimodal(),
        *_zamba(),
        *_zaya(),
        *_musicgen_melody(),
    ]
