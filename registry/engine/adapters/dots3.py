"""Dots 3 Note (``dots3_note``, ``dots3_note_text``): MLA everywhere, with a sparse-attention indexer in
the global layers and a window over the latent in the sliding ones.

Semantics followed (transformers 5.24.0, ``models/dots3_note/configuration_dots3_note.py`` and
``modeling_dots3_note.py``); the published checkpoints keep the text fields at the top level, which the
view reads as it reads a ``text_config``:

- Layer kinds (``Dots3NoteTextConfig.__post_init__``): ``layer_types`` when given, else layer ``i`` is
  global when ``use_sliding_window`` (default true) is off, or ``i < 2``, or ``i % 4 == 1``, and sliding
  otherwise. ``use_dsa`` (default true, unless the config carries ``per_layer_config``, as transformers
  writes it) makes the global layers ``indexed_attention``; ``use_dsa: false`` makes them plain
  ``full_attention``, and either renames the other kind in a listed ``layer_types``.
- Every layer caches the MLA latent and RoPE key (``cache.update(k_pass, k_rot)`` in
  ``Dots3NoteTextAttention``): ``kv_lora_rank`` (default 512) + ``qk_rope_head_dim`` (64) values per token.
  An indexed layer (``DynamicIndexedLayer``) also keeps one indexer key of ``index_head_dim`` (128) per
  token, which transformers keeps in float32 (its rule ``REFERENCE_INDEXER_FP32``, hence the family
  ``dots3`` on every layer); a sliding layer (``DynamicSlidingWindowLayer``) keeps the last
  ``sliding_window`` tokens (``sliding_window_size`` in the checkpoints, default 512).
- A sliding layer has sizes of its own: ``per_layer_config[i]`` when the config carries it, else the
  checkpoints' ``swa_*`` fields (``swa_kv_lora_rank`` default 1024, ``swa_head_dim`` 256,
  ``swa_qk_nope_head_dim`` 192, and ``swa_qk_rope_head_dim`` their difference unless given).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import MLA, LayerGroups

_SOURCE = "Dots3NoteTextConfig"
_INDEXED, _FULL, _SLIDING = "indexed_attention", "full_attention", "sliding_attention"


def _flag(view: ConfigView, name: str, default: bool | None) -> bool | None:
    value = view.value(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ConfigFieldError(view.model_type, name, f"must be true or false, not {value!r}")
    return value


def _layer_types(view: ConfigView, count: int) -> list[str]:
    """Each layer's kind, as ``__post_init__`` builds and renames them."""
    use_dsa = _flag(view, "use_dsa", None if view.contains("per_layer_config") else True)
    sliding = _flag(view, "use_sliding_window", True)
    listed = view.str_list("layer_types")
    if listed is None:
        glob = _FULL if use_dsa is False else _INDEXED
        listed = [glob if not sliding or i < 2 or i % 4 == 1 else _SLIDING for i in range(count)]
    if len(listed) != count:
        raise ConfigFieldError(
            view.model_type, "layer_types", f"lists {len(listed)} layers but num_hidden_layers is {count}"
        )
    if use_dsa is not None:
        old, new = (_FULL, _INDEXED) if use_dsa else (_INDEXED, _FULL)
        listed = [new if kind == old else kind for kind in listed]
    for index, kind in enumerate(listed):
        if kind not in (_INDEXED, _FULL, _SLIDING):
            raise ConfigFieldError(view.model_type, f"layer_types[{index}]", f"is {kind!r}")
    return listed


def _sliding_view(view: ConfigView, index: int) -> ConfigView:
    """The fields of sliding layer ``index``: its ``per_layer_config`` entry over the model's, or the
    ``swa_*`` fields with their defaults."""
    per_layer = view.value("per_layer_config")
    if per_layer is not None:
        entries = view.mapping("per_layer_config")
        own = next((value for key, value in entries.items() if str(key) == str(index)), None)
        fields: Mapping[str, Any] = own if isinstance(own, Mapping) else {}
        inner = ConfigView(view.model_type, {**view.fields, **fields})
        inner.notes = view.notes
        return inner
    head = view.int_or_default("swa_head_dim", 256, _SOURCE)
    nope = view.int_or_default("swa_qk_nope_head_dim", 192, _SOURCE, minimum=0)
    rope = view.int_or_none("swa_qk_rope_head_dim", minimum=0)
    fields = {
        "kv_lora_rank": view.int_or_default("swa_kv_lora_rank", 1024, _SOURCE),
        "qk_rope_head_dim": head - nope if rope is None else rope,
        "num_attention_heads": view.int_or_default("swa_num_attention_heads", 64, _SOURCE),
        "qk_nope_head_dim": nope,
        "v_head_dim": view.int_or_default("swa_v_head_dim", 128, _SOURCE),
    }
    inner = ConfigView(view.model_type, {**view.fields, **fields})
    inner.notes = view.notes
    return inner


def _latent(view: ConfigView, window: int | None = None, indexed: bool = False) -> MLA:
    return MLA(
        kv_lora_rank=view.int_or_default("kv_lora_rank", 512, _SOURCE),
        qk_rope_head_dim=view.int_or_default("qk_rope_head_dim", 64, _SOURCE, minimum=0),
        num_heads=view.int_or_default("num_attention_heads", 128, _SOURCE),
        qk_nope_head_dim=view.int_or_default("qk_nope_head_dim", 128, _SOURCE, minimum=0),
        v_head_dim=view.int_or_default("v_head_dim", 128, _SOURCE),
        index_head_dim=view.int_or_default("index_head_dim", 128, _SOURCE) if indexed else None,
        index_n_heads=view.int_or_default("index_n_heads", 64, _SOURCE) if indexed else None,
        window=window,
        variant="dots3",
    )


def dots3_note(view: ConfigView) -> LayerGroups:
    """Indexed or plain MLA in the global layers, MLA over a window with its own sizes in the others."""
    count = num_layers(view)
    layers: list[MLA] = []
    for index, kind in enumerate(_layer_types(view, count)):
        if kind == _SLIDING:
            own = _sliding_view(view, index)
            field = "sliding_window" if own.has("sliding_window") else "sliding_window_size"
            layers.append(_latent(own, window=own.int_or_default(field, 512, _SOURCE)))
        else:
            layers.append(_latent(view, indexed=kind == _INDEXED))
    return build(view, layers)
