"""The ``engine`` and ``hardware`` kinds: what a run is served with and runs on."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from registry.engine.units import Dimension
from registry.kinds.fields import (
    LAYOUT_PATTERN,
    Envelope,
    Reason,
    ShortText,
    Strict,
    Url,
    check_quantity,
    measured_validator,
    quantity_schema,
)


class Capability(Strict):
    supported: bool | None = Field(description="null when no source says either way.")
    since: ShortText | None = Field(default=None, description="The version that introduced it.")
    detail: Annotated[str, Field(max_length=2000)] | None = None
    source: Url | None = None


class Engine(Envelope):
    """A serving engine or library, and which cache mechanisms it handles natively."""

    schema_version: Literal[1] = Field(description="The version of the record format.")
    kind: Literal["engine"]
    name: ShortText
    repository: ShortText
    version: ShortText = Field(description="The release the capabilities were read at.")
    layout: Annotated[str, Field(pattern=LAYOUT_PATTERN)] | None = Field(
        default=None, description="The engine layout key the formula engine uses for it, if any."
    )
    capabilities: dict[
        Literal[
            "mla_decode",
            "fp8_kv",
            "sliding_window",
            "hybrid_state",
            "prefix_caching",
            "paged_kv",
            "quantized_kv",
        ],
        Capability,
    ] = Field(default_factory=dict)


ComputeDtype = Literal["fp4", "nvfp4", "mxfp4", "fp6", "fp8", "int8", "int4", "bf16", "fp16", "tf32", "fp32"]
"""The formats a datasheet gives a peak for, named as the engine names dtypes (tf32: fp32 inputs on
tensor cores; fp6: the 6-bit float formats AMD and NVIDIA list beside fp4 and fp8)."""

COMPUTE_DTYPES: tuple[str, ...] = get_args(ComputeDtype)
"""The keys ``peak_dense_flops_per_device`` and ``peak_sparse_flops_per_device`` may hold, in the order
the schema lists them."""


def by_format(mapping: Mapping[ComputeDtype, str]) -> dict[str, str]:
    """A mapping by format (peaks, reasons) with plain-string keys, for code that looks formats up by name."""
    return {str(name): value for name, value in mapping.items()}


PeakFlops = Annotated[
    str,
    AfterValidator(lambda value: check_quantity(value, (Dimension.FLOPS,), "a peak compute figure")),
    Field(json_schema_extra=quantity_schema(Dimension.FLOPS)),
]


def _named_keys(what: str) -> Any:
    """The schema of a mapping by format as one property per format and no others, so that an unknown
    format is an unknown field (S002, with the nearest name) at its own key, as in any other mapping of
    the record; ``what`` says what each format's value is ("Peak dense fp8 compute of one device.")."""

    def named(schema: dict[str, Any]) -> None:
        value = schema.pop("additionalProperties")
        schema.pop("propertyNames", None)
        schema["properties"] = {name: {**value, "description": what.format(name)} for name in COMPUTE_DTYPES}
        schema["additionalProperties"] = False

    return named


INTEGER_FORMATS = frozenset({"int8", "int4"})
"""Formats whose peaks are integer operations, written in TOPS as datasheets write them."""


class PeakFromClock(Strict):
    """A part's dense peaks as its vendor defines them, from the figures the vendor gives for it: compute
    units times the peak clock times the operations one unit's matrix instructions complete each clock.
    AMD's ROCm documentation tabulates the third per architecture and derives each CDNA peak this way;
    a part whose own peaks no source at hand prints, but whose units and clock its vendor states, gets
    the same figures by the same product, computed (never typed)."""

    compute_units: int = Field(
        ge=1, le=1_000_000, description="Compute units of one device, as the vendor states them."
    )
    max_clock_mhz: int = Field(
        ge=1, le=100_000, description="The peak engine clock of one device in MHz, as the vendor states it."
    )
    dense_ops_per_clock_per_unit: dict[ComputeDtype, Annotated[int, Field(ge=1, le=10_000_000)]] = Field(
        min_length=1,
        description="Dense operations (FLOPs, or integer operations) one compute unit completes per clock "
        "in each format, as the vendor tabulates them for the part's architecture, e.g. {fp8: 4096}.",
        json_schema_extra=_named_keys("Dense {} operations one compute unit completes per clock."),
    )

    def peaks(self) -> dict[str, str]:
        """Each format's dense peak of one device, exact, in TFLOP/s (TOPS for integer formats)."""
        return {
            str(name): _tera(self.compute_units * self.max_clock_mhz * 10**6 * rate, str(name))
            for name, rate in self.dense_ops_per_clock_per_unit.items()
        }


def _tera(operations_per_second: int, dtype: str) -> str:
    value = Decimal(operations_per_second).scaleb(-12).normalize()
    unit = "TOPS" if dtype in INTEGER_FORMATS else "TFLOP/s"
    return f"{value:f} {unit}"


