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


def _reformer() -> list[Case]:
    """Reformer's cache: every layer's input hidden states, and the LSH layers' hash buckets from one LSH
    chunk on (:data:`WINDOW` tokens: none at the short length, every token's at the long one and from
    that step while decoding). Local chunks shorter than the LSH ones, two hashes, fewer heads × head
    size than the hidden size, so that neither can pass for the other."""
    config = {
        "model_type": "reformer",
        "vocab_size": 64,
        "hidden_size": 32,
        "num_attention_heads": 2,
        "attention_head_size": 8,
        "feed_forward_size": 48,
        "attn_layers": ["local", "lsh", "local", "lsh"],
        "local_attn_chunk_length": 4,
        "lsh_attn_chunk_length": WINDOW,
        "num_hashes": 2,
        "num_buckets": 4,
        # axial position embeddings cover max_position_embeddings = 4 x 8 tokens, beyond the long
        # sequence padded to a multiple of the chunk lengths
        "axial_pos_shape": [4, 8],
        "axial_pos_embds_dim": [16, 16],
        "max_position_embeddings": 32,
        "is_decoder": True,
        "pad_token_id": 0,
    }
    cast = (
        "AxialPositionEmbeddings creates its weights in float32 whatever the dtype asked "
        "(modeling_reformer.py), and a bf16 layer norm then refuses their float32 sum: cast, as a bf16 "
        "Reformer must be, the model runs and caches in bf16"
    )
    decoded = (
        "decoding past lsh_attn_chunk_length from a shorter prompt, ReformerDynamicCache.update "
        "concatenates the first int64 buckets onto the empty float32 tensor it kept for the layer, and "
        "torch.cat promotes them to float32 (4 B each) for the rest of the sequence; a prompt longer than "
        "one LSH chunk keeps them in int64, as the engine counts them"
    )
    return [
        Case("reformer", config, held="buckets and states", cast=cast, decode_divergence=decoded),
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
            no_single_token=(
                "RecurrentGemmaRecurrentBlock.forward takes a one-token forward pass for a decoding step "
                "(position_ids.shape[1] == 1) and concatenates its input (lru_width wide) onto the "
                "hidden_size-wide zero state it has just made, which torch.cat refuses"
            ),
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
        *_reformer(),
    ]
