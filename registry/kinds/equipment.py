"""The ``engine`` and ``hardware`` kinds: what a run is served with and runs on."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from registry.engine.units import Dimension
from registry.kinds.fields import (
    LAYOUT_PATTERN,
    Envelope,
    ShortText,
    Strict,
    Url,
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


class Hardware(Envelope):
    """An accelerator or a system of them, with its memory from the vendor's datasheet."""

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

    _memory = measured_validator((Dimension.BYTES,), "memory_per_device")
    _bandwidth = measured_validator((Dimension.BYTES_PER_SECOND,), "bandwidth_per_device")
