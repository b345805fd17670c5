"""Bytes per element of every numeric format a cache can be stored in, exactly.

Plain formats cost a whole number of bytes per value (fp32 4, bf16 / fp16 2, fp8 / int8 1) or a simple
fraction (int4 / fp4 ½). Block formats store a group of values with a shared scale, and the scale is part
of the price: llama.cpp's ``q8_0`` keeps 32 int8 values and one fp16 scale in 34 bytes, so one value
costs 34/32 bytes, not 1. Every size is a :class:`~fractions.Fraction` so that a per-token total stays
exact; rounding happens only where bytes are finally counted.

Per-tensor scales (one fp32 for a whole fp8 or NVFP4 tensor) are not counted: they do not grow with
tokens and amount to a few bytes per layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property


class UnknownDtypeError(ValueError):
    """A dtype name the engine does not know; the message lists the known ones."""


@dataclass(frozen=True)
class DType:
    """One storage format: ``block_bytes`` bytes hold ``block_values`` values (1 and n for plain types)."""

    name: str
    block_values: int
    block_bytes: Fraction
    source: str

    @cached_property
    def bytes_per_element(self) -> Fraction:
        """Bytes one value costs, scale overhead included (worked out once per format)."""
        return self.block_bytes / self.block_values

    @property
    def is_block_format(self) -> bool:
        """True when values are stored in groups that share a scale."""
        return self.block_values > 1

    def row_bytes(self, elements: int) -> Fraction:
        """Bytes of a row of ``elements`` values: ``elements / block_values × block_bytes``.

        For a block format this is exact only when the row is a whole number of blocks, which is what
        ggml's ``ggml_row_size`` requires; callers that need whole blocks check :meth:`fits`.
        """
        return elements * self.bytes_per_element

    def fits(self, elements: int) -> bool:
        """True when a row of ``elements`` values is a whole number of blocks."""
        return elements % self.block_values == 0


_GGML = "ggml-org/llama.cpp ggml/src/ggml-common.h"

_TABLE: tuple[DType, ...] = (
    DType("fp32", 1, Fraction(4), "IEEE 754 binary32"),
    DType("bf16", 1, Fraction(2), "bfloat16: 1 sign, 8 exponent, 7 mantissa bits"),
    DType("fp16", 1, Fraction(2), "IEEE 754 binary16"),
    DType("fp8", 1, Fraction(1), "8-bit float (OCP FP8, E4M3 unless stated)"),
    DType("fp8_e4m3", 1, Fraction(1), "OCP FP8 E4M3"),
    DType("fp8_e5m2", 1, Fraction(1), "OCP FP8 E5M2"),
    DType("int8", 1, Fraction(1), "8-bit integer"),
    DType("int4", 2, Fraction(1), "4-bit integer, two per byte"),
    DType("fp4", 2, Fraction(1), "4-bit float E2M1, two per byte"),
    # NVFP4: 16 E2M1 values (8 bytes) share one E4M3 scale (1 byte). ggml's block_nvfp4 stores the same
    # ratio as 64 values in 36 bytes (four 1-byte UE4M3 scales + 32 bytes of nibbles).
    DType("nvfp4", 16, Fraction(9), f"NVIDIA NVFP4 (16 values + 1 FP8 scale); {_GGML} block_nvfp4"),
    # MXFP4 (OCP Microscaling v1.0): 32 E2M1 values share one E8M0 scale; ggml's block_mxfp4 is
    # { uint8_t e; uint8_t qs[QK_MXFP4/2]; } with QK_MXFP4 = 32, i.e. 17 bytes per 32 values.
    DType("mxfp4", 32, Fraction(17), f"OCP MX v1.0 MXFP4; {_GGML} block_mxfp4"),
    # block_q8_0 = { ggml_half d; int8_t qs[32]; }: 2 + 32 = 34 bytes per 32 values.
    DType("q8_0", 32, Fraction(34), f"{_GGML} block_q8_0"),
    # block_q4_0 = { ggml_half d; uint8_t qs[16]; }: 2 + 16 = 18 bytes per 32 values.
    DType("q4_0", 32, Fraction(18), f"{_GGML} block_q4_0"),
    # block_q4_K: 2 halves + 12 scale bytes + 128 nibble bytes = 144 bytes per QK_K = 256 values.
    DType("q4_k", 256, Fraction(144), f"{_GGML} block_q4_K"),
    # block_q5_K: 2 halves + 12 scale bytes + 32 high-bit bytes + 128 nibble bytes = 176 per 256.
    DType("q5_k", 256, Fraction(176), f"{_GGML} block_q5_K"),
    # block_q6_K: 128 low-nibble + 64 high-bit + 16 scale bytes + 1 half = 210 per 256.
    DType("q6_k", 256, Fraction(210), f"{_GGML} block_q6_K"),
)

DTYPES: dict[str, DType] = {d.name: d for d in _TABLE}
"""Every known storage format by its canonical name (the names records use)."""

ALIASES: dict[str, str] = {
    "float32": "fp32",
    "f32": "fp32",
    "bfloat16": "bf16",
    "float16": "fp16",
    "f16": "fp16",
    "half": "fp16",
    "float8_e4m3fn": "fp8_e4m3",
    "fp8_e4m3fn": "fp8_e4m3",
    "float8_e5m2": "fp8_e5m2",
}
"""Spellings used by configs and engines (torch, ggml) for the canonical names."""

INT64 = DType("int64", 1, Fraction(8), "64-bit signed integer (torch.long)")
"""The dtype of token ids and position ids a cache keeps. Not a format a KV cache or a state is asked
for in, so not in :data:`DTYPES`: a state of token ids is int64 whatever the formats asked."""

FLOAT_DTYPES = frozenset({"fp32", "bf16", "fp16"})
"""Unquantized formats: a cache in one of these is stored as the model computes it."""


def model_dtype_of(weights: str | None) -> str | None:
    """The model's (activation) dtype told by its weights' format: unquantized weights are computed
    in their own format; quantized ones (fp8, int4, ...) say nothing about it, so None."""
    return weights if weights in FLOAT_DTYPES else None


def get_dtype(name: str) -> DType:
    """The format called ``name`` (canonical or alias, case-insensitive); unknown names raise."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    try:
        return DTYPES[key]
    except KeyError:
        known = ", ".join(sorted(DTYPES))
        raise UnknownDtypeError(f"unknown dtype {name!r}; known dtypes: {known}") from None


def canonical_dtype(name: str) -> str:
    """The canonical name of ``name`` (``"bfloat16"`` → ``"bf16"``)."""
    return get_dtype(name).name


def bytes_per_element(name: str) -> Fraction:
    """Bytes one value costs in format ``name``, block scales included (``q8_0`` → 17/16)."""
    return get_dtype(name).bytes_per_element
