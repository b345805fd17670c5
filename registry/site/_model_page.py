"""The page of a model record: its geometry per layer group and what its cache costs, engine by engine.

Every figure is the engine's, from the record's verbatim config (through the adapter of its
``model_type``) or its stated layer groups: per token and at 4K / 32K / 128K / 1M tokens for each engine
layout and KV dtype, a calculator that counts the cache for the reader's own context, batch, format and
layout in the browser and answers whether it fits on the hardware, units and weights format they choose
(:mod:`registry.site._calculator`), a memory-against-context chart, and how many
128K sequences fit on each hardware record of the registry, said in words above the table where 128K is
beyond the model's maximum context.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from registry.checker.index import Entry
from registry.engine.dtypes import bytes_per_element
from registry.engine.layers import LayerGroup, LayerGroups, Mechanism, Parallel, Recurrent
from registry.engine.trace import layer_span
from registry.kinds.records import Model
from registry.site import _calculator, _parts, _paths, _summaries
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, attrs, block, element, join, link, table
from registry.site._model_figures import Chart, cache_tables, memory_chart
from registry.site._results import (
    CHART_LAYOUT,
    HEADLINE_CONTEXT,
    bytes_text,
    mechanism_class,
    published_weights,
    sequences_that_fit,
    weight_bytes,
)


def render(context: SiteContext, entry: Entry) -> tuple[str, dict[str, str]]:
    """The whole Markdown page of one model record, and the files it shows (its chart), by path."""
    model = entry.record
    assert isinstance(model, Model)
    page = _paths.record_page(entry.id)
    geometry = context.results.models[entry.id]
    layout, problem = geometry.layout, geometry.error
    parts = [
        _parts.header(context, entry, page),
        "## Model\n" + block(_identity(model, layout)),
        _summaries.model_section(context, page, entry.id),
    ]
    files: dict[str, str] = {}
    if layout is None:
        parts.append(
            "## Geometry\n" + block(element("p", f"No cache layout: {problem}", class_="not-computable"))
        )
    else:
        parts += [
            "## Geometry by layer group\n" + block(_geometry(layout)),
            # The grid's explanation is the same on every model page: not worth a search hit.
            "## Cache per token and per sequence\n"
            + block(*cache_tables(context.results, model, geometry), searchable=False),
            _calculator.section(model, layout, context.calculator_hardware),
            "## Memory against context\n"
            + block(_chart(memory_chart(context.results, model, geometry), page, files)),
            _hardware_section(context, page, model, layout),
        ]
    parts += [
        _config_source(model),
        _parts.findings(context, entry),
        _parts.prose(context, entry, page),
        _parts.sources(entry),
        _parts.errata(entry),
        _parts.links(context, entry, page),
    ]
    return "".join(parts), files


def _chart(chart: Chart | None, page: str, files: dict[str, str]) -> Html:
    """The chart as an image of its own file beside the page, linked to that file (opened alone, its
    points show their exact figures on hover)."""
    if chart is None:
        return element("p", "No line to draw: no engine layout gives a figure (see the table above).")
    file = _paths.chart_file(page, "memory")
    files[file] = chart.svg
    address = _paths.href(page, file)
    image = Html(
        f"<img{attrs({'src': address, 'alt': chart.alt, 'width': chart.width, 'height': chart.height})}"
        ' class="registry-chart" loading="lazy">'
    )
    return element("div", link(address, image), class_="chart")


def _identity(model: Model, layout: LayerGroups | None) -> Html:
    model_type = model.config.get("model_type") if model.config else None
    return _parts.fact_table(
        [
            ("Name", model.name),
            ("Organisation", model.org),
            ("Family", model.family),
            ("Parameters", None if model.params_total_b is None else f"{model.params_total_b:g} B"),
            ("Active per token", None if model.params_active_b is None else f"{model.params_active_b:g} B"),
            ("Released", model.release_date),
            ("Licence", model.license),
            (
                "Maximum context",
                None if model.max_context_tokens is None else f"{model.max_context_tokens:,} tokens",
            ),
            (
                "Geometry from",
                "its published config.json"
                if model.config is not None
                else "layer groups stated in the record",
            ),
            ("model_type", element("code", model_type) if isinstance(model_type, str) else None),
            ("Cache class", mechanism_class(layout) if layout else None),
            ("Layers", f"{layout.num_layers:,}" if layout else None),
        ]
    )


def describe(mechanism: Mechanism) -> str:
    """A mechanism's dimensions as ``name = value`` pairs (unknown ones as ``?``)."""
    if isinstance(mechanism, Parallel):
        return " + ".join(f"{part.kind}: [{describe(part)}]" for part in mechanism.parts)
    if isinstance(mechanism, Recurrent):
        tensors = "; ".join(
            f"{t.name} ({t.role}) " + " × ".join("?" if s is None else f"{s:,}" for s in t.shape)
            for t in mechanism.tensors
        )
        return f"state tensors: {tensors}"
    pairs = []
    for field in dataclasses.fields(mechanism):
        value = getattr(mechanism, field.name)
        if field.name == "variant" or (value is None and field.default is None):
            continue  # an optional dimension left out is "not applicable", not unknown
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            pairs.append(f"{field.name}: [{describe(value)}]")  # type: ignore[arg-type]
        else:
            pairs.append(f"{field.name} = {'?' if value is None else value}")
    return ", ".join(pairs)


