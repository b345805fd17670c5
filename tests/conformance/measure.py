"""Bytes a transformers cache object really holds, layer by layer.

Every tensor reachable from the cache object is found by walking its attributes (and the dicts, lists
and objects under them), then *accounted for*: a tensor under one of the attributes that hold cached
states counts towards its layer; a tensor in :data:`BOOKKEEPING` must be a 0-d scalar and is left out;
any other tensor fails the measurement, so a new kind of state in a future release cannot slip past
uncounted. A tensor's bytes are ``numel() × element_size()``: its logical size, which is what the
engine's formulas describe. (A slice can keep a larger storage alive: right after a prefill of ``t``
tokens a sliding layer's keys are a view into all ``t``, and after a decode step a view of
``window - 1`` tokens into a storage of ``window``.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import FunctionType, ModuleType
from typing import Any

import torch

CACHE_DATA = frozenset(
    {
        "keys",
        "values",
        "conv_states",
        "recurrent_states",
        "indexer_keys",
        "indexer_position_ids",
        "idx_keys",
        "compressed_kv",
        "buffer_kv",
        "buffer_gate",
        "overlap_kv",
        "overlap_gate",
    }
)
"""Layer attributes that hold cached states (``DynamicLayer``, ``DynamicSlidingWindowLayer``,
``DynamicIndexedLayer`` (whose ``indexer_position_ids`` Qwen4-Exp fills with every token's position
ids), ``LinearAttentionLayer`` in ``cache_utils.py``, DeepSeek-V4's
``DeepseekV4HCACache`` / ``DeepseekV4CSACache`` in ``modeling_deepseek_v4.py``, and
``MiniMaxM3VLSparseCacheLayer`` in ``modeling_minimax_m3_vl.py``, transformers 5.24.0)."""

BOOKKEEPING = {
    "_sliding_window_tensor": "DynamicSlidingWindowLayer keeps its window size as a 0-d int64 tensor",
}
"""Layer attributes that are tensors but not cached states, and why."""

PER_LAYER_LISTS = ("layers", "linear_cache", "rnn_state")
"""Cache attributes indexed by layer: the layer objects, ``MiniMaxCache.linear_cache`` where the
lightning-attention layers keep their state tensors (``modeling_minimax.py``), and
``xLSTMCache.rnn_state``, a dict from layer index to that layer's tensors (``modeling_xlstm.py``)."""

CACHE_BOOKKEEPING = {
    "seqlen_offset": "xLSTMCache counts the tokens it has seen in a one-element int64 tensor",
}
"""Cache attributes that are tensors but not cached states, and why; each holds one number."""

MODULE_STATE = frozenset({"conv1d_state", "recurrent_states"})
"""Module attributes in which a model keeps its recurrent state itself, outside any cache object
(``RecurrentGemmaRecurrentBlock.conv1d_state``, ``RecurrentGemmaRglru.recurrent_states``,
``modeling_recurrent_gemma.py``)."""


class UnaccountedTensor(AssertionError):
    """A tensor in the cache object that is neither cached state nor known bookkeeping."""


def tensors_in(value: Any, path: str, seen: set[int] | None = None) -> Iterator[tuple[str, torch.Tensor]]:
    """Every tensor reachable from ``value``, with a path such as ``layers[3].conv_states[0]``."""
    seen = set() if seen is None else seen
    if isinstance(value, torch.Tensor):
        yield path, value
        return
    if id(value) in seen or isinstance(value, type | ModuleType | FunctionType):
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for key, item in value.items():
            yield from tensors_in(item, f"{path}[{key!r}]", seen)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from tensors_in(item, f"{path}[{index}]", seen)
    elif hasattr(value, "__dict__"):
        for name, item in vars(value).items():
            yield from tensors_in(item, f"{path}.{name}", seen)


def nbytes(tensor: torch.Tensor) -> int:
    """The tensor's logical size in bytes: ``numel × element_size``."""
    return tensor.numel() * tensor.element_size()


def layer_bytes(layer: Any, where: str) -> int:
    """Bytes of cached state in one layer entry: a layer object, or bare state (a tensor, or an empty
    list where ``MiniMaxCache`` has no state for a softmax-attention layer). A tensor object reached
    twice is held once (DeepSeek-V4's compressed layers set ``self.values = self.keys``: one K = V
    tensor) and counted once."""
    if isinstance(layer, torch.Tensor | list | tuple | dict):
        return sum(nbytes(tensor) for _, tensor in tensors_in(layer, where))
    total = 0
    counted: set[int] = set()
    for name, value in vars(layer).items():
        for path, tensor in tensors_in(value, f"{where}.{name}"):
            if name in CACHE_DATA:
                total += 0 if id(tensor) in counted else nbytes(tensor)
                counted.add(id(tensor))
            elif name not in BOOKKEEPING:
                raise UnaccountedTensor(f"{path}: {tuple(tensor.shape)} {tensor.dtype} is not a known state")
            elif tensor.dim() != 0:
                raise UnaccountedTensor(f"{path}: bookkeeping tensor with shape {tuple(tensor.shape)}")
    return total


