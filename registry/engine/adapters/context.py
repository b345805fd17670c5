"""The longest context a published ``config.json`` says its model takes, and which fields say it.

A config states its length in one of several fields and may extend it by rescaling RoPE; the rules,
read in this order, follow vLLM's ``_get_and_verify_max_len`` (``vllm/config.py``), which is what a
server started on the config accepts, except where its rule contradicts the config's own meaning:

1. The decoder's fields: ``text_config`` merged over the top level, as the adapters read a multimodal
   wrapper (Gemma 3, Llama 4 and Qwen3-VL state their length only inside ``text_config``).
2. ``model_max_length``, when stated, is the length the publisher serves the model at: Command-R's
   config keeps ``max_position_embeddings: 8192`` (the RoPE base it was trained with) beside
   ``model_max_length: 131072``, and vLLM accepts a requested length up to it.
3. Otherwise the smallest of the position fields stated (:data:`POSITION_FIELDS`, vLLM's list:
   ``max_position_embeddings``, GPT-2's ``n_positions``, MPT's ``max_seq_len``, ChatGLM's
   ``seq_length``, ...).
4. YaRN (``rope_scaling`` or transformers 5's ``rope_parameters`` with ``rope_type``/``type`` ``yarn``)
   stretches ``original_max_position_embeddings`` by ``factor``: the maximum is their product, which
   is how vLLM reads it and what DeepSeek-V3 (4,096 x 40 = 163,840), gpt-oss and Kimi K2 state in
   ``max_position_embeddings`` too. A config that adds YaRN to a model whose position field still says
   the original length (Qwen2.5's model card has users add ``factor: 4.0`` to a 32,768 config) is
   read as the stretched length, as a server would run it.
5. Llama 3's and LongRoPE's scaling (``llama3``, ``longrope``, ``su``) state the extended length in
   ``max_position_embeddings`` already (Llama 3.1: 131,072 beside an original 8,192; Phi-3.5: 131,072
   beside 4,096): it is taken as stated, as vLLM does. So is it under ``linear`` and ``dynamic``
   scaling, where vLLM multiplies it by ``factor``: Gemma 3's ``max_position_embeddings: 131072`` with
   linear factor 8 is the 128K its model card gives, not 1M; ``dynamic`` NTK scaling extends past the
   stated length at run time by a rule, not to a length the config names.

A config that states none of these fields gives no maximum: transformers' class defaults are not what a
publisher said of its model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from registry.engine.adapters._config import merged_fields

SERVED_FIELD = "model_max_length"
POSITION_FIELDS = (
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
)
ROPE_FIELDS = ("rope_scaling", "rope_parameters")
"""Where a config states its RoPE scaling: ``rope_scaling`` (transformers 4 and most published
configs) or ``rope_parameters`` (transformers 5)."""


@dataclass(frozen=True)
class ContextMaximum:
    """The longest context a config states, in tokens, and how it was read, in words (the field and
    any YaRN stretch), for the comment ``import-config`` writes beside it."""

    tokens: int
    basis: str


def _whole(value: Any) -> int | None:
    """A positive whole number of tokens, or None (a bool, a string or a fraction is no length)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and value > 0 else None


def _stated_length(fields: Mapping[str, Any]) -> ContextMaximum | None:
    served = _whole(fields.get(SERVED_FIELD))
    if served is not None:
        return ContextMaximum(served, f"{SERVED_FIELD}: {served}")
    stated = [(length, name) for name in POSITION_FIELDS if (length := _whole(fields.get(name)))]
    if not stated:
        return None
    length, name = min(stated)
    return ContextMaximum(length, f"{name}: {length}")


def _yarn(fields: Mapping[str, Any]) -> tuple[int, int | float] | None:
    """YaRN's ``original_max_position_embeddings`` and ``factor``, when the config scales RoPE by YaRN
    with both stated."""
    for name in ROPE_FIELDS:
        scaling = fields.get(name)
        if not isinstance(scaling, Mapping):
            continue
        if (scaling.get("rope_type") or scaling.get("type")) != "yarn":
            continue
        original = _whole(scaling.get("original_max_position_embeddings"))
        factor = scaling.get("factor")
        if original is None or isinstance(factor, bool) or not isinstance(factor, int | float):
            continue
        if factor >= 1:
            return original, factor
    return None


def max_context_from_config(config: Mapping[str, Any]) -> ContextMaximum | None:
    """The longest context ``config`` states (the module's rules), or None when it states none."""
    if not isinstance(config, Mapping):
        return None
    fields = merged_fields(config)
    stated = _stated_length(fields)
    yarn = _yarn(fields)
    if yarn is None or (stated is not None and stated.basis.startswith(SERVED_FIELD)):
        return stated
    original, factor = yarn
    stretched = int(original * factor)
    basis = f"YaRN: original_max_position_embeddings {original} x factor {factor:g}"
    if stated is not None and stated.tokens < stretched:
        basis += f"; the config's {stated.basis} is the length before the stretch"
    elif stated is not None and stated.tokens > stretched:
        basis += f"; the config's {stated.basis} is longer than YaRN stretches to"
    return ContextMaximum(stretched, basis)
