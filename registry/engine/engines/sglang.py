"""SGLang 0.5.23 (``sgl-project/sglang``): token-granular pools, page size 1 unless a backend asks for more."""

from __future__ import annotations

from registry.engine.dtypes import DType, get_dtype
from registry.engine.engines.deepseek_v4_sglang import sglang_compressed, sglang_sliding
from registry.engine.engines.fp8_mla import fp8_ds_mla, fp8_indexer
from registry.engine.engines.ideal import FOR_ENGINE, Serving, refusal
from registry.engine.formulas import window_tokens
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    Mechanism,
    Recurrent,
    SlidingWindow,
    StateTensor,
)
from registry.engine.plan import Component, EntryRule, GroupPlan, Settings, unsupported
from registry.engine.trace import number


class SGLang(Serving):
    """SGLang 0.5.23: token-granular pools (page size 1 unless a backend asks for more)."""

    key = "sglang"
    name = "SGLang"
    title = "SGLang 0.5.23 token pools, page size 1"
    kv_dtypes = frozenset({"fp32", "bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2"})

    def kv_dtype_problem(self, dtype: DType) -> str:
        """``--kv-cache-dtype`` offers auto and fp8 variants, not ggml block formats."""
        if dtype.name in self.kv_dtypes:
            return ""
        return refusal("SGLang's kv_cache_dtype", dtype, self.kv_dtypes)

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """``page_size`` defaults to 1 (``_page_size_default`` in ``sglang/srt/arg_groups/overrides.py``),
        so a sequence holds exactly ``t`` slots."""
        return t, ""

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """``min(t, window)``: ``free_swa_out_of_window_slots`` (``sglang/srt/mem_cache/common.py``) frees
        every slot below ``t − window`` (page size 1)."""
        return window_tokens(t, window), f"min(t, {number(window)})"

    def sliding_window(self, mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
        """A window of ``min(t, window)`` slots (:meth:`window_entries`); DeepSeek-V4's sliding-only
        layers, a window over one latent vector, in that model's SWA pool instead
        (:func:`deepseek_v4_sglang.sglang_sliding`)."""
        if mechanism.latent is not None:
            return sglang_sliding(mechanism, settings)
        return super().sliding_window(mechanism, settings)

    def chunked(self, mechanism: Chunked, settings: Settings) -> GroupPlan:
        return unsupported(f"SGLang's handling of chunked attention: {FOR_ENGINE}")

    def attention(self, mechanism: Attention, settings: Settings) -> GroupPlan:
        """Full attention; a layer with an indexer beside K and V (MiniMax-M3, Qwen4-Exp) is refused."""
        if mechanism.index_head_dim is not None:
            return unsupported(
                f"SGLang's cache for an indexer beside attention (MiniMax-M3, Qwen4-Exp): {FOR_ENGINE}"
            )
        return super().attention(mechanism, settings)

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """``MLATokenToKVPool`` keeps ``kv_lora_rank + qk_rope_head_dim`` values per token
        (``sglang/srt/mem_cache/memory_pool.py``); the DSA fp8 pool for DeepSeek-V3.2 uses the 656-byte
        record (fp8 latent + per-128 float32 scales + bf16 RoPE;
        ``sglang/srt/layers/attention/dsa_backend.py``).
        """
        if mechanism.window is not None:
            return unsupported(f"SGLang's layout for an MLA layer with a window: {FOR_ENGINE}")
        if mechanism.index_head_dim is None or not settings.kv_dtype.name.startswith("fp8"):
            return super().mla(mechanism, settings)
        return fp8_ds_mla(self, mechanism, settings)

    def indexer(
        self, mechanism: MLA | Attention, settings: Settings, entries: EntryRule
    ) -> tuple[Component, ...]:
        """Indexer keys in fp8 plus one float32 scale per 128 values (``quant_block_size = 128``,
        ``index_k_dtype`` float8_e4m3fn, scale float32 in the DSA pool of ``memory_pool.py``)."""
        return fp8_indexer(mechanism, entries)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """Conv state and token shifts (activation copies, as it is) bf16 (``SGLANG_MAMBA_CONV_DTYPE``
        default), recurrent state float32 unless the config, the environment or the request says
        otherwise (``mamba2_state_dtype`` in ``sglang/srt/configs/mamba_utils.py``)."""
        if tensor.role != "state":
            return get_dtype("bf16")
        return settings.state_dtype or get_dtype("fp32")

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        """DeepSeek-V4's CSA and HCA layers in the default fp8 pool (:func:`deepseek_v4_sglang.sglang_compressed`)."""
        return sglang_compressed(mechanism, settings)
