"""XLNet (``xlnet``): every layer keeps the hidden states of past tokens, its ``mems``, not K and V.

Semantics followed (transformers 5.24.0, ``models/xlnet/configuration_xlnet.py`` and
``modeling_xlnet.py``):

- ``XLNetModel.forward`` with ``use_mems`` (``use_mems_eval``, default true, when not training) returns
  ``mems``: for each of the ``n_layer`` layers (default 24), that layer's *input* hidden states
  (``cache_mem(output_h, mems[i])``), a ``(tokens, batch, d_model)`` tensor in the model dtype. The next
  call concatenates them ahead of the new tokens and computes K and V from both again, so a layer's cache
  is ``d_model`` (default 1024) values per token (:attr:`~registry.engine.layers.Attention.hidden_state`).
- ``cache_mem`` keeps the last ``mem_len`` of them (default 512); ``mem_len`` null or 0 keeps every one
  (the model then "behaves like GPT-2 at inference time"). A layer with a ``mem_len`` is a window of the
  hidden states; transformers keeps all ``mem_len`` (:class:`~registry.engine.layers.SlidingWindow`).
- ``reuse_len`` above 0 keeps only the first ``reuse_len`` tokens of each forward pass's input: what is
  cached then depends on how the input was split into calls, not on the context, so it is refused.
- Attention is MHA over ``n_head`` (default 16) heads of ``d_head`` (default ``d_model // n_head``): the
  K and V the hidden states are turned into, which are not cached.

``generate`` (``XLNetLMHeadModel.prepare_inputs_for_generation``) feeds each step the last two tokens
again and a dummy token behind them, so the ``mems`` it carries hold one entry more than the tokens
generated from; the model's own ``mems`` interface, measured by the conformance tests, holds the tokens.
"""

from __future__ import annotations

from registry.engine.adapters._common import at_most_max_layers, build
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import Attention, LayerGroups, Mechanism, SlidingWindow

_SOURCE = "XLNetConfig"


def _mem_len(view: ConfigView) -> int | None:
    """``mem_len``: the hidden states kept per layer; ``None`` (null or 0) keeps every one."""
    if view.contains("mem_len"):
        return view.int_or_none("mem_len", minimum=0) or None
    return view.int_or_default("mem_len", 512, _SOURCE)


def _field(view: ConfigView, name: str, alias: str, default: int) -> int:
    """``name``, or the name ``XLNetConfig.attribute_map`` reads as it (``hidden_size`` for ``d_model``),
    else the class default."""
    return view.int_or_default(view.first_present((name, alias)) or name, default, _SOURCE)


def xlnet(view: ConfigView) -> LayerGroups:
    """Every layer: its input hidden state of each past token, the last ``mem_len`` of them."""
    reuse = view.int_or_none("reuse_len", minimum=0)
    if reuse:
        raise ConfigFieldError(
            view.model_type,
            "reuse_len",
            f"is {reuse}: only the first {reuse} tokens of each forward pass are cached, so the cache "
            "depends on how the input is split into calls, not on the context",
        )
    count = at_most_max_layers(view, "n_layer", _field(view, "n_layer", "num_hidden_layers", 24))
    hidden = _field(view, "d_model", "hidden_size", 1024)
    heads = _field(view, "n_head", "num_attention_heads", 16)
    size = view.int_or_none("d_head") or hidden // heads
    window = _mem_len(view)
    layer: Mechanism
    if window is None:
        layer = Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size, hidden_state=hidden)
    else:
        layer = SlidingWindow(heads, size, size, window=window, hidden_state=hidden)
    view.notes.append(
        "each layer caches its input hidden states (mems) in place of K and V, which it computes from them "
        "again at every step"
    )
    return build(view, [layer] * count)
