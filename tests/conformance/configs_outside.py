"""Scaled-down configs of the recurrent networks whose state transformers keeps outside its cache
layers (RWKV's returned state, RecurrentGemma's modules, xLSTM's own cache class), in the shape and under
the rules of :mod:`.configs`."""

from __future__ import annotations

from tests.conformance.configs import WINDOW, Case, _config

_FP32 = "CPU runs take transformers' reference PyTorch path, which keeps this state in float32: {}"


def cases_outside() -> list[Case]:
    """Every case of this module, in a stable order; names are unique and used as test ids."""
    return [
        Case(
            "rwkv",
            # attention_hidden_size equal to hidden_size: RwkvModel.forward allocates the WKV state at
            # hidden_size, so transformers runs no other width.
            _config("rwkv", num_hidden_layers=3, attention_hidden_size=32),
            state="fp32",
            state_source=_FP32.format("RwkvModel.forward allocates state[2:] in float32 (modeling_rwkv.py)"),
            held="returned state",
        ),
        Case(
            "recurrent_gemma",
            _config(
                "recurrent_gemma",
                num_hidden_layers=5,
                lru_width=24,
                conv1d_width=3,
                attention_window_size=WINDOW,
                block_types=["recurrent", "recurrent", "attention"],
            ),
            state="fp32",
            state_source=_FP32.format(
                "RecurrentGemmaRglru scans in acc_dtype float32 (modeling_recurrent_gemma.py)"
            ),
            held="modules",
        ),
        Case(
            "xlstm",
            # hidden_size x qk_dim_factor and x v_dim_factor are multiples of 64, as xLSTMCache's sizes
            # (rounded up to one) and the layer's (not rounded) must agree for the model to run.
            _config("xlstm", hidden_size=128, num_hidden_layers=2, num_heads=4, qk_dim_factor=0.5),
            state="model",
            state_source="xLSTMCache allocates rnn_state in the model dtype and copies each step into it "
            "(modeling_xlstm.py)",
        ),
    ]
