"""The engine's results as the pages need them, computed once and shared with the database.

The settings (engine layouts, KV dtypes, the 4K / 32K / 128K / 1M ladder) and the memoised computation
are the database's (:mod:`registry.db._engine_results`), so a number on a page and the same number in
the DuckDB file come from one call. Nothing here formats HTML.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from registry.check.index import RegistryIndex
from registry.db._engine_results import (
    CONTEXT_LADDER,
    ENGINE_LAYOUTS,
    KV_DTYPES,
    STANDARD_CONTEXTS,
    cache_ladder,
    cache_result,
    engine_key,
)
from registry.engine.compute import CacheResult, Ladder
from registry.engine.dtypes import bytes_per_element
from registry.engine.layout import Layout
from registry.engine.units import format_bytes, parse_quantity
from registry.kinds.geometry import model_layout_or_error
from registry.kinds.records import Benchmark, Hardware, KvEfficiency, Model

__all__ = [
    "CHART_LAYOUT",
    "CONTEXT_LADDER",
    "ENGINE_LAYOUTS",
    "HEADLINE_CONTEXT",
    "KV_DTYPES",
    "STANDARD_CONTEXTS",
    "ClaimRow",
    "ModelFacts",
    "bytes_text",
    "cache_ladder",
    "cache_result",
    "claim_rows",
    "fits",
    "hardware_bytes",
    "headline_ladder",
    "headline_total",
    "mechanism_class",
    "model_facts",
    "run_result",
]

CHART_LAYOUT = "vllm"
"""The engine layout of the headline chart and the hardware table: the most widely deployed server."""

HEADLINE_CONTEXT = 128 * 1024
"""The standard comparison point: 128K tokens (131,072)."""

MECHANISM_CLASSES = (
    "full attention",
    "local + global attention",
    "MLA",
    "compressed attention",
    "recurrent hybrid",
    "recurrent",
    "no cache",
)
"""The colour classes of the charts, in legend order."""


def mechanism_class(layout: Layout) -> str:
    """One word for how a model's cache grows, from the mechanisms of its layers.

    A recurrent layer next to any attention makes a *recurrent hybrid*; otherwise compressed attention,
    MLA, then local (sliding-window or chunked) layers decide, and plain full attention is what is left.
    """
    kinds = {group.mechanism.kind for group in layout.groups} - {"shared", "no-cache"}
    if "recurrent" in kinds:
        return "recurrent hybrid" if len(kinds) > 1 else "recurrent"
    if "compressed" in kinds:
        return "compressed attention"
    if "mla" in kinds:
        return "MLA"
    if kinds & {"sliding-window", "chunked"}:
        return "local + global attention"
    return "full attention" if kinds else "no cache"


@dataclass(frozen=True)
class ModelFacts:
    """A model's layout (or why it has none) and its headline figures under the chart's layout."""

    layout: Layout | None
    problem: str | None
    mechanism: str | None
    per_token: int | Fraction | None
    at_headline: int | None


def model_facts(model: Model) -> ModelFacts:
    """The model's layout and its bf16 figures under :data:`CHART_LAYOUT` at 128K."""
    layout, problem = model_layout_or_error(model)
    if layout is None:
        return ModelFacts(None, problem, None, None, None)
    ladder = headline_ladder(layout, "bf16")
    if isinstance(ladder, str):
        return ModelFacts(layout, None, mechanism_class(layout), None, None)
    return ModelFacts(layout, None, mechanism_class(layout), ladder.bytes_per_token, headline_total(ladder))


def headline_ladder(layout: Layout, kv_dtype: str) -> Ladder | str:
    """The layout's figures under :data:`CHART_LAYOUT` at the standard contexts: the ladder a model
    page's grid makes, so the headline figures cost nothing more."""
    return cache_ladder(layout, CHART_LAYOUT, kv_dtype, STANDARD_CONTEXTS)


_HEADLINE_RUNG = STANDARD_CONTEXTS.index(HEADLINE_CONTEXT)


def headline_total(ladder: Ladder | str) -> int | None:
    """One sequence's bytes at :data:`HEADLINE_CONTEXT`, from a :func:`headline_ladder`."""
    return None if isinstance(ladder, str) else ladder.total_bytes[_HEADLINE_RUNG]


