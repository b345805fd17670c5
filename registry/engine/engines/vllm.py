"""vLLM 0.33.0 (``vllm-project/vllm``): a paged KV cache, whole blocks per sequence."""

from __future__ import annotations

from registry.engine.dtypes import DType, get_dtype
from registry.engine.engines.deepseek_v4 import vllm_compressed, vllm_sliding
from registry.engine.engines.fp8_mla import fp8_ds_mla, fp8_indexer
from registry.engine.engines.ideal import FOR_ENGINE, Serving, ceil_div, model_dtype, refusal
from registry.engine.layers import (
    MLA,
    Attention,
    Compressed,
    Mechanism,
    Recurrent,
    SlidingWindow,
    StateTensor,
)
from registry.engine.plan import Component, EntryRule, GroupPlan, Settings, unsupported
from registry.engine.trace import number


class VLLM(Serving):
    """vLLM 0.33.0: paged KV cache, whole blocks per sequence (``vllm/v1/kv_cache_interface.py``)."""

    key = "vllm"
    name = "vLLM"
    title = "vLLM 0.33.0 paged KV cache"
    block_size = 16
    """``CacheConfig.DEFAULT_BLOCK_SIZE`` (``vllm/config/cache.py``) for standard attention backends."""
    mla_block_size = 64
    """``FlashMLABackend.get_supported_kernel_block_sizes`` returns ``[64]``
    (``vllm/v1/attention/backends/mla/flashmla.py``); the block size a Hopper MLA deployment gets."""
    kv_dtypes = frozenset({"fp32", "bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2"})

    def kv_dtype_problem(self, dtype: DType) -> str:
        """``--kv-cache-dtype`` offers auto (the model dtype) and fp8 variants, not ggml block formats."""
        if dtype.name in self.kv_dtypes:
            return ""
        return refusal("vLLM's kv_cache_dtype", dtype, self.kv_dtypes)

    def _block(self, mechanism: Mechanism) -> int:
        return self.mla_block_size if isinstance(mechanism, MLA) else self.block_size

    def block_tokens(self, mechanism: Mechanism) -> int:
        """A block: 64 tokens for MLA (FlashMLA), else 16."""
        return self._block(mechanism)

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """Whole blocks: ``⌈t / block_size⌉ × block_size`` slots.

        ``FullAttentionSpec.max_memory_usage_bytes`` counts ``cdiv(len, block_size)`` pages, and
        ``SingleTypeKVCacheManager`` allocates a sequence whole blocks.
        """
        size = self._block(mechanism)
        blocks = ceil_div(t, size)
        return blocks * size, f"⌈t / {size}⌉ = {number(blocks)} blocks of {size} tokens"

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """Blocks still readable: ``⌈t / B⌉ − ⌊max(0, t − window + 1) / B⌋`` blocks of ``B`` tokens.

        ``SlidingWindowManager.get_num_skipped_tokens`` skips ``t − window + 1`` tokens and
        ``remove_skipped_blocks`` frees only the whole blocks below that
        (``vllm/v1/core/single_type_kv_cache_manager.py``).
        """
        size = self._block(mechanism)
        skipped_blocks = max(0, t - window + 1) // size
        blocks = ceil_div(t, size) - skipped_blocks
        return (
            blocks * size,
            f"{number(blocks)} blocks of {size} tokens still inside the {number(window)}-token window",
        )

    def sliding_window(self, mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
        """A window of whole blocks (:meth:`window_entries`); DeepSeek-V4's sliding-only layers, a window
        over one latent vector, in that model's SWA cache instead (:func:`deepseek_v4.vllm_sliding`)."""
        if mechanism.latent is not None:
            return vllm_sliding(mechanism, settings)
        return super().sliding_window(mechanism, settings)

    def chunk_entries(self, t: int, chunk: int, mechanism: Mechanism) -> tuple[int, str]:
        """Blocks of the current chunk: ``⌈t / B⌉ − ⌊⌊(t − 1) / chunk⌋ × chunk / B⌋``.

        ``ChunkedLocalAttentionManager.get_num_skipped_tokens(num_computed_tokens)`` skips
        ``⌊num_computed_tokens / chunk⌋ × chunk`` tokens (``vllm/v1/core/single_type_kv_cache_manager.py``),
        where ``num_computed_tokens`` counts the tokens before the one being decoded: at a context of ``t``
        tokens, ``t − 1``. The block of the token being decoded is always held, so a context that is an
        exact multiple of the chunk keeps that whole chunk, as the architecture does.
        """
        size = self._block(mechanism)
        computed = max(0, t - 1)
        blocks = ceil_div(t, size) - (computed // chunk * chunk) // size
        return blocks * size, f"{number(blocks)} blocks of {size} tokens in the current chunk"

    def attention(self, mechanism: Attention, settings: Settings) -> GroupPlan:
        """Full attention; a layer with an indexer beside K and V (MiniMax-M3, Qwen4-Exp) is refused."""
        if mechanism.index_head_dim is not None:
            return unsupported(
                f"vLLM's cache for an indexer beside attention (MiniMax-M3, Qwen4-Exp): {FOR_ENGINE}"
            )
        return super().attention(mechanism, settings)

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """The latent per token; DeepSeek-V3.2 in fp8 uses the 656-byte ``fp8_ds_mla`` record.

        ``MLAAttention.get_kv_cache_spec`` (``vllm/model_executor/layers/attention/mla_attention.py``) sets
        ``state_content_bytes`` to 656 for ``fp8_ds_mla``: 512 fp8 latent values + 4 float32 scales (one per
        128 values) + 64 bf16 RoPE values = 512 + 16 + 128 bytes (layout note in
        ``vllm/v1/attention/backends/mla/flashmla_sparse.py``). Without the sparse indexer, fp8 is the
        plain per-tensor fp8 latent.
        """
        if mechanism.window is not None:
            return unsupported(f"vLLM's layout for an MLA layer with a window: {FOR_ENGINE}")
        if mechanism.index_head_dim is None or not settings.kv_dtype.name.startswith("fp8"):
            return super().mla(mechanism, settings)
        return fp8_ds_mla(self, mechanism, settings)

    def indexer(
        self, mechanism: MLA | Attention, settings: Settings, entries: EntryRule
    ) -> tuple[Component, ...]:
        """Indexer keys in fp8 with one float32 scale per 128 values, whatever the KV dtype.

        ``Indexer.__init__`` (``vllm/model_executor/models/deepseek_v2.py``) builds
        ``DeepseekV32IndexerCache(head_dim=index_head_dim + index_head_dim // 128 * 4, dtype=uint8)``.
        """
        return fp8_indexer(mechanism, entries)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """Conv state (and a token shift, an activation copy as it is) in the model dtype; the recurrent
        state in ``mamba_ssm_cache_dtype``.

        ``MambaStateDtypeCalculator`` (``vllm/model_executor/layers/mamba/mamba_utils.py``): with the
        defaults ``mamba_cache_dtype = mamba_ssm_cache_dtype = "auto"`` both follow the model dtype, except
        ``kda_state_dtype``, which keeps KDA's recurrent state in float32. A requested state dtype plays
        the part of ``mamba_ssm_cache_dtype``.
        """
        if tensor.role != "state":
            return model_dtype(settings, f"vLLM's {tensor.role} state")
        if settings.state_dtype is not None:
            return settings.state_dtype
        if mechanism.variant == "kda":
            return get_dtype("fp32")
        return model_dtype(settings, "vLLM's recurrent state")

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        """One state per sequence (``MambaSpec.page_size_bytes``: Σ prod(shape) × dtype size).

        In hybrid models vLLM also pads that page to the attention page size
        (``MambaSpec.page_size_padded``); the padding depends on the whole model and is not added here.
        A dilated convolution's window or a state of token ids (Qwen4-Exp's) never reaches here:
        :class:`~registry.engine.engines.ideal.Serving` refuses it, vLLM's layout for them not read.
        """
        plan = super().recurrent(mechanism, settings)
        note = "vLLM may pad each state page to the attention page size in hybrid models (not added)"
        return GroupPlan(plan.components, notes=(*plan.notes, note))

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        """DeepSeek-V4's CSA and HCA layers with the fp8 cache (:func:`deepseek_v4.vllm_compressed`)."""
        return vllm_compressed(mechanism, settings)
