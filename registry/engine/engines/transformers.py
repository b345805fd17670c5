"""huggingface/transformers (``huggingface/transformers``): the ``DynamicCache`` of ``generate``, by release.

The rules were read at 4.57.6, 5.0.0, 5.14.1, 5.15.0 and 5.24.0; a key pins a release
(``transformers@4``, ``transformers@5.14``), and where the releases differ (the MLA latent, the models
a release has) the rule says from which release on.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from registry.engine.dtypes import FLOAT_DTYPES, INT64, DType, get_dtype
from registry.engine.engines.deepseek_v4_transformers import transformers_compressed
from registry.engine.engines.ideal import Ideal, model_dtype
from registry.engine.formulas import mla_expanded_entry_bytes, window_tokens
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
from registry.engine.plan import (
    Component,
    EntryRule,
    GroupPlan,
    Settings,
    every_token,
    require,
    unsupported,
    windowed,
)
from registry.engine.trace import Factor, number, parenthesized_sum

TRANSFORMERS_CURRENT = (5, 24, 0)
"""The newest release the transformers rules were read at; bare ``transformers`` means this one."""
TRANSFORMERS_4 = (4, 57, 6)
"""The last 4.x release; ``transformers@4`` means this one."""
REFERENCE_STATE_FP32: dict[str, str] = {
    "mamba": "mamba_selective_scan builds the state from float() inputs (modeling_mamba.py)",
    "mamba2": "mamba2_chunk_scan casts hidden states, B and C with float() (modeling_mamba2.py)",
    "gated-deltanet": "torch_chunk_gated_delta_rule computes in float32 (modeling_qwen3_next.py)",
    "kda": "KimiDeltaAttention caches last_recurrent_state.to(torch.float32) (modeling_kimi_linear.py)",
    "rwkv": "RwkvModel.forward allocates the WKV numerator, denominator and maximum in float32 "
    "(modeling_rwkv.py)",
    "rg-lru": "RecurrentGemmaRglru keeps recurrent_states in float32, its acc_dtype "
    "(modeling_recurrent_gemma.py)",
}
"""Recurrent families whose state transformers' reference (torch) path returns in float32, whatever the
model dtype, and where 5.24.0 does so; the state of any other family keeps the model dtype (MiniMax's
lightning attention starts and decays it in the dtype of the values, ``modeling_minimax.py``)."""
REFERENCE_CONV_FP32: dict[str, str] = {
    "inkling-sconv": "InklingShortConvolution casts its input with float() before the cache update "
    "(modeling_inkling.py)",
    "inkling2-sconv": "Inkling2ShortConvolution and the Inkling2DynamicShortConvolution of the full layers' "
    "K and V cast their input with float() before the cache update (modeling_inkling2.py, "
    "modeling_inkling2_loop.py)",
}
"""Recurrent families whose convolution windows transformers 5.24.0 caches in float32, whatever the
model dtype, and where it does so; every other family's conv window keeps the model dtype (the tensor
the layer hands to ``LinearAttentionLayer.update_conv_state``)."""
CONV_ON_THE_MODULE: dict[str, str] = {
    "rg-lru": "RecurrentGemmaRecurrentBlock keeps conv1d_state, conv1d_width - 1 past inputs, on the "
    "module (modeling_recurrent_gemma.py)",
}
"""Recurrent families whose conv window transformers 5.24.0 keeps on the layer's own module, not in a
``LinearAttentionLayer``, and so at the ``kernel − 1`` positions the convolution needs."""
REFERENCE_INDEXER_FP32: dict[str, str] = {
    "dots3": "Dots3NoteTextModel computes the indexed layers' rotary cos and sin from inputs_embeds.float(), "
    "so the indexer's rotated keys come out in float32 (modeling_dots3_note.py)",
}
"""MLA families whose indexer keys transformers 5.24.0 caches in float32, whatever the model dtype, and
why; every other family's indexer keys keep the model dtype."""
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
        ``sliding_window − 1`` tokens (``cache_utils.py``, 4.57.6 and 5.24.0). A window transformers
        applies as a mask only (GPT-Neo's local layers, ``modeling_gpt_neo.py``) caches every token."""
        if isinstance(mechanism, SlidingWindow) and mechanism.cached_whole:
            return t, f"t (the {number(window)}-token window is only a mask here)"
        return min(t, window - 1), f"min(t, {number(window)} − 1)"

    def sliding_window(self, mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
        """A window kept as a mask only (:meth:`window_entries`) grows with every token, as full attention.
        Hidden states kept in place of K and V are no ``DynamicSlidingWindowLayer``: ``XLNetModel.cache_mem``
        keeps the last ``mem_len`` of them (``modeling_xlnet.py``, 5.24.0), the whole window. DeepSeek-V4's
        sliding-only layers call ``cache.update(kv, kv, ...)`` (``modeling_deepseek_v4.py``, 5.24.0) on a
        ``DynamicSlidingWindowLayer``, which concatenates keys and values into two tensors: their one
        vector is held twice, as a K and a V, so :attr:`SlidingWindow.latent` is not read here."""
        if mechanism.hidden_state is not None and mechanism.window is not None and not mechanism.cached_whole:
            window = mechanism.window
            kept = partial(_last, window=window, note=f"min(t, {number(window)})")
            return GroupPlan((windowed(self.kv_component(mechanism, settings), kept, window),))
        plan = super().sliding_window(replace(mechanism, latent=None), settings)
        if not mechanism.cached_whole:
            return plan
        return GroupPlan(
            tuple(replace(c, part="growing", growth=c.entry_bytes, full_at=None) for c in plan.components)
        )

    def window_full_at(self, window: int) -> int:
        """``window − 1``: the most tokens :meth:`window_entries` keeps."""
        return window - 1

    def chunk_period(self, chunk: int, mechanism: Mechanism) -> int:
        """1: a chunked layer's cache fills as a window's does and then stays (:meth:`chunk_entries`)."""
        return 1

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
        if mechanism.window is not None and self.version < TRANSFORMERS_CURRENT:
            return unsupported(
                "an MLA layer with a window (Dots 3 Note) was read at transformers 5.24.0 only"
            )
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

    def attention(self, mechanism: Attention, settings: Settings) -> GroupPlan:
        """K and V, and where the layer has an indexer its keys: ``MiniMaxM3VLSparseCacheLayer.update_index``
        (``modeling_minimax_m3_vl.py``) and ``DynamicIndexedLayer.update_indexer`` (Qwen4-Exp's
        ``Qwen4ExpTextQSAIndexer``, ``modeling_qwen4_exp.py``) concatenate one key of ``index_head_dim``
        values per token in the model dtype (5.24.0); and the position ids the layer caches
        (:meth:`position_ids`)."""
        if mechanism.index_head_dim is not None and self.version < (5, 0, 0):
            return unsupported("transformers 4.x has no MiniMax-M3 or Qwen4-Exp model")
        if mechanism.cached_position_ids is not None and self.version < TRANSFORMERS_CURRENT:
            return unsupported(
                "position ids cached with a layer (Qwen4-Exp) were read at transformers 5.24.0 only"
            )
        plan = super().attention(mechanism, settings)
        return GroupPlan((*plan.components, *self.position_ids(mechanism)), notes=plan.notes)

    def position_ids_notes(self, mechanism: Attention) -> tuple[str, ...]:
        """None: transformers keeps the position ids it caches (:meth:`position_ids`)."""
        return ()

    def position_ids(self, mechanism: Attention) -> tuple[Component, ...]:
        """``Qwen4ExpTextModel.forward`` keeps every token's position ids, ``(3, batch, t)`` int64 (the
        multimodal RoPE's three), in ``DynamicIndexedLayer.indexer_position_ids`` of the first indexed
        layer, concatenating each step's (``modeling_qwen4_exp.py``, 5.24.0): int64 whatever the dtypes."""
        count = mechanism.cached_position_ids
        if count is None:
            return ()
        entry = count * INT64.bytes_per_element
        label = "position ids (int64)"
        return (Component("growing", label, entry, (count, INT64.bytes_per_element), every_token, entry),)

    def indexer(
        self, mechanism: MLA | Attention, settings: Settings, entries: EntryRule
    ) -> tuple[Component, ...]:
        """``DynamicIndexedLayer.update_indexer`` (``cache_utils.py``, 5.x) and MiniMax-M3's
        ``update_index`` concatenate the indexer keys in their own dtype: ``index_head_dim`` values per
        token, in the model dtype, or in float32 for the MLA families of :data:`REFERENCE_INDEXER_FP32`."""
        if isinstance(mechanism, MLA) and mechanism.variant in REFERENCE_INDEXER_FP32:
            settings = replace(settings, kv_dtype=get_dtype("fp32"))
        return super().indexer(mechanism, settings, entries)

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """States are kept in the dtype of the tensors a layer hands to the cache
        (``LinearAttentionLayer.lazy_initialization`` in ``cache_utils.py``, 5.24.0): the conv window in
        the model dtype, or in float32 for the families of :data:`REFERENCE_CONV_FP32`; a token shift in
        the model dtype (``RwkvModel.forward`` allocates it so); KDA's recurrent state in float32
        whatever is asked (``KimiDeltaAttention`` casts
        ``last_recurrent_state.to(torch.float32)``, ``models/kimi_linear``). Other recurrent states
        come back in the dtype the reference (torch) path returns: a requested state dtype stands for
        it, else :data:`REFERENCE_STATE_FP32` says which families return float32, and the rest keep the
        model dtype.
        """
        if tensor.role == "conv" and mechanism.variant in REFERENCE_CONV_FP32:
            return get_dtype("fp32")
        if tensor.role != "state":
            return model_dtype(settings, f"transformers' {tensor.role} state")
        if mechanism.variant == "kda":
            return get_dtype("fp32")
        if settings.state_dtype is not None:
            return settings.state_dtype
        if mechanism.variant in REFERENCE_STATE_FP32:
            return get_dtype("fp32")
        return model_dtype(settings, "transformers' reference path keeps this state")

    def state_positions(self, tensor: StateTensor, mechanism: Recurrent) -> tuple[int | None, ...]:
        """The conv state keeps ``conv_kernel_size`` positions, one more than the ``kernel − 1`` needed
        (``LinearAttentionLayer.update_conv_state`` keeps ``[..., -conv_kernel_size:]``), except where
        the module keeps it itself (:data:`CONV_ON_THE_MODULE`) and for a dilated window, whose layer
        passes exactly the ``(kernel − 1) × dilation`` inputs it needs as ``conv_kernel_size``
        (``Qwen4ExpTextPLELayer.short_conv_state_len``, ``modeling_qwen4_exp.py``, 5.24.0). Token ids
        are kept as they are (``Qwen4ExpTextNGramEmbedding`` passes ``ngram_size − 1``)."""
        if tensor.role != "conv" or tensor.shape[0] is None or mechanism.variant in CONV_ON_THE_MODULE:
            return tensor.shape
        if tensor.dilated:
            return tensor.shape
        return (tensor.shape[0] + 1, *tensor.shape[1:])

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        """The base rule's state, with a note saying which dtype the state took and why."""
        plan = super().recurrent(mechanism, settings)
        asked = settings.state_dtype
        if mechanism.variant == "kda" and asked is not None and asked.name != "fp32":
            note = f"transformers keeps KDA state in fp32; {asked.name} not applied"
        elif asked is not None:
            return plan
        else:
            note = _reference_note(mechanism.variant)
        return GroupPlan(plan.components, notes=(*plan.notes, note))

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        """DeepSeek-V4's CSA and HCA layers in ``DeepseekV4CSACache`` / ``DeepseekV4HCACache``
        (:func:`deepseek_v4_transformers.transformers_compressed`), read at 5.24.0."""
        if self.version < (5, 0, 0):
            return unsupported("transformers 4.x has no sequence-compressed attention model")
        if self.version < TRANSFORMERS_CURRENT:
            release = "{}.{}.{}".format(*self.version)
            return unsupported(f"transformers' DeepSeek-V4 cache was read at 5.24.0, not {release}")
        return transformers_compressed(mechanism, settings)


def _last(t: int, window: int, note: str) -> tuple[int, str]:
    """The last ``window`` tokens of ``t`` (:func:`window_tokens`), as an entry rule."""
    return window_tokens(t, window), note


def _reference_note(variant: str) -> str:
    """The trace's note on a state whose dtype was not asked for: what the reference path keeps."""
    fused = "fused GPU kernels (hub kernels, flash-linear-attention, mamba-ssm) may keep another dtype"
    if variant in REFERENCE_CONV_FP32:
        why = REFERENCE_CONV_FP32[variant]
        return f"conv windows in fp32, as transformers' reference (torch) path keeps them ({why}); {fused}"
    if variant in REFERENCE_STATE_FP32:
        why = REFERENCE_STATE_FP32[variant]
        return f"state in fp32, as transformers' reference (torch) path keeps it ({why}); {fused}"
    return f"state in the model dtype, as transformers' reference (torch) path keeps it; {fused}"
