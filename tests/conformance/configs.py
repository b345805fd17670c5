"""Scaled-down configs, one or more per ``model_type``: few layers, tiny dims, the real mechanisms.

Each builder returns a ``config.json``-shaped dict that both sides read: the registry's engine through
``layer_groups_from_config`` and transformers through ``AutoConfig.for_model``. Dimensions are tiny so that a
forward pass takes milliseconds, but every mechanism and layer pattern of the full-size models is kept:
the same kinds of layers in an interleaved order, fewer K/V heads than query heads, an explicit
``head_dim`` that differs from ``hidden_size / heads`` where real configs carry one, windows and chunks
shorter than the longer test sequence, and latent ranks, state sizes and conv kernels that all differ
from one another, so that a swapped or missing factor changes the byte count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

WINDOW = 8
"""Every sliding window and chunk: longer than :data:`SHORT`, shorter than :data:`LONG`."""
SHORT = 5
"""A sequence inside every window: bounded layers still hold every token."""
LONG = 19
"""A sequence beyond every window, chunk and conv kernel: bounded layers have stopped growing."""
BATCH = 2
"""Sequences per forward pass, so that per-sequence state is seen to scale with the batch."""
BELOW = (1, 2, 3, 4)
"""Prefill lengths under :data:`SHORT`: with the decode steps from :data:`SHORT` to :data:`LONG`, every
edge up to :data:`LONG` (a conv window of 2 or 3 inputs, a compression ratio of 4, a window of 8) is
measured on both sides of it. A case's own ``lengths`` reach the edges beyond."""

TIME_STEP_LIMIT = [0.0, math.inf]
"""``time_step_limit`` as the Mamba-2 family's published configs carry it (transformers' default
``(0.0, float("inf"))``, which ``json.dumps`` writes ``[0.0, Infinity]``): the engine reads each case
from its JSON text, so such a field must be kept where no layout reads it."""

StateDtype = Literal["fp32", "model"]
Held = Literal["cache", "returned state", "returned mems", "buckets and states", "modules", "handed in"]
AutoClass = Literal["causal-lm", "image-text-to-text", "base", "mapped-class"]

_BASE: dict[str, Any] = {
    "vocab_size": 64,
    "hidden_size": 32,
    "intermediate_size": 48,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": 128,
    "pad_token_id": 0,
    "bos_token_id": 1,
    "eos_token_id": 2,
}


def _config(model_type: str, **fields: Any) -> dict[str, Any]:
    """The shared tiny base, then the fields that make ``model_type`` what it is."""
    return {"model_type": model_type, **_BASE, "tie_word_embeddings": False, **fields}


@dataclass(frozen=True)
class Case:
    """One conformance case.

    ``state`` is the dtype transformers' reference path keeps a recurrent state in (``"model"``: the model
    dtype; KDA's fp32 needs no saying), with ``state_source`` naming the transformers code that decides
    it; the engine's ``transformers`` rule must default to the same, since the cases ask for none.
    ``decoder_only`` says why the causal LM is built from the wrapper's ``text_config`` instead of the
    whole wrapper; ``divergence`` says why transformers is known to lay
    the cache out differently from the engine's rule (the test is then a strict expected failure).
    ``auto_class`` is the transformers auto class that builds the model: a causal LM where transformers
    maps the type to one, else the wrapper's image-text-to-text model or the bare text model (``base``),
    which fill the same cache, or (``mapped-class``) the class transformers' causal-LM mapping names for
    the type, built from the decoder config where the auto class cannot build it from the composite one.
    ``held`` says where transformers keeps the state the engine counts: its cache object (``cache``), the
    ``state`` a model returns in place of one (``returned state``: RWKV), the ``mems`` a model returns and
    takes back in place of one (``returned mems``: XLNet), a cache object of its own that the model returns
    and takes back under another name (``buckets and states``: Reformer's ``past_buckets_states``), or the cache object together with
    attributes of the model's own modules (``modules``: RecurrentGemma's recurrent blocks), or a cache
    object the model cannot build itself and is handed empty, whose two halves both hold its layers
    (``handed in``: BLT's ``EncoderDecoderCache``); the test measures all of it.
    ``whole_input`` says why a decode step passes the model every token so far, not the new one alone.
    ``no_bf16`` says why transformers cannot run the type in bf16 on the CPU: its bf16 prefill must then
    still fail so, and its decode steps are measured in fp32. ``cast`` says why the model, built in the
    dtype, is also cast to it (``model.to``) before it runs. ``decode_divergence`` says why transformers
    is known to hold other bytes after decode steps than after one forward pass of the same length (the
    decode test is then a strict expected failure).
    """

    name: str
    config: dict[str, Any]
    state: StateDtype | None = None
    state_source: str = ""
    decoder_only: str = ""
    divergence: str = ""
    auto_class: AutoClass = "causal-lm"
    held: Held = "cache"
    whole_input: str = ""
    no_bf16: str = ""
    cast: str = ""
    decode_divergence: str = ""
    lengths: tuple[int, ...] = ()
    no_single_token: str = ""

    @property
    def model_type(self) -> str:
        return str(self.config["model_type"])


