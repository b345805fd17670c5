"""A JSON value read from a file, with its JSON pointer, so that a value of the wrong type is refused as
``file: /benchmarks/0/metrics/ttft/mean: 'fast' is not a number`` and a statistics object becomes the
record's metrics in one call.

Numbers keep the text the file writes them with (a float is a :class:`~decimal.Decimal`), and ``NaN``
or an infinity is no figure (a tool writes them for a statistic over no requests).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from registry.authoring.importers.bench_json import Number
from registry.authoring.importers.imported import RunDraft
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import plain

STATISTICS = {
    "mean": "mean",
    "avg": "mean",
    "median": "median",
    "p50": "median",
    "p90": "p90",
    "p95": "p95",
    "p99": "p99",
    "p99.9": "p99.9",
    "p999": "p99.9",
    "p99p9": "p99.9",
    "min": "min",
    "max": "max",
}
"""A statistic as the tools name it -> the record's (GuideLLM's ``p999``, llm-d's ``p99p9``,
inference-perf's ``p99.9``, genai-perf's ``avg``); the others (``std``, ``p25``, ...) are not stated."""


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


@dataclass(frozen=True)
class Node:
    """A value at ``pointer`` in the file at ``path``."""

    path: Path
    pointer: str
    value: Any

    @property
    def where(self) -> str:
        return f"{self.path}: {self.pointer or '/'}"

    def fail(self, wanted: str) -> SourceError:
        shown = plain(repr(self.value), 80)
        return SourceError(f"{self.where}: {shown} is not {wanted}")

    def get(self, key: str) -> Node:
        """The member ``key`` (a node of ``None`` when absent); this node must be an object or null."""
        if self.value is None:
            return Node(self.path, f"{self.pointer}/{_escape(key)}", None)
        if not isinstance(self.value, dict):
            raise self.fail("an object")
        return Node(self.path, f"{self.pointer}/{_escape(key)}", self.value.get(key))

    def at(self, *keys: str) -> Node:
        node = self
        for key in keys:
            node = node.get(key)
        return node

    def items(self) -> list[Node]:
        """The members of an array (none for null)."""
        if self.value is None:
            return []
        if not isinstance(self.value, list):
            raise self.fail("an array")
        return [Node(self.path, f"{self.pointer}/{i}", item) for i, item in enumerate(self.value)]

    def names(self) -> list[str]:
        return list(self.value) if isinstance(self.value, dict) else []

    def number(self) -> Number | None:
        """The number here; ``None`` when absent, null, NaN or infinite; anything else is refused."""
        value = self.value
        if value is None or (isinstance(value, float) and not math.isfinite(value)):
            return None
        if isinstance(value, Decimal) and not value.is_finite():
            return None
        if isinstance(value, float):
            return Decimal(repr(value))  # a YAML file's float: its shortest text
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise self.fail("a number")
        return value

    def count(self) -> int | None:
        """A whole number of at least 1 (a float with no fraction is one: ``500.0``), or ``None``."""
        value = self.number()
        if value is None:
            return None
        if value < 1 or value != int(value):
            raise self.fail("a whole number of at least 1")
        return int(value)

    def text(self) -> str | None:
        if self.value is None:
            return None
        if not isinstance(self.value, str):
            raise self.fail("a string")
        return self.value


def add_statistics(
    out: RunDraft, node: Node, metric: str, per: str, unit: str, *, only: tuple[str, ...] = ()
) -> int:
    """Each statistic of the object at ``node`` that the record states, as a metric of ``metric`` in
    ``unit``; ``only`` keeps those statistics alone. The number of metrics added."""
    added, seen = 0, set()
    for key in node.names():
        statistic = STATISTICS.get(key)
        if statistic is None or statistic in seen or (only and statistic not in only):
            continue
        value = node.get(key).number()
        if value is not None and value >= 0:
            out.add_metric(metric, statistic, per, value, unit)
            seen.add(statistic)
            added += 1
    return added
