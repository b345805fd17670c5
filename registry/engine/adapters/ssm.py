"""Mamba and Mamba-2 language models: a fixed recurrent state on every layer, no attention at all.

Semantics followed (transformers 5.24.0, ``configuration_mamba.py`` / ``modeling_mamba.py`` and
``configuration_mamba2.py`` / ``modeling_mamba2.py``): both classes declare every layer
``linear_attention``, and each mixer hands the cache a short-convolution window and an SSM state.

- ``mamba``: ``intermediate = int(expand x hidden_size)``, unless the config states
  ``intermediate_size``: ``MambaConfig.__post_init__`` computes it, and then sets every extra key of the
  config over it, so a stated value wins (published configs state the product); conv over ``intermediate`` channels with
  ``conv_kernel`` taps, state ``(intermediate, state_size)`` (class defaults: expand 2, kernel 4,
  state 16), the shapes of :func:`._state.mamba1`.
- ``mamba2``: the same ``intermediate``; conv over ``intermediate + 2 x n_groups x state_size``
  channels, state ``(num_heads, head_dim, state_size)`` (class defaults: 128 heads of 64, 8 groups,
  state 128, kernel 4), the shapes of :func:`._state.mamba2`.
"""

from __future__ import annotations

from registry.engine.adapters import _state
from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigValueError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.layers import LayerGroups


def _intermediate(view: ConfigView) -> int:
    """``int(expand * hidden_size)``, as both mixers compute it (``expand`` may be written as a float)."""
    expand = view.value("expand")
    if isinstance(expand, bool) or not isinstance(expand, int | float) or expand <= 0:
        raise ConfigValueError(view.model_type, "expand", f"must be a positive number, not {expand!r}")
    return int(expand * view.require_int("hidden_size"))


def mamba(view: ConfigView) -> LayerGroups:
    """A Mamba state on every layer (``MambaConfig``)."""
    view = class_defaults(view, "MambaConfig", expand=2, state_size=16, conv_kernel=4)
    stated = view.int_or_none("intermediate_size")
    state = _state.mamba1(
        intermediate=_intermediate(view) if stated is None else stated,
        state_size=view.require_int("state_size"),
        conv_kernel=view.require_int("conv_kernel"),
    )
    return build(view, [state] * num_layers(view))


def mamba2(view: ConfigView) -> LayerGroups:
    """A Mamba-2 state on every layer (``Mamba2Config``)."""
    view = class_defaults(
        view, "Mamba2Config", expand=2, num_heads=128, head_dim=64, n_groups=8, state_size=128, conv_kernel=4
    )
    state = _state.mamba2(
        intermediate=_intermediate(view),
        n_groups=view.require_int("n_groups"),
        num_heads=view.require_int("num_heads"),
        head_dim=view.require_int("head_dim"),
        state_size=view.require_int("state_size"),
        conv_kernel=view.require_int("conv_kernel"),
    )
    return build(view, [state] * num_layers(view))
