"""Decoders that interleave sliding-window and full-attention layers by a per-class rule.

An explicit ``layer_types`` list always decides. Without one, each configuration class's
``__post_init__`` in transformers 5.24.0 builds it by its own rule (:data:`CLASSES`); both kinds of
layer use the config's ``num_key_value_heads`` and ``head_dim`` (the class defaults when the config
leaves them out; ``None`` there means one K/V head per attention head, and ``hidden_size //
num_attention_heads``), and sliding layers keep ``sliding_window`` tokens.

- ``afmoe``: a full layer every ``global_attn_every_n_layers`` (default 4): ``(i + 1) % n == 0``;
- ``beam``: a full layer every sixth, and the last layer full;
- ``cohere2_moe``: the first ``first_k_dense_replace`` (default 0) layers by
  ``prefix_dense_sliding_window_pattern`` (default 1), the rest by ``sliding_window_pattern``
  (default 4), each ``(i + 1) % pattern == 0`` full;
- ``cwm``, ``granite_swa``, ``granitemoe_swa``: ``i % 4 == 0`` full;
- ``exaone4``, ``exaone_moe``: ``(i + 1) % sliding_window_pattern == 0`` full (default 4); with no
  window the class sets the pattern to 0 and cannot build the list, so ``layer_types`` is required;
- ``flint``: the first two layers, every ``i % 4 == 1`` and the last layer full;
- ``kolibri1``: ``(i + 1) % 5 == 0`` full;
- ``laguna``: every layer full unless ``layer_types`` says;
- ``cohere_compass_text``: every layer full unless ``layer_types`` says (the class's older
  ``sliding_window_pattern`` branch never runs);
- ``dots1``: layers ``i >= max_window_layers`` (default 62) slide when there is a window (Qwen 2's rule).

GPT-Neo's global and local layers have their own fields and rule (:func:`gpt_neo`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from registry.engine.adapters._common import (
    FULL,
    FULL_OR_SLIDING_LAYER_TYPES,
    SLIDING,
    at_most_max_layers,
    build,
    every_nth,
    explicit_layer_types,
    num_layers,
)
from registry.engine.adapters._config import ConfigFieldError, ConfigValueError, ConfigView
from registry.engine.layers import Attention, LayerGroups, Mechanism, SlidingWindow

Kinds = Callable[[ConfigView, int, str], list[str]]
"""A class's rule: the kind of each of ``count`` layers, from the config (``source`` names the class)."""


def _every_nth_field(name: str, default: int) -> Kinds:
    """``(i + 1) % n == 0`` is full, ``n`` read from ``name`` (class default ``default``)."""

    def kinds(view: ConfigView, count: int, source: str) -> list[str]:
        return every_nth(count, view.int_or_default(name, default, source), FULL, SLIDING)

    return kinds


def _full_where(test: Callable[[int, int], bool]) -> Kinds:
    """Layer ``i`` of ``count`` is full where ``test(i, count)``, sliding elsewhere."""

    def kinds(view: ConfigView, count: int, source: str) -> list[str]:
        return [FULL if test(i, count) else SLIDING for i in range(count)]

    return kinds


def _beam(view: ConfigView, count: int, source: str) -> list[str]:
    return [*every_nth(count - 1, 6, FULL, SLIDING), FULL]


def _cohere2_moe(view: ConfigView, count: int, source: str) -> list[str]:
    prefix = min(view.int_or_none("first_k_dense_replace", minimum=0) or 0, count)
    head = view.int_or_default("prefix_dense_sliding_window_pattern", 1, source)
    rest = view.int_or_default("sliding_window_pattern", 4, source)
    return every_nth(prefix, head, FULL, SLIDING) + every_nth(count - prefix, rest, FULL, SLIDING)


def _exaone4(view: ConfigView, count: int, source: str) -> list[str]:
    if not view.has("sliding_window"):
        raise ConfigFieldError(
            view.model_type, "layer_types", f"is required: without sliding_window {source} cannot build it"
        )
    return every_nth(count, view.int_or_default("sliding_window_pattern", 4, source), FULL, SLIDING)


def _dots1(view: ConfigView, count: int, source: str) -> list[str]:
    if not view.has("sliding_window") and view.contains("sliding_window"):
        return [FULL] * count
    first = view.int_or_default("max_window_layers", 62, source, minimum=0)
    return [SLIDING if i >= first else FULL for i in range(count)]