class Hardware(Envelope):
    """An accelerator or a system of them, with its memory, bandwidth and peak compute from the vendor's
    datasheet: the inputs of a benchmark's physical bounds."""

    schema_version: Literal[1] = Field(description="The version of the record format.")
    kind: Literal["hardware"]
    name: ShortText
    vendor: ShortText
    devices: int = Field(
        default=1, ge=1, le=1_000_000, description="Accelerators in one unit of this record."
    )
    memory_per_device: str = Field(
        description="As the datasheet writes it, e.g. '80 GB' or '192 GB'.",
        json_schema_extra=quantity_schema(Dimension.BYTES),
    )
    bandwidth_per_device: str | None = Field(
        default=None,
        description="e.g. '3.35 TB/s'.",
        json_schema_extra=quantity_schema(Dimension.BYTES_PER_SECOND),
    )

    peak_dense_flops_per_device: dict[ComputeDtype, PeakFlops] = Field(
        default_factory=dict,
        description="Peak dense compute of one device per format, as the vendor's datasheet gives it, "
        "e.g. {fp8: '1,979 TFLOP/s', int8: '1,979 TOPS'}: the figures the bounds read. Dense, never "
        "with sparsity: where a source prints only figures with 2:4 structured sparsity, the dense one "
        "is half of each, by the vendor's own definition of that sparsity, quoted with its footnote. A "
        "format with no sourced figure is left out.",
        json_schema_extra=_named_keys("Peak dense {} compute of one device."),
    )
    peak_dense_from_clock: PeakFromClock | None = Field(
        default=None,
        description="Where no source prints the part's dense peaks but its vendor states its compute "
        "units, its peak clock and the per-unit rate of its architecture: those, from which the engine "
        "computes each format's dense peak (the product, as AMD derives its CDNA peaks). A format is "
        "either stated in peak_dense_flops_per_device or computed here, never both.",
    )
    peak_sparse_flops_per_device: dict[ComputeDtype, PeakFlops] = Field(
        default_factory=dict,
        description="Peak compute of one device per format with 2:4 structured sparsity, as the vendor "
        "prints it ('with sparsity'), e.g. {fp8: '3,958 TFLOP/s'}. Kept for the reader and for F017, "
        "which warns when a dense figure is one of these; no bound reads it, as no dense model reaches "
        "it. A format the vendor gives no sparse figure for is left out.",
        json_schema_extra=_named_keys("Peak {} compute of one device with 2:4 structured sparsity."),
    )
    peak_dense_confirmed: dict[ComputeDtype, Reason] = Field(
        default_factory=dict,
        description="For a dense figure that F017 takes for a sparse one (twice a sibling format's, or "
        "equal to a sparse figure of the registry) but that the vendor gives as dense: why, in the "
        "source's words (e.g. fp16: 'GeForce parts run FP16 with FP16 accumulate at twice BF16, which "
        "accumulates in FP32 only'). It silences the warning for that format and is shown beside the "
        "figure; a reason for a figure nothing questions is reported, so that it cannot outlive it.",
        json_schema_extra=_named_keys("Why the dense {} figure is dense although F017 questions it."),
    )
    host_memory_coherent: Reason | None = Field(
        default=None,
        description="Where the accelerator reads its host's memory coherently as its own (a Grace Hopper "
        "superchip's GPU reads the Grace CPU's LPDDR5X over NVLink-C2C): how, in the source's words. Its "
        "own memory then does not limit the weights and cache a run holds, so the memory fit and the "
        "decode roof, which count sequences in that memory, are not computed for it, nor the bounds that "
        "read its memory bandwidth (the bandwidth roof and floor): it reads the host's memory beside its own.",
    )
    interconnect_bandwidth_per_device: str | None = Field(
        default=None,
        description="Bandwidth of one device's scale-up links to its peers (NVLink, Infinity Fabric, "
        "...), both directions together as NVIDIA's datasheets state NVLink, e.g. '900 GB/s'. A source "
        "that gives one direction of a full-duplex link gives twice it, said in the notes; a board's sum "
        "alone, or a lower bound ('over 1 TB/s'), leaves it out.",
        json_schema_extra=quantity_schema(Dimension.BYTES_PER_SECOND),
    )

    @field_validator("peak_dense_from_clock")
    @classmethod
    def _peak_stated_or_computed(
        cls, clock: PeakFromClock | None, info: ValidationInfo
    ) -> PeakFromClock | None:
        stated = info.data.get("peak_dense_flops_per_device") or {}
        both = [str(name) for name in (clock.dense_ops_per_clock_per_unit if clock else {}) if name in stated]
        if both:
            raise PydanticCustomError(
                "peak_twice",
                "{formats}: stated in peak_dense_flops_per_device and computed here; keep one (the stated "
                "figure, where a source prints it)",
                {"formats": ", ".join(both)},
            )
        return clock

    def dense_peaks(self) -> dict[str, str]:
        """Each format's dense peak of one device, as stated or as computed from the clock (the figures
        the bounds read), in the schema's order of formats."""
        computed = self.peak_dense_from_clock.peaks() if self.peak_dense_from_clock else {}
        stated = by_format(self.peak_dense_flops_per_device)
        return {
            name: stated.get(name) or computed[name]
            for name in COMPUTE_DTYPES
            if name in stated or name in computed
        }

    _memory = measured_validator((Dimension.BYTES,), "memory_per_device")
    _bandwidth = measured_validator((Dimension.BYTES_PER_SECOND,), "bandwidth_per_device")
    _interconnect = measured_validator((Dimension.BYTES_PER_SECOND,), "interconnect_bandwidth_per_device")
