"""Mamba-2 hybrids whose layers are each *either* attention *or* Mamba-2: Bamba and Nemotron-H.

Bamba (transformers ``configuration_bamba.py``, ``BambaConfig.layers_block_type``): layer ``i`` is
attention when ``i`` is in ``attn_layer_indices`` (0-based), Mamba-2 otherwise; the Mamba-2 state uses
``intermediate = mamba_expand x hidden_size`` and ``mamba_d_head = intermediate // mamba_n_heads`` when
the config says ``"auto"`` (vLLM ``bamba.py`` passes the same fields to ``mamba2_state_shape``);
configuration read at commit 001f85b38fb432858ace93f18622f07cec46d874.

Nemotron-H (vLLM ``nemotron_h.py``): ``hybrid_override_pattern`` has one character per layer, ``M``
Mamba-2, ``*`` attention, ``-`` MLP and ``E`` MoE (no cache); a config written by transformers 5 lists
the same as ``layers_block_type`` names (``linear_attention``, ``full_attention``, ``mlp``, ``moe``).
Its Mamba-2 state uses
``intermediate = mamba_num_heads x mamba_head_dim``, ``n_groups``, ``ssm_state_size`` and
``conv_kernel``.

Falcon-H1 is not here: every Falcon-H1 layer runs attention *and* Mamba-2 side by side, and a layout
holds one mechanism per layer.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import build, full_attention, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters.jamba import block_types
from registry.engine.layers import LayerGroups, Mechanism, NoCache, Recurrent

_BAMBA = "BambaConfig"
_NEMOTRON_CODES = {"M": "mamba", "*": "attention", "-": "mlp", "E": "moe"}
_NEMOTRON_NAMES = {
    "linear_attention": "mamba",
    "full_attention": "attention",
    "mamba": "mamba",
    "attention": "attention",
    "mlp": "mlp",
    "moe": "moe",
}
"""``layers_block_type`` names: transformers 5's (``NemotronHConfig.validate_layer_type``) and the
legacy ones it remaps (``_LEGACY_LAYER_TYPE_REMAP`` in ``configuration_utils.py``, 5.24.0)."""


def mamba2_from_expand(view: ConfigView, source: str) -> Recurrent:
    """A Mamba-2 state sized as Bamba and Granite 4.0 hybrid size it: ``mamba_expand x hidden_size``
    channels in ``mamba_n_heads`` heads of ``mamba_d_head`` (``"auto"``: the even split), with
    ``source``'s defaults for the fields the config leaves out."""
    intermediate = view.int_or_default("mamba_expand", 2, source) * view.require_int("hidden_size")
    return mamba2_of_width(view, source, intermediate)


def mamba2_of_width(view: ConfigView, source: str, intermediate: int) -> Recurrent:
    """A Mamba-2 state of ``intermediate`` channels, read from the ``mamba_*`` fields Bamba, Granite
    4.0 hybrid and Falcon-H1 share, with ``source``'s defaults for the fields the config leaves out."""
    heads = view.int_or_default("mamba_n_heads", 128, source)
    if view.value("mamba_d_head") in (None, "auto"):
        if intermediate % heads:
            raise ConfigFieldError(
                view.model_type, "mamba_n_heads", f"{heads} does not divide {intermediate}"
            )
        head = intermediate // heads
    else:
        head = view.require_int("mamba_d_head")
    return _state.mamba2(
        intermediate=intermediate,
        n_groups=view.int_or_default("mamba_n_groups", 1, source),
        num_heads=heads,
        head_dim=head,
        state_size=view.int_or_default("mamba_d_state", 256, source),
        conv_kernel=view.int_or_default("mamba_d_conv", 4, source),
    )


def bamba(view: ConfigView) -> LayerGroups:
    """Attention on ``attn_layer_indices``, Mamba-2 on every other layer."""
    count = num_layers(view)
    types = block_types(view, count, ("attention", "mamba"))
    if types is None:
        indices = view.int_list("attn_layer_indices")
        if indices is None:
            view.notes.append(
                "attn_layer_indices is not in the config: BambaConfig makes every layer Mamba-2"
            )
        bad = [i for i in indices or [] if i >= count]
        if bad:
            raise ConfigFieldError(
                view.model_type, "attn_layer_indices", f"lists {bad[0]}, past layer {count - 1}"
            )
        types = ["attention" if i in (indices or []) else "mamba" for i in range(count)]
    by_type: dict[str, Mechanism] = {}
    if "attention" in types:
        by_type["attention"] = full_attention(view)
    if "mamba" in types:
        by_type["mamba"] = mamba2_from_expand(view, _BAMBA)
    return build(view, [by_type[t] for t in types])


def _nemotron_listed(view: ConfigView, listed: list[str]) -> list[str]:
    """``layers_block_type`` as mechanism names: transformers 5 writes ``linear_attention`` (Mamba-2),
    ``full_attention``, ``moe`` and ``mlp``; earlier configs wrote ``mamba`` and ``attention``."""
    types = []
    for index, name in enumerate(listed):
        if name not in _NEMOTRON_NAMES:
            known = ", ".join(sorted(_NEMOTRON_NAMES))
            raise ConfigFieldError(
                view.model_type, f"layers_block_type[{index}]", f"is {name!r}; expected one of {known}"
            )
        types.append(_NEMOTRON_NAMES[name])
    return types


def _nemotron_types(view: ConfigView) -> list[str]:
    """One mechanism name per layer, from ``hybrid_override_pattern`` (the hub's configs) or, where that
    is absent, ``layers_block_type`` (what ``NemotronHConfig.to_dict()`` writes in transformers 5)."""
    pattern = view.value("hybrid_override_pattern")
    if pattern is None:
        listed = view.str_list("layers_block_type")
        if listed is None:
            raise ConfigFieldError(
                view.model_type, "hybrid_override_pattern", "is required but missing or null"
            )
        return _nemotron_listed(view, listed)
    if not isinstance(pattern, str | list):
        raise ConfigFieldError(
            view.model_type, "hybrid_override_pattern", f"must be a string, not {pattern!r}"
        )
    types = []
    for index, code in enumerate(pattern):
        if code not in _NEMOTRON_CODES:
            raise ConfigFieldError(
                view.model_type, f"hybrid_override_pattern[{index}]", f"is {code!r}; expected one of M * - E"
            )
        types.append(_NEMOTRON_CODES[code])
    return types


def nemotron_h(view: ConfigView) -> LayerGroups:
    """One mechanism per pattern character: Mamba-2 state, attention cache, or nothing (MLP / MoE)."""
    types = _nemotron_types(view)
    if view.has("num_hidden_layers") and num_layers(view) != len(types):
        raise ConfigFieldError(
            view.model_type,
            "hybrid_override_pattern",
            f"has {len(types)} layers but num_hidden_layers is {num_layers(view)}",
        )
    by_type: dict[str, Mechanism] = {"mlp": NoCache(), "moe": NoCache()}
    if "attention" in types:
        by_type["attention"] = full_attention(view)
    if "mamba" in types:
        heads = view.require_int("mamba_num_heads")
        head = view.require_int("mamba_head_dim")
        by_type["mamba"] = _state.mamba2(
            intermediate=heads * head,
            n_groups=view.require_int("n_groups"),
            num_heads=heads,
            head_dim=head,
            state_size=view.require_int("ssm_state_size"),
            conv_kernel=view.require_int("conv_kernel"),
        )
    return build(view, [by_type[t] for t in types])