@dataclass(frozen=True)
class _Class:
    """One configuration class: its name, its defaults for the attention sizes, and its layer rule."""

    name: str
    defaults: Mapping[str, int]
    kinds: Kinds


_I_MOD_4 = _full_where(lambda i, count: i % 4 == 0)

CLASSES: Mapping[str, _Class] = {
    "afmoe": _Class(
        "AfmoeConfig",
        {"head_dim": 128, "sliding_window": 1024},
        _every_nth_field("global_attn_every_n_layers", 4),
    ),
    "beam": _Class("BeamConfig", {"num_key_value_heads": 8, "head_dim": 128, "sliding_window": 512}, _beam),
    "cohere2_moe": _Class("Cohere2MoeConfig", {"head_dim": 128, "sliding_window": 4096}, _cohere2_moe),
    "cohere_compass_text": _Class(
        "CohereCompassTextConfig",
        {"sliding_window": 4096},
        _full_where(lambda i, count: True),
    ),
    "cwm": _Class("CwmConfig", {"num_key_value_heads": 8, "head_dim": 128, "sliding_window": 8192}, _I_MOD_4),
    "dots1": _Class("Dots1Config", {"num_key_value_heads": 32, "sliding_window": 4096}, _dots1),
    "exaone4": _Class("Exaone4Config", {"num_key_value_heads": 32, "sliding_window": 4096}, _exaone4),
    "exaone_moe": _Class("ExaoneMoeConfig", {"num_key_value_heads": 32, "sliding_window": 4096}, _exaone4),
    "flint": _Class(
        "FlintConfig",
        {"num_key_value_heads": 4, "head_dim": 128, "sliding_window": 513},
        _full_where(lambda i, count: i < 2 or i % 4 == 1 or i == count - 1),
    ),
    "granite_swa": _Class("GraniteSWAConfig", {"num_key_value_heads": 4, "sliding_window": 128}, _I_MOD_4),
    "granitemoe_swa": _Class("GraniteMoeSWAConfig", {"sliding_window": 128}, _I_MOD_4),
    "kolibri1": _Class(
        "Kolibri1Config",
        {"num_key_value_heads": 4, "head_dim": 128, "sliding_window": 513},
        _full_where(lambda i, count: (i + 1) % 5 == 0),
    ),
    "laguna": _Class(
        "LagunaConfig",
        {"num_key_value_heads": 8, "head_dim": 128, "sliding_window": 512},
        _full_where(lambda i, count: True),
    ),
}
"""Each model type's configuration class (``models/<type>/configuration_<type>.py``, transformers
5.24.0)."""


def _with_defaults(view: ConfigView, cls: _Class) -> ConfigView:
    """The view with the class defaults filled in where the config leaves a field out (each noted)."""
    missing = {name: value for name, value in cls.defaults.items() if not view.contains(name)}
    if not missing:
        return view
    filled = ConfigView(view.model_type, {**view.fields, **missing})
    filled.notes = view.notes
    filled.notes.extend(
        f"{name} is not in the config; the {cls.name} default {value} applies"
        for name, value in missing.items()
    )
    return filled


def local_global(view: ConfigView) -> LayerGroups:
    """Sliding-window and full layers as ``layer_types`` or the class's rule lays them (module docstring)."""
    cls = CLASSES[view.model_type]
    view = _with_defaults(view, cls)
    count = num_layers(view)
    kinds = explicit_layer_types(view, FULL_OR_SLIDING_LAYER_TYPES, count) or cls.kinds(view, count, cls.name)
    if view.has("head_dim"):
        size = view.require_int("head_dim")
    else:
        hidden, heads = view.require_int("hidden_size"), view.require_int("num_attention_heads")
        if hidden % heads:
            raise ConfigFieldError(
                view.model_type, "head_dim", f"is missing and {heads} does not divide {hidden}"
            )
        size = hidden // heads
    kv_heads = view.int_or_none("num_key_value_heads") or view.require_int("num_attention_heads")
    by_kind: dict[str, Mechanism] = {FULL: Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)}
    if SLIDING in kinds:
        window = view.require_int("sliding_window")
        by_kind[SLIDING] = SlidingWindow(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size, window=window)
    return build(view, [by_kind[kind] for kind in kinds])


