"""Scaled-down configs of the models whose state transformers keeps outside its cache layers (RWKV's
returned state, RecurrentGemma's modules, xLSTM's own cache class, XLNet's returned mems), in the shape
and under the rules of :mod:`.configs`."""

from __future__ import annotations

from tests.conformance.configs import WINDOW, Case, _config

_FP32 = "CPU runs take transformers' reference PyTorch path, which keeps this state in float32: {}"


def _xlnet() -> list[Case]:
    """XLNet's ``mems``: each layer's input hidden states, the last ``mem_len`` of them or (``mem_len``
    null) every one, read from its own field names (``d_model``, ``n_layer``, ``n_head``, ``d_head``,
    which ``XLNetConfig`` holds to ``d_model // n_head``): K and V would be twice the bytes."""
    fields = {"vocab_size": 64, "d_model": 32, "n_layer": 3, "n_head": 4, "d_head": 8, "d_inner": 48}
    no_bf16 = (
        "XLNetModel.relative_positional_encoding builds the positional embedding in float32 whatever the "
        "model dtype, and the relative attention's einsum of it with bf16 heads raises (modeling_xlnet.py)"
    )
    return [
        Case(
            name, {"model_type": "xlnet", **fields, "mem_len": mem_len}, held="returned mems", no_bf16=no_bf16
        )
        for name, mem_len in (("xlnet", WINDOW), ("xlnet_every_mem", None))
    ]


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
        *_xlnet(),
    ]
