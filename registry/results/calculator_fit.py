"""What a model page's calculator needs to answer as ``registry fit`` does, beside the cache it counts.

``registry fit`` (:func:`registry.results.fit.fit`) sets the cache of a batch beside the model's weights
in the memory of some units of a hardware record. The page's script counts the cache from the terms of
:mod:`registry.results.calculator`; to answer the fit it needs, worked out here once, as the command
works them out:

- each hardware record's memory: its name, its devices a unit and the exact bytes of one device
  (:class:`HardwareUnit`), so that ``⌊count × devices × bytes per device⌋`` is
  :func:`~registry.results.fit.hardware_bytes` for any count the reader types;
- the weights in each format the page offers (:data:`WEIGHTS_FORMATS`, after the one the config
  publishes them in, which ``registry fit`` takes when no ``--weights`` is given): their bytes
  (:func:`~registry.results.fit.weight_bytes`) and the dtype the model then computes in, which is what
  engines keep some recurrent state in (:func:`~registry.results.geometry.model_dtype`); where that
  changes the cache, the terms under it (:func:`fit_data`'s ``variants``);
- the model's maximum context, which bounds the longest context the fit gives, and past which the page
  says the context is beyond the model.

Nothing else is subtracted from the memory (activations, the engine's reserve): as ``registry fit``,
every answer is an upper bound.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from registry.engine.layers import LayerGroups, Recurrent, parts_of
from registry.engine.units import parse_quantity
from registry.kinds.records import Hardware, Model
from registry.results.calculator import Choice, as_data, choices
from registry.results.fit import weight_bytes
from registry.results.geometry import model_dtype
from registry.results.weights import published_weights

WEIGHTS_FORMATS: tuple[str, ...] = (
    "bf16",
    "fp16",
    "fp8",
    "int8",
    "nvfp4",
    "mxfp4",
    "int4",
    "q8_0",
    "q6_k",
    "q5_k",
    "q4_k",
    "q4_0",
)
"""The weights' formats the page offers beside the published one: the unquantized checkpoints, the
serving engines' fp8 and 4-bit block formats, integer checkpoints (GPTQ, AWQ) and llama.cpp's GGUF
types. ``registry fit --weights`` takes any format the engine knows; these are the ones checkpoints
are published in."""


@dataclass(frozen=True)
class HardwareUnit:
    """One hardware record as the fit counts its memory."""

    id: str
    name: str
    label: str
    """The memory of a unit as the datasheet writes it: ``80 GB``, or ``72 × 192 GB`` for a rack."""
    devices: int
    device_bytes: Fraction
    """One device's memory in bytes, exactly as :func:`~registry.engine.units.parse_quantity` reads it."""

    def memory(self, count: int = 1) -> int:
        """``⌊count × devices × bytes per device⌋``: :func:`~registry.results.fit.hardware_bytes`."""
        return math.floor(count * self.devices * self.device_bytes)


def hardware_units(records: Iterable[Hardware]) -> tuple[HardwareUnit, ...]:
    """Every hardware record's unit, by name (then id), as the page's list offers them."""
    units = [
        HardwareUnit(
            hardware.id,
            hardware.name,
            hardware.memory_per_device
            if hardware.devices == 1
            else f"{hardware.devices:,} × {hardware.memory_per_device}",
            hardware.devices,
            parse_quantity(hardware.memory_per_device).value,
        )
        for hardware in records
    ]
    return tuple(sorted(units, key=lambda unit: (unit.name.casefold(), unit.id)))


@dataclass(frozen=True)
class WeightsChoice:
    """One weights format the page offers, as ``registry fit`` counts it."""

    option: str
    """What ``--weights`` is given: "" for none (the published format)."""
    dtype: str
    weight_bytes: int | None
    """None when the record states no parameter count: the weights are then not subtracted."""
    model_dtype: str | None
    """The dtype the model computes in under this choice (what some engines keep state in)."""
    says: str
    """The weights in words, as ``registry fit``'s header gives them."""


def weights_choices(model: Model) -> tuple[WeightsChoice, ...]:
    """The published format first (no ``--weights``), then each of :data:`WEIGHTS_FORMATS` that gives
    another answer: the published format asked by name is left out when it changes nothing."""
    config = model.config or {}
    published = published_weights(model.config)
    first = _choice(model, "", published.dtype, model_dtype(config, None), f"({published.source})")
    found = [first]
    for dtype in WEIGHTS_FORMATS:
        told = model_dtype(config, dtype)
        if (dtype, told) != (first.dtype, first.model_dtype):
            found.append(_choice(model, dtype, dtype, told, "(the format chosen above)"))
    return tuple(found)


def _choice(model: Model, option: str, dtype: str, told: str | None, source: str) -> WeightsChoice:
    params = model.params_total_b
    says = (
        "the record states no parameter count, so the weights are not subtracted"
        if params is None
        else f"{params:g} B parameters × {dtype} {source}"
    )
    return WeightsChoice(option, dtype, weight_bytes(params, dtype), told, says)


def fit_data(model: Model, layout: LayerGroups, units: Iterable[HardwareUnit]) -> dict[str, Any]:
    """The fit's part of the calculator's data, as plain values for JSON (bytes as strings, exact at
    any size): ``hardware`` by id, ``weights`` by option (each naming its ``variant``, or None for the
    page's own cache), ``variants`` (the layouts, as :func:`~registry.results.calculator.as_data` gives
    them, under each model dtype a weights choice computes in whose cache differs from the page's and
    from the variants before it) and ``model_max`` (the model's maximum context, or None)."""
    base = model_dtype(model.config or {}, None)
    weights: dict[str, dict[str, Any]] = {}
    variants: dict[str, Any] = {}
    # each distinct cache once, under the first dtype that gives it (None: the page's own)
    seen: dict[tuple[Choice, ...], str | None] = {choices(layout, base): None} if _keeps_state(layout) else {}
    for choice in weights_choices(model):
        variant = (
            seen.setdefault(choices(layout, choice.model_dtype), choice.model_dtype)
            if seen and choice.model_dtype != base
            else None
        )
        if variant is not None and variant not in variants:
            variants[variant] = as_data(layout, variant)["layouts"]
        weights[choice.option] = {
            "dtype": choice.dtype,
            "bytes": None if choice.weight_bytes is None else str(choice.weight_bytes),
            "says": choice.says,
            "variant": variant,
        }
    hardware = {
        unit.id: {"name": unit.name, "devices": unit.devices, "device_bytes": _exact(unit.device_bytes)}
        for unit in units
    }
    return {
        "hardware": hardware,
        "weights": weights,
        "variants": variants,
        "model_max": model.max_context_tokens,
    }


def _keeps_state(layout: LayerGroups) -> bool:
    """Whether any layer keeps a recurrent state: the one part of a cache engines keep in the model
    dtype (``registry.engine.engines.ideal.model_dtype``), so the only one a weights format can change.
    Without one, no other format's cache is worked out (the tests hold every model to the full
    comparison)."""
    return any(isinstance(part, Recurrent) for group in layout.groups for part in parts_of(group.mechanism))


def _exact(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


__all__ = [
    "WEIGHTS_FORMATS",
    "HardwareUnit",
    "WeightsChoice",
    "fit_data",
    "hardware_units",
    "weights_choices",
]
