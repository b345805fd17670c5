"""Engine layouts: what each engine actually allocates for each cache mechanism.

The same model costs different bytes in different engines: a serving engine caches the MLA latent, a
reference implementation may cache the expanded per-head K and V; one engine rounds a sequence up to
whole 16-token blocks, another pads the context to 256 cells. The engine layout is therefore an explicit
input to :func:`registry.engine.compute.compute`, never an assumption.

Keys: ``ideal`` (the architectural minimum), ``vllm``, ``sglang``, ``llama.cpp``, ``transformers``
(the current release), ``transformers@4``, ``transformers@5`` and ``transformers@MAJOR.MINOR[.PATCH]``.
Each rule's docstring names the file and function of the engine release it was read from:

- vLLM 0.33.0 (``vllm-project/vllm``),
- SGLang 0.5.23 (``sgl-project/sglang``),
- llama.cpp as vendored by llama-cpp-python 0.3.36 (``ggml-org/llama.cpp``),
- transformers 4.57.6, 5.0.0, 5.14.1, 5.15.0 and 5.24.0 (``huggingface/transformers``).

A mechanism whose layout in an engine was not read from its source is reported as *not supported* with
that reason, never estimated.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache, partial

from registry.engine.compute import (
    Component,
    EngineRules,
    EntryRule,
    GroupPlan,
    MissingDimension,
    Settings,
    attention_entry_bytes,
    attention_factors,
    chunk_tokens,
    compressed_entries,
    every_token,
    indexer_entry_bytes,
    mla_entry_bytes,
    mla_expanded_entry_bytes,
    mla_factors,
    one_state,
    require,
    state_tensor_elements,
    unsupported,
    window_tokens,
)
from registry.engine.dtypes import FLOAT_DTYPES, DType, get_dtype
from registry.engine.layout import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    Mechanism,
    NoCache,
    Recurrent,
    Shared,
    SlidingWindow,
    StateTensor,
)
from registry.engine.trace import Factor, number, parenthesized_sum, product


class UnknownEngineError(ValueError):
    """An engine layout key the engine does not know; the message lists the known ones."""


def _refusal(what: str, dtype: DType, known: frozenset[str]) -> str:
    return f"{what} has no {dtype.name} layout (known here: {', '.join(sorted(known))})"


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _model_dtype(settings: Settings, what: str) -> DType:
    """The activations' dtype: given, or read off an unquantized KV dtype (which then equals it)."""
    if settings.model_dtype is not None:
        return settings.model_dtype
    if settings.kv_dtype.name in FLOAT_DTYPES:
        return settings.kv_dtype
    raise MissingDimension(["model dtype"], f"{what} is stored in the model dtype")