def _group_rows(groups: tuple[LayerGroup, ...], mtp: bool) -> Iterator[list[object]]:
    for group in groups:
        mechanism = group.mechanism
        variant = getattr(mechanism, "variant", None)
        name = mechanism.kind + (f" ({variant})" if variant else "") + (" — MTP" if mtp else "")
        yield [
            name,
            Cell(f"{group.count:,}", sort=group.count),
            layer_span(group.layers),
            describe(mechanism),
        ]


def _geometry(layout: LayerGroups) -> Html:
    rows = [*_group_rows(layout.groups, False), *_group_rows(layout.mtp_groups, True)]
    body = table(["Mechanism", "Layers", "Which", "Dimensions"], rows, numeric=(1,))
    notes = join([element("li", note) for note in layout.notes])
    return join([body, element("ul", notes, class_="layout-notes")]) if layout.notes else body


def _hardware_section(context: SiteContext, page: str, model: Model, layout: LayerGroups) -> str:
    """Sequences of 128K that fit beside the model's weights in each hardware record's memory, one row
    per distinct memory size (the count depends on nothing else), with the records of that size named
    in the row."""
    groups = context.hardware_by_memory
    if not groups:
        return ""
    standard = context.results.figures.standard(layout)
    totals = {kv_dtype: standard.headline_total(kv_dtype) for kv_dtype in ("bf16", "fp8")}
    published = published_weights(model.config)
    weights = weight_bytes(model.params_total_b, published.dtype)
    rows = []
    for memory, written, names in groups:
        cells: list[object] = [Cell(written, sort=memory, title=f"{memory:,} B"), ", ".join(names)]
        for kv_dtype, total in totals.items():
            count = sequences_that_fit(memory, total, weights or 0)
            text = "—" if count is None else f"{count:,}"
            cells.append(Cell(text, sort=count, title=f"{kv_dtype} KV cache"))
        rows.append(cells)
    body = table(["Memory", "Hardware", "bf16 KV", "fp8 KV"], rows, numeric=(0, 2, 3))
    index = link(_paths.href(page, _paths.collection_page("hardware")), "hardware records")
    if weights is None:
        beside = "The record states no parameter count, so the weights are not subtracted: an upper bound."
    else:
        beside = (
            f"Beside the weights in {published.dtype} ({published.source}): {model.params_total_b:g} B "
            f"parameters × {float(bytes_per_element(published.dtype)):g} B = {weights:,} B "
            f"({bytes_text(weights)}), so ⌊(memory − weights) ÷ cache per sequence⌋; 0 where the "
            "weights alone fill the memory. Activations and the engine's reserve are not subtracted, "
            "so this is an upper bound."
        )
    note = element(
        "p",
        join(
            [
                f"Sequences of {HEADLINE_CONTEXT:,} tokens whose cache fits in the memory of one unit "
                "(a device, or a whole node) of the ",
                index,
                f", laid out as {CHART_LAYOUT} lays it out. {beside} The same computation for any "
                "context, batch and formats, with its derivation: ",
                element("code", f"registry fit --model {model.id} --hardware ID"),
                ".",
            ]
        ),
        class_="table-note",
    )
    # Out of the search index: every model page names every hardware record here, so a search for a
    # device would list every model (they made much of a model page's index entries).
    return "## 128K sequences per hardware\n" + block(_beyond(context, model), body, note, searchable=False)


def _beyond(context: SiteContext, model: Model) -> Html | str:
    """In words, above the table, that its context is beyond the model's maximum, when it is: the counts
    then compare what such a cache would cost on each device, not a setting the model runs at."""
    beyond = context.beyond_max_context(model.id, HEADLINE_CONTEXT)
    if not beyond:
        return ""
    command = f"registry fit --model {model.id} --hardware ID --context {model.max_context_tokens}"
    return element(
        "p",
        join(
            [
                f"{HEADLINE_CONTEXT:,} tokens is {beyond}: no sequence this long runs on it, so this "
                "table compares what such a cache would cost on each device, not a setting of the model. ",
                element("code", command),
                " counts the sequences at its maximum.",
            ]
        ),
        class_="beyond-max-context",
    )


def _config_source(model: Model) -> str:
    """Where the verbatim config was read. The config itself is in the record file and in the JSON
    download; repeating it here would double the page for fields the geometry table already shows."""
    source = model.config_source
    if source is None or model.config is None:
        return ""
    where = source.url and link(source.url, f"{source.repository} / {source.file} @ {source.revision}")
    facts = _parts.fact_table(
        [
            ("Repository", source.repository),
            ("File", source.file),
            ("Revision", element("code", source.revision)),
            ("Address", where or None),
            (
                "Fields",
                f"{len(model.config):,} top-level fields, verbatim in the record file and in records.json",
            ),
        ]
    )
    return "## Config source\n" + block(facts)


__all__ = ["describe", "render"]
