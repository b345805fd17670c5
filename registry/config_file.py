"""A model's ``config.json``, read for ``calc --config`` and ``import-config``: with a record's bounds
(:mod:`registry.reading`) and its attention geometry checked, so that no number is computed from heads
that cannot exist."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from registry.checker.limits import MAX_FILE_BYTES
from registry.reading import UnsafeFile, load_json, read_regular


def read_config(path: Path) -> dict[str, Any]:
    """The JSON object in the config file at ``path``, in its published key order.

    Refused (:class:`registry.reading.UnsafeFile`, one line): anything but a regular file of at most
    :data:`registry.checker.limits.MAX_FILE_BYTES`, JSON that is not an object, nests past 64 levels, names
    a key twice or holds an integer of more than 100 digits or a number that is not finite, and a
    geometry whose key-value heads do not divide its attention heads."""
    data = load_json(read_regular(path, MAX_FILE_BYTES), path)
    if not isinstance(data, dict):
        raise UnsafeFile(f"{path} holds a JSON {type(data).__name__}; a config.json holds an object")
    problem = geometry_problem(data)
    if problem:
        raise UnsafeFile(f"{path}: {problem}")
    return data


def geometry_problem(config: dict[str, Any]) -> str | None:
    """Why the attention heads of ``config`` (or of a config nested in it, such as ``text_config``)
    cannot exist, or ``None``: grouped-query attention shares each key-value head among a whole number of
    query heads, so ``num_key_value_heads`` is positive and divides ``num_attention_heads``."""
    stack: list[Any] = [config]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        if not isinstance(value, dict):
            continue
        stack.extend(value.values())
        heads, kv_heads = value.get("num_attention_heads"), value.get("num_key_value_heads")
        if (
            not (isinstance(heads, int) and isinstance(kv_heads, int))
            or isinstance(heads, bool)
            or isinstance(kv_heads, bool)
        ):
            continue
        if heads < 1 or kv_heads < 1:
            return f"num_attention_heads {heads} and num_key_value_heads {kv_heads} must be at least 1"
        if kv_heads > heads or heads % kv_heads:
            return (
                f"num_key_value_heads {kv_heads} does not divide num_attention_heads {heads}; each key-value "
                "head serves a whole number of attention heads"
            )
    return None
