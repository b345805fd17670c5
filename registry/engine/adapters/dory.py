"""Dory (``dory``): a looped decoder whose recurrent section keeps one KV cache per loop.

Semantics followed (transformers 5.24.0, ``configuration_dory.py`` and ``modeling_dory.py``): the stack is
``n_input_layers`` run once, ``n_recurrent_layers`` (default: the rest) run ``n_recurrent_loops`` times
(default 2), then ``n_output_layers`` run once. Each layer is full or sliding-window attention by
``layer_types`` (class default: full when ``(i + 1) % 4 == 0``, else a window of ``sliding_window``,
default 1024), with ``num_key_value_heads`` (default 4) heads of ``head_dim`` (default 256). A released
config lists each layer as an attention block and an ``mlp`` block: ``layer_types`` then names the
attention blocks at even places and every layer count is doubled, as ``DoryConfig.__post_init__``
halves them.

With ``recurrent_kv_cache_mode`` ``"per_loop"`` (the default), ``DoryModel.forward`` appends
``n_recurrent_loops − 1`` copies of the recurrent section's cache layers after the model's own, and
each later loop writes its own copy: the cache holds those layers once more per extra loop, numbered
after the stack. ``"last_loop"`` keeps one cache per layer, written by the last loop only.
"""

from __future__ import annotations

from registry.engine.adapters._common import (
    FULL,
    FULL_OR_SLIDING_LAYER_TYPES,
    SLIDING,
    at_most_max_layers,
    build,
    explicit_layer_types,
)
from registry.engine.adapters._config import ConfigFieldError, ConfigValueError, ConfigView
from registry.engine.layers import Attention, LayerGroups, Mechanism, SlidingWindow

_SOURCE = "DoryConfig"
_MODES = ("per_loop", "last_loop")


def _halved(view: ConfigView, name: str, default: int | None, paired: bool) -> int | None:
    """A layer count, halved when the config lists attention and mlp blocks separately."""
    if not view.has(name):
        return default
    count = view.require_int(name, minimum=0)
    return count // 2 if paired else count


def _kinds(view: ConfigView, count: int, paired: bool) -> list[str]:
    """Each layer's kind by ``layer_types`` (its attention blocks, when it pairs them with mlp blocks), or
    by the class default."""
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count, paired=paired)
    if kinds is None:
        view.notes.append("layer_types is not in the config; the DoryConfig default (full every 4th) applies")
        return [FULL if (i + 1) % 4 == 0 else SLIDING for i in range(count)]
    return kinds


def dory(view: ConfigView) -> LayerGroups:
    """The stack's full and sliding layers, then one more copy of the recurrent section per extra loop."""
    paired = "mlp" in (view.str_list("layer_types") or [])
    count = at_most_max_layers(view, "num_hidden_layers", _halved(view, "num_hidden_layers", 36, paired) or 0)
    first = _halved(view, "n_input_layers", 8, paired) or 0
    last = _halved(view, "n_output_layers", 8, paired) or 0
    middle = _halved(view, "n_recurrent_layers", None, paired)
    middle = count - first - last if middle is None else middle
    if middle < 0 or first + middle + last != count:
        raise ConfigValueError(
            view.model_type,
            "n_recurrent_layers",
            "input, recurrent and output layers must add up to the stack",
        )
    loops = view.int_or_default("n_recurrent_loops", 2, _SOURCE)
    mode = view.value("recurrent_kv_cache_mode") or "per_loop"
    if mode not in _MODES:
        raise ConfigFieldError(
            view.model_type, "recurrent_kv_cache_mode", f"is {mode!r}; expected per_loop or last_loop"
        )
    size = view.int_or_default("head_dim", 256, _SOURCE)
    heads = view.int_or_default("num_key_value_heads", 4, _SOURCE)
    by_kind: dict[str, Mechanism] = {FULL: Attention(heads, size, size)}
    kinds = _kinds(view, count, paired)
    if SLIDING in kinds:
        window = view.int_or_default("sliding_window", 1024, _SOURCE)
        by_kind[SLIDING] = SlidingWindow(heads, size, size, window)
    extra = (loops - 1) * middle if mode == "per_loop" else 0
    at_most_max_layers(view, "n_recurrent_loops", count + extra)
    if extra:
        view.notes.append(
            f"per_loop: {loops - 1} more cached copies of the {middle} recurrent layers, numbered after the stack"
        )
    copies = kinds[first : first + middle] * (loops - 1) if extra else []
    return build(view, [by_kind[kind] for kind in kinds + copies])
