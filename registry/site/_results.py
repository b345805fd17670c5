"""The engine's results as the pages need them, read from the check's :class:`~registry.results.Results`.

The settings (engine layouts, KV dtypes, the 4K / 32K / 128K / 1M ladder) and every figure are the
results package's, so a number on a page and the same number in the DuckDB file come from one
computation. Nothing here formats HTML, and nothing here calls the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from registry.engine.layers import LayerGroups, parts_of
from registry.engine.units import format_bytes
from registry.kinds.records import Benchmark, KvEfficiency, Model
from registry.results import (
    CHART_LAYOUT,
    CONTEXT_LADDER,
    ENGINE_LAYOUTS,
    HEADLINE_CONTEXT,
    KV_DTYPES,
    STANDARD_CONTEXTS,
    Results,
    outcome_of,
)
from registry.results.fit import hardware_bytes, sequences_that_fit, weight_bytes
from registry.results.weights import published_weights

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
    "claim_rows",
    "hardware_bytes",
    "mechanism_class",
    "model_facts",
    "published_weights",
    "sequences_that_fit",
    "weight_bytes",
]

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


def mechanism_class(layout: LayerGroups) -> str:
    """One word for how a model's cache grows, from the mechanisms of its layers.

    A recurrent layer next to any attention makes a *recurrent hybrid*; otherwise compressed attention,
    MLA, then local (sliding-window or chunked) layers decide, and plain full attention is what is left.
    """
    kinds = {part.kind for group in layout.groups for part in parts_of(group.mechanism)}
    kinds -= {"shared", "no-cache"}
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

    layout: LayerGroups | None
    problem: str | None
    mechanism: str | None
    per_token: int | Fraction | None
    at_headline: int | None


def model_facts(results: Results, model: Model) -> ModelFacts:
    """The model's layout and its bf16 figures under :data:`CHART_LAYOUT` at 128K."""
    geometry = results.models[model.id]
    layout = geometry.layout
    if layout is None:
        return ModelFacts(None, geometry.error, None, None, None)
    standard = results.figures.standard(layout)
    ladder = standard.headline("bf16")
    if isinstance(ladder, str):
        return ModelFacts(layout, None, mechanism_class(layout), None, None)
    at_headline = standard.headline_total("bf16")
    per_token = ladder.bytes_per_token[STANDARD_CONTEXTS.index(HEADLINE_CONTEXT)]
    return ModelFacts(layout, None, mechanism_class(layout), per_token, at_headline)


@lru_cache(maxsize=8192)
def bytes_text(value: int | Fraction) -> str:
    """:func:`registry.engine.units.format_bytes` in its default binary unit, memoised: the pages
    print the same few thousand figures tens of thousands of times (an exact ``Fraction`` and the equal
    ``int`` print alike, so sharing one entry is safe)."""
    return format_bytes(value)


@dataclass(frozen=True)
class ClaimRow:
    """One claim as a page shows it: the verdict word, the engine's value and what explains a miss."""

    position: int
    verdict: str
    message: str
    engine_value: Fraction | None = None
    misapplication: str | None = None
    misapplication_text: str = ""
    nearest: tuple[tuple[str, str, Fraction], ...] = ()
    trace: tuple[str, ...] = ()
    formula_rendered: str = ""
    formula_value: Fraction | None = None
    formula_matches: bool | None = None
    formula_error: str = ""


def claim_rows(results: Results, run: KvEfficiency | Benchmark) -> list[ClaimRow]:
    """Each claim of a run as the check found it, in the record's order."""
    found = results.runs[run.id]
    rows: list[ClaimRow] = []
    for claim in found.claims:
        verdict = claim.verdict
        if verdict is None or found.engine_layout is None:
            reason = found.problem or f"the formula engine has no layout for {run.layout!r}"
            rows.append(ClaimRow(position=claim.position, verdict="not-computable", message=reason))
            continue
        outcome = outcome_of(verdict)
        match, formula = verdict.misapplication, verdict.formula
        rows.append(
            ClaimRow(
                position=claim.position,
                verdict=outcome.word,
                message=outcome.message,
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
        )
    return rows