@lru_cache(maxsize=8192)
def bytes_text(value: int | Fraction) -> str:
    """:func:`registry.engine.units.format_bytes` in its default binary unit, memoised: the pages
    print the same few thousand figures tens of thousands of times (an exact ``Fraction`` and the equal
    ``int`` print alike, so sharing one entry is safe)."""
    return format_bytes(value)


def hardware_bytes(hardware: Hardware) -> int:
    """Memory of one unit of the record: ``devices × memory_per_device``, in bytes as the datasheet
    writes them (80 GB is 80 × 10⁹ B)."""
    return math.floor(hardware.devices * parse_quantity(hardware.memory_per_device).value)


def fits(memory_bytes: int, sequence_bytes: int | None, weight_bytes: int = 0) -> int | None:
    """Whole sequences whose cache fits in ``memory_bytes`` beside ``weight_bytes`` of weights:
    ``⌊(memory − weights) / sequence⌋``, 0 when the weights alone fill the memory. Activations and the
    engine's own reserve are not subtracted, so this is an upper bound."""
    if not sequence_bytes:
        return None
    return max(0, memory_bytes - weight_bytes) // sequence_bytes


WEIGHTS_DTYPE = "bf16"
"""The weights' format in the fit: the format most checkpoints are published in; a model served in
fp8 or fp4 leaves more room than shown."""


def weight_bytes(model: Model) -> int | None:
    """``params_total_b × 10⁹ × bytes per weight`` in :data:`WEIGHTS_DTYPE`; None when the record
    states no parameter count."""
    if model.params_total_b is None:
        return None
    exact = Fraction(str(model.params_total_b)) * 10**9 * bytes_per_element(WEIGHTS_DTYPE)
    return math.ceil(exact)


def run_result(index: RegistryIndex, run: KvEfficiency | Benchmark) -> CacheResult | str:
    """The engine's computation of the run's own setting (its layout, dtypes, context and batch), as the
    database's ``runs`` table has it."""
    from registry.db._rows_runs import run_model
    from registry.db._rows_runs import run_result as computed

    _, layout, problem = run_model(index, run)
    if layout is None:
        return problem or f"{run.model} has no cache layout"
    return computed(layout, run)


@dataclass(frozen=True)
class ClaimRow:
    """One claim as a page shows it: the verdict word, the engine's value and what explains a miss."""

    position: int
    verdict: str
    message: str
    engine_value: Fraction | None
    misapplication: str | None
    misapplication_text: str
    nearest: tuple[tuple[str, str, Fraction], ...]
    trace: tuple[str, ...]
    formula_rendered: str
    formula_value: Fraction | None
    formula_matches: bool | None
    formula_error: str


def claim_rows(index: RegistryIndex, run: KvEfficiency | Benchmark) -> Iterator[ClaimRow]:
    """Each claim of a run checked by the engine, in the record's order."""
    from registry.db._rows_runs import claim_spec, engine_run, run_model, verdict_columns
    from registry.engine.claims import check_claim
    from registry.kinds.geometry import model_fields

    entry, layout, problem = run_model(index, run)
    key = engine_key(run.layout)
    for position, claim in enumerate(run.claims):
        if layout is None or key is None or entry is None:
            reason = problem or f"the formula engine has no layout for {run.layout!r}"
            yield ClaimRow(position, "not-computable", reason, None, None, "", (), (), "", None, None, "")
            continue
        verdict = check_claim(claim_spec(claim), layout, entry.derived(model_fields), engine_run(run, key))
        columns = verdict_columns(verdict)
        match = verdict.misapplication
        formula = verdict.formula
        yield ClaimRow(
            position=position,
            verdict=columns["verdict"],
            message=columns["message"] or "",
            engine_value=verdict.engine_value,
            misapplication=match.name if match else None,
            misapplication_text=match.description if match else "",
            nearest=tuple((c.name, c.description, c.value) for c in verdict.nearest),
            trace=verdict.trace,
            formula_rendered=formula.rendered if formula else "",
            formula_value=formula.value if formula else None,
            formula_matches=formula.matches if formula else None,
            formula_error=str(formula.error) if formula and formula.error else "",
        )
