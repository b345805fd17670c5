"""Falcon-H1: attention and a Mamba-2 mixer side by side in every layer.

Semantics followed (transformers 5.24.0, ``configuration_falcon_h1.py`` and ``modeling_falcon_h1.py``):
every ``FalconH1DecoderLayer`` runs ``FalconH1Attention`` and ``FalconH1Mixer`` on the same input
(``FalconH1Config.layers_block_type`` is ``"hybrid"`` for every layer), and the cache gives each layer a
``LinearAttentionAndFullAttentionLayer`` holding K and V *and* the conv and SSM states.

- Attention: ``num_key_value_heads`` K/V heads (class default 8; an explicit ``null`` means
  ``num_attention_heads``, as ``__post_init__`` sets it) of ``head_dim``, the config's own when given,
  else ``hidden_size // num_attention_heads`` (``FalconH1Attention``).
- Mamba-2: ``intermediate = mamba_d_ssm`` when set, else ``mamba_expand x hidden_size``;
  ``mamba_n_heads`` heads of ``mamba_d_head`` (``"auto"``: ``intermediate // mamba_n_heads``);
  conv over ``intermediate + 2 x mamba_n_groups x mamba_d_state`` channels with kernel ``mamba_d_conv``;
  SSM state ``(heads, head_dim, d_state)`` (see :func:`.mamba2_hybrid.mamba2_of_width`).
"""

from __future__ import annotations

from registry.engine.adapters._common import build, head_dim, num_layers
from registry.engine.adapters._config import ConfigView
from registry.engine.adapters.mamba2_hybrid import mamba2_of_width
from registry.engine.layers import Attention, LayerGroups, Parallel, Recurrent

_SOURCE = "FalconH1Config"


def _kv_heads(view: ConfigView) -> int:
    if view.contains("num_key_value_heads") and not view.has("num_key_value_heads"):
        heads = view.require_int("num_attention_heads")
        view.notes.append(
            f"num_key_value_heads is null; FalconH1Config then uses num_attention_heads ({heads})"
        )
        return heads
    return view.int_or_default("num_key_value_heads", 8, _SOURCE)


def _mamba2(view: ConfigView) -> Recurrent:
    intermediate = view.int_or_none("mamba_d_ssm")
    if intermediate is None and not view.contains("mamba_d_ssm"):
        intermediate = view.int_or_default("mamba_d_ssm", 1024, _SOURCE)
    elif intermediate is None:
        intermediate = view.int_or_default("mamba_expand", 2, _SOURCE) * view.require_int("hidden_size")
    return mamba2_of_width(view, _SOURCE, intermediate)


def falcon_h1(view: ConfigView) -> LayerGroups:
    """Every layer: full attention beside a Mamba-2 state."""
    size = head_dim(view)
    attention = Attention(num_kv_heads=_kv_heads(view), head_dim=size, v_head_dim=size)
    layer = Parallel((attention, _mamba2(view)))
    return build(view, [layer] * num_layers(view))
