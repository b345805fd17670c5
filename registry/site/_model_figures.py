"""A model's cache figures: the bf16 table, the text grid of the other KV formats, and the memory
against context chart. Every figure is the engine's (memoised, so the table, the grid, the chart and the
collection index share one computation per setting).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from registry._geometry import model_fields
from registry._records import Model
from registry.engine.compute import CacheResult
from registry.engine.layout import Layout
from registry.engine.variants import variant_layout
from registry.site._html import Cell, Html, element, table
from registry.site._results import CONTEXT_LADDER, ENGINE_LAYOUTS, KV_DTYPES, bytes_text, cache_result
from registry.site._svg import Series, line_chart

CHART_START = 1024
"""The chart's first context: 1K tokens."""

OTHER_FORMATS = tuple(dtype for dtype in KV_DTYPES if dtype != "bf16")
"""The KV formats shown in the text grid; bf16 has the table."""


def _cell(result: CacheResult | str, per_token: bool, beyond: bool) -> Cell:
    """One figure of the cache table, or why there is none (as the cell's tooltip)."""
    if isinstance(result, str):
        return Cell("error", title=result, class_="not-computable")
    value = result.bytes_per_token if per_token else result.total_bytes
    if value is None:
        why = "; ".join([*result.unsupported, *result.not_computable])
        return Cell(
            "not supported" if result.unsupported else "not computable", title=why, class_="not-computable"
        )
    exact = f"{value:,} B" if isinstance(value, int) else f"{float(value):,.3f} B"
    if beyond:
        return Cell(f"{bytes_text(value)} †", sort=float(value), title=f"{exact}; beyond the maximum context")
    return Cell(bytes_text(value), sort=float(value), title=exact)


def _unsupported_everywhere(results: list[CacheResult | str]) -> str | None:
    """The engine's reason when it gives no figure at any context for a dtype (it cannot store it)."""
    reasons: set[str] = set()
    for result in results:
        if isinstance(result, str) or result.total_bytes is not None or not result.unsupported:
            return None
        reasons.update(result.unsupported)
    return "; ".join(sorted(reasons))


def _ladder(layout: Layout, engine: str, kv_dtype: str) -> list[CacheResult | str]:
    return [cache_result(layout, engine, kv_dtype, tokens) for _, tokens in CONTEXT_LADDER]


def _bf16_table(model: Model, layout: Layout) -> Html:
    """The default format as a table, each figure with its exact bytes as a tooltip."""
    limit = model.max_context_tokens
    rows = []
    for engine in ENGINE_LAYOUTS:
        results = _ladder(layout, engine, "bf16")
        cells: list[object] = [engine, _cell(results[0], True, False)]
        for (_, tokens), result in zip(CONTEXT_LADDER, results, strict=True):
            cells.append(_cell(result, False, limit is not None and tokens > limit))
        rows.append(cells)
    headers = ["Engine layout", "Per token", *[label for label, _ in CONTEXT_LADDER]]
    return table(headers, rows, caption="KV cache in bf16, one sequence", numeric=(1, 2, 3, 4, 5))


def _grid_figure(result: CacheResult | str, per_token: bool, beyond: bool) -> str:
    if isinstance(result, str):
        return "error"
    value = result.bytes_per_token if per_token else result.total_bytes
    if value is None:
        return "not supported" if result.unsupported else "not computable"
    return bytes_text(value) + (" †" if beyond else "")


