"""The derived figures the database and the site show for a cache geometry, each worked out once.

Settings (engine layouts, KV formats, the 4K / 32K / 128K / 1M ladder) are named here, so a number on a
page and the same number in the DuckDB file come from one computation. Figures are made on first use
and kept for the life of the :class:`Figures` (the :class:`~registry.results.values.Results` of one
check), by geometry: models whose layer groups are equal share them (a layout's ``model_type`` and notes
name it but change no byte).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from registry.engine.compute import CacheResult, Ladder, compute, compute_ladder
from registry.engine.engines import ENGINE_KEYS, get_engine
from registry.engine.layers import LayerGroups
from registry.engine.variants import Fields, variant_layer_groups

T = TypeVar("T")


def _distinct_layouts() -> tuple[str, ...]:
    """Every engine layout key once: an alias for the same rules (``transformers@5`` is the current
    ``transformers``) is left out, so a query never sees two identical rows under two names."""
    seen: set[str] = set()
    keys: list[str] = []
    for key in ENGINE_KEYS:
        title = get_engine(key).title
        if title not in seen:
            seen.add(title)
            keys.append(key)
    return tuple(keys)


ENGINE_LAYOUTS: tuple[str, ...] = _distinct_layouts()
"""The engine layouts the per-model figures are computed for, ``ideal`` first."""

KV_DTYPES: tuple[str, ...] = ("bf16", "fp8", "q8_0", "q4_0")
"""KV formats of the per-model figures: the unquantized default, the serving engines' fp8, and
llama.cpp's two block formats. An engine that cannot store a format gets a figure saying so."""

CONTEXT_LADDER: tuple[tuple[str, int], ...] = (
    ("4K", 4 * 1024),
    ("32K", 32 * 1024),
    ("128K", 128 * 1024),
    ("1M", 1024 * 1024),
)
"""The standard contexts; K is 1,024 tokens and M 1,048,576, as context lengths are counted."""

STANDARD_CONTEXTS = tuple(tokens for _, tokens in CONTEXT_LADDER)
"""The token counts of :data:`CONTEXT_LADDER`."""

CHART_LAYOUT = "vllm"
"""The engine layout of the headline figures: the most widely deployed server."""

HEADLINE_CONTEXT = 128 * 1024
"""The standard comparison point: 128K tokens (131,072)."""

CHART_START = 1024
"""The memory chart's first context: 1K tokens."""


def reasons(result: CacheResult | Ladder) -> str | None:
    """Why a result has no total, in one line (None when it has one)."""
    parts = [*result.unsupported, *result.not_computable]
    return "; ".join(parts) if parts else None


def chart_contexts(layout: LayerGroups) -> tuple[int, ...]:
    """1K, the standard ladder, and every window or chunk in between, where a chart's line bends."""
    contexts = {CHART_START, *STANDARD_CONTEXTS}
    top = max(contexts)
    for mechanism in layout.mechanisms():
        for name in ("window", "chunk"):
            size = getattr(mechanism, name, None)
            if isinstance(size, int) and CHART_START < size < top:
                contexts.add(size)
    return tuple(sorted(contexts))


@dataclass(frozen=True, eq=False)
class StandardLadders:
    """A geometry's figures at the standard contexts, for every engine layout and KV format: what a
    model's ``kv_at_context`` rows, its page's grid and its headline figures show. Compared by
    identity: one object per geometry."""

    ladders: dict[tuple[str, str], Ladder | str]
    """By (engine layout, KV format): the ladder, or the engine's reason for giving none."""

    def get(self, engine_layout: str, kv_dtype: str) -> Ladder | str:
        return self.ladders[engine_layout, kv_dtype]

    def headline(self, kv_dtype: str) -> Ladder | str:
        """The ladder under :data:`CHART_LAYOUT`."""
        return self.ladders[CHART_LAYOUT, kv_dtype]

    def headline_total(self, kv_dtype: str) -> int | None:
        """One sequence's bytes at :data:`HEADLINE_CONTEXT` under :data:`CHART_LAYOUT`."""
        ladder = self.headline(kv_dtype)
        return (
            None if isinstance(ladder, str) else ladder.total_bytes[STANDARD_CONTEXTS.index(HEADLINE_CONTEXT)]
        )