class Ideal(EngineRules):
    """The architectural minimum: exactly what the mechanism needs, no blocks, no padding.

    Engines subclass it and override the rules where they allocate differently.
    """

    key = "ideal"
    title = "architectural minimum"

    def plan(self, mechanism: Mechanism, settings: Settings) -> GroupPlan:
        reason = self.kv_dtype_problem(settings.kv_dtype)
        match mechanism:
            case Recurrent():
                return self.recurrent(mechanism, settings)
            case Shared():
                layer = mechanism.source_layer
                source = "another layer" if layer is None else f"layer {layer}"
                return GroupPlan(notes=(f"reads {source}'s cache: 0 B of its own",))
            case NoCache():
                return GroupPlan(notes=("keeps no cache: 0 B",))
            case _ if reason:
                return unsupported(reason)
            case Attention():
                return self.attention(mechanism, settings)
            case SlidingWindow():
                return self.sliding_window(mechanism, settings)
            case Chunked():
                return self.chunked(mechanism, settings)
            case MLA():
                return self.mla(mechanism, settings)
            case Compressed():
                return self.compressed(mechanism, settings)
        raise TypeError(f"not a cache mechanism: {mechanism!r}")

    # -- hooks an engine overrides

    def kv_dtype_problem(self, dtype: DType) -> str:
        """Why the engine cannot store a KV cache in ``dtype`` ("" when it can)."""
        return ""

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """Token slots held for a full-attention or MLA layer at context ``t``: exactly ``t``."""
        return t, ""

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """Token slots held for a sliding-window layer: ``min(t, window)`` (:func:`window_tokens`)."""
        return window_tokens(t, window), f"min(t, {number(window)})"

    def chunk_entries(self, t: int, chunk: int, mechanism: Mechanism) -> tuple[int, str]:
        """Token slots held for a chunked-attention layer: the current chunk (:func:`chunk_tokens`)."""
        return chunk_tokens(t, chunk), f"tokens of the current {number(chunk)}-token chunk"

    # -- attention family

    def kv_component(self, mechanism: Attention | SlidingWindow | Chunked, settings: Settings) -> Component:
        heads, k, v = require(mechanism, "num_kv_heads", "head_dim", "v_head_dim")
        element = settings.kv_dtype.bytes_per_element
        entry = attention_entry_bytes(heads, k, v, element)
        factors = tuple(attention_factors(heads, k, v, element))
        return Component("growing", "", entry, factors, self._full(mechanism), entry)

    def _full(self, mechanism: Mechanism) -> EntryRule:
        """:meth:`full_entries` for ``mechanism``, as a rule of the context."""
        return partial(self.full_entries, mechanism=mechanism)

    def attention(self, mechanism: Attention, settings: Settings) -> GroupPlan:
        """Full attention keeps K and V of every token (:func:`attention_entry_bytes`)."""
        return GroupPlan((self.kv_component(mechanism, settings),))

    def sliding_window(self, mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
        """A sliding-window layer keeps at most ``window`` tokens; it adds nothing once the window is full."""
        (window,) = require(mechanism, "window")
        base = self.kv_component(mechanism, settings)
        entries = partial(self.window_entries, window=window, mechanism=mechanism)
        return GroupPlan((replace(base, part="window", entries=entries, growth=Fraction(0)),))

    def chunked(self, mechanism: Chunked, settings: Settings) -> GroupPlan:
        """A chunked-attention layer keeps the tokens of its current chunk only."""
        (chunk,) = require(mechanism, "chunk")
        base = self.kv_component(mechanism, settings)
        entries = partial(self.chunk_entries, chunk=chunk, mechanism=mechanism)
        return GroupPlan((replace(base, part="window", entries=entries, growth=Fraction(0)),))

    # -- MLA

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """The latent plus the RoPE key per token (:func:`mla_entry_bytes`), and indexer keys if any."""
        rank, rope = require(mechanism, "kv_lora_rank", "qk_rope_head_dim")
        element = settings.kv_dtype.bytes_per_element
        entry = mla_entry_bytes(rank, rope, element)
        entries = self._full(mechanism)
        latent = Component("growing", "", entry, tuple(mla_factors(rank, rope, element)), entries, entry)
        return GroupPlan((latent, *self.indexer(mechanism, settings, entries)))

    def indexer(self, mechanism: MLA, settings: Settings, entries: EntryRule) -> tuple[Component, ...]:
        """DeepSeek-V3.2's indexer keys, one per token, in the KV dtype (:func:`indexer_entry_bytes`)."""
        if mechanism.index_head_dim is None:
            return ()
        element = settings.kv_dtype.bytes_per_element
        entry = indexer_entry_bytes(mechanism.index_head_dim, element)
        factors = (mechanism.index_head_dim, element)
        return (Component("growing", "indexer keys", entry, factors, entries, entry),)

    # -- recurrent state

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """The dtype a state tensor is stored in: the requested state dtype, else the model dtype."""
        return settings.state_dtype or _model_dtype(settings, "the recurrent state")

    def state_positions(self, tensor: StateTensor) -> tuple[int | None, ...]:
        """The shape an engine stores for a tensor (the layout's shape unless the engine keeps more)."""
        return tensor.shape

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        """Fixed state per sequence: ``Σ prod(shape) × bytes`` per layer (:func:`state_bytes`)."""
        terms: list[list[Factor]] = []
        total = Fraction(0)
        for tensor in mechanism.tensors:
            shape = self.state_positions(tensor)
            stored = StateTensor(tensor.name, shape, tensor.role)
            element = self.state_element(tensor, mechanism, settings).bytes_per_element
            total += state_tensor_elements(stored) * element
            terms.append([*(s for s in shape if s is not None), element])
        factors: tuple[Factor, ...] = (
            tuple(terms[0]) if len(terms) == 1 else (parenthesized_sum([product(t) for t in terms]),)
        )
        return GroupPlan((Component("fixed", "", total, factors, one_state, Fraction(0)),))

    # -- sequence-compressed attention

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        """``⌈t / ratio⌉`` entries shaped like ``inner``, plus the local window and indexer keys if any."""
        (ratio,) = require(mechanism, "ratio")
        element = settings.kv_dtype.bytes_per_element
        entry, factors = _inner_entry(mechanism.inner, element)
        count = partial(_compressed, ratio=ratio, note=f"⌈t / {number(ratio)}⌉ entries")
        label = f"compressed (1 per {number(ratio)})"
        parts = [Component("growing", label, entry, factors, count, entry / ratio)]
        if mechanism.window is not None:
            kept = partial(_window, window=mechanism.window, note=f"min(t, {number(mechanism.window)})")
            parts.append(Component("window", "local window", entry, factors, kept, Fraction(0)))
        if mechanism.index_head_dim is not None:
            idx = indexer_entry_bytes(mechanism.index_head_dim, element)
            idx_factors = (mechanism.index_head_dim, element)
            parts.append(Component("growing", "indexer keys", idx, idx_factors, count, idx / ratio))
        return GroupPlan(tuple(parts))


def _compressed(t: int, ratio: int, note: str) -> tuple[int, str]:
    """:func:`compressed_entries` as an entry rule (with ``ratio`` and ``note`` bound)."""
    return compressed_entries(t, ratio), note


def _window(t: int, window: int, note: str) -> tuple[int, str]:
    """:func:`window_tokens` as an entry rule (with ``window`` and ``note`` bound)."""
    return window_tokens(t, window), note


def _inner_entry(inner: MLA | Attention, element: Fraction) -> tuple[Fraction, tuple[Factor, ...]]:
    if isinstance(inner, MLA):
        rank, rope = require(inner, "kv_lora_rank", "qk_rope_head_dim")
        return mla_entry_bytes(rank, rope, element), tuple(mla_factors(rank, rope, element))
    heads, k, v = require(inner, "num_kv_heads", "head_dim", "v_head_dim")
    return attention_entry_bytes(heads, k, v, element), tuple(attention_factors(heads, k, v, element))


_FOR_ENGINE = "the engine's layout for it was not read from its source, so no number is given"


# ---------------------------------------------------------------- vLLM


class VLLM(Ideal):
    """vLLM 0.33.0: paged KV cache, whole blocks per sequence (``vllm/v1/kv_cache_interface.py``)."""

    key = "vllm"
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
        return _refusal("vLLM's kv_cache_dtype", dtype, self.kv_dtypes)

    def _block(self, mechanism: Mechanism) -> int:
        return self.mla_block_size if isinstance(mechanism, MLA) else self.block_size

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """Whole blocks: ``⌈t / block_size⌉ × block_size`` slots.

        ``FullAttentionSpec.max_memory_usage_bytes`` counts ``cdiv(len, block_size)`` pages, and
        ``SingleTypeKVCacheManager`` allocates a sequence whole blocks.
        """
        size = self._block(mechanism)
        blocks = _ceil_div(t, size)
        return blocks * size, f"⌈t / {size}⌉ = {number(blocks)} blocks of {size} tokens"

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """Blocks still readable: ``⌈t / B⌉ − ⌊max(0, t − window + 1) / B⌋`` blocks of ``B`` tokens.

        ``SlidingWindowManager.get_num_skipped_tokens`` skips ``t − window + 1`` tokens and
        ``remove_skipped_blocks`` frees only the whole blocks below that
        (``vllm/v1/core/single_type_kv_cache_manager.py``).
        """
        size = self._block(mechanism)
        skipped_blocks = max(0, t - window + 1) // size
        blocks = _ceil_div(t, size) - skipped_blocks
        return (
            blocks * size,
            f"{number(blocks)} blocks of {size} tokens still inside the {number(window)}-token window",
        )

    def chunk_entries(self, t: int, chunk: int, mechanism: Mechanism) -> tuple[int, str]:
        """Blocks of the current chunk: ``⌈t / B⌉ − ⌊⌊t / chunk⌋ × chunk / B⌋``.

        ``ChunkedLocalAttentionManager.get_num_skipped_tokens`` skips ``⌊t / chunk⌋ × chunk`` tokens
        (``vllm/v1/core/single_type_kv_cache_manager.py``).
        """
        size = self._block(mechanism)
        blocks = _ceil_div(t, size) - (t // chunk * chunk) // size
        return blocks * size, f"{number(blocks)} blocks of {size} tokens in the current chunk"

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """The latent per token; DeepSeek-V3.2 in fp8 uses the 656-byte ``fp8_ds_mla`` record.

        ``MLAAttention.get_kv_cache_spec`` (``vllm/model_executor/layers/attention/mla_attention.py``) sets
        ``state_content_bytes`` to 656 for ``fp8_ds_mla``: 512 fp8 latent values + 4 float32 scales (one per
        128 values) + 64 bf16 RoPE values = 512 + 16 + 128 bytes (layout note in
        ``vllm/v1/attention/backends/mla/flashmla_sparse.py``). Without the sparse indexer, fp8 is the
        plain per-tensor fp8 latent.
        """
        if mechanism.index_head_dim is None or not settings.kv_dtype.name.startswith("fp8"):
            return super().mla(mechanism, settings)
        return _fp8_ds_mla(self, mechanism, settings)

    def indexer(self, mechanism: MLA, settings: Settings, entries: EntryRule) -> tuple[Component, ...]:
        """Indexer keys in fp8 with one float32 scale per 128 values, whatever the KV dtype.

        ``Indexer.__init__`` (``vllm/model_executor/models/deepseek_v2.py``) builds
        ``DeepseekV32IndexerCache(head_dim=index_head_dim + index_head_dim // 128 * 4, dtype=uint8)``.
        """
        return _fp8_indexer(mechanism, entries)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """Conv state in the model dtype; the recurrent state in ``mamba_ssm_cache_dtype``.

        ``MambaStateDtypeCalculator`` (``vllm/model_executor/layers/mamba/mamba_utils.py``): with the
        defaults ``mamba_cache_dtype = mamba_ssm_cache_dtype = "auto"`` both follow the model dtype, except
        ``kda_state_dtype``, which keeps KDA's recurrent state in float32. A requested state dtype plays
        the part of ``mamba_ssm_cache_dtype``.
        """
        if tensor.role == "conv":
            return _model_dtype(settings, "vLLM's conv state")
        if settings.state_dtype is not None:
            return settings.state_dtype
        if mechanism.variant == "kda":
            return get_dtype("fp32")
        return _model_dtype(settings, "vLLM's recurrent state")

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        """One state per sequence (``MambaSpec.page_size_bytes``: Σ prod(shape) × dtype size).

        In hybrid models vLLM also pads that page to the attention page size
        (``MambaSpec.page_size_padded``); the padding depends on the whole model and is not added here.
        """
        plan = super().recurrent(mechanism, settings)
        note = "vLLM may pad each state page to the attention page size in hybrid models (not added)"
        return GroupPlan(plan.components, notes=(note,))

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        """DeepSeek-V4's compressed cache (584-byte fp8 records, 576-byte page alignment) is not modelled."""
        return unsupported(f"vLLM serves sequence-compressed attention, but {_FOR_ENGINE}")


# ---------------------------------------------------------------- SGLang


class SGLang(Ideal):
    """SGLang 0.5.23: token-granular pools (page size 1 unless a backend asks for more)."""

    key = "sglang"
    title = "SGLang 0.5.23 token pools, page size 1"
    kv_dtypes = frozenset({"fp32", "bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2"})

    def kv_dtype_problem(self, dtype: DType) -> str:
        """``--kv-cache-dtype`` offers auto and fp8 variants, not ggml block formats."""
        if dtype.name in self.kv_dtypes:
            return ""
        return _refusal("SGLang's kv_cache_dtype", dtype, self.kv_dtypes)

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """``page_size`` defaults to 1 (``_page_size_default`` in ``sglang/srt/arg_groups/overrides.py``),
        so a sequence holds exactly ``t`` slots."""
        return t, ""

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """``min(t, window)``: ``free_swa_out_of_window_slots`` (``sglang/srt/mem_cache/common.py``) frees
        every slot below ``t − window`` (page size 1)."""
        return window_tokens(t, window), f"min(t, {number(window)})"

    def chunked(self, mechanism: Chunked, settings: Settings) -> GroupPlan:
        return unsupported(f"SGLang's handling of chunked attention: {_FOR_ENGINE}")

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """``MLATokenToKVPool`` keeps ``kv_lora_rank + qk_rope_head_dim`` values per token
        (``sglang/srt/mem_cache/memory_pool.py``); the DSA fp8 pool for DeepSeek-V3.2 uses the 656-byte
        record (fp8 latent + per-128 float32 scales + bf16 RoPE;
        ``sglang/srt/layers/attention/dsa_backend.py``).
        """
        if mechanism.index_head_dim is None or not settings.kv_dtype.name.startswith("fp8"):
            return super().mla(mechanism, settings)
        return _fp8_ds_mla(self, mechanism, settings)

    def indexer(self, mechanism: MLA, settings: Settings, entries: EntryRule) -> tuple[Component, ...]:
        """Indexer keys in fp8 plus one float32 scale per 128 values (``quant_block_size = 128``,
        ``index_k_dtype`` float8_e4m3fn, scale float32 in the DSA pool of ``memory_pool.py``)."""
        return _fp8_indexer(mechanism, entries)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """Conv state bf16 (``SGLANG_MAMBA_CONV_DTYPE`` default), recurrent state float32 unless the config,
        the environment or the request says otherwise (``mamba2_state_dtype`` in
        ``sglang/srt/configs/mamba_utils.py``)."""
        if tensor.role == "conv":
            return get_dtype("bf16")
        return settings.state_dtype or get_dtype("fp32")

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        return unsupported(f"SGLang serves DeepSeek-V4 compressed attention, but {_FOR_ENGINE}")


# ---------------------------------------------------------------- DeepSeek-V3.2 fp8 records (vLLM, SGLang)

DS_MLA_FP8_RECORD = 512 + 4 * 4 + 64 * 2
"""656 bytes: 512 fp8 latent values, 4 float32 scales (one per 128 values), 64 bf16 RoPE values."""


def _fp8_ds_mla(engine: Ideal, mechanism: MLA, settings: Settings) -> GroupPlan:
    """The 656-byte fp8 latent record per token, plus the fp8 indexer keys (DeepSeek-V3.2 geometry only)."""
    rank, rope = require(mechanism, "kv_lora_rank", "qk_rope_head_dim")
    if (rank, rope) != (512, 64):
        return unsupported(f"the 656-byte fp8 record is defined for a 512 + 64 latent, not {rank} + {rope}")
    entries = engine._full(mechanism)
    record = Fraction(DS_MLA_FP8_RECORD)
    latent = Component("growing", "", record, (DS_MLA_FP8_RECORD,), entries, record)
    explain = (
        "fp8 latent record: 512 fp8 + 4 float32 scales + 64 bf16 RoPE = 512 + 16 + 128 = 656 B per token"
    )
    return GroupPlan((latent, *engine.indexer(mechanism, settings, entries)), notes=(explain,))


def _fp8_indexer(mechanism: MLA, entries: EntryRule) -> tuple[Component, ...]:
    """Indexer keys stored as fp8 plus one float32 scale per 128 values: ``d + d // 128 × 4`` bytes."""
    if mechanism.index_head_dim is None:
        return ()
    dim = mechanism.index_head_dim
    entry = Fraction(dim + dim // 128 * 4)
    factors: tuple[Factor, ...] = (parenthesized_sum([dim, f"{dim} / 128 × 4"]),)
    return (Component("growing", "indexer keys", entry, factors, entries, entry),)


# ---------------------------------------------------------------- llama.cpp


class LlamaCpp(Ideal):
    """llama.cpp (vendored by llama-cpp-python 0.3.36): one contiguous cache per sequence, padded."""

    key = "llama.cpp"
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
        return _refusal("llama.cpp's KV cache type", dtype, self.kv_dtypes)

    def _padded(self, n: int) -> int:
        return _ceil_div(n, self.pad) * self.pad

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

    def chunk_entries(self, t: int, chunk: int, mechanism: Mechanism) -> tuple[int, str]:
        """Chunked layers use the same iSWA cache with ``n_swa`` = the chunk size
        (``LLAMA_SWA_TYPE_CHUNKED``)."""
        return self.window_entries(t, chunk, mechanism)

    def kv_component(self, mechanism: Attention | SlidingWindow | Chunked, settings: Settings) -> Component:
        """K and V rows of ``ggml_row_size(type, n_head_kv × head_dim)``; block types need whole blocks."""
        heads, k, v = require(mechanism, "num_kv_heads", "head_dim", "v_head_dim")
        _check_rows(settings.kv_dtype, (heads * k, heads * v))
        return super().kv_component(mechanism, settings)

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """K only: ``has_v = !is_mla`` in ``llama_kv_cache::llama_kv_cache`` and the GGUF converter writes
        ``key_length = kv_lora_rank + qk_rope_head_dim`` with one KV head (``conversion/deepseek.py``), so a
        token costs one row of ``kv_lora_rank + qk_rope_head_dim`` values of ``type_k``."""
        if mechanism.index_head_dim is not None:
            return unsupported(f"llama.cpp's sparse-attention (DSA) indexer cache: {_FOR_ENGINE}")
        rank, rope = require(mechanism, "kv_lora_rank", "qk_rope_head_dim")
        _check_rows(settings.kv_dtype, (rank + rope,))
        return super().mla(mechanism, settings)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """Always float32: ``recurrent_type_r`` and ``recurrent_type_s`` are ``GGML_TYPE_F32`` in
        ``llama_model::create_memory`` (``src/llama-model.cpp``)."""
        return get_dtype("fp32")

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        plan = super().recurrent(mechanism, settings)
        asked = settings.state_dtype
        notes = (
            ()
            if asked is None or asked.name == "fp32"
            else (f"llama.cpp keeps state in fp32; {asked.name} not applied",)
        )
        return GroupPlan(plan.components, notes=notes)

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        return unsupported(f"llama.cpp has a DeepSeek-V4 cache, but {_FOR_ENGINE}")


def _check_rows(dtype: DType, rows: tuple[int, ...]) -> None:
    """ggml stores a row of a block type as whole blocks; a row that is not is refused by ggml."""
    for row in rows:
        if row and not dtype.fits(row):
            raise MissingDimension(
                [f"a {dtype.name} row of {row} values"],
                f"not a whole number of {dtype.block_values}-value blocks, which ggml requires",
            )


# ---------------------------------------------------------------- transformers


TRANSFORMERS_CURRENT = (5, 24, 0)
"""The newest release the transformers rules were read at; bare ``transformers`` means this one."""
TRANSFORMERS_4 = (4, 57, 6)
"""The last 4.x release; ``transformers@4`` means this one."""
MLA_LATENT_SINCE = (5, 15, 0)
"""First release caching the MLA latent: 5.14.1 still caches expanded K/V, 5.15.0 does not."""


class Transformers(Ideal):
    """huggingface/transformers ``DynamicCache`` (the default cache of ``generate``).

    With ``new_decoder_architecture`` (Falcon-40B / 180B), ``FalconAttention._split_heads`` broadcasts K
    and V to every query head before they are cached (``modeling_falcon.py``, 5.24.0), so transformers
    holds ``num_attention_heads`` K/V heads: the layout's ``broadcast_heads`` (see :meth:`kv_component`).
    """

    key = "transformers"
    title = "transformers DynamicCache"

    def kv_component(self, mechanism: Attention | SlidingWindow | Chunked, settings: Settings) -> Component:
        """K and V as cached: repeated to ``broadcast_heads`` where the model's attention does that before
        the cache update (``FalconAttention.forward``, ``modeling_falcon.py`` 5.24.0)."""
        if isinstance(mechanism, Attention) and mechanism.broadcast_heads is not None:
            mechanism = replace(mechanism, num_kv_heads=mechanism.broadcast_heads)
        return super().kv_component(mechanism, settings)

    def __init__(self, key: str, version: tuple[int, int, int]) -> None:
        self.key = key
        self.version = version
        self.title = "transformers {}.{}.{} DynamicCache".format(*version)

    def kv_dtype_problem(self, dtype: DType) -> str:
        """``DynamicLayer`` stores K and V in the dtype of the states (the model dtype); the optional
        quantized caches (``QuantizedLayer``) are a different layout, not modelled here."""
        if dtype.name in FLOAT_DTYPES:
            return ""
        return (
            f"transformers' DynamicCache stores K/V in the model dtype, not {dtype.name} "
            "(QuantizedCache is not modelled)"
        )

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """``min(t, window − 1)``: ``DynamicSlidingWindowLayer.update`` keeps only the last
        ``sliding_window − 1`` tokens (``cache_utils.py``, 4.57.6 and 5.24.0)."""
        return min(t, window - 1), f"min(t, {number(window)} − 1)"

    def chunk_entries(self, t: int, chunk: int, mechanism: Mechanism) -> tuple[int, str]:
        """Chunked layers get a ``DynamicSlidingWindowLayer`` with ``sliding_window = attention_chunk_size``
        ("from a cache point of view, sliding and chunked are the same", ``cache_utils.py``)."""
        return self.window_entries(t, chunk, mechanism)

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """From 5.15.0 the latent and RoPE key (``cache.update(kv_nope, k_rot, ...)`` in
        ``DeepseekV3Attention.forward``); before, the expanded per-head K and V
        (``past_key_values.update(key_states, value_states, ...)``), i.e. :func:`mla_expanded_entry_bytes`.
        """
        if mechanism.index_head_dim is not None and self.version < (5, 0, 0):
            return unsupported("transformers 4.x has no DeepSeek-V3.2 (deepseek_v32) model")
        if self.version >= MLA_LATENT_SINCE:
            return super().mla(mechanism, settings)
        heads, nope, rope, v = require(
            mechanism, "num_heads", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"
        )
        element = settings.kv_dtype.bytes_per_element
        entry = mla_expanded_entry_bytes(heads, nope, rope, v, element)
        factors: tuple[Factor, ...] = (heads, parenthesized_sum([nope, rope, v]), element)
        latent = Component("growing", "expanded K + V", entry, factors, every_token, entry)
        return GroupPlan((latent, *self.indexer(mechanism, settings, every_token)))

    def indexer(self, mechanism: MLA, settings: Settings, entries: EntryRule) -> tuple[Component, ...]:
        """``DynamicIndexedLayer.update_indexer`` concatenates the indexer keys in their own dtype (the
        model dtype): ``index_head_dim`` values per token (``cache_utils.py``, 5.x)."""
        return super().indexer(mechanism, settings, entries)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """States are kept in the dtype of the tensors a layer hands to the cache
        (``LinearAttentionLayer.lazy_initialization`` in ``cache_utils.py``, 5.24.0): the conv window in
        the model dtype; KDA's recurrent state in float32 (``KimiDeltaAttention`` casts
        ``last_recurrent_state.to(torch.float32)``, ``models/kimi_linear``). Other recurrent states come
        back in whatever dtype the kernel path returns, so they need an explicit state dtype.
        """
        if tensor.role == "conv":
            return _model_dtype(settings, "transformers' conv state")
        if mechanism.variant == "kda":
            return get_dtype("fp32")
        if settings.state_dtype is not None:
            return settings.state_dtype
        raise MissingDimension(["state dtype"], "transformers keeps it in the dtype its kernel path returns")

    def state_positions(self, tensor: StateTensor) -> tuple[int | None, ...]:
        """The conv state keeps ``conv_kernel_size`` positions, one more than the ``kernel − 1`` needed
        (``LinearAttentionLayer.update_conv_state`` keeps ``[..., -conv_kernel_size:]``)."""
        if tensor.role != "conv" or tensor.shape[0] is None:
            return tensor.shape
        return (tensor.shape[0] + 1, *tensor.shape[1:])

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        plan = super().recurrent(mechanism, settings)
        asked = settings.state_dtype
        ignored = mechanism.variant == "kda" and asked is not None and asked.name != "fp32"
        notes = (
            (f"transformers keeps KDA state in fp32; {asked.name} not applied",) if ignored and asked else ()
        )
        return GroupPlan(plan.components, notes=notes)

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        if self.version < (5, 0, 0):
            return unsupported("transformers 4.x has no sequence-compressed attention model")
        return unsupported(
            f"transformers 5.x has DeepSeek-V4 (DeepseekV4HCACache / CSACache), but {_FOR_ENGINE}"
        )


# ---------------------------------------------------------------- the registry of engine layouts

ENGINE_KEYS = ("ideal", "vllm", "sglang", "llama.cpp", "transformers", "transformers@4", "transformers@5")
"""The engine layout keys; ``transformers@MAJOR.MINOR[.PATCH]`` (4.57 or later) is accepted too."""

_FIXED: dict[str, EngineRules] = {
    "ideal": Ideal(),
    "vllm": VLLM(),
    "sglang": SGLang(),
    "llama.cpp": LlamaCpp(),
    "transformers": Transformers("transformers", TRANSFORMERS_CURRENT),
    "transformers@4": Transformers("transformers@4", TRANSFORMERS_4),
    "transformers@5": Transformers("transformers@5", TRANSFORMERS_CURRENT),
}
_VERSION = re.compile(r"^transformers@(\d+)\.(\d+)(?:\.(\d+))?$")


@lru_cache(maxsize=256)
def get_engine(key: str) -> EngineRules:
    """The engine layout called ``key``; an unknown key raises :class:`UnknownEngineError`. One object
    per key, so that what is memoised for an engine (its plans) is found again for a version pin too."""
    if key in _FIXED:
        return _FIXED[key]
    match = _VERSION.match(key)
    if match:
        version = (int(match[1]), int(match[2]), int(match[3] or 0))
        if (4, 57, 0) <= version < (6, 0, 0):
            return Transformers(key, version)
        raise UnknownEngineError(f"{key!r}: the transformers rules were read for 4.57 to 5.x, not {version}")
    known = ", ".join(ENGINE_KEYS)
    raise UnknownEngineError(
        f"unknown engine layout {key!r}; known: {known}, transformers@MAJOR.MINOR[.PATCH]"
    )