# ---------------------------------------------------------------- full attention everywhere


def _full_attention() -> list[Case]:
    moe = {"num_local_experts": 4, "num_experts_per_tok": 2}
    return [
        Case("llama", _config("llama", num_hidden_layers=2, head_dim=16)),
        Case("granite", _config("granite", num_hidden_layers=2)),
        Case("olmo2", _config("olmo2", num_hidden_layers=2)),
        Case("cohere", _config("cohere", num_hidden_layers=2)),
        Case("minimax_m2", _config("minimax_m2", num_hidden_layers=2, head_dim=16, **moe)),
        Case(
            "glm4_moe",
            _config(
                "glm4_moe",
                num_hidden_layers=2,
                head_dim=16,
                moe_intermediate_size=16,
                n_routed_experts=4,
                num_experts_per_tok=2,
                n_group=1,
                topk_group=1,
                first_k_dense_replace=1,
                # transformers builds no MTP layer; the engine leaves MTP groups out by default.
                num_nextn_predict_layers=1,
            ),
        ),
    ]


def _falcon() -> list[Case]:
    return [
        Case(
            "falcon", _config("falcon", num_hidden_layers=2, multi_query=True, new_decoder_architecture=False)
        ),
        Case(
            "falcon-mha",
            _config("falcon", num_hidden_layers=2, multi_query=False, new_decoder_architecture=False),
        ),
        Case(
            "falcon-new-decoder",
            _config("falcon", num_hidden_layers=2, new_decoder_architecture=True, num_kv_heads=2),
            # FalconAttention._split_heads broadcasts K and V to every query head when
            # new_decoder_architecture is set, and forward caches them with num_kv_heads = num_heads:
            # the adapter records that as Attention.broadcast_heads, which the transformers rule reads.
        ),
    ]


# ---------------------------------------------------------------- sliding windows and chunks


def _whole_model_window() -> list[Case]:
    return [
        Case("mistral", _config("mistral", num_hidden_layers=2, head_dim=16, sliding_window=WINDOW)),
        Case(
            "mixtral",
            _config(
                "mixtral",
                num_hidden_layers=2,
                sliding_window=WINDOW,
                num_local_experts=4,
                num_experts_per_tok=2,
            ),
        ),
        Case("phi3", _config("phi3", num_hidden_layers=2, sliding_window=WINDOW)),
        Case("starcoder2", _config("starcoder2", num_hidden_layers=2, sliding_window=WINDOW)),
    ]


def _qwen() -> list[Case]:
    window = {"use_sliding_window": True, "sliding_window": WINDOW}
    moe = {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16}
    return [
        Case("qwen2", _config("qwen2", num_hidden_layers=3, max_window_layers=1, **window)),
        Case(
            "qwen2_moe",
            _config(
                "qwen2_moe",
                num_hidden_layers=4,
                max_window_layers=3,
                shared_expert_intermediate_size=16,
                **window,
                **moe,
            ),
        ),
        Case("qwen3", _config("qwen3", num_hidden_layers=3, head_dim=16, max_window_layers=2, **window)),
        Case(
            "qwen3_moe",
            _config("qwen3_moe", num_hidden_layers=3, head_dim=16, max_window_layers=1, **window, **moe),
        ),
        # Released Qwen 2.5 configs carry a window with use_sliding_window false: no layer slides.
        Case(
            "qwen2-window-off",
            _config("qwen2", num_hidden_layers=2, use_sliding_window=False, sliding_window=WINDOW),
        ),
    ]


def _local_global() -> list[Case]:
    gemma = {"head_dim": 16, "sliding_window": WINDOW, "query_pre_attn_scalar": 16}
    return [
        Case("gemma2", _config("gemma2", num_hidden_layers=4, **gemma)),
        Case("gemma3_text", _config("gemma3_text", num_hidden_layers=6, sliding_window_pattern=3, **gemma)),
        Case(
            "cohere2",
            _config("cohere2", num_hidden_layers=4, sliding_window=WINDOW, sliding_window_pattern=2),
        ),
        Case(
            "gpt_oss",
            _config(
                "gpt_oss",
                num_hidden_layers=4,
                head_dim=16,
                sliding_window=WINDOW,
                num_local_experts=4,
                num_experts_per_tok=2,
            ),
        ),
        Case("llama4_text", _config("llama4_text", **_LLAMA4)),
        Case(
            "gemma3n_text",
            _config("gemma3n_text", num_hidden_layers=10, num_kv_shared_layers=4, **_GEMMA3N, **gemma),
        ),
    ]