def _expanded_attention_types(view: ConfigView, source: str) -> list[str]:
    """``attention_types`` expanded as ``GPTNeoConfig.expand_attention_types_params`` does."""
    raw = view.value("attention_types")
    if raw is None:
        view.notes.append(f"attention_types is not in the config; the {source} default applies")
        raw = [[["global", "local"], 12]]
    kinds: list[str] = []
    try:
        for types, repeat in raw:
            if not isinstance(repeat, int) or repeat > 2_000 or not all(t in _NEO_KINDS for t in types):
                raise ValueError
            kinds.extend(list(types) * repeat)
    except (TypeError, ValueError):
        raise ConfigFieldError(
            view.model_type, "attention_types", f"is not a list of [[kinds], count]: {raw!r}"
        ) from None
    return kinds


def _attention_layers(view: ConfigView, written: list[str], expanded: list[str], count: int) -> list[str]:
    """``attention_layers`` as written: one known kind per layer, agreeing with ``attention_types``'s
    expansion (``expanded``, empty when the config has none) on every layer both describe."""
    if len(written) != count:
        raise ConfigValueError(
            view.model_type, "attention_layers", f"lists {len(written)} layers but num_layers is {count}"
        )
    for index, kind in enumerate(written):
        if kind not in _NEO_KINDS:
            raise ConfigValueError(
                view.model_type, f"attention_layers[{index}]", f"is {kind!r}; expected 'global' or 'local'"
            )
        if index < len(expanded) and expanded[index] != kind:
            raise ConfigValueError(
                view.model_type,
                f"attention_layers[{index}]",
                f"is {kind!r} but attention_types expands to {expanded[index]!r} for that layer; which the "
                "model has cannot be known",
            )
    if expanded and len(expanded) != count:
        view.notes.append(
            f"attention_types expands to {len(expanded)} layers; the {count} of attention_layers, which "
            "transformers reads, are taken"
        )
    return written


_NEO_KINDS = ("global", "local")


def gpt_neo(view: ConfigView) -> LayerGroups:
    """GPT-Neo: global and local layers, one K/V head per attention head.

    ``GPTNeoConfig`` (transformers 5.24.0) sets ``attention_layers`` by expanding ``attention_types``
    (default ``[[["global", "local"], 12]]``: each listed pattern repeated its count of times), then lets
    an ``attention_layers`` the config states win (``PreTrainedConfig.__post_init__`` sets the remaining
    keys), and requires one entry per layer (``validate_architecture``): so the kinds are
    ``attention_layers`` as written when present, else the expansion. Where both are given, an expansion
    that says another kind for a layer both describe is a contradiction, refused at that layer; one of
    another length only is not (a scaled-down config keeps its parent's ``attention_types``) and is noted.
    A local layer attends to the last ``window_size`` tokens (default 256) through its causal mask, so it
    needs no more than those, though transformers caches every token (``cached_whole``). The field names
    are GPT-Neo's own: ``num_layers``, ``num_heads`` and ``hidden_size``; ``head_dim`` is
    ``hidden_size // num_heads``.
    """
    source = "GPTNeoConfig"
    count = at_most_max_layers(view, "num_layers", view.int_or_default("num_layers", 24, source))
    written = view.str_list("attention_layers")
    if written is None:
        kinds = _expanded_attention_types(view, source)
        if len(kinds) != count:
            raise ConfigFieldError(
                view.model_type, "attention_types", f"expands to {len(kinds)} layers, not {count}"
            )
    else:
        expanded = _expanded_attention_types(view, source) if view.has("attention_types") else []
        kinds = _attention_layers(view, written, expanded, count)
    heads = view.int_or_default("num_heads", 16, source)
    hidden = view.int_or_default("hidden_size", 2048, source)
    if hidden % heads:
        raise ConfigFieldError(
            view.model_type, "hidden_size", f"{hidden} is not a multiple of num_heads {heads}"
        )
    size = hidden // heads
    window = view.int_or_default("window_size", 256, source)
    by_kind: dict[str, Mechanism] = {
        "global": Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size),
        "local": SlidingWindow(
            num_kv_heads=heads, head_dim=size, v_head_dim=size, window=window, cached_whole=True
        ),
    }
    return build(view, [by_kind[kind] for kind in kinds])
