"""A lower bound on a model's parameters, counted from its config where its record states no count.

The bounds need the parameters a token passes through (active) and the ones the memory holds (total).
Where a model record states neither, the config's geometry gives at least:

- attention projections of each full-attention layer: ``hidden x (heads + 2 x KV heads) x head size``
  for Q, K and V, and ``heads x head size x hidden`` for the output (a layer of another kind, linear
  attention or a state-space mixer, counts nothing);
- the feed-forward block of each layer: ``2 x hidden x intermediate`` (an up and a down projection;
  a gated block has a third, not counted), with a mixture of experts counting ``2 x hidden x
  moe_intermediate`` per expert, every expert for the total and ``num_experts_per_tok`` of them for the
  active parameters; a layer that may be dense or sparse counts the smaller of the two;
- the input embedding ``vocab x hidden``, and the output head as much again when it is untied.

Norms, biases, routers, shared experts, vision towers and multi-token-prediction heads are left out, so
every count is at most the true one, and a bound built on it stays a bound.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

EXPERT_COUNTS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")


@dataclass(frozen=True, slots=True)
class Counted:
    """Parameters counted from a config: at least ``total`` held, at least ``active`` per token."""

    total: int
    active: int
    line: str


def _int(config: Mapping[str, Any], *names: str) -> int | None:
    for name in names:
        value = config.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def _attention_layers(config: Mapping[str, Any], layers: int) -> int:
    kinds = config.get("layer_types")
    if isinstance(kinds, list) and len(kinds) == layers:
        return sum(1 for kind in kinds if kind in ("full_attention", "attention", "sliding_attention"))
    return layers


def counted_parameters(stated: Mapping[str, Any]) -> Counted | None:
    """The lower bound of the module's docstring from a config (its ``text_config`` merged in), or None
    when the config lacks the sizes it needs."""
    hidden = _int(stated, "hidden_size")
    layers = _int(stated, "num_hidden_layers")
    heads = _int(stated, "num_attention_heads")
    vocab = _int(stated, "vocab_size")
    if hidden is None or layers is None or heads is None or vocab is None:
        return None
    kv_heads = _int(stated, "num_key_value_heads") or heads
    head = _int(stated, "head_dim") or hidden // heads
    attention = _attention_layers(stated, layers) * (
        hidden * (heads + 2 * kv_heads) * head + heads * head * hidden
    )
    dense = 2 * hidden * (_int(stated, "intermediate_size") or 0)
    experts = _int(stated, *EXPERT_COUNTS)
    per_expert = 2 * hidden * (_int(stated, "moe_intermediate_size") or 0)
    routed = _int(stated, "num_experts_per_tok") or 0
    all_sparse = (
        stated.get("decoder_sparse_step", 1) == 1
        and not stated.get("mlp_only_layers")
        and not stated.get("first_k_dense_replace")
    )
    if experts and per_expert and routed:
        total_mlp = experts * per_expert if all_sparse else min(dense, experts * per_expert)
        active_mlp = routed * per_expert if all_sparse else min(dense, routed * per_expert)
    else:
        total_mlp = active_mlp = dense
    embedding = vocab * hidden * (1 if stated.get("tie_word_embeddings", True) is not False else 2)
    total = attention + layers * total_mlp + embedding
    active = attention + layers * active_mlp + embedding
    line = (
        f"parameters counted from the config (at least: attention, {'experts' if experts else 'MLP'} "
        "up and down projections and embeddings; norms, gates and towers left out)"
    )
    return Counted(total, active, line)