_GEMMA3N: dict[str, Any] = {
    "vocab_size_per_layer_input": 64,
    "hidden_size_per_layer_input": 8,
    "laurel_rank": 4,
    "altup_num_inputs": 2,
}
"""Gemma 3n's per-layer-input, LAuReL and AltUp sizes, shrunk; they do not touch the cache."""


_LLAMA4: dict[str, Any] = {
    "num_hidden_layers": 4,
    "head_dim": 16,
    "attention_chunk_size": WINDOW,
    "no_rope_layer_interval": 2,
    "intermediate_size_mlp": 48,
    "num_local_experts": 2,
    "num_experts_per_tok": 1,
    "interleave_moe_layer_step": 2,
}
"""Chunked RoPE layers with a NoPE global layer every second layer."""


# ---------------------------------------------------------------- multi-head latent attention


def _mla() -> list[Case]:
    mla = {
        "num_key_value_heads": 4,
        "kv_lora_rank": 12,
        "q_lora_rank": 20,
        "qk_rope_head_dim": 4,
        "qk_nope_head_dim": 8,
        "v_head_dim": 6,
        "moe_intermediate_size": 16,
        "n_routed_experts": 4,
        "num_experts_per_tok": 2,
        "n_shared_experts": 1,
        "n_group": 2,
        "topk_group": 1,
        "first_k_dense_replace": 1,
    }
    return [
        Case("deepseek_v2", _config("deepseek_v2", num_hidden_layers=2, **{**mla, "q_lora_rank": None})),
        Case("deepseek_v3", _config("deepseek_v3", num_hidden_layers=2, num_nextn_predict_layers=1, **mla)),
        Case(
            "deepseek_v32",
            # index_topk below LONG, so the sparse selection really drops tokens.
            _config(
                "deepseek_v32", num_hidden_layers=2, index_head_dim=8, index_n_heads=2, index_topk=4, **mla
            ),
        ),
    ]


# ---------------------------------------------------------------- recurrent and linear-attention hybrids

_FP32_REFERENCE = (
    "CPU runs take transformers' reference PyTorch path, which computes the state in float32: {}"
)


def _hybrids() -> list[Case]:
    return [
        Case(
            "qwen3_next",
            _config(
                "qwen3_next",
                num_hidden_layers=4,
                head_dim=16,
                full_attention_interval=2,
                linear_num_key_heads=2,
                linear_num_value_heads=4,
                linear_key_head_dim=8,
                linear_value_head_dim=6,
                linear_conv_kernel_dim=3,
                num_experts=4,
                num_experts_per_tok=2,
                moe_intermediate_size=16,
                shared_expert_intermediate_size=16,
            ),
            state="fp32",
            state_source=_FP32_REFERENCE.format(
                "torch_chunk_gated_delta_rule casts q, k, v, beta and g to float32 (modeling_qwen3_next.py)"
            ),
        ),
        Case(
            "kimi_linear",
            _config(
                "kimi_linear",
                num_hidden_layers=4,
                num_key_value_heads=4,
                kv_lora_rank=12,
                q_lora_rank=None,
                qk_rope_head_dim=4,
                qk_nope_head_dim=8,
                v_head_dim=6,
                moe_intermediate_size=16,
                num_experts=4,
                num_experts_per_token=2,
                linear_attn_config={
                    "kda_layers": [1, 2, 4],
                    "full_attn_layers": [3],
                    "num_heads": 2,
                    "head_dim": 8,
                    "short_conv_kernel_size": 3,
                },
            ),
        ),
        Case(
            "jamba",
            _config(
                "jamba",
                num_hidden_layers=4,
                attn_layer_period=2,
                attn_layer_offset=1,
                expert_layer_period=2,
                expert_layer_offset=1,
                num_experts=2,
                num_experts_per_tok=1,
                mamba_d_state=6,
                mamba_d_conv=3,
                mamba_expand=2,
                use_mamba_kernels=False,
            ),
            state="fp32",
            state_source=_FP32_REFERENCE.format(
                "selective_scan builds deltaB_u from float() inputs (modeling_jamba.py)"
            ),
        ),
        *_mamba2_hybrids(),
        Case(
            "minimax",
            _config(
                "minimax",
                num_hidden_layers=4,
                head_dim=16,
                num_local_experts=2,
                num_experts_per_tok=1,
                block_size=4,
            ),
            state="model",
            state_source=(
                "MiniMaxLightningAttention starts attn_weights_inter in the dtype of value_states and decays "
                "it with buffers in the model dtype (modeling_minimax.py)"
            ),
        ),
    ]


