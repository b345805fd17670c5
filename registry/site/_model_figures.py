"""A model's cache figures: the text grid of every engine layout and KV format, and the memory against
context chart. Every figure is the engine's, read from the check's results, where the grid, the chart,
the collection index and the database share one computation per geometry.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from registry.engine.compute import Ladder
from registry.kinds.records import Model
from registry.results import ChartFigures, ModelGeometry, Results, StandardLadders
from registry.site._html import Html, element
from registry.site._results import CONTEXT_LADDER, ENGINE_LAYOUTS, HEADLINE_CONTEXT, KV_DTYPES, bytes_text
from registry.site._svg import Series, line_chart


def _unsupported_everywhere(ladder: Ladder | str) -> str | None:
    """The engine's reason when it gives no figure at any context for a dtype (it cannot store it)."""
    if isinstance(ladder, str) or not ladder.unsupported:
        return None
    return "; ".join(sorted(set(ladder.unsupported)))


def _grid_figure(ladder: Ladder | str, index: int, beyond: bool) -> str:
    """One sequence's bytes at one context of the ladder, rounded for reading; or why there is no
    figure, in a word (the engine's reason is listed below the grid)."""
    if isinstance(ladder, str):
        return "error"
    value = ladder.total_bytes[index]
    if value is None:
        return "n/a" if ladder.unsupported else "unknown"
    return bytes_text(value) + (" †" if beyond else "")


_HEADLINE = [tokens for _, tokens in CONTEXT_LADDER].index(HEADLINE_CONTEXT)
_HEADLINE_LABEL = CONTEXT_LADDER[_HEADLINE][0]


def _exact_text(value: int | Fraction) -> str:
    return f"{value:,}" if value.denominator == 1 else f"{float(value):,.2f}"


def _exact(ladder: Ladder | str) -> str:
    """Bytes one more token adds at the headline context, exactly: the figure a record's
    ``bytes_per_token`` claim at that context states (a window not full there adds its entry)."""
    value = None if isinstance(ladder, str) else ladder.bytes_per_token[_HEADLINE]
    return "—" if value is None else _exact_text(value)


def _steady_differs(ladder: Ladder | str) -> str | None:
    """Bytes per token once every window is full, where that differs from the headline figure."""
    if isinstance(ladder, str) or ladder.steady_state_bytes_per_token is None:
        return None
    steady = ladder.steady_state_bytes_per_token
    return None if steady == ladder.bytes_per_token[_HEADLINE] else _exact_text(steady)


def _problems(ladder: Ladder | str) -> list[str]:
    """Why some figure of a ladder is missing: the engine's own words, once each."""
    words = [ladder] if isinstance(ladder, str) else [*ladder.unsupported, *ladder.not_computable]
    found: list[str] = []
    for word in words:
        if (problem := _LAYERS_PREFIX.sub("", word)) not in found:
            found.append(problem)
    return found


def cache_grid(results: Results, model: Model, geometry: ModelGeometry) -> str:
    """The model's :func:`grid <_grid>`: one text per geometry and maximum context, made once however
    many records share them (the fine-tunes of one base, one model at several revisions)."""
    assert geometry.layout is not None
    return _grid(results.figures.standard(geometry.layout), model.max_context_tokens)


@lru_cache(maxsize=512)
def _grid(standard: StandardLadders, limit: int | None) -> str:
    """Every KV format (bf16 first) under every engine layout, as a text grid: one line per layout and
    format with the exact bytes per token, then the figure at each context of the ladder; one line
    naming the layouts that cannot store a format at all; then the engine's reasons.

    Text, not a table: a table cell costs the site builder three HTML parses, and a model page has
    a hundred of these figures, so a table with exact-byte tooltips made each model page's build
    markedly slower."""
    width = max(len(engine) for engine in ENGINE_LAYOUTS)
    header = f"{'layout':<{width}}  {'KV':<6}  {'B/t ' + _HEADLINE_LABEL:>10}" + "".join(
        f"  {label:>10}" for label, _ in CONTEXT_LADDER
    )
    lines: list[str] = [header]
    why: dict[str, list[str]] = {}  # reason -> the "layout, format" pairs it applies to
    steady: dict[str, list[str]] = {}  # bytes per token once every window is full -> its pairs
    for kv_dtype in KV_DTYPES:
        unable = []
        for engine in ENGINE_LAYOUTS:
            ladder = standard.get(engine, kv_dtype)
            reason = _unsupported_everywhere(ladder)
            problems = [_LAYERS_PREFIX.sub("", reason)] if reason is not None else _problems(ladder)
            for problem in problems:
                why.setdefault(problem, []).append(f"{engine}, {kv_dtype}")
            if reason is not None:
                unable.append(engine)
                continue
            if (value := _steady_differs(ladder)) is not None:
                steady.setdefault(value, []).append(f"{engine}, {kv_dtype}")
            figures = [_exact(ladder)] + [
                _grid_figure(ladder, index, limit is not None and tokens > limit)
                for index, (_, tokens) in enumerate(CONTEXT_LADDER)
            ]
            lines.append(f"{engine:<{width}}  {kv_dtype:<6}" + "".join(f"  {f:>10}" for f in figures))
        if unable:
            lines.append(f"{'':<{width}}  {kv_dtype:<6}  not stored by {', '.join(unable)}")
    lines += _steady_lines(steady, sum(1 for line in lines[1:] if "not stored by" not in line), len(header))
    reasons = [_wrapped(f"{'; '.join(pairs)}: {reason}", len(header)) for reason, pairs in why.items()]
    return "\n".join([*lines, "", "why a figure is missing:", *reasons] if reasons else lines)


