"""What most adapters share: attention sizes, per-layer type lists, and the final layout.

The order of work is always the same: resolve each layer's *kind* first (from ``layer_types``, a
pattern, an interval, a list of indices), then build that kind's mechanism from that layer's fields.
A model-level ``num_key_value_heads x head_dim`` is only ever applied to layers resolved as attention.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from registry.engine.adapters import _state
from registry.engine.adapters._config import ConfigFieldError, ConfigValueError, ConfigView
from registry.engine.layers import (
    Attention,
    LayerGroups,
    Mechanism,
    Recurrent,
    SlidingWindow,
    layer_groups_from_layers,
)

FULL = "full"
SLIDING = "sliding"
CHUNKED = "chunked"
LINEAR = "linear"

ATTENTION_LAYER_TYPES: Mapping[str, str] = {
    "full_attention": FULL,
    "sliding_attention": SLIDING,
    "chunked_attention": CHUNKED,
}
"""The ``layer_types`` values transformers uses for attention layers, and the kind each means."""

FULL_OR_SLIDING_LAYER_TYPES: Mapping[str, str] = {
    name: kind for name, kind in ATTENTION_LAYER_TYPES.items() if kind in (FULL, SLIDING)
}
"""The ``layer_types`` values of models whose layers are full or sliding-window attention, no chunks."""


MAX_LAYERS = 2_000
"""The most layers a stack may have (an explicit layout has the same bound in all; the largest published
stacks have a few hundred). Adapters build one entry per layer, so a count such as 10^99 must be refused
before a list of that length is asked for, and the engine's work for each claim grows with the count."""


def num_layers(view: ConfigView, *aliases: str) -> int:
    """``num_hidden_layers``: the decoder stack, without multi-token-prediction layers."""
    return at_most_max_layers(view, "num_hidden_layers", view.require_int("num_hidden_layers", *aliases))


def at_most_max_layers(view: ConfigView, name: str, count: int) -> int:
    """``count`` when a model could have that many layers; a field error naming ``name`` otherwise."""
    if count > MAX_LAYERS:
        raise ConfigValueError(view.model_type, name, f"is {count:,}; a model has at most {MAX_LAYERS:,}")
    return count


def head_dim(view: ConfigView) -> int:
    """The attention head size: an explicit ``head_dim`` always wins over ``hidden_size / heads``.

    Many configs set ``head_dim`` to something other than ``hidden_size // num_attention_heads``
    (Gemma 3 27B: 128, not 5376 / 32; gpt-oss: 64, not 2880 / 64; Qwen3-30B-A3B: 128, not 2048 / 32);
    deriving it there is one of the catalogued mistakes.
    Without ``head_dim`` the division must be exact, else the field is reported as missing.
    """
    if view.has("head_dim"):
        return view.require_int("head_dim")
    hidden = view.require_int("hidden_size")
    heads = view.require_int("num_attention_heads")
    if hidden % heads:
        raise ConfigFieldError(
            view.model_type,
            "head_dim",
            f"is missing and hidden_size {hidden} is not a multiple of num_attention_heads {heads}",
        )
    return hidden // heads


def num_kv_heads(view: ConfigView) -> int:
    """``num_key_value_heads``; the configuration classes default it to ``num_attention_heads`` (MHA)."""
    if view.has("num_key_value_heads"):
        return view.require_int("num_key_value_heads")
    heads = view.require_int("num_attention_heads")
    view.notes.append(
        f"num_key_value_heads is not in the config; it defaults to num_attention_heads ({heads}), i.e. MHA"
    )
    return heads


def full_attention(view: ConfigView) -> Attention:
    """Full attention with the config's KV heads; K and V heads share one size."""
    size = head_dim(view)
    return Attention(num_kv_heads=num_kv_heads(view), head_dim=size, v_head_dim=size)


def sliding_attention(view: ConfigView, window: int) -> SlidingWindow:
    """Attention over the last ``window`` tokens, with the config's KV heads."""
    size = head_dim(view)
    return SlidingWindow(num_kv_heads=num_kv_heads(view), head_dim=size, v_head_dim=size, window=window)


def explicit_layer_types(
    view: ConfigView, known: Mapping[str, str], count: int, *, paired: bool = False
) -> list[str] | None:
    """``layer_types`` translated to kinds, or None when the config does not list them.

    The list must name every layer of the stack, in order, with values this adapter knows. ``paired``
    reads a list that names two blocks per layer, the layer's own at even places and its ``mlp`` block
    after it (Dory's released configs): only the even places are layers.
    """
    names = view.str_list("layer_types")
    if names is None:
        return None
    step = 2 if paired else 1
    names = names[::step]
    if len(names) != count:
        blocks = " (every other entry)" if paired else ""
        raise ConfigFieldError(
            view.model_type,
            "layer_types",
            f"lists {len(names)} layers{blocks} but num_hidden_layers is {count}",
        )
    kinds: list[str] = []
    for index, name in enumerate(names):
        if name not in known:
            raise ConfigFieldError(
                view.model_type,
                f"layer_types[{index * step}]",
                f"is {name!r}; this adapter knows {', '.join(sorted(known))}",
            )
        kinds.append(known[name])
    return kinds


@dataclass(frozen=True)
class DeltaNetDefaults:
    """A configuration class's defaults for the gated DeltaNet's ``linear_*`` fields."""

    key_heads: int
    value_heads: int
    key_dim: int = 128
    value_dim: int = 128
    conv_kernel: int = 4


QWEN3_NEXT_DELTA_NET = DeltaNetDefaults(key_heads=16, value_heads=32)
"""``Qwen3NextConfig``'s, which Qwen 3.5's and Qwen4-Exp's configuration classes keep."""


def gated_delta_net(
    view: ConfigView, source: str, defaults: DeltaNetDefaults = QWEN3_NEXT_DELTA_NET
) -> Recurrent:
    """A gated DeltaNet layer's state (:func:`._state.gated_delta_net`) from the ``linear_*`` fields, each
    one the config leaves out taking the configuration class ``source``'s default from ``defaults``."""
    return _state.gated_delta_net(
        num_k_heads=view.int_or_default("linear_num_key_heads", defaults.key_heads, source),
        num_v_heads=view.int_or_default("linear_num_value_heads", defaults.value_heads, source),
        head_k_dim=view.int_or_default("linear_key_head_dim", defaults.key_dim, source),
        head_v_dim=view.int_or_default("linear_value_head_dim", defaults.value_dim, source),
        conv_kernel=view.int_or_default("linear_conv_kernel_dim", defaults.conv_kernel, source),
    )


def every_nth(count: int, period: int, nth: str, other: str) -> list[str]:
    """Layer ``i`` is ``nth`` when ``(i + 1) % period == 0``, else ``other``.

    This is the rule transformers uses for ``sliding_window_pattern`` (Gemma 3, Cohere 2) and
    ``full_attention_interval`` (Qwen3-Next): with period 6, layers 5, 11, 17, ... are the global ones.
    """
    return [nth if (index + 1) % period == 0 else other for index in range(count)]


def build(view: ConfigView, mechanisms: Sequence[Mechanism], mtp: Sequence[Mechanism] = ()) -> LayerGroups:
    """The layout, numbered 0..n-1, with any multi-token-prediction layers after the stack."""
    return layer_groups_from_layers(view.model_type, mechanisms, mtp=mtp, notes=view.notes)
