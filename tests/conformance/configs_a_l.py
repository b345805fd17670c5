"""Scaled-down configs of the causal-LM model types whose adapters came with the list of every
architecture (names a to l, and Qwen3.5), in the shape and under the rules of :mod:`.configs`."""

from __future__ import annotations

from typing import Any

from tests.conformance.configs import _BASE, WINDOW, Case, _config

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


def cases_a_l() -> list[Case]:
    """Every case of this half, in a stable order; names are unique and used as test ids."""
    return [*_window_off(), *_qwen3_5(), *_falcon_h1()]
