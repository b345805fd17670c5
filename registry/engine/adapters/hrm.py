"""HRM-Text (``hrm_text``): two stacks of attention layers run in cycles, each run keeping its own cache.

Semantics followed (transformers 5.24.0, ``models/hrm_text/configuration_hrm_text.py`` and
``modeling_hrm_text.py``):

- The model has a low-level and a high-level stack of ``num_layers_per_stack`` layers each. Every one of
  ``H_cycles`` (default 2) high-level cycles runs the low-level stack ``L_cycles`` (default 3) times and
  then the high-level stack once, and each of these runs caches into its own slots
  (``cycle_offset`` in ``HrmTextModel.forward``), so the cache has ``num_layers_per_stack x H_cycles x
  (L_cycles + 1)`` layers, each a full-attention layer.
- ``HrmTextConfig.__post_init__`` reads a config without ``num_layers_per_stack`` (the published form) as
  giving the per-stack count in ``num_hidden_layers``, and rewrites ``num_hidden_layers`` to that total;
  a config it wrote itself carries both, ``num_hidden_layers`` already the total.
- Attention (``HrmTextAttention``) is MHA: K and V have ``num_attention_heads`` (default 12) heads of
  ``head_dim`` (default 128, whatever ``hidden_size / heads`` is); a ``num_key_value_heads`` in the config
  is not read.
"""

from __future__ import annotations

from registry.engine.adapters._common import at_most_max_layers, build, num_layers
from registry.engine.adapters._config import ConfigValueError, ConfigView
from registry.engine.layers import Attention, LayerGroups

_SOURCE = "HrmTextConfig"


def hrm_text(view: ConfigView) -> LayerGroups:
    """One full-attention cache layer per layer of each stack run: ``per stack x H x (L + 1)``."""
    high = view.int_or_default("H_cycles", 2, _SOURCE)
    low = view.int_or_default("L_cycles", 3, _SOURCE)
    runs = high * (low + 1)
    hidden = num_layers(view)
    per_stack = view.int_or_none("num_layers_per_stack")
    if per_stack is None:
        per_stack = hidden
    elif hidden != per_stack * runs:
        raise ConfigValueError(
            view.model_type,
            "num_hidden_layers",
            f"is {hidden}, but with num_layers_per_stack {per_stack}, H_cycles {high} and L_cycles {low} "
            f"HrmTextConfig makes it {per_stack * runs}",
        )
    total = at_most_max_layers(view, "H_cycles", per_stack * runs)
    heads = view.int_or_default("num_attention_heads", 12, _SOURCE)
    size = view.int_or_default("head_dim", 128, _SOURCE)
    view.notes.append(
        f"each of the {high} high-level cycles runs the {per_stack}-layer low-level stack {low} times and the "
        f"{per_stack}-layer high-level stack once, every run with its own cache layers: {total} in all"
    )
    return build(view, [Attention(num_kv_heads=heads, head_dim=size, v_head_dim=size)] * total)