def _mamba2_hybrids() -> list[Case]:
    source = _FP32_REFERENCE.format("mamba2_chunk_scan casts hidden states, B and C with float()")
    return [
        Case(
            "bamba",
            _config(
                "bamba",
                num_hidden_layers=3,
                attn_layer_indices=[1],
                mamba_n_heads=4,
                mamba_d_head="auto",
                mamba_n_groups=1,
                mamba_d_state=6,
                mamba_d_conv=3,
                mamba_expand=2,
                mamba_chunk_size=8,
                time_step_limit=TIME_STEP_LIMIT,
            ),
            state="fp32",
            state_source=source + " (modeling_bamba.py)",
        ),
        Case(
            "nemotron_h",
            _config(
                "nemotron_h",
                hybrid_override_pattern="M*-ME",
                num_hidden_layers=5,
                head_dim=8,
                mamba_num_heads=4,
                mamba_head_dim=6,
                n_groups=2,
                ssm_state_size=5,
                conv_kernel=3,
                chunk_size=8,
                n_routed_experts=4,
                num_experts_per_tok=2,
                moe_intermediate_size=16,
                moe_shared_expert_intermediate_size=16,
                use_mamba_kernels=False,
                time_step_limit=TIME_STEP_LIMIT,
            ),
            state="fp32",
            state_source=source + " (modeling_nemotron_h.py)",
        ),
    ]


# ---------------------------------------------------------------- multimodal wrappers


def _text(model_type: str, **fields: Any) -> dict[str, Any]:
    """A decoder config nested under a wrapper's ``text_config``."""
    return {"model_type": model_type, **_BASE, **fields}


def _wrappers() -> list[Case]:
    gemma = {"head_dim": 16, "sliding_window": WINDOW, "query_pre_attn_scalar": 16}
    tokens = {"boi_token_index": 60, "eoi_token_index": 61, "image_token_index": 62}
    siglip = {
        "model_type": "siglip_vision_model",
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "image_size": 28,
        "patch_size": 14,
    }
    llama4_vision = {
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "image_size": 28,
        "patch_size": 14,
        "vision_output_dim": 32,
        "projector_input_dim": 32,
        "projector_output_dim": 32,
    }
    gemma3 = _text("gemma3_text", num_hidden_layers=6, sliding_window_pattern=3, **gemma)
    gemma3n = _text("gemma3n_text", num_hidden_layers=10, num_kv_shared_layers=4, **_GEMMA3N, **gemma)
    return [
        Case(
            "gemma3",
            {
                "model_type": "gemma3",
                "text_config": gemma3,
                "vision_config": siglip,
                "mm_tokens_per_image": 4,
                **tokens,
            },
        ),
        Case(
            "llama4",
            {
                "model_type": "llama4",
                "text_config": _text("llama4_text", **_LLAMA4),
                "vision_config": llama4_vision,
                **tokens,
            },
        ),
        Case(
            "gemma3n",
            {"model_type": "gemma3n", "text_config": gemma3n},
            decoder_only=(
                "Gemma3nModel builds its vision tower with TimmWrapperModel, which needs timm, and timm "
                "needs a torchvision build matching torch 2.13.0; the cache is the language model's, "
                "built here from the wrapper's own text_config"
            ),
        ),
    ]


def _qwen3_vl_moe() -> list[Case]:
    """Neither type has a causal-LM mapping in transformers. The wrapper is as published (no window); the
    text config names a window, which makes every layer of the cache slide."""
    moe = {"num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 16}
    text = _text("qwen3_vl_moe_text", num_hidden_layers=3, head_dim=16, **moe)
    vision = {
        "depth": 1,
        "hidden_size": 16,
        "intermediate_size": 32,
        "num_heads": 2,
        "out_hidden_size": 32,
        "patch_size": 14,
        "num_position_embeddings": 16,
        "deepstack_visual_indexes": [],
    }
    tokens = {
        "image_token_id": 60,
        "video_token_id": 61,
        "vision_start_token_id": 62,
        "vision_end_token_id": 63,
    }
    wrapper = {"model_type": "qwen3_vl_moe", "text_config": text, "vision_config": vision, **tokens}
    return [
        Case("qwen3_vl_moe", wrapper, auto_class="image-text-to-text"),
        Case("qwen3_vl_moe_text", {**text, "sliding_window": WINDOW}, auto_class="base"),
    ]


def all_cases() -> list[Case]:
    """Every case, in a stable order; names are unique and used as test ids."""
    return [
        *_full_attention(),
        *_falcon(),
        *_whole_model_window(),
        *_qwen(),
        *_local_global(),
        *_mla(),
        *_hybrids(),
        *_wrappers(),
        *_qwen3_vl_moe(),
    ]
