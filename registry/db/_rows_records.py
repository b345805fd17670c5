"""Rows of the tables that describe records as they are: records, links, engines, hardware."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, get_args

from registry.checker.index import Entry, RegistryIndex
from registry.db._values import Columns, as_json, columns_of, quantity_value
from registry.kinds.records import Capability, Engine, Hardware, record_json

Row = dict[str, Any]


def records_columns(index: RegistryIndex) -> Columns:
    """One row per record: the shared envelope, then the whole record as JSON."""
    rows: list[Row] = []
    for entry in index:
        record = entry.record
        rows.append(
            {
                "id": record.id,
                "kind": record.kind,
                "path": entry.path,
                "title": record.title,
                "evidence": record.evidence,
                "schema_version": record.schema_version,
                "notes": record.notes,
                "methodology": record.methodology,
                "tags": list(record.tags),
                "related": list(record.related),
                "source_count": len(record.sources),
                "sources": record_json(record.sources),
                "errata": record_json(record.errata),
                "record": record_json(record),
            }
        )
    return columns_of(rows)


def links_columns(index: RegistryIndex) -> Columns:
    """Every reference between records, once per (from, to, kind, field)."""
    seen: set[tuple[str, str, str, str]] = set()
    rows: list[Row] = []
    for entry in index:
        for link in _links_of(entry):
            if link not in seen:
                seen.add(link)
                rows.append(dict(zip(("from_id", "to_id", "kind", "field"), link, strict=True)))
    return columns_of(rows)


def _links_of(entry: Entry) -> Iterator[tuple[str, str, str, str]]:
    for reference in entry.references:  # a reference field's kind and field are its name
        yield entry.id, reference.target, reference.how, reference.how
    for link in entry.links:
        yield entry.id, link.target, "mention", link.field


CAPABILITIES: tuple[str, ...] = get_args(get_args(Engine.model_fields["capabilities"].annotation)[0])
"""The capability names the record model defines, each a column of ``engines``."""


def engines_columns(index: RegistryIndex) -> Columns:
    """One row per engine record; a capability no source speaks to is NULL."""
    rows: list[Row] = []
    for entry in index.of_kind("engine"):
        engine = entry.record
        assert isinstance(engine, Engine)
        row: Row = {
            "id": engine.id,
            "name": engine.name,
            "repository": engine.repository,
            "version": engine.version,
            "layout": engine.layout,
        }
        stated: dict[str, Capability] = {str(name): value for name, value in engine.capabilities.items()}
        for name in CAPABILITIES:
            row[name] = stated[name].supported if name in stated else None
        row["capabilities"] = as_json(
            {name: c.model_dump(mode="json", exclude_none=True) for name, c in engine.capabilities.items()}
        )
        rows.append(row)
    return columns_of(rows)


def hardware_columns(index: RegistryIndex) -> Columns:
    """One row per hardware record, memory and bandwidth in exact bytes."""
    rows: list[Row] = []
    for entry in index.of_kind("hardware"):
        hardware = entry.record
        assert isinstance(hardware, Hardware)
        per_device = quantity_value(hardware.memory_per_device)
        rows.append(
            {
                "id": hardware.id,
                "name": hardware.name,
                "vendor": hardware.vendor,
                "devices": hardware.devices,
                "memory_per_device": hardware.memory_per_device,
                "memory_per_device_bytes": per_device,
                "total_memory_bytes": None if per_device is None else hardware.devices * per_device,
                "bandwidth_per_device": hardware.bandwidth_per_device,
                "bandwidth_per_device_bytes_per_s": quantity_value(hardware.bandwidth_per_device),
            }
        )
    return columns_of(rows)
