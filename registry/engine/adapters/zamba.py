"""Zamba and Zamba2: Mamba layers, some of which also run a shared attention block beside their mixer.

Semantics followed (transformers 5.24.0, ``configuration_zamba.py`` / ``modeling_zamba.py`` and
``configuration_zamba2.py`` / ``modeling_zamba2.py``): ``layers_block_type`` (``layer_types`` is its
alias; legacy ``mamba`` / ``attention`` names are read as ``linear_attention`` / ``full_attention``)
names each layer ``linear_attention`` (a Mamba mixer alone) or ``hybrid`` (the shared transformer block,
then the Mamba mixer). The shared block's weights are shared, but the cache gives every hybrid layer a
``LinearAttentionAndFullAttentionLayer``: its own K and V *and* the mixer's conv and SSM states, so a
hybrid layer is :class:`~registry.engine.layers.Parallel` attention and state.

The attention reads the concatenation of the hidden state and the embeddings, ``2 x hidden_size`` wide:
``num_key_value_heads`` heads of ``attention_head_dim`` (``head_dim`` is its alias; when absent,
``2 x hidden_size // num_attention_heads``). Both classes compute such derived sizes in ``__post_init__``
and then set the config's own keys over them, so a stated value wins.

- ``zamba``: without a list, layers 0 and 1 are Mamba, layer 2 hybrid, then layer ``3 + i`` is hybrid
  when ``i % attn_layer_period == attn_layer_offset`` (defaults 6 and 4). The mixer is Mamba(-1) split
  into ``n_mamba_heads`` heads whose states stack to ``(mamba_expand x hidden_size, mamba_d_state)``
  (:func:`._state.mamba1`); ``ZambaConfig`` defaults 16 KV heads, state 16, kernel 4, expand 2.
- ``zamba2``: without a list, the class's fixed 54-layer pattern (one Mamba layer, then a hybrid layer
  after every five, ...). The mixer is Mamba-2: ``n_mamba_heads`` heads of
  ``int(mamba_expand x hidden_size) // n_mamba_heads`` (or a stated ``mamba_headdim``), ``mamba_ngroups`` groups
  (:func:`._state.mamba2`); ``Zamba2Config`` defaults 8 heads, 1 group, state 64, kernel 4, expand 2,
  and MHA when ``num_key_value_heads`` is absent.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import Attention, LayerGroups, Mechanism, Parallel, Recurrent

_LINEAR, _HYBRID = "linear_attention", "hybrid"
_LEGACY = {"mamba": _LINEAR, "attention": "full_attention"}

_ZAMBA2_PATTERN = (
    [_LINEAR]
    + ([_LINEAR] * 5 + [_HYBRID]) * 7
    + [_LINEAR] * 4
    + [_HYBRID]
    + [_LINEAR] * 3
    + [_HYBRID]
    + [_LINEAR] * 2
)
"""``Zamba2Config``'s layers when the config lists none (54 layers: 9 hybrid)."""


def _listed(view: ConfigView, count: int) -> list[str] | None:
    """``layers_block_type`` (or ``layer_types``), legacy names remapped, checked for length and values."""
    name = view.first_present(("layers_block_type", "layer_types"))
    if name is None:
        return None
    types = [_LEGACY.get(t, t) for t in view.str_list(name) or []]
    if len(types) != count:
        raise ConfigFieldError(
            view.model_type, name, f"lists {len(types)} layers but num_hidden_layers is {count}"
        )
    for index, kind in enumerate(types):
        if kind not in (_LINEAR, _HYBRID):
            raise ConfigFieldError(
                view.model_type, f"{name}[{index}]", f"is {kind!r}; expected mamba or hybrid"
            )
    return types


def _attention(view: ConfigView) -> Attention:
    """The shared block's attention, read over ``2 x hidden_size`` inputs."""
    heads = view.require_int("num_attention_heads")
    stated = view.first_present(("attention_head_dim", "head_dim"))
    size = view.require_int(stated) if stated is not None else 2 * view.require_int("hidden_size") // heads
    kv_heads = view.require_int("num_key_value_heads") if view.has("num_key_value_heads") else heads
    return Attention(num_kv_heads=kv_heads, head_dim=size, v_head_dim=size)


def _layout(view: ConfigView, types: list[str], mixer: Recurrent) -> LayerGroups:
    by_type: dict[str, Mechanism] = {_LINEAR: mixer}
    if _HYBRID in types:
        by_type[_HYBRID] = Parallel((_attention(view), mixer))
    return build(view, [by_type[t] for t in types])


def zamba(view: ConfigView) -> LayerGroups:
    """Mamba layers, with the shared attention beside the mixer on every hybrid layer (``ZambaConfig``)."""
    view = class_defaults(
        view,
        "ZambaConfig",
        num_key_value_heads=16,
        attn_layer_period=6,
        attn_layer_offset=4,
        mamba_d_state=16,
        mamba_d_conv=4,
        mamba_expand=2,
    )
    count = num_layers(view)
    types = _listed(view, count)
    if types is None:
        period, offset = (
            view.require_int("attn_layer_period"),
            view.require_int("attn_layer_offset", minimum=0),
        )
        rest = [_HYBRID if i % period == offset else _LINEAR for i in range(max(count - 3, 0))]
        types = [_LINEAR, _LINEAR, _HYBRID, *rest][:count]
    mixer = _state.mamba1(
        intermediate=view.require_int("mamba_expand") * view.require_int("hidden_size"),
        state_size=view.require_int("mamba_d_state"),
        conv_kernel=view.require_int("mamba_d_conv"),
    )
    return _layout(view, types, mixer)


def zamba2(view: ConfigView) -> LayerGroups:
    """Mamba-2 layers, with the shared attention beside the mixer on every hybrid layer (``Zamba2Config``)."""
    view = class_defaults(
        view,
        "Zamba2Config",
        n_mamba_heads=8,
        mamba_ngroups=1,
        mamba_d_state=64,
        mamba_d_conv=4,
        mamba_expand=2,
    )
    count = num_layers(view)
    types = _listed(view, count)
    if types is None:
        if count != len(_ZAMBA2_PATTERN):
            raise ConfigFieldError(
                view.model_type,
                "layers_block_type",
                f"is missing; Zamba2Config's default pattern has {len(_ZAMBA2_PATTERN)} layers, not {count}",
            )
        types = list(_ZAMBA2_PATTERN)
    intermediate = view.require_int("mamba_expand") * view.require_int("hidden_size")
    heads = view.require_int("n_mamba_heads")
    mixer = _state.mamba2(
        intermediate=intermediate,
        n_groups=view.require_int("mamba_ngroups"),
        num_heads=heads,
        head_dim=view.require_int("mamba_headdim") if view.has("mamba_headdim") else intermediate // heads,
        state_size=view.require_int("mamba_d_state"),
        conv_kernel=view.require_int("mamba_d_conv"),
    )
    return _layout(view, types, mixer)