def cache_bytes(cache: Any, num_layers: int) -> list[int]:
    """Bytes held for each of the model's ``num_layers`` layers; a layer with no entry holds 0.

    A decoder-only model that transformers hands an ``EncoderDecoderCache`` (MusicGen Melody's decoder)
    is measured by its self-attention half, and the cross-attention half must hold nothing.
    """
    cross = getattr(cache, "cross_attention_cache", None)
    if cross is not None:
        for path, tensor in tensors_in(cross, "cross_attention_cache"):
            raise UnaccountedTensor(
                f"{path}: {tuple(tensor.shape)} in a decoder-only model's cross-attention"
            )
        cache = cache.self_attention_cache
    per_layer = [0] * num_layers
    for name, value in vars(cache).items():
        if name not in PER_LAYER_LISTS:
            for path, tensor in tensors_in(value, name):
                if name not in CACHE_BOOKKEEPING:
                    raise UnaccountedTensor(f"{path}: {tuple(tensor.shape)} is not under a layer")
                if tensor.numel() != 1:
                    raise UnaccountedTensor(f"{path}: bookkeeping tensor with shape {tuple(tensor.shape)}")
            continue
        if len(value) > num_layers:
            raise UnaccountedTensor(f"{name} has {len(value)} entries for {num_layers} layers")
        for index, entry in value.items() if isinstance(value, dict) else enumerate(value):
            per_layer[index] += layer_bytes(entry, f"{name}[{index}]")
    return per_layer


def halves_bytes(cache: Any, layers: list[int], num_layers: int) -> list[int]:
    """Bytes per layer of an ``EncoderDecoderCache`` whose halves both hold the model's own layers (BLT:
    the self-attention half the local encoder's, the cross-attention half the local decoder's), laid
    onto ``layers``, the model's layers that keep a cache, in order: the first half's entries, then the
    second's. The cache object holds no other tensor."""
    halves = ("self_attention_cache", "cross_attention_cache")
    for name, value in vars(cache).items():
        for path, tensor in tensors_in(value, name) if name not in halves else ():
            raise UnaccountedTensor(f"{path}: {tuple(tensor.shape)} is not in either half")
    held = [
        entry
        for name in halves
        for entry in cache_bytes(getattr(cache, name), len(getattr(cache, name).layers))
    ]
    if len(held) != len(layers):
        raise UnaccountedTensor(f"the halves hold {len(held)} layers, the model caches {len(layers)}")
    per_layer = [0] * num_layers
    for layer, size in zip(layers, held, strict=True):
        per_layer[layer] = size
    return per_layer


def returned_state_bytes(state: list[torch.Tensor], num_layers: int) -> list[int]:
    """Bytes of each layer's share of a state returned in place of a cache object: RWKV's
    ``RwkvOutput.state``, tensors shaped ``(batch, channels, layers)`` with the layer last."""
    per_layer = [0] * num_layers
    for index, tensor in enumerate(state):
        if tensor.dim() != 3 or tensor.shape[-1] != num_layers:
            raise UnaccountedTensor(f"state[{index}]: {tuple(tensor.shape)} is not (batch, channels, layers)")
        for layer in range(num_layers):
            per_layer[layer] += nbytes(tensor[..., layer])
    return per_layer


def returned_mems_bytes(mems: list[torch.Tensor], num_layers: int) -> list[int]:
    """Bytes of each layer's ``mems``, returned in place of a cache object: XLNet's
    ``XLNetModelOutput.mems``, one ``(tokens, batch, d_model)`` tensor per layer, in layer order."""
    if len(mems) != num_layers:
        raise UnaccountedTensor(f"mems has {len(mems)} entries for {num_layers} layers")
    for index, tensor in enumerate(mems):
        if tensor.dim() != 3:
            raise UnaccountedTensor(f"mems[{index}]: {tuple(tensor.shape)} is not (tokens, batch, d_model)")
    return [nbytes(tensor) for tensor in mems]


def buckets_and_states_bytes(cache: Any, num_layers: int) -> list[int]:
    """Bytes of each layer's entries in a ``ReformerDynamicCache`` (``modeling_reformer.py``): its
    ``states_cache`` (each layer's input hidden states) and ``buckets_cache`` (an LSH layer's hash
    buckets). ``update`` appends an empty tensor to ``buckets_cache`` at every call of a local layer, so
    entries past the layers must be empty; its token count is an int."""
    for name, value in vars(cache).items():
        for path, tensor in tensors_in(value, name) if name not in ("states_cache", "buckets_cache") else ():
            raise UnaccountedTensor(f"{path}: {tuple(tensor.shape)} is not a cached state")
    if len(cache.states_cache) != num_layers:
        raise UnaccountedTensor(f"states_cache has {len(cache.states_cache)} entries for {num_layers} layers")
    per_layer = [nbytes(states) for states in cache.states_cache]
    for index, buckets in enumerate(cache.buckets_cache):
        if index < num_layers:
            per_layer[index] += nbytes(buckets)
        elif buckets.numel():
            raise UnaccountedTensor(f"buckets_cache[{index}]: {tuple(buckets.shape)} past the layers")
    return per_layer


def module_bytes(model: torch.nn.Module, num_layers: int) -> list[int]:
    """Bytes of the state the model's own modules keep (:data:`MODULE_STATE`), by the layer each module
    belongs to (``...layers.<i>....`` in its name)."""
    per_layer = [0] * num_layers
    for name, module in model.named_modules():
        for attribute in sorted(MODULE_STATE & vars(module).keys()):
            for path, tensor in tensors_in(vars(module)[attribute], f"{name}.{attribute}"):
                layer = re.search(r"(?:^|\.)layers\.(\d+)\.", path)
                if layer is None or int(layer[1]) >= num_layers:
                    raise UnaccountedTensor(f"{path}: {tuple(tensor.shape)} is not under a layer")
                per_layer[int(layer[1])] += nbytes(tensor)
    return per_layer
