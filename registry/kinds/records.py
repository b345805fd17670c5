"""The record model: one pydantic class per kind, gathered here, and the parts they share.

The committed JSON Schemas in ``schemas/`` are generated from these classes (``registry schema``), so the
published contract and the code cannot drift apart. YAML keys equal field names, so a validation error's
location maps mechanically to a line in the file.

Quantities are kept as the text a person wrote ("70,272 B", "~8.6 GiB"); the validators only check that
they parse and have the right dimension, the exact value is read again where it is used.

The kinds live one module each beside this one: :mod:`~registry.kinds.fields` (what every kind is made
of), :mod:`~registry.kinds.model`, :mod:`~registry.kinds.run` (``kv-efficiency`` and ``benchmark``) and
:mod:`~registry.kinds.benchmark` (``benchmark``, schema version 2) and :mod:`~registry.kinds.equipment`
(``engine`` and ``hardware``).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from registry.engine.variants import ClaimQuantity
from registry.kinds.benchmark import (
    METRIC_DIMENSIONS,
    AcceleratorCount,
    Accuracy,
    Benchmark,
    BenchmarkPrecision,
    BenchmarkWorkload,
    Constraint,
    Metric,
    Parallelism,
    Speculative,
    Sweep,
    System,
)
from registry.kinds.equipment import Capability, Engine, Hardware
from registry.kinds.fields import (
    DTYPE_PATTERN,
    ID_PATTERN,
    KINDS,
    LAYOUT_PATTERN,
    SCHEMA_VERSION,
    SCHEMA_VERSIONS,
    SLUG_PATTERN,
    WIKI_LINK,
    Envelope,
    Erratum,
    Source,
)
from registry.kinds.model import MAX_LAYERS, ConfigSource, LayerGroupSpec, Mechanism, Model
from registry.kinds.provenance import AlsoFiled, Provenance
from registry.kinds.run import (
    MEASURED_FIELDS,
    Claim,
    KvEfficiency,
    Precision,
    Workload,
)

Record = Model | KvEfficiency | Benchmark | Engine | Hardware

MODEL_CLASSES: dict[str, type[Envelope]] = {
    "model": Model,
    "kv-efficiency": KvEfficiency,
    "benchmark": Benchmark,
    "engine": Engine,
    "hardware": Hardware,
}


def record_json(value: BaseModel | Sequence[BaseModel]) -> str:
    """A record, or a list of a record's parts (its sources), as compact JSON in the shape of its JSON
    Schema: fields left unset are omitted, Unicode kept as is. Encoded by pydantic's own serializer,
    faster than dumping to Python values and encoding those; the values are the same, only a float may
    be spelled differently (``0.00001`` for ``1e-05``)."""
    if isinstance(value, BaseModel):
        return value.model_dump_json(exclude_none=True)
    return "[" + ",".join(item.model_dump_json(exclude_none=True) for item in value) + "]"


__all__ = [
    "DTYPE_PATTERN",
    "ID_PATTERN",
    "KINDS",
    "LAYOUT_PATTERN",
    "MAX_LAYERS",
    "MEASURED_FIELDS",
    "METRIC_DIMENSIONS",
    "MODEL_CLASSES",
    "SCHEMA_VERSION",
    "SCHEMA_VERSIONS",
    "SLUG_PATTERN",
    "WIKI_LINK",
    "AcceleratorCount",
    "Accuracy",
    "AlsoFiled",
    "Benchmark",
    "BenchmarkPrecision",
    "BenchmarkWorkload",
    "Capability",
    "Claim",
    "ClaimQuantity",
    "ConfigSource",
    "Constraint",
    "Engine",
    "Erratum",
    "Hardware",
    "KvEfficiency",
    "LayerGroupSpec",
    "Mechanism",
    "Metric",
    "Model",
    "Parallelism",
    "Precision",
    "Provenance",
    "Record",
    "Source",
    "Speculative",
    "Sweep",
    "System",
    "Workload",
    "record_json",
]
