"""The registry's own record files that the per-file tests (schema and model agreement, the fast
loader, ``fmt``'s round trip) run on.

Every record written by hand is in, whatever its shape. Of the benchmark records an importer wrote
(``provenance.source`` other than ``manual``), which come by the hundred from one template per source
and differ only in their values, two of each *shape* are in: the first and the last file of every set
of key paths (lists folded, so ``metrics[].constraints[].limit``). A shape no other record has is
always tested; what the sample leaves out is one more record of a shape already tested, whose values
``registry check`` still validates in full (tests/test_corpus.py checks every record).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import REPO

RECORDS = REPO / "records"


def _key_paths(value: Any, prefix: str = "") -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}"
            yield path
            yield from _key_paths(item, path)
    elif isinstance(value, list):
        for item in value:
            yield from _key_paths(item, f"{prefix}[]")


def _imported_shape(path: Path) -> frozenset[str] | None:
    """The key paths of a benchmark record an importer wrote, or None for any other file."""
    if path.parent.name != "benchmarks":
        return None
    try:
        data = yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return None
    provenance = data.get("provenance") if isinstance(data, dict) else None
    source = provenance.get("source") if isinstance(provenance, dict) else None
    if source in (None, "manual"):
        return None
    return frozenset(_key_paths(data))


def record_files() -> list[Path]:
    """The record files under ``records/`` the per-file tests take, sorted (see the module docstring)."""
    kept: list[Path] = []
    shapes: dict[frozenset[str], list[Path]] = defaultdict(list)
    for path in sorted(p for p in RECORDS.rglob("*.yaml") if p.is_file()):
        shape = _imported_shape(path)
        if shape is None:
            kept.append(path)
        else:
            shapes[shape].append(path)
    for paths in shapes.values():
        kept.extend(dict.fromkeys((paths[0], paths[-1])))
    return sorted(kept)
