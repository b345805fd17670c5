"""TensorRT-LLM 1.2.0rc2 (``NVIDIA/TensorRT-LLM``): the PyTorch backend's paged KV cache, whole blocks of
32 tokens per sequence and layer.

Read at commit ``b35ac1b64368513d215c57d2ed01d62d910df8da`` (``tensorrt_llm/version.py`` there:
``1.2.0rc2``), in these files and functions:

- ``tensorrt_llm/llmapi/llm_args.py``, ``KvCacheConfig``: ``tokens_per_block`` defaults to 32 (a
  config sets it as ``kv_cache_config.tokens_per_block``); ``max_attention_window`` (one window per
  layer, repeated over the layers when shorter) is unset by default, which gives every layer
  ``max_seq_len``; ``dtype`` ``auto`` keeps the model's.
- ``tensorrt_llm/_torch/pyexecutor/resource_manager.py``, ``KVCacheManager``: ``kv_factor`` is 1 for a
  ``SELFKONLY`` cache and 2 otherwise; ``get_cache_size_per_token`` caches an MLA layer as
  ``kv_lora_rank + qk_rope_head_dim`` values with ``kv_factor`` 1; ``get_cache_bytes_per_token`` takes
  FP8, HALF, BF16, FLOAT and NVFP4 and raises for any other format, and adds to NVFP4's 4-bit values
  one FP8 scale per 16 (``calculate_scaling_factor_size_bytes(quant_vector_size=16)``);
  ``prepare_resources`` adds a sequence with its prompt (``add_sequence``) and then one token per
  generation step (``add_token``).
- ``cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp``: ``KVCacheManager::addSequence`` gives each
  window size ``⌈min(t, maxTokenNum) / tokens_per_block⌉`` blocks, ``maxTokenNum`` being ``max(window,
  max_seq_len)`` (so a prompt keeps every block, even of a window layer);
  ``WindowBlockManager::adjustBlocksIfNeeded``, run by ``addToken``, allocates a block when the last
  token starts one and, in a sliding-window pool, detaches the front block
  (``detachFrontBlock``: released to the eviction policy, and so to reuse) while the tokens held reach
  ``window + tokens_per_block``.

A sequence of ``t`` tokens therefore holds ``⌈t / 32⌉`` blocks in a full-attention layer, and in a
window layer, once it generates, ``⌈t / 32⌉ − ⌊max(0, t − window) / 32⌋``. Chunked attention, sparse
indexers, sequence-compressed layers, recurrent state (``MambaCacheManager``) and NVFP4 for MLA were not
read, and are refused with that reason.
"""

from __future__ import annotations

from registry.engine.dtypes import DType
from registry.engine.engines.ideal import FOR_ENGINE, Serving, ceil_div, refusal
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    Mechanism,
    Recurrent,
    SlidingWindow,
)
from registry.engine.plan import GroupPlan, Settings, unsupported
from registry.engine.trace import number

REVISION = "b35ac1b64368513d215c57d2ed01d62d910df8da"
"""The commit of ``NVIDIA/TensorRT-LLM`` the rules were read at (``version.py``: 1.2.0rc2)."""