def _steady_lines(steady: dict[str, list[str]], shown: int, width: int) -> list[str]:
    """Under the grid: what a token adds once every window is full, for the ``layout, format`` pairs
    whose figure at the headline context differs from it (all ``shown`` lines, said once)."""
    if not steady:
        return []
    return ["", "B/t once every window is full (steady state), where it differs:"] + [
        _wrapped(f"{value} B: {'every line above' if len(pairs) == shown else '; '.join(pairs)}", width)
        for value, pairs in steady.items()
    ]


@lru_cache(maxsize=4096)
def _wrapped(reason: str, width: int) -> str:
    """A reason under the grid, wrapped to the grid's width. Memoised: the engines give the same few
    reasons for many models."""
    return textwrap.fill(reason, width, initial_indent="  ", subsequent_indent="    ")


_LAYERS_PREFIX = re.compile(r"^[a-z -]+ layers [^:]+: ")
"""The "attention layers 0–31: " an engine puts before its reason; the grid names the format instead."""


def cache_tables(results: Results, model: Model, geometry: ModelGeometry) -> Iterator[Html]:
    yield element(
        "p",
        f"The cache of one sequence under each engine layout, in each KV format ({', '.join(KV_DTYPES)}). "
        f"B/t {_HEADLINE_LABEL} is the exact bytes one more token adds at {_HEADLINE_LABEL} (a sliding "
        "window not yet full there adds its entry; below the grid, what a token adds once every window "
        "is full, where that differs); the other figures are one sequence's bytes at each "
        "context, rounded in binary units. † beyond the model's maximum context; n/a where the engine "
        "layout cannot hold a mechanism or format, unknown where a dimension is not known: the "
        "engine's reasons follow the grid.",
        class_="table-note",
    )
    yield element("pre", cache_grid(results, model, geometry), class_="grid")


def _points(contexts: tuple[int, ...], ladder: Ladder | str) -> tuple[tuple[int, int | None], ...]:
    totals = (None,) * len(contexts) if isinstance(ladder, str) else ladder.total_bytes
    return tuple(zip(contexts, totals, strict=True))


@dataclass(frozen=True)
class Chart:
    """A chart drawn as a file of its own: the SVG document and the words an ``<img>`` shows instead."""

    svg: str
    alt: str
    width: int = 860
    height: int = 440


def memory_chart(results: Results, model: Model, geometry: ModelGeometry) -> Chart | None:
    """One line per distinct curve: engine layouts that give the same bytes at every point share a line
    (and a legend entry), so no line hides another. ``None`` when no engine layout gives a figure."""
    assert geometry.layout is not None
    drawn = _lines(results.figures.chart(geometry.layout, geometry.fields))
    if not drawn:
        return None
    title = f"{model.name}: KV cache of one sequence against context, bf16"
    description = (
        "One line per engine layout (layouts with equal figures share one); the dashed line is the same "
        "model with full multi-head attention in every attention layer (a layout that caches exactly that is "
        "labelled = MHA-equivalent). Both axes are logarithmic."
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


@lru_cache(maxsize=512)
def _lines(chart: ChartFigures) -> tuple[Series, ...]:
    """The chart's lines for a geometry, worked out once per geometry: engine layouts with equal points
    share a line, and a line with no figure is left out."""
    contexts = chart.contexts
    curves: dict[tuple[tuple[int, int | None], ...], list[str]] = {}
    for engine, ladder in chart.ladders:
        curves.setdefault(_points(contexts, ladder), []).append(engine)
    # An engine layout that caches every head's K and V (transformers@4 on MLA) gives the MHA-equivalent
    # exactly: one line labelled as both, rather than the dashed line hiding the other.
    mha = None if chart.mha is None else _points(contexts, chart.mha)
    series = [
        Series(", ".join(engines) + (" = MHA-equivalent (ideal)" if points == mha else ""), points)
        for points, engines in curves.items()
    ]
    if mha is not None and mha not in curves:
        series.append(Series("MHA-equivalent (ideal)", mha, dashed=True))
    return tuple(s for s in series if any(v for _, v in s.points))
