"""The format a model's weights are published in, read from its config.json, with where it was read.

The memory fit (``registry fit``, the model pages' hardware table) subtracts the weights from the memory,
and a model published in fp8 (DeepSeek-V3) or MXFP4 (gpt-oss) takes a half or about a quarter of what
the same parameters take in bf16. A config says which in ``quantization_config``:

- ``quant_method`` ``fp8`` / ``fp4`` / ``nvfp4`` / ``mxfp4`` names the format itself;
- ``compressed-tensors`` names it per group of layers (``format`` ``mxfp4-pack-quantized``, or the
  weights' ``num_bits`` and ``type``); ModelOpt (``modelopt``) in ``quant_algo``, per layer for a
  mixed-precision checkpoint; GPTQ, AWQ and bitsandbytes in ``bits`` (integers);

and, for an unquantized checkpoint, in ``dtype`` / ``torch_dtype``. A checkpoint mixing formats is
counted at its narrowest one, and layers a quantized checkpoint leaves unquantized
(``modules_to_not_convert``, ``ignore``) in the quantized format too: the fit stays an upper bound.
A config that states nothing is counted in :data:`WEIGHTS_DTYPE`, and the source says so.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from registry.engine.adapters import stated_dtype
from registry.engine.dtypes import FLOAT_DTYPES, UnknownDtypeError, bytes_per_element, canonical_dtype

WEIGHTS_DTYPE = "bf16"
"""The weights' format when the config states none: the format most checkpoints are published in."""

_QUANT_METHODS = {"fp8": "fp8", "fp4": "fp4", "nvfp4": "nvfp4", "mxfp4": "mxfp4"}
"""``quant_method`` values that are themselves the format of every quantized weight."""
_INTEGER_METHODS = frozenset({"gptq", "awq", "bitsandbytes"})
"""Methods that store integers of ``bits`` bits."""
_PACKED_FORMATS = {"mxfp4-pack-quantized": "mxfp4", "nvfp4-pack-quantized": "nvfp4"}
"""compressed-tensors ``format`` values that name a block format."""
_MODELOPT = {"FP8": "fp8", "NVFP4": "nvfp4", "W4A16_NVFP4": "nvfp4", "W4A8_NVFP4_FP8": "nvfp4"}
"""ModelOpt ``quant_algo`` values and the weights' format each stores."""


@dataclass(frozen=True)
class WeightsFormat:
    """The weights' format (a registry dtype name) and where it was read, in words for a reader."""

    dtype: str
    source: str


def published_weights(config: Mapping[str, Any] | None) -> WeightsFormat:
    """The format ``config`` publishes the weights in (module docstring), or :data:`WEIGHTS_DTYPE` with
    a source saying the config states none."""
    if not isinstance(config, Mapping):
        return WeightsFormat(WEIGHTS_DTYPE, f"no config: {WEIGHTS_DTYPE} assumed")
    quantized = _quantized(config)
    if quantized is not None:
        return quantized
    stated = stated_dtype(config)
    try:
        dtype = canonical_dtype(stated) if stated is not None else None
    except UnknownDtypeError:
        dtype = None
    if dtype in FLOAT_DTYPES:
        return WeightsFormat(dtype, f"config.json {_dtype_field(config, stated)} {stated}")
    return WeightsFormat(WEIGHTS_DTYPE, f"the config states no weights format: {WEIGHTS_DTYPE} assumed")


def _dtype_field(config: Mapping[str, Any], stated: str | None) -> str:
    """Which field stated the dtype: ``dtype`` (transformers 5) or ``torch_dtype``."""
    text = config.get("text_config")
    holders = [h for h in (text, config) if isinstance(h, Mapping)]
    return "dtype" if any(h.get("dtype") == stated for h in holders) else "torch_dtype"


def _quantization_config(config: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """``quantization_config`` at the top level, else in ``text_config`` (a multimodal wrapper's)."""
    for holder in (config, config.get("text_config")):
        if isinstance(holder, Mapping) and isinstance(holder.get("quantization_config"), Mapping):
            found: Mapping[str, Any] = holder["quantization_config"]
            return found
    return None


def _quantized(config: Mapping[str, Any]) -> WeightsFormat | None:
    """The format a ``quantization_config`` states, or None when there is none or it is not read here."""
    quantization = _quantization_config(config)
    if quantization is None:
        return None
    method = str(quantization.get("quant_method", "")).lower()
    formats = sorted(set(_formats(method, quantization)), key=bytes_per_element)
    if not formats:
        return None
    where = f"config.json quantization_config (quant_method {method})"
    if len(formats) > 1:
        where += f": mixed {' and '.join(formats)}, counted at the narrowest"
    if quantization.get("modules_to_not_convert") or quantization.get("ignore"):
        where += "; the modules it leaves unquantized are counted in it too"
    return WeightsFormat(formats[0], where)


def _formats(method: str, quantization: Mapping[str, Any]) -> Iterator[str]:
    """Every weights format a ``quantization_config`` names (none when it names none read here)."""
    if method in _QUANT_METHODS:
        yield _QUANT_METHODS[method]
    elif method in _INTEGER_METHODS and quantization.get("bits") in (4, 8):
        yield f"int{quantization['bits']}"
    elif method == "compressed-tensors":
        groups = quantization.get("config_groups")
        for group in groups.values() if isinstance(groups, Mapping) else ():
            if isinstance(group, Mapping):
                yield from _compressed_group(group, quantization.get("format"))
    elif method == "modelopt":
        yield from _modelopt(quantization)


def _compressed_group(group: Mapping[str, Any], default_format: object) -> Iterator[str]:
    """A compressed-tensors group's format: a named block format, else its weights' bits and type."""
    packed = _PACKED_FORMATS.get(str(group.get("format") or default_format))
    if packed is not None:
        yield packed
        return
    weights = group.get("weights")
    if not isinstance(weights, Mapping):
        return
    bits, kind = weights.get("num_bits"), weights.get("type")
    if (bits, kind) == (8, "float"):
        yield "fp8"
    elif bits in (4, 8) and kind == "int":
        yield f"int{bits}"
    elif (bits, kind) == (4, "float"):  # E2M1 in groups: 16 share an fp8 scale (NVFP4), 32 an E8M0 (MXFP4)
        size = weights.get("group_size")
        yield "nvfp4" if size == 16 else "mxfp4" if size == 32 else "fp4"


def _modelopt(quantization: Mapping[str, Any]) -> Iterator[str]:
    """ModelOpt's ``quant_algo``; a ``MIXED_PRECISION`` checkpoint names one per quantized layer."""
    algorithm = _MODELOPT.get(str(quantization.get("quant_algo")))
    if algorithm is not None:
        yield algorithm
    layers = quantization.get("quantized_layers")
    for layer in layers.values() if isinstance(layers, Mapping) else ():
        if isinstance(layer, Mapping) and str(layer.get("quant_algo")) in _MODELOPT:
            yield _MODELOPT[str(layer["quant_algo"])]


__all__ = ["WEIGHTS_DTYPE", "WeightsFormat", "published_weights"]
