"""Per-sequence state of recurrent and linear-attention layers, shaped as a serving engine allocates it.

Shapes follow vLLM's ``MambaStateShapeCalculator`` (``vllm/model_executor/layers/mamba/mamba_utils.py``,
read at commit 02d710837549a368073552333f66d714477415d2) with one GPU (no tensor-parallel split), no
speculative tokens, and its default ``(state_len, dim)`` conv layout. vLLM keeps ``kernel - 1`` past
inputs for the short convolution (the current token completes the window); a reference implementation
that keeps the full ``kernel`` width holds slightly more. RWKV's, RecurrentGemma's and xLSTM's shapes
are read from transformers' modeling code instead, cited in each, as are the two tensors of Qwen4-Exp's
per-layer embeddings: a dilated convolution's window and a window of token ids.
"""

from __future__ import annotations

from registry.engine.layers import Recurrent, StateTensor


def _conv(kernel: int, channels: int) -> StateTensor:
    """The short convolution's rolling window: ``(kernel - 1) x channels`` values."""
    return StateTensor("conv", (kernel - 1, channels), role="conv")


def mamba1(intermediate: int, state_size: int, conv_kernel: int) -> Recurrent:
    """Mamba (Jamba): conv ``(d_conv - 1, d_inner)`` + SSM ``(d_inner, d_state)``.

    ``mamba1_state_shape``: conv dim is ``intermediate_size``; the temporal state is
    ``(intermediate_size, state_size)``.
    """
    return Recurrent(
        variant="mamba",
        tensors=(_conv(conv_kernel, intermediate), StateTensor("ssm", (intermediate, state_size))),
    )


def mamba2(
    intermediate: int, n_groups: int, num_heads: int, head_dim: int, state_size: int, conv_kernel: int
) -> Recurrent:
    """Mamba-2 (Bamba, Nemotron-H, Falcon-H1): conv over ``d_inner + 2 * n_groups * d_state`` channels,
    SSM state ``(heads, head_dim, d_state)`` (``mamba2_state_shape``)."""
    conv_dim = intermediate + 2 * n_groups * state_size
    return Recurrent(
        variant="mamba2",
        tensors=(_conv(conv_kernel, conv_dim), StateTensor("ssm", (num_heads, head_dim, state_size))),
    )


def gated_delta_net(
    num_k_heads: int, num_v_heads: int, head_k_dim: int, head_v_dim: int, conv_kernel: int
) -> Recurrent:
    """Gated DeltaNet (Qwen3-Next linear layers): conv over ``2 * k_heads * k_dim + v_heads * v_dim``
    channels (q, k and v are convolved), state ``(v_heads, v_dim, k_dim)``
    (``gated_delta_net_state_shape``)."""
    conv_dim = 2 * num_k_heads * head_k_dim + num_v_heads * head_v_dim
    return Recurrent(
        variant="gated-deltanet",
        tensors=(
            _conv(conv_kernel, conv_dim),
            StateTensor("recurrent", (num_v_heads, head_v_dim, head_k_dim)),
        ),
    )


def kda(num_heads: int, head_dim: int, conv_kernel: int) -> Recurrent:
    """Kimi Delta Attention (Kimi Linear): conv over ``3 * heads * head_dim`` channels (q, k, v),
    state ``(heads, head_dim, head_dim)`` (``kda_state_shape`` with equal key and value sizes)."""
    return Recurrent(
        variant="kda",
        tensors=(
            _conv(conv_kernel, 3 * num_heads * head_dim),
            StateTensor("recurrent", (num_heads, head_dim, head_dim)),
        ),
    )


def lightning(num_heads: int, head_dim: int) -> Recurrent:
    """Lightning attention (MiniMax-Text-01 linear layers): one ``(heads, head_dim, head_dim)`` KV state
    per layer and no convolution (``linear_attention_state_shape``)."""
    return Recurrent(variant="lightning", tensors=(StateTensor("kv", (num_heads, head_dim, head_dim)),))


def short_conv(kernel: int, channels: int) -> Recurrent:
    """A short convolution alone (LFM2's conv layers): its rolling window of ``(kernel - 1, channels)``
    past inputs (``short_conv_state_shape``)."""
    return Recurrent(variant="short-conv", tensors=(_conv(kernel, channels),))


def rwkv(hidden: int, attention_hidden: int) -> Recurrent:
    """RWKV (4): two token shifts of ``hidden`` values (the channel mix's and the time mix's previous
    input) and the WKV numerator, denominator and running maximum of ``attention_hidden`` values each
    (``RwkvModel.forward`` in transformers' ``modeling_rwkv.py``; the layer's share of each of the five
    ``(batch, hidden, layers)`` tensors of ``RwkvOutput.state``)."""
    return Recurrent(
        variant="rwkv",
        tensors=(
            StateTensor("channel-mix shift", (hidden,), role="shift"),
            StateTensor("time-mix shift", (hidden,), role="shift"),
            StateTensor("wkv numerator", (attention_hidden,)),
            StateTensor("wkv denominator", (attention_hidden,)),
            StateTensor("wkv maximum", (attention_hidden,)),
        ),
    )


def rg_lru(lru_width: int, conv_width: int) -> Recurrent:
    """RecurrentGemma's (Griffin's) recurrent block: a ``conv_width``-tap convolution over ``lru_width``
    channels and the RG-LRU's ``lru_width``-value hidden state (``RecurrentGemmaRecurrentBlock`` in
    transformers' ``modeling_recurrent_gemma.py``)."""
    return Recurrent(
        variant="rg-lru",
        tensors=(_conv(conv_width, lru_width), StateTensor("recurrent", (lru_width,))),
    )


def mlstm(num_heads: int, qk_head_dim: int, v_head_dim: int) -> Recurrent:
    """xLSTM's mLSTM cell: per head a ``(qk_head_dim, v_head_dim)`` matrix memory, a ``qk_head_dim``
    normalizer and a scalar stabilizer, and no convolution (``xLSTMCache.rnn_state`` in transformers'
    ``modeling_xlstm.py``)."""
    return Recurrent(
        variant="mlstm",
        tensors=(
            StateTensor("matrix memory", (num_heads, qk_head_dim, v_head_dim)),
            StateTensor("normalizer", (num_heads, qk_head_dim)),
            StateTensor("stabilizer", (num_heads, 1)),
        ),
    )


def dilated_conv(name: str, kernel: int, dilation: int, channels: int) -> StateTensor:
    """A dilated convolution's window: ``kernel`` taps ``dilation`` inputs apart reach back
    ``(kernel − 1) × dilation`` inputs, which is what the window keeps over ``channels`` channels
    (``nn.Conv1d(..., dilation=...)``; Qwen4-Exp's per-layer-embedding convolution)."""
    return StateTensor(name, ((kernel - 1) * dilation, channels), role="conv", dilation=dilation)


def token_ids(name: str, count: int) -> StateTensor:
    """The last ``count`` token ids of a sequence, kept as int64 whatever the formats asked
    (Qwen4-Exp's n-gram context, from which each step hashes its n-grams)."""
    return StateTensor(name, (count,), role="tokens")
