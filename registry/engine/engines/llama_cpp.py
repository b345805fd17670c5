"""llama.cpp as vendored by llama-cpp-python 0.3.36 (``ggml-org/llama.cpp``): one contiguous cache per
sequence, padded to whole cells."""

from __future__ import annotations

from registry.engine.dtypes import DType, get_dtype
from registry.engine.engines.ideal import FOR_ENGINE, Serving, ceil_div, refusal
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
from registry.engine.plan import Component, GroupPlan, MissingDimension, Settings, require, unsupported
from registry.engine.trace import number


class LlamaCpp(Serving):
    """llama.cpp (vendored by llama-cpp-python 0.3.36): one contiguous cache per sequence, padded."""

    key = "llama.cpp"
    name = "llama.cpp"
    title = "llama.cpp KV cells padded to 256"
    pad = 256
    """``cparams.n_ctx = GGML_PAD(cparams.n_ctx, 256)`` and likewise ``n_ctx_seq`` (``llama_context``
    constructor, ``src/llama-context.cpp``)."""
    n_ubatch = 512
    """``common_params.n_ubatch`` default (``common/common.h``)."""
    kv_dtypes = frozenset({"fp32", "fp16", "bf16", "q8_0", "q4_0"})
    """Cache types the command-line tools accept that this registry names (``-ctk`` / ``-ctv``)."""

    def kv_dtype_problem(self, dtype: DType) -> str:
        """llama.cpp stores K and V as ggml tensors of ``type_k`` / ``type_v``; it has no fp8 cache type."""
        if dtype.name in self.kv_dtypes:
            return ""
        return refusal("llama.cpp's KV cache type", dtype, self.kv_dtypes)

    def _padded(self, n: int) -> int:
        return ceil_div(n, self.pad) * self.pad

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """``GGML_PAD(t, 256)`` cells, allocated up front for the whole context
        (``llama_kv_cache::llama_kv_cache`` sizes K and V as ``kv_size`` cells,
        ``src/llama-kv-cache.cpp``)."""
        cells = self._padded(t)
        return cells, f"t padded to {number(cells)} cells (multiple of {self.pad})"

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """``GGML_PAD(min(n_ctx, n_swa + n_ubatch), 256)`` cells: ``llama_kv_cache_iswa`` sizes its SWA
        cache this way when ``swa_full`` is off, the default of ``common_params``
        (``src/llama-kv-cache-iswa.cpp``)."""
        cells = self._padded(min(self._padded(t), window + self.n_ubatch))
        return cells, f"GGML_PAD(min(n_ctx, {number(window)} + {self.n_ubatch}), {self.pad}) cells"

    def window_full_at(self, window: int) -> int:
        """``n_swa + n_ubatch``: the cells :meth:`window_entries` holds at most, before padding."""
        return window + self.n_ubatch

    def block_tokens(self, mechanism: Mechanism) -> int:
        """The 256 cells every size is padded to."""
        return self.pad

    def chunk_period(self, chunk: int, mechanism: Mechanism) -> int:
        """The padding: a chunked layer's cache fills as a window's does (:meth:`chunk_entries`)."""
        return self.pad

    def chunk_entries(self, t: int, chunk: int, mechanism: Mechanism) -> tuple[int, str]:
        """Chunked layers use the same iSWA cache with ``n_swa`` = the chunk size
        (``LLAMA_SWA_TYPE_CHUNKED``)."""
        return self.window_entries(t, chunk, mechanism)

    def kv_component(self, mechanism: Attention | SlidingWindow | Chunked, settings: Settings) -> Component:
        """K and V rows of ``ggml_row_size(type, n_head_kv × head_dim)``; block types need whole blocks."""
        heads, k, v = require(mechanism, "num_kv_heads", "head_dim", "v_head_dim")
        _check_rows(settings.kv_dtype, (heads * k, heads * v))
        return super().kv_component(mechanism, settings)

    def attention(self, mechanism: Attention, settings: Settings) -> GroupPlan:
        """Full attention; a layer with an indexer beside K and V (MiniMax-M3, Qwen4-Exp) is refused."""
        if mechanism.index_head_dim is not None:
            return unsupported(
                f"llama.cpp's cache for an indexer beside attention (MiniMax-M3, Qwen4-Exp): {FOR_ENGINE}"
            )
        return super().attention(mechanism, settings)

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """K only: ``has_v = !is_mla`` in ``llama_kv_cache::llama_kv_cache`` and the GGUF converter writes
        ``key_length = kv_lora_rank + qk_rope_head_dim`` with one KV head (``conversion/deepseek.py``), so a
        token costs one row of ``kv_lora_rank + qk_rope_head_dim`` values of ``type_k``."""
        if mechanism.index_head_dim is not None:
            return unsupported(f"llama.cpp's sparse-attention (DSA) indexer cache: {FOR_ENGINE}")
        if mechanism.window is not None:
            return unsupported(f"llama.cpp's layout for an MLA layer with a window: {FOR_ENGINE}")
        rank, rope = require(mechanism, "kv_lora_rank", "qk_rope_head_dim")
        _check_rows(settings.kv_dtype, (rank + rope,))
        return super().mla(mechanism, settings)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """Always float32: ``recurrent_type_r`` and ``recurrent_type_s`` are ``GGML_TYPE_F32`` in
        ``llama_model::create_memory`` (``src/llama-model.cpp``)."""
        return get_dtype("fp32")

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        """The base rule's state in float32; a dilated convolution's window or a state of token ids
        (Qwen4-Exp's) is refused before it (:class:`~registry.engine.engines.ideal.Serving`): llama.cpp's
        layout for them was not read."""
        plan = super().recurrent(mechanism, settings)
        asked = settings.state_dtype
        notes = (
            ()
            if asked is None or asked.name == "fp32"
            else (f"llama.cpp keeps state in fp32; {asked.name} not applied",)
        )
        return GroupPlan(plan.components, notes=(*plan.notes, *notes))

    def sliding_window(self, mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
        """A window; DeepSeek-V4's sliding-only layers (a window over one latent vector) are refused as its
        compressed layers are: llama.cpp's DeepSeek-V4 cache was not read."""
        if mechanism.latent is not None:
            return unsupported(f"llama.cpp has a DeepSeek-V4 cache, but {FOR_ENGINE}")
        return super().sliding_window(mechanism, settings)

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        return unsupported(f"llama.cpp has a DeepSeek-V4 cache, but {FOR_ENGINE}")


def _check_rows(dtype: DType, rows: tuple[int, ...]) -> None:
    """ggml stores a row of a block type as whole blocks; a row that is not is refused by ggml."""
    for row in rows:
        if row and not dtype.fits(row):
            raise MissingDimension(
                [f"a {dtype.name} row of {row} values"],
                f"not a whole number of {dtype.block_values}-value blocks, which ggml requires",
            )
