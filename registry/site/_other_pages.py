"""The pages of engine and hardware records."""

from __future__ import annotations

from registry.checker.index import Entry
from registry.kinds.equipment import COMPUTE_DTYPES, by_format
from registry.kinds.records import Capability, Engine, Hardware
from registry.site import _parts, _paths, _summaries
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, join, link, table
from registry.site._results import bytes_text, hardware_bytes

CAPABILITY_WORDS = {
    "mla_decode": "MLA decode path",
    "fp8_kv": "fp8 KV cache",
    "sliding_window": "sliding-window attention",
    "hybrid_state": "recurrent state beside attention",
    "prefix_caching": "prefix caching",
    "paged_kv": "paged KV cache",
    "quantized_kv": "quantized KV formats",
}


def render_engine(context: SiteContext, entry: Entry) -> str:
    engine = entry.record
    assert isinstance(engine, Engine)
    page = _paths.record_page(entry.id)
    layout = (
        link(_paths.href(page, f"{_paths.REFERENCE}/mechanisms.md", "engine-layouts"), engine.layout)
        if engine.layout
        else None
    )
    facts = _parts.fact_table(
        [
            ("Name", engine.name),
            ("Repository", engine.repository),
            ("Read at version", engine.version),
            ("Engine layout", layout),
        ]
    )
    return "".join(
        [
            _parts.header(context, entry, page),
            "## Engine\n" + block(facts),
            "## Capabilities\n" + block(_capabilities(engine)),
            _summaries.engine_section(context, page, entry.id),
            _parts.findings(context, entry),
            _parts.prose(context, entry, page),
            _parts.sources(entry),
            _parts.errata(entry),
            _parts.links(context, entry, page),
        ]
    )


def _supported(capability: Capability) -> Html:
    if capability.supported is None:
        return _parts.badge("unknown", "neutral")
    return _parts.badge("yes", "agrees") if capability.supported else _parts.badge("no", "disagrees")


def _capabilities(engine: Engine) -> Html:
    if not engine.capabilities:
        return element("p", "No capability is recorded.")
    rows = [
        [
            CAPABILITY_WORDS.get(name, name),
            Cell(_supported(capability), sort=str(capability.supported)),
            capability.since or "",
            capability.detail or "",
            link(capability.source, "source") if capability.source else "",
        ]
        for name, capability in engine.capabilities.items()
    ]
    return table(["Capability", "Supported", "Since", "Detail", "Source"], rows)


def _peaks(hardware: Hardware) -> str:
    """The vendor's peaks as a table, one row per format the record gives a figure for, in the schema's
    order: dense (what the bounds read, stated or computed from the clock, with the product shown),
    with 2:4 structured sparsity, and, where the record confirms a dense figure that looks like a sparse
    one, why; empty when no peak is sourced. The sparsity column is left out when no format has a sparse
    figure, so that the table fits a phone."""
    dense = hardware.dense_peaks()
    sparse = by_format(hardware.peak_sparse_flops_per_device)
    confirmed = by_format(hardware.peak_dense_confirmed)
    clock = hardware.peak_dense_from_clock
    rates = {str(name): rate for name, rate in clock.dense_ops_per_clock_per_unit.items()} if clock else {}

    def computed(name: str) -> str:
        if clock is None or name not in rates:
            return ""
        return f"{clock.compute_units:,} units × {clock.max_clock_mhz:,} MHz × {rates[name]:,} per clock"

    rows = [
        [
            name,
            dense.get(name, "—"),
            *([sparse.get(name, "—")] if sparse else []),
            *([computed(name)] if clock else []),
            *([confirmed.get(name, "")] if confirmed else []),
        ]
        for name in COMPUTE_DTYPES
        if name in dense or name in sparse
    ]
    if not rows:
        return ""
    headers = [
        "Format",
        "Dense",
        *(["With 2:4 sparsity"] if sparse else []),
        *(["Dense, computed as"] if clock else []),
        *(["Why dense"] if confirmed else []),
    ]
    return "### Peak compute per device\n" + block(table(headers, rows, numeric=(1, 2) if sparse else (1,)))


def render_hardware(context: SiteContext, entry: Entry) -> str:
    hardware = entry.record
    assert isinstance(hardware, Hardware)
    page = _paths.record_page(entry.id)
    memory = hardware_bytes(hardware)
    facts = _parts.fact_table(
        [
            ("Name", hardware.name),
            ("Vendor", hardware.vendor),
            ("Devices in one unit", f"{hardware.devices:,}"),
            ("Memory per device", hardware.memory_per_device),
            ("Bandwidth per device", hardware.bandwidth_per_device),
            ("Interconnect per device", hardware.interconnect_bandwidth_per_device),
            (
                "Memory of the unit",
                join([f"{memory:,} B", element("span", f" = {bytes_text(memory)}", class_="binary")]),
            ),
        ]
    )
    return "".join(
        [
            _parts.header(context, entry, page),
            "## Hardware\n" + block(facts),
            _peaks(hardware),
            _summaries.hardware_section(context, page, entry.id),
            _parts.findings(context, entry),
            _parts.prose(context, entry, page),
            _parts.sources(entry),
            _parts.errata(entry),
            _parts.links(context, entry, page),
        ]
    )
