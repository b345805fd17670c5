"""Reading the result files of the engines' serving benchmarks, every value checked before any record is
made: ``vllm bench serve --save-result`` writes one JSON object, ``python -m sglang.bench_serving
--output-file`` appends one JSON object a line (JSONL).

A file that is not JSON is refused with its ``file:line:column``; a file of another tool (an object
without the keys its writer always writes) with the keys it lacks; a value of the wrong type with its
JSON pointer (``file:line: /mean_ttft_ms``). Numbers keep the text the file writes them with (a float is
read as a :class:`~decimal.Decimal`), so a record states the figure exactly as measured.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.numbers import NumberRefused, source_number
from registry.reading import JsonRefused, bounded_json, read_regular

MAX_BYTES = 64 * 1024 * 1024
"""A result with ``--save-detailed`` holds every request's figures; anything far larger is not one."""

Number = int | Decimal
Trace = Literal["trace"]
TRACE: Trace = "trace"
"""SGLang's ``request_rate`` when ``--use-trace-timestamps`` sent each request at the time the dataset's
trace gives it (the Mooncake traces), not at a rate."""


@dataclass(frozen=True)
class BenchRun:
    """One run's result object: where it is (the line for JSONL) and its values by key."""

    path: Path
    line: int | None
    values: dict[str, Any]
    text: str

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else str(self.path)

    def _fail(self, key: str, wanted: str) -> SourceError:
        pointer = key.replace("~", "~0").replace("/", "~1")
        return SourceError(f"{self.where}: /{pointer}: {self.values[key]!r} is not {wanted}")

    def number(self, key: str) -> Number | None:
        """The number at ``key`` (``None`` when absent or null); anything else is bad input."""
        value = self.values.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise self._fail(key, "a number")
        return value

    def count(self, key: str) -> int | None:
        """The whole number at ``key``, at least 1, or ``None`` when absent or null."""
        value = self.number(key)
        if value is not None and (not isinstance(value, int) or value < 1):
            raise self._fail(key, "a whole number of at least 1")
        return value

    def rate(self, key: str) -> Number | Trace | None:
        """A request rate: a number, ``None`` for infinity (written ``"inf"`` by vLLM and
        ``Infinity`` by SGLang's ``json.dumps``: every request sent at time 0), or :data:`TRACE` where
        SGLang replayed the dataset's own arrival times (``"trace"``)."""
        value = self.values.get(key)
        if value == "inf" or (isinstance(value, float) and math.isinf(value) and value > 0):
            return None
        if value == TRACE:
            return TRACE
        if isinstance(value, bool) or not isinstance(value, int | Decimal) or value <= 0:
            raise self._fail(key, 'a request rate (a positive number, inf or "trace")')
        return value

    def text_of(self, key: str) -> str | None:
        value = self.values.get(key)
        if value is not None and not isinstance(value, str):
            raise self._fail(key, "a string")
        return value


def _constant(name: str) -> float:
    """``Infinity``, ``-Infinity`` and ``NaN`` as Python's json module writes them; only a request rate
    may be infinite, which :meth:`BenchRun.rate` checks."""
    return float(name.lower().replace("infinity", "inf"))


def parse_json(path: Path, text: str, line: int | None = None) -> Any:
    """``text`` (the file at ``path``, or its ``line``) as JSON, the one way every JSON importer reads:
    a record's bounds on nesting, no key named twice (which value is meant cannot be known), and every
    number read by the record's rules (:func:`~registry.authoring.importers.numbers.source_number`),
    a float kept as the exact ``Decimal`` the file writes. Refused with its place as a
    :class:`SourceError`."""
    where = f"{path}:{line}" if line is not None else str(path)
    try:
        return bounded_json(
            text, parse_int=source_number, parse_float=source_number, parse_constant=_constant
        )
    except json.JSONDecodeError as error:
        at = (line or 1) + error.lineno - 1
        raise SourceError(f"{path}:{at}:{error.colno}: not JSON: {error.msg}") from None
    except (JsonRefused, NumberRefused) as refused:
        raise SourceError(f"{where}: {refused}") from None


def _parse(path: Path, text: str, line: int | None) -> dict[str, Any]:
    value = parse_json(path, text, line)
    if not isinstance(value, dict):
        where = f"{path}:{line}" if line is not None else str(path)
        raise SourceError(f"{where}: a JSON {type(value).__name__}, not a benchmark result object")
    return value


def _check_keys(run: BenchRun, required: tuple[str, ...], tool: str) -> BenchRun:
    missing = [key for key in required if key not in run.values]
    if missing:
        raise SourceError(
            f"{run.where}: not a {tool} result (a JSON of another tool?): it lacks {', '.join(missing)}"
        )
    return run


def _read(path: Path) -> str:
    try:
        return read_regular(path, MAX_BYTES).decode("utf-8")
    except UnicodeDecodeError as error:
        raise SourceError(f"{path}: not UTF-8 text (byte {error.start})") from None


def read_json(path: Path, required: tuple[str, ...], tool: str) -> list[BenchRun]:
    """The one result object of a JSON file; a file of several objects, one a line (vLLM's
    ``--append-result``), is read as JSONL."""
    text = _read(path)
    try:
        values = _parse(path, text, None)
    except SourceError:
        if len([line for line in text.splitlines() if line.strip()]) > 1:
            return read_jsonl(path, required, tool, text)
        raise
    return [_check_keys(BenchRun(path, None, values, text), required, tool)]


def read_jsonl(path: Path, required: tuple[str, ...], tool: str, text: str | None = None) -> list[BenchRun]:
    """Each non-blank line's result object, with its 1-based line number."""
    runs = []
    for number, line in enumerate((_read(path) if text is None else text).splitlines(), start=1):
        if line.strip():
            run = BenchRun(path, number, _parse(path, line, number), line)
            runs.append(_check_keys(run, required, tool))
    if not runs:
        raise SourceError(f"{path}: no result lines")
    return runs


def read_value(path: Path) -> tuple[str, Any]:
    """The whole file as one JSON value of any type (the readers of tools that write nested objects or
    arrays), numbers kept as written; a file that does not parse is refused with its place."""
    text = _read(path)
    return text, parse_json(path, text)
