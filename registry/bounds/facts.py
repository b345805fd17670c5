"""What the bounds are computed from, as plain values: the model, the hardware's parts, the run's
precisions, workload and load, and the figures it states, each figure already in SI units.

The results stage reads these from the records (and the engine's cache figure); the bounds never see a
record, a file or pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from registry.engine.dtypes import get_dtype
from registry.engine.layers import LayerGroups


@dataclass(frozen=True, slots=True)
class ModelFacts:
    """The model the run served: its active parameters and its attention geometry."""

    id: str
    params_active: Fraction | None
    """Parameters one token passes through (``params_active_b`` x 10^9; the total for a dense model)."""
    params_total: Fraction | None = None
    """Every parameter the model holds (``params_total_b`` x 10^9): what the memory keeps resident."""
    params_counted: bool = False
    """The parameter counts are a lower bound counted from the config: the record states none."""
    untied_embedding: int | None = None
    """Parameters of an input embedding table stated untied from the output head (``vocab_size x
    hidden_size``): a token looks one row up, so the table is neither multiplied nor read in full."""
    layout: LayerGroups | None = None
    fields: Mapping[str, int | float] = field(default_factory=dict)
    """The config's numeric fields; ``num_attention_heads`` sizes full attention's query heads."""
    unbound: str | None = None
    """Why the record's model does not bind the run though its counts are known (an MLPerf Open
    division run may change the model); the bounds that read the model say this instead."""

    def missing(self, count: str) -> str:
        """Why a parameter count is not there to bound the run: ``count`` names it."""
        return self.unbound or f"{self.id} states no {count}"


@dataclass(frozen=True, slots=True)
class Part:
    """Accelerators of one kind in the run's system, with their datasheet figures per device."""

    hardware: str
    """The hardware record's id."""
    name: str
    count: int
    peaks: Mapping[str, Fraction]
    """Dense peak FLOP/s of one device, by numeric format (``fp4``, ``fp8``, ``bf16``, ...)."""
    bandwidth: Fraction | None
    """Memory bandwidth of one device, bytes per second."""
    memory: Fraction | None = None
    """Memory capacity of one device, bytes."""
    memory_unbound: str | None = None
    """Why the device's own memory does not limit what a run holds (it reads its host's coherently)."""


@dataclass(frozen=True, slots=True)
class Figure:
    """One of the record's metrics: its position in ``metrics``, what it is, and its value in SI units
    (tokens/s, requests/s, seconds)."""

    position: int
    metric: str
    statistic: str
    per: str
    value: Fraction
    text: str


@dataclass(frozen=True, slots=True)
class RunFacts:
    """A benchmark run as the bounds read it."""

    id: str
    model: ModelFacts
    parts: tuple[Part, ...]
    weights: tuple[str, ...]
    """The weight formats the run states (``precision.weights``, else ``weight_formats``)."""
    activations: str | None
    kv_dtype: str | None
    scenario: str | None
    concurrency: int | None
    """Sequences in flight: the workload's or the sweep point's concurrency, 1 for single-stream."""
    input_tokens: int | None
    output_tokens: int | None
    lengths: str | None
    """``fixed``, ``mean`` or ``max``: how the workload's token counts hold; None when unstated."""
    prefix_cache: str
    speculative: bool
    draft_tokens: int | None
    kv_bytes: Fraction | None
    """One sequence's cache at ``input_tokens`` in the run's KV format (the engine's ideal layout, the
    least any engine keeps); None when it cannot be computed."""
    kv_reason: str | None
    """Why ``kv_bytes`` is None."""
    figures: tuple[Figure, ...]
    hardware_reason: str | None = None
    """Why ``parts`` is empty when the run names hardware: its record is missing or does not load."""
    disaggregated: bool = False
    """Prefill and decode on separate accelerators: a per-accelerator figure may count one pool only."""
    output_cap: int | None = None
    """The most output tokens any request may generate (``workload.max_output_tokens``)."""
    mean_output_tokens: Fraction | None = None
    """The run's mean output length per request where the workload states none of its own: an MLPerf
    submission's accuracy report (``tokens_per_sample``)."""
    output_source: str | None = None
    """Where ``mean_output_tokens`` was read, for the derivation."""
    end_kv_bytes: Fraction | None = None
    """One sequence's cache (ideal layout) at its last decode step, ``input + output - 1`` tokens, with
    fixed lengths; None otherwise."""
    synthetic_prompts: bool = False
    """The workload's dataset is synthetic (random token ids), whose prompts share no cache block."""
    kv_assumed: str | None = None
    """The format ``kv_bytes`` is counted in when the run states none: the narrowest the engine knows."""
    weights_assumed: str | None = None
    """The format the weights are counted in when the stated ones may be the checkpoint the run started
    from (it may have quantized them): the narrowest any engine serves; the compute is then counted at
    each part's fastest dense peak."""
    weights_reason: str | None = None
    """Why ``weights_assumed`` is set, for the derivation."""
    engine_kv_bytes: Fraction | None = None
    """One sequence's cache at ``input_tokens`` under the run's own engine layout (block rounding and
    all), which the memory holds for each sequence; None when it cannot be computed."""

    @property
    def kv_note(self) -> str:
        """What a cache line says of the cache's format when the run states none."""
        if self.kv_assumed is None:
            return ""
        return (
            f" (KV format not stated: counted at {self.kv_assumed}, the narrowest format the engine knows, "
            "so no engine's cache is smaller)"
        )

    def narrowest_weights(self) -> tuple[str, str]:
        """The weight format the bytes are counted in (the narrowest stated, or ``weights_assumed``) and
        what a derivation says of it."""
        if self.weights_assumed is not None:
            stated = "/".join(self.weights)
            return (
                self.weights_assumed,
                f"stated {stated}, counted at {self.weights_assumed}: {self.weights_reason}",
            )
        return min(self.weights, key=lambda name: get_dtype(name).bytes_per_element), ""

    @property
    def accelerators(self) -> int:
        return sum(part.count for part in self.parts)

    @property
    def no_hardware(self) -> str:
        """Why the run has no parts to bound it with."""
        return self.hardware_reason or "the run names no hardware"
