"""``registry fit``: does a model fit on hardware, at a context and batch, with the derivation.

The answer is :func:`registry.results.fit.fit`'s, the one the model pages' hardware table reads too;
this module loads the two records, names the formats, and renders the answer as text or JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from registry.checker.pipeline import load_record
from registry.engine.dtypes import canonical_dtype
from registry.engine.units import format_int
from registry.ids import record_id
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Hardware, Model
from registry.results.fit import Fit, FitSettings, fit, hardware_bytes, weight_bytes
from registry.results.geometry import model_dtype
from registry.results.weights import WeightsFormat, published_weights


@dataclass(frozen=True)
class FitQuestion:
    """What ``registry fit`` is asked: a model on ``count`` units of a hardware record."""

    model: str
    hardware: str
    count: int = 1
    context_tokens: int = 128 * 1024
    batch: int = 1
    weights: str | None = None
    """The weights' format; None: the one the model's config publishes them in."""
    kv_dtype: str = "bf16"
    state_dtype: str | None = None
    engine_layout: str = "vllm"


@dataclass(frozen=True)
class FitReport:
    """The answer and the records it was worked out from."""

    model_id: str
    hardware_id: str
    question: FitQuestion
    weights: WeightsFormat
    """The weights' format the answer assumes, and where it came from."""
    fit: Fit
    header: tuple[str, ...]


def fit_model(root: Path, question: FitQuestion) -> FitReport:
    """Load the model and hardware records of the registry at ``root`` and answer ``question``."""
    model = load_record(root, record_id(question.model, "models"), Model)
    hardware = load_record(root, record_id(question.hardware, "hardware"), Hardware)
    weights_format = (
        published_weights(model.config)
        if question.weights is None
        else WeightsFormat(canonical_dtype(question.weights), "asked with --weights")
    )
    weights = weight_bytes(model.params_total_b, weights_format.dtype)
    settings = FitSettings(
        kv_dtype=question.kv_dtype,
        state_dtype=question.state_dtype,
        model_dtype=model_dtype(model.config or {}, question.weights),
        engine_layout=question.engine_layout,
    )
    answer = fit(
        model_layer_groups(model),
        memory_bytes=hardware_bytes(hardware, question.count),
        weights=weights,
        context_tokens=question.context_tokens,
        batch=question.batch,
        settings=settings,
        max_context=model.max_context_tokens,
    )
    units = f"{format_int(question.count)} × " if question.count > 1 else ""
    header = (
        f"{model.id} on {units}{hardware.id} ({_unit(hardware)})",
        f"KV cache {settings.kv_dtype}, state {settings.state_dtype or 'as the engine keeps it'}, "
        f"laid out as {settings.engine_layout} lays it out",
        "weights: "
        + (
            "the record states no parameter count"
            if model.params_total_b is None
            else f"{model.params_total_b:g} B parameters × {weights_format.dtype} "
            f"({weights_format.source}"
            + ("; name another with --weights)" if question.weights is None else ")")
        ),
    )
    return FitReport(model.id, hardware.id, question, weights_format, answer, header)


def _unit(hardware: Hardware) -> str:
    per_device = f"{hardware.memory_per_device} per device"
    return per_device if hardware.devices == 1 else f"{hardware.devices} devices a unit, {per_device}"


NOT_SUBTRACTED = (
    "Activations, the engine's own reserve and fragmentation are not subtracted: every answer is an "
    "upper bound."
)


def as_text(report: FitReport) -> str:
    """The question, the derivation line by line, and the verdict."""
    answer = report.fit
    lines = [*report.header, "", *answer.trace]
    if answer.problem is not None:
        lines += ["", f"cache: not computable ({answer.problem})"]
    lines += ["", NOT_SUBTRACTED]
    return "\n".join(lines) + "\n"


def as_json(report: FitReport) -> dict[str, Any]:
    """The documented JSON shape of an answer (exact integers in bytes and tokens)."""
    answer = report.fit
    question = report.question
    return {
        "model": report.model_id,
        "hardware": report.hardware_id,
        "count": question.count,
        "weights_dtype": report.weights.dtype,
        "weights_source": report.weights.source,
        "kv_dtype": question.kv_dtype,
        "state_dtype": question.state_dtype,
        "layout": question.engine_layout,
        "context_tokens": answer.context_tokens,
        "batch": answer.batch,
        "memory_bytes": answer.memory_bytes,
        "weight_bytes": answer.weight_bytes,
        "room_bytes": answer.room,
        "cache_bytes": answer.cache_bytes,
        "fits": answer.fits,
        "largest_batch": answer.largest_batch,
        "longest_context": answer.longest_context,
        "context_limit": answer.context_limit or None,
        "problem": answer.problem,
        "trace": list(answer.trace),
    }