def other_formats(model: Model, layout: Layout) -> str:
    """Every other KV format under every engine layout, as a text grid: one line per layout and format,
    and one line naming the layouts that cannot store a format at all, with the engine's reason.

    Text, not a table: a table cell costs the site builder three HTML parses per page, and a model page
    has dozens of these figures."""
    limit = model.max_context_tokens
    width = max(len(engine) for engine in ENGINE_LAYOUTS)
    header = f"{'layout':<{width}}  {'KV':<6}  {'per token':>11}" + "".join(
        f"  {label:>11}" for label, _ in CONTEXT_LADDER
    )
    lines, why = [header], []
    for kv_dtype in OTHER_FORMATS:
        unable = []
        for engine in ENGINE_LAYOUTS:
            results = _ladder(layout, engine, kv_dtype)
            reason = _unsupported_everywhere(results)
            if reason is not None:
                unable.append(engine)
                why.append(f"  {engine}, {kv_dtype}: {_LAYERS_PREFIX.sub('', reason)}")
                continue
            figures = [_grid_figure(results[0], True, False)] + [
                _grid_figure(result, False, limit is not None and tokens > limit)
                for (_, tokens), result in zip(CONTEXT_LADDER, results, strict=True)
            ]
            lines.append(f"{engine:<{width}}  {kv_dtype:<6}" + "".join(f"  {f:>11}" for f in figures))
        if unable:
            lines.append(f"{'':<{width}}  {kv_dtype:<6}  not stored by {', '.join(unable)}")
    return "\n".join([*lines, "", "why not stored:", *why] if why else lines)


_LAYERS_PREFIX = re.compile(r"^[a-z -]+ layers [^:]+: ")
"""The "attention layers 0–31: " an engine puts before its reason; the grid names the format instead."""


def cache_tables(model: Model, layout: Layout) -> Iterator[Html]:
    yield _bf16_table(model, layout)
    yield element(
        "p", f"The other KV formats ({', '.join(OTHER_FORMATS)}), one sequence:", class_="table-note"
    )
    yield element("pre", other_formats(model, layout), class_="grid", data_search_exclude=True)
    yield element(
        "p",
        "Hover a figure in the table for its exact bytes, or a gap for the reason. † beyond the model's "
        "maximum context.",
        class_="table-note",
    )


def chart_contexts(layout: Layout) -> list[int]:
    """1K, the standard ladder, and every window or chunk in between, where a line bends."""
    contexts = {CHART_START, *(tokens for _, tokens in CONTEXT_LADDER)}
    top = max(contexts)
    for mechanism in layout.mechanisms():
        for name in ("window", "chunk"):
            size = getattr(mechanism, name, None)
            if isinstance(size, int) and CHART_START < size < top:
                contexts.add(size)
    return sorted(contexts)


def _points(layout: Layout, engine: str, contexts: list[int]) -> tuple[tuple[int, int | None], ...]:
    points = []
    for tokens in contexts:
        result = cache_result(layout, engine, "bf16", tokens)
        points.append((tokens, None if isinstance(result, str) else result.total_bytes))
    return tuple(points)


@dataclass(frozen=True)
class Chart:
    """A chart drawn as a file of its own: the SVG document and the words an ``<img>`` shows instead."""

    svg: str
    alt: str
    width: int = 860
    height: int = 440


def memory_chart(model: Model, layout: Layout) -> Chart | None:
    """One line per distinct curve: engine layouts that give the same bytes at every point share a line
    (and a legend entry), so no line hides another. ``None`` when no engine layout gives a figure."""
    contexts = chart_contexts(layout)
    curves: dict[tuple[tuple[int, int | None], ...], list[str]] = {}
    for engine in ENGINE_LAYOUTS:
        curves.setdefault(_points(layout, engine, contexts), []).append(engine)
    series = [Series(", ".join(engines), points) for points, engines in curves.items()]
    try:
        mha = variant_layout("mha-equivalent", layout, model_fields(model))
        series.append(Series("MHA-equivalent (ideal)", _points(mha, "ideal", contexts), dashed=True))
    except ValueError:
        pass  # a layout with no attention to widen has no MHA-equivalent line
    drawn = [s for s in series if any(v for _, v in s.points)]
    if not drawn:
        return None
    title = f"{model.name}: KV cache of one sequence against context, bf16"
    description = (
        "One line per engine layout (layouts with equal figures share one); the dashed line is the same "
        "model with full multi-head attention in every attention layer. Both axes are logarithmic."
    )
    svg = line_chart(
        "memory-chart",
        drawn,
        title=title,
        description=description,
        x_label="context (tokens)",
        y_label="cache bytes (bf16)",
        standalone=True,
    )
    lines = "; ".join(s.name for s in drawn)
    return Chart(svg, f"{title}. Lines: {lines}. {description}")