@dataclass(frozen=True, eq=False)
class ChartFigures:
    """A memory-against-context chart's figures (bf16): each engine layout's ladder at
    :func:`chart_contexts`, and the same model with full multi-head attention under ``ideal`` (None for
    a layout with no attention to widen). Compared by identity: one object per geometry."""

    contexts: tuple[int, ...]
    ladders: tuple[tuple[str, Ladder | str], ...]
    mha: Ladder | str | None


def _ladder(
    layout: LayerGroups, engine_layout: str, kv_dtype: str, contexts: tuple[int, ...]
) -> Ladder | str:
    try:
        return compute_ladder(layout, contexts, kv_dtype=kv_dtype, engine_layout=engine_layout)
    except ValueError as error:  # an unknown engine or format: a message, never an exception
        return str(error)


def _groups(layout: LayerGroups, engine_layout: str) -> CacheResult | str:
    try:
        return compute(
            layout,
            context_tokens=STANDARD_CONTEXTS[0],
            engine_layout=engine_layout,
            include_mtp=True,
            traced=False,
        )
    except ValueError as error:
        return str(error)


class Figures:
    """The per-geometry figures, each made on first use and kept. Safe to share between the thread
    that builds the database and the one that makes pages: a figure is made under a lock, once."""

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], Any] = {}
        self._lock = threading.RLock()

    def _once(self, key: tuple[Any, ...], make: Callable[[], T]) -> T:
        found = self._made.get(key)
        if found is None:
            with self._lock:
                found = self._made.get(key)
                if found is None:
                    found = self._made[key] = make()
        value: T = found
        return value

    def standard(self, layout: LayerGroups) -> StandardLadders:
        """Every engine layout and KV format at :data:`STANDARD_CONTEXTS`."""
        return self._once(
            ("standard", *_shape(layout)),
            lambda: StandardLadders(
                {
                    (engine_layout, kv_dtype): _ladder(layout, engine_layout, kv_dtype, STANDARD_CONTEXTS)
                    for engine_layout in ENGINE_LAYOUTS
                    for kv_dtype in KV_DTYPES
                }
            ),
        )

    def groups(self, layout: LayerGroups, engine_layout: str) -> CacheResult | str:
        """Each layer group's bf16 figures (multi-token-prediction groups too) under ``engine`` at the
        first standard context, without the trace: a model's ``layer_groups`` rows."""
        return self._once(("groups", *_shape(layout), engine_layout), lambda: _groups(layout, engine_layout))

    def chart(self, layout: LayerGroups, fields: Fields) -> ChartFigures:
        """The memory chart's figures of a model of this layout and config fields."""
        try:
            mha: LayerGroups | None = variant_layer_groups("mha-equivalent", layout, fields)
        except ValueError:
            mha = None  # a layout with no attention to widen has no MHA-equivalent line
        return self._once(("chart", *_shape(layout), mha), lambda: _chart(layout, mha))

    def standard_point(self, layout: LayerGroups) -> CacheResult:
        """One sequence of :data:`HEADLINE_CONTEXT` tokens in bf16 under :data:`CHART_LAYOUT`, with
        its trace: the registry's standard point."""
        return self._once(
            ("point", layout),
            lambda: compute(layout, context_tokens=HEADLINE_CONTEXT, engine_layout=CHART_LAYOUT),
        )

    def prepare(self, layouts: list[tuple[LayerGroups, Fields]]) -> None:
        """Make every figure the database and the pages ask of these models' geometries now: a
        process that forks workers after this shares them instead of making them again."""
        for layout, fields in layouts:
            self.standard(layout)
            self.chart(layout, fields)
            for engine_layout in ENGINE_LAYOUTS:
                self.groups(layout, engine_layout)


def _shape(layout: LayerGroups) -> tuple[Any, ...]:
    """What a layout's figures depend on: its layer groups, not its name or notes."""
    return (layout.groups, layout.mtp_groups)


def _chart(layout: LayerGroups, mha: LayerGroups | None) -> ChartFigures:
    contexts = chart_contexts(layout)
    ladders = tuple(
        (engine_layout, _ladder(layout, engine_layout, "bf16", contexts)) for engine_layout in ENGINE_LAYOUTS
    )
    return ChartFigures(contexts, ladders, None if mha is None else _ladder(mha, "ideal", "bf16", contexts))
