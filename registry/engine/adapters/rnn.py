"""Recurrent networks whose state transformers keeps outside its cache layers: RWKV (:func:`rwkv`),
RecurrentGemma (:func:`recurrent_gemma`) and xLSTM (:func:`xlstm`).

Semantics followed (transformers 5.24.0, each ``models/<type>/configuration_<type>.py`` and
``modeling_<type>.py``):

- ``rwkv``: every layer keeps two token shifts (the previous token's input to the time mix and to the
  channel mix, ``hidden_size`` values each, in the model dtype) and the WKV numerator, denominator and
  running maximum (float32), the five tensors ``RwkvModel.forward`` allocates and returns as
  ``RwkvOutput.state``; the WKV runs over ``attention_hidden_size`` channels (default ``hidden_size``).
- ``recurrent_gemma``: ``block_types`` (the hub's configs write ``_block_types``, the name 4.x kept it
  under) repeated over the stack, ``recurrent`` for an RG-LRU block and ``attention`` for local
  attention over ``attention_window_size`` tokens (default 2048) with ``num_key_value_heads`` heads of
  ``hidden_size // num_attention_heads`` (``RecurrentGemmaConfig.__post_init__`` sets ``head_dim`` so,
  whatever the config writes). An RG-LRU block keeps, on the module, ``conv1d_state`` of
  ``conv1d_width - 1`` past inputs over ``lru_width`` channels (default ``hidden_size``) and
  ``rg_lru.recurrent_states`` of ``lru_width`` values in float32.
- ``xlstm``: every block an mLSTM cell whose ``xLSTMCache.rnn_state`` holds per head the matrix memory
  ``(qk_head_dim, v_head_dim)``, the normalizer ``(qk_head_dim,)`` and the stabilizer ``(1,)``, in the
  cache's dtype (the model's); ``qk_head_dim`` is ``hidden_size x qk_dim_factor`` (default 0.5) rounded
  up to a multiple of 64, over ``num_heads`` (default 8), and ``v_head_dim`` likewise with
  ``v_dim_factor`` (default 1.0), as ``xLSTMConfig`` computes them. The hub's xLSTM-7b config names the
  width ``embedding_dim`` and the depth ``num_blocks``.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigValueError, ConfigView
from registry.engine.layers import LayerGroups, Mechanism, SlidingWindow

RECURRENT = "recurrent"
ATTENTION = "attention"


def rwkv(view: ConfigView) -> LayerGroups:
    """Token shifts and the WKV state on every layer (``RwkvConfig``)."""
    hidden = view.require_int("hidden_size")
    attention = view.int_or_default("attention_hidden_size", hidden, "RwkvConfig")
    return build(view, [_state.rwkv(hidden, attention)] * num_layers(view))


def _block_types(view: ConfigView, count: int) -> list[str]:
    """``block_types`` (or ``_block_types``) repeated over ``count`` layers, as ``layers_block_type``
    does; ``RecurrentGemmaConfig``'s default is recurrent, recurrent, attention."""
    name = "block_types" if view.has("block_types") else "_block_types"
    listed = view.str_list(name)
    if listed is None:
        view.notes.append(
            "block_types is not in the config: RecurrentGemmaConfig repeats recurrent, recurrent, attention"
        )
        listed = [RECURRENT, RECURRENT, ATTENTION]
    if not listed:
        raise ConfigFieldError(view.model_type, name, "is empty; it names the pattern of blocks")
    for index, value in enumerate(listed):
        if value not in (RECURRENT, ATTENTION):
            raise ConfigFieldError(
                view.model_type, f"{name}[{index}]", f"is {value!r}; recurrent or attention"
            )
    return [listed[index % len(listed)] for index in range(count)]


def recurrent_gemma(view: ConfigView) -> LayerGroups:
    """RG-LRU blocks with local-attention blocks between them (``RecurrentGemmaConfig``)."""
    source = "RecurrentGemmaConfig"
    count = num_layers(view)
    kinds = _block_types(view, count)
    hidden, heads = view.require_int("hidden_size"), view.require_int("num_attention_heads")
    by_kind: dict[str, Mechanism] = {}
    if ATTENTION in kinds:
        size = hidden // heads
        by_kind[ATTENTION] = SlidingWindow(
            num_kv_heads=view.int_or_default("num_key_value_heads", heads, source),
            head_dim=size,
            v_head_dim=size,
            window=view.int_or_default("attention_window_size", 2048, source),
        )
    if RECURRENT in kinds:
        by_kind[RECURRENT] = _state.rg_lru(
            view.int_or_default("lru_width", hidden, source), view.int_or_default("conv1d_width", 4, source)
        )
    return build(view, [by_kind[kind] for kind in kinds])


def _factor(view: ConfigView, name: str, default: float) -> float:
    value = view.value(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ConfigValueError(view.model_type, name, f"must be a positive number, not {value!r}")
    return float(value)


def _head_dim(view: ConfigView, hidden: int, heads: int, name: str, default: float) -> int:
    """``round_up_to_next_multiple_of(hidden x factor, 64) // num_heads`` (``xLSTMConfig.qk_head_dim``
    and ``v_head_dim``), in the float arithmetic transformers uses."""
    dim = int(((hidden * _factor(view, name, default) + 63) // 64) * 64)
    return dim // heads


def xlstm(view: ConfigView) -> LayerGroups:
    """An mLSTM cell's memory, normalizer and stabilizer on every block (``xLSTMConfig``)."""
    hidden = view.require_int("hidden_size", "embedding_dim")
    heads = view.int_or_default("num_heads", 8, "xLSTMConfig")
    state = _state.mlstm(
        heads,
        _head_dim(view, hidden, heads, "qk_dim_factor", 0.5),
        _head_dim(view, hidden, heads, "v_dim_factor", 1.0),
    )
    return build(view, [state] * num_layers(view, "num_blocks"))
