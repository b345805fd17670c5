"""BLT (``blt``, the Byte Latent Transformer): a local encoder and a local decoder over bytes, each layer
keeping K and V of the bytes in its window, around a global transformer over patches that keeps nothing.

Semantics followed (transformers 5.24.0, ``models/blt/configuration_blt.py`` and ``modeling_blt.py``):

- The model is three stacks, each with its own sub-config: ``encoder_config`` (``BltLocalEncoderConfig``,
  default 1 layer), ``global_config`` (``BltGlobalTransformerConfig``, default 25 layers) and
  ``decoder_config`` (``BltLocalDecoderConfig``, default 9 layers); a sub-config left out takes its
  class's defaults. ``BltModel.forward`` runs them in that order at every step.
- The local encoder's and decoder's self-attention layers cache one K and one V per byte
  (``BltSelfAttention``: ``cache.update``), the encoder's in the self-attention half of an
  ``EncoderDecoderCache``, the decoder's in its cross-attention half. Each has ``num_key_value_heads``
  K/V heads (``None``: one per attention head) of ``hidden_size // num_attention_heads``, whatever else
  the sub-config says.
- The global transformer runs over every patch again at each step with no cache (``cache=None``), and
  the cross-attentions between bytes and patches recompute their K and V from their inputs: their layers
  keep nothing (:class:`~registry.engine.layers.NoCache`). The entropy patcher (``patcher_config``) is
  called without a cache too.
- Both local stacks attend through one mask, ``create_sliding_window_causal_mask`` over the encoder's
  config, whose ``sliding_window`` ``BltConfig.__post_init__`` sets to ``local_attention_window_len``
  (default 512; ``null`` means full causal attention): each local layer needs the last
  ``local_attention_window_len`` bytes only. transformers caches every byte all the same (a window is
  only a mask here, :attr:`~registry.engine.layers.SlidingWindow.cached_whole`), and cannot build that
  cache itself: ``BltModel.forward`` asks for ``DynamicCache(config=BltConfig)``, and ``BltConfig`` has
  no ``num_hidden_layers``, so a caller hands the model an ``EncoderDecoderCache`` of two empty
  ``DynamicCache`` objects, which it fills.

The layers are numbered in the order they run: the encoder's, the global transformer's, the decoder's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from registry.engine.adapters._common import at_most_max_layers, build
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import Attention, LayerGroups, Mechanism, NoCache, SlidingWindow

VARIANT = "blt"
"""The family name the local layers carry, so that engine layouts that serve no BLT model refuse them."""

_SOURCE = "BltConfig"
_STACKS: Mapping[str, tuple[str, Mapping[str, Any]]] = {
    "encoder_config": (
        "BltLocalEncoderConfig",
        {"num_hidden_layers": 1, "hidden_size": 1024, "num_attention_heads": 16},
    ),
    "global_config": ("BltGlobalTransformerConfig", {"num_hidden_layers": 25}),
    "decoder_config": (
        "BltLocalDecoderConfig",
        {"num_hidden_layers": 9, "hidden_size": 1024, "num_attention_heads": 16},
    ),
}
"""Each stack's sub-config and the class defaults of the fields read from it."""


def _stack(view: ConfigView, name: str) -> ConfigView:
    """The sub-config ``name`` with its class's defaults behind it (all of them when it is left out); a
    default read is noted as ``<field> is not in the config``."""
    source, defaults = _STACKS[name]
    inner = view.sub(name) if view.has(name) else ConfigView(f"{view.model_type} {name}", {})
    inner.notes = view.notes
    return class_defaults(inner, source, **defaults)


def _layers(stack: ConfigView) -> int:
    return at_most_max_layers(stack, "num_hidden_layers", stack.require_int("num_hidden_layers"))


def _local(stack: ConfigView, window: int | None) -> Mechanism:
    """A local encoder or decoder layer: K and V of each byte, over the window when there is one."""
    hidden, heads = stack.require_int("hidden_size"), stack.require_int("num_attention_heads")
    if hidden % heads:
        raise ConfigFieldError(
            stack.model_type, "hidden_size", f"{hidden} is not a multiple of num_attention_heads {heads}"
        )
    size = hidden // heads
    kv_heads = stack.int_or_none("num_key_value_heads") or heads
    if window is None:
        return Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)
    return SlidingWindow(
        num_kv_heads=kv_heads,
        head_dim=size,
        v_head_dim=size,
        window=window,
        cached_whole=True,
        variant=VARIANT,
    )


def blt(view: ConfigView) -> LayerGroups:
    """The local encoder's layers, the global transformer's (no cache), the local decoder's."""
    if view.contains("local_attention_window_len"):
        window = view.int_or_none("local_attention_window_len")
    else:
        window = view.int_or_default("local_attention_window_len", 512, _SOURCE)
    encoder, middle, decoder = (_stack(view, name) for name in _STACKS)
    layers = [_local(encoder, window)] * _layers(encoder)
    layers += [NoCache()] * _layers(middle)
    layers += [_local(decoder, window)] * _layers(decoder)
    view.notes.append(
        "the global transformer over patches and the cross-attentions keep no cache: they run again at "
        "every step"
    )
    return build(view, layers)