class TensorRTLLM(Serving):
    """TensorRT-LLM 1.2.0rc2 (``NVIDIA/TensorRT-LLM`` at ``b35ac1b6``), its PyTorch backend's paged KV
    cache: a sequence holds whole blocks of ``kv_cache_config.tokens_per_block`` tokens (32 by default) in
    every layer, ``⌈t / 32⌉`` of them in a full-attention layer (``KVCacheManager::addSequence``, then a
    block more each time a token starts one). An MLA layer keeps one ``kv_lora_rank + qk_rope_head_dim``
    vector per token (``kv_factor`` 1, ``get_cache_size_per_token``). A sliding-window layer, given its
    window as ``kv_cache_config.max_attention_window``, detaches its front block while it holds
    ``window + 32`` tokens or more (``WindowBlockManager::adjustBlocksIfNeeded``), so a generating
    sequence holds ``⌈t / 32⌉ − ⌊max(0, t − window) / 32⌋`` blocks (a prompt keeps all of its blocks until
    its first generated token). KV formats: fp32, bf16, fp16, fp8 (E4M3) and nvfp4, whose 4-bit values
    carry one fp8 scale per 16 (9 bytes per 16 values, ``get_cache_bytes_per_token``); any other format
    is refused, as ``get_cache_bytes_per_token`` raises for it. Chunked attention, sparse-attention
    indexers, DeepSeek-V4's compressed and sliding layers, recurrent state (the Mamba cache manager) and
    an NVFP4 MLA latent were not read and are refused with that reason."""

    key = "trtllm"
    name = "TensorRT-LLM"
    title = "TensorRT-LLM 1.2.0rc2, 32-token blocks"
    block_size = 32
    """``KvCacheConfig.tokens_per_block`` default (``tensorrt_llm/llmapi/llm_args.py``)."""
    kv_dtypes = frozenset({"fp32", "bf16", "fp16", "fp8", "fp8_e4m3", "nvfp4"})
    """``get_cache_bytes_per_token``: FLOAT, BF16, HALF, FP8 (E4M3) and NVFP4; anything else raises."""

    def kv_dtype_problem(self, dtype: DType) -> str:
        """The formats ``KVCacheManager.get_cache_bytes_per_token`` sizes; it raises ``Cannot support
        ... KV cache`` for the rest."""
        if dtype.name in self.kv_dtypes:
            return ""
        return refusal("TensorRT-LLM's KV cache", dtype, self.kv_dtypes)

    def block_tokens(self, mechanism: Mechanism) -> int:
        """A block: ``tokens_per_block`` tokens, 32 by default, for every layer and format."""
        return self.block_size

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """Whole blocks: ``⌈t / 32⌉ × 32`` slots (``addSequence`` gives a prompt ``⌈t / 32⌉`` blocks,
        ``adjustBlocksIfNeeded`` one more each time a token starts a block)."""
        blocks = ceil_div(t, self.block_size)
        return (
            blocks * self.block_size,
            f"⌈t / {self.block_size}⌉ = {number(blocks)} blocks of {self.block_size} tokens",
        )

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """Blocks not yet detached: ``⌈t / B⌉ − ⌊max(0, t − window) / B⌋`` blocks of ``B`` tokens.

        ``WindowBlockManager::adjustBlocksIfNeeded`` detaches the front block while the tokens held,
        ``t − removed × B``, are at least ``window + B``; it stops at ``removed = ⌊(t − window) / B⌋``.
        That is what a generating sequence holds; a prompt of ``t`` tokens keeps all ``⌈t / B⌉`` blocks
        until its first generated token (``addSequence``), which the trace says.
        """
        size = self.block_size
        blocks = ceil_div(t, size) - max(0, t - window) // size
        return (
            blocks * size,
            f"{number(blocks)} blocks of {size} tokens not yet detached from the {number(window)}-token window",
        )

    def window_full_at(self, window: int) -> int:
        """The window's blocks stop growing once the first front block is detached: at ``window``
        tokens they hold ``⌈window / B⌉`` blocks, after it as many or one more."""
        return window

    def sliding_window(self, mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
        """A window of whole blocks (:meth:`window_entries`), for the window the model states, given to
        TensorRT-LLM as ``kv_cache_config.max_attention_window`` (unset, every layer keeps the whole
        context); DeepSeek-V4's sliding-only layers (a window over one latent vector) are refused."""
        if mechanism.latent is not None:
            return unsupported(f"TensorRT-LLM's DeepSeek-V4 cache: {FOR_ENGINE}")
        plan = super().sliding_window(mechanism, settings)
        notes = (
            "the window is the model's, passed as kv_cache_config.max_attention_window (left unset, "
            "TensorRT-LLM gives every layer max_seq_len: the whole context)",
            "a prompt prefilled at once keeps all its blocks until its first generated token; a "
            "generating sequence holds the blocks not yet detached",
        )
        return GroupPlan(plan.components, notes=(*plan.notes, *notes))

    def chunked(self, mechanism: Chunked, settings: Settings) -> GroupPlan:
        return unsupported(f"TensorRT-LLM's handling of chunked attention: {FOR_ENGINE}")

    def attention(self, mechanism: Attention, settings: Settings) -> GroupPlan:
        """Full attention, K and V of every token (``kv_factor`` 2); a layer with an indexer beside K and V
        (MiniMax-M3, Qwen4-Exp) is refused."""
        if mechanism.index_head_dim is not None:
            return unsupported(f"TensorRT-LLM's cache for an indexer beside attention: {FOR_ENGINE}")
        return super().attention(mechanism, settings)

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """One ``kv_lora_rank + qk_rope_head_dim`` vector per token (``kv_factor`` 1,
        ``get_cache_size_per_token``), in whole blocks; a sparse indexer (DeepSeek-V3.2), a window or an
        NVFP4 latent is refused."""
        if mechanism.index_head_dim is not None:
            return unsupported(f"TensorRT-LLM's sparse-attention (DSA) indexer cache: {FOR_ENGINE}")
        if mechanism.window is not None:
            return unsupported(f"TensorRT-LLM's layout for an MLA layer with a window: {FOR_ENGINE}")
        if settings.kv_dtype.name == "nvfp4":
            return unsupported(f"TensorRT-LLM's NVFP4 cache for an MLA latent: {FOR_ENGINE}")
        return super().mla(mechanism, settings)

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        return unsupported(f"TensorRT-LLM's Mamba cache manager (recurrent state): {FOR_ENGINE}")

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        return unsupported(f"TensorRT-LLM's DeepSeek-V4 cache: {FOR_ENGINE}")
