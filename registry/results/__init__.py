"""The engine's results for a registry, computed once, as one value.

Run and claim specs (:mod:`~registry.results.specs`), each model's geometry
(:mod:`~registry.results.geometry`), every run's own figures, memory fit and claim verdicts
(:mod:`~registry.results.values`), a verdict in a word (:mod:`~registry.results.outcome`), the
derived figures of each geometry (:mod:`~registry.results.figures`), and whether a model fits on
hardware (:mod:`~registry.results.fit`: ``registry fit`` and the model pages' hardware table).
``registry check`` computes the :class:`Results` and turns it into findings; the database, the site
and ``explain`` read it.
"""

from registry.results.figures import (
    CHART_LAYOUT,
    CONTEXT_LADDER,
    ENGINE_LAYOUTS,
    HEADLINE_CONTEXT,
    KV_DTYPES,
    STANDARD_CONTEXTS,
    ChartFigures,
    Figures,
    StandardLadders,
    reasons,
)
from registry.results.geometry import LayoutProblem, ModelGeometry, config_problem, model_geometry
from registry.results.outcome import Outcome, outcome_of
from registry.results.roof import Roof, roof
from registry.results.specs import RUN_KINDS, RunRecord, engine_key, run_of, spec_of
from registry.results.values import ClaimResult, MemoryFit, Results, RunResult, compute_results

__all__ = [
    "CHART_LAYOUT",
    "CONTEXT_LADDER",
    "ENGINE_LAYOUTS",
    "HEADLINE_CONTEXT",
    "KV_DTYPES",
    "RUN_KINDS",
    "STANDARD_CONTEXTS",
    "ChartFigures",
    "ClaimResult",
    "Figures",
    "LayoutProblem",
    "MemoryFit",
    "ModelGeometry",
    "Outcome",
    "Results",
    "Roof",
    "RunRecord",
    "RunResult",
    "StandardLadders",
    "compute_results",
    "config_problem",
    "engine_key",
    "model_geometry",
    "outcome_of",
    "reasons",
    "roof",
    "run_of",
    "spec_of",
]
