"""DeepSeek-V4's compressed attention as transformers 5.24.0 caches it (``models/deepseek_v4/
modeling_deepseek_v4.py``): ``DeepseekV4HCACache`` and ``DeepseekV4CSACache``, the layers ``DynamicCache``
builds for ``heavily_compressed_attention`` and ``compressed_sparse_attention`` layers.

Each such layer keeps, per sequence of ``t`` tokens, in the model dtype unless said:

- its local window: the last ``sliding_window − 1`` tokens of one ``head_dim`` vector that is both key
  and value (``update`` sets ``self.values = self.keys``: one tensor, held once);
- ``compressed_kv["compressor"]``: ``⌊t / rate⌋`` compressed entries of ``head_dim`` values
  (``update_compressor_states``);
- ``buffer_kv`` / ``buffer_gate["compressor"]``: the ``t mod rate`` tokens of the window not yet closed,
  each ``coff × head_dim`` projected values and as many gate values (``store_compression_weights``;
  ``coff`` is 2 on CSA layers, whose ``kv_proj`` gives the two overlapping series, else 1);
- on CSA layers, once a window has closed (``t ≥ rate``), ``overlap_kv`` / ``overlap_gate``: the last
  window's first series, ``rate × head_dim`` values, the gate in float32 (``chunk_gate`` has the
  float32 ``position_bias`` added, ``update_overlap_state``);
- on CSA layers, the indexer's own compressor: the same four tensors for ``index_head_dim`` values
  (``DeepseekV4Indexer``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

from registry.engine.layers import MLA, Compressed
from registry.engine.plan import Component, GroupPlan, Settings, require, unsupported, windowed
from registry.engine.trace import Factor, number, parenthesized_sum

FLOAT32_BYTES = 4
VARIANTS = {"csa": 2, "hca": 1}
"""``coff`` by variant: CSA's ``kv_proj`` and ``gate_proj`` give ``2 × head_dim`` values a token, HCA's one."""


def _closed(t: int, ratio: int) -> tuple[int, str]:
    """``⌊t / ratio⌋`` closed windows, one compressed entry each."""
    return t // ratio, f"⌊t / {number(ratio)}⌋ entries"


def _open(t: int, ratio: int) -> tuple[int, str]:
    """The ``t mod ratio`` tokens of the window still open."""
    return t % ratio, f"t mod {number(ratio)} tokens"


def _window(t: int, window: int) -> tuple[int, str]:
    """``min(t, window − 1)``, as ``DynamicSlidingWindowLayer``."""
    return min(t, window - 1), f"min(t, {number(window)} − 1)"


def _overlap(t: int, ratio: int) -> tuple[int, str]:
    """The last closed window's ``ratio`` tokens, kept once a window has closed."""
    return (ratio if t >= ratio else 0), f"{number(ratio)} tokens once t ≥ {number(ratio)}"


def _compressor(prefix: str, ratio: int, coff: int, dim: int, element: int) -> list[Component]:
    """One compressor's state: its entries, its open window's values and gates, and (``coff`` 2) the
    previous window's first series. Each steps with the ratio, its period. The open window grows a token
    at a time until the first window closes (``t = ratio − 1``), then starts again every ``ratio``
    tokens (nothing on average); the overlap's ``ratio`` tokens arrive at once when the first window
    closes, a token's worth per token over the first ``ratio`` averaged."""
    entry = Fraction(dim * element)
    buffered = Fraction(2 * coff * dim * element)
    parts = [
        Component(
            "growing",
            f"{prefix}entries",
            entry,
            (dim, element),
            partial(_closed, ratio=ratio),
            entry / ratio,
            period=ratio,
        ),
        Component(
            "window",
            f"{prefix}open window (values + gates)",
            buffered,
            (2, coff, dim, element),
            partial(_open, ratio=ratio),
            Fraction(0),
            filling=buffered,
            full_at=ratio - 1,
            period=ratio,
        ),
    ]
    if coff == 2:
        overlap: tuple[Factor, ...] = (dim, parenthesized_sum([element, FLOAT32_BYTES]))
        kept = Fraction(dim * (element + FLOAT32_BYTES))
        parts.append(
            Component(
                "window",
                f"{prefix}overlap (values + float32 gates)",
                kept,
                overlap,
                partial(_overlap, ratio=ratio),
                Fraction(0),
                filling=kept,
                full_at=ratio,
                period=ratio,
            )
        )
    return parts


def transformers_compressed(mechanism: Compressed, settings: Settings) -> GroupPlan:
    """A DeepSeek-V4 CSA or HCA layer as transformers 5.24.0 caches it (module docstring)."""
    (ratio,) = require(mechanism, "ratio")
    inner = mechanism.inner
    if not isinstance(inner, MLA) or mechanism.variant not in VARIANTS:
        return unsupported("transformers' DeepSeek-V4 caches hold a csa or hca layer of one K=V vector")
    if mechanism.variant == "csa" and mechanism.index_head_dim is None:
        return unsupported("a DeepSeek-V4 CSA layer runs an indexer whose index_head_dim is unknown")
    nope, rope = require(inner, "kv_lora_rank", "qk_rope_head_dim")
    dim = nope + rope
    element = int(settings.kv_dtype.bytes_per_element)
    parts = _compressor("compressed ", ratio, VARIANTS[mechanism.variant], dim, element)
    if mechanism.window is not None:
        kept = partial(_window, window=mechanism.window)
        local = Component(
            "window", "local window (K = V)", Fraction(dim * element), (dim, element), kept, Fraction(0)
        )
        parts.insert(0, windowed(local, kept, mechanism.window - 1))
    if mechanism.variant == "csa" and mechanism.index_head_dim is not None:
        parts += _compressor("indexer ", ratio, 2, mechanism.index_head_dim, element)
    return GroupPlan(tuple(parts))
