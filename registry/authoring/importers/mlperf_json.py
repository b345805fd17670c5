"""Reading the round table MLPerf Inference v4.1 to v6.0 publish instead of ``summary.csv``:
``summary_results.json``, a JSON array of one object per submitted result, into the rows the CSV
reader gives (:class:`~registry.authoring.importers.mlperf_table.SummaryRow`, under the 31 columns'
names), and choosing the reader by what a file is.

The rounds' keys (each round's README in the results repository lists them): ``Submitter``,
``Category`` (the division), ``Suite`` (the system type), ``System``, ``Platform``, ``UsedModel`` (the
folder of what ran) and ``Model`` (the benchmark), ``Scenario``, ``Accuracy``, ``Nodes``, ``Processor``,
``Accelerator``, ``a#`` (accelerators per node, a float or ``""``), v6.0's ``Total Accelerators``,
``Location``, ``Software``, ``Notes``, ``inferred``, ``weight_data_types``, ``ID`` (the result ID,
``v4.1-0001`` in v4.1 and ``5.1-0001`` after), ``Performance_Result`` with ``Performance_Units``, and on
rows with power ``Power_Result`` with ``Power_Units``. Numbers are kept as the file writes them (the
stated result is the file's text). A file that does not parse is refused at the line and column where the
parser stopped; another tool's JSON is named for what it is.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from registry.authoring.importers.mlperf_table import (
    COLUMNS,
    EXTRA,
    MAX_BYTES,
    SourceError,
    SummaryRow,
    read_summary,
)
from registry.authoring.importers.sniff import other_tool
from registry.reading import read_regular

SHAPE = "a round's summary_results.json"

KEYS = {
    "Organization": "Submitter",
    "Availability": "Availability",
    "Division": "Category",
    "SystemType": "Suite",
    "SystemName": "System",
    "Platform": "Platform",
    "Model": "Model",
    "MlperfModel": "Model",
    "Scenario": "Scenario",
    "Result": "Performance_Result",
    "Accuracy": "Accuracy",
    "number_of_nodes": "Nodes",
    "host_processor_model_name": "Processor",
    "host_processors_per_node": "host_processors_per_node",
    "host_processor_core_count": "host_processor_core_count",
    "accelerator_model_name": "Accelerator",
    "accelerators_per_node": "a#",
    "total_accelerators": "Total Accelerators",
    "Location": "Location",
    "framework": "Software",
    "operating_system": "operating_system",
    "notes": "Notes",
    "compliance": "compliance",
    "errors": "errors",
    "version": "version",
    "inferred": "inferred",
    "has_power": "has_power",
    "Units": "Performance_Units",
    "weight_data_types": "weight_data_types",
    "ID": "ID",
    "UsedModel": "UsedModel",
    "power": "Power_Result",
    "power_units": "Power_Units",
}
"""Each row cell -> the JSON key it is read from (a key a round lacks leaves the cell empty)."""

REQUIRED = ("ID", "Submitter", "Category", "Platform", "UsedModel", "Model", "Scenario", "Performance_Result")


def read_table(path: Path) -> list[SummaryRow]:
    """The rows of the results table at ``path``: JSON when it starts with ``[`` or ``{``, else CSV."""
    raw = read_regular(path, MAX_BYTES)
    if raw.lstrip()[:1] in (b"[", b"{"):
        return read_json_summary(path, raw)
    return read_summary(path)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def read_json_summary(path: Path, raw: bytes) -> list[SummaryRow]:
    """Every row of a ``summary_results.json``, or :class:`SourceError` for the first bad one."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise SourceError(f"{path}:{line}: not UTF-8 text, so not an MLPerf results summary") from None
    try:
        value = json.loads(text, parse_float=str, parse_int=str, parse_constant=str)
    except json.JSONDecodeError as error:
        raise SourceError(f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    other = other_tool(value, "mlperf")
    if other is not None:
        raise SourceError(f"{path}: {other}")
    if not isinstance(value, list):
        raise SourceError(f"{path}:1: not {SHAPE} (a JSON array of one object per result)")
    lines = _object_lines(text)
    return [_row(path, lines.get(n, 1), n + 1, item) for n, item in enumerate(value)]


def _object_lines(text: str) -> dict[int, int]:
    """The line each top-level element starts on: the rounds' files indent their objects by 2 spaces."""
    found: dict[int, int] = {}
    line = 1
    for number, content in enumerate(text.splitlines(), start=1):
        if content.startswith("  {"):
            found[len(found)] = number
        line = number
    return found or dict.fromkeys(range(line), 1)


def _row(path: Path, line: int, number: int, item: Any) -> SummaryRow:
    where = f"{path}:{line}"
    if not isinstance(item, dict):
        raise SourceError(f"{where}: element {number} is not an object, so not a row of {SHAPE}")
    missing = [key for key in REQUIRED if key not in item]
    if missing:
        raise SourceError(
            f"{where}: element {number} lacks {', '.join(missing)}, so it is not a row of {SHAPE}"
        )
    for key, cell in item.items():
        if isinstance(cell, dict | list):
            raise SourceError(f"{where}: {key} is a JSON {type(cell).__name__}, not a value")
    cells = {name: _text(item.get(key)) for name, key in KEYS.items()}
    cells["accelerators_per_node"] = _whole(where, "a#", cells["accelerators_per_node"] or "0")
    cells["number_of_nodes"] = _whole(where, "Nodes", cells["number_of_nodes"])
    if not cells["accelerator_model_name"]:
        cells["accelerator_model_name"] = "N/A"
    total = int(cells["number_of_nodes"]) * int(cells["accelerators_per_node"])
    cells["total_accelerators"] = _whole(
        where, "Total Accelerators", cells["total_accelerators"] or str(total)
    )
    cells["Result"] = _result(where, cells["Result"])
    return read_rows_of(path, line, number, cells)


def _whole(where: str, key: str, text: str) -> str:
    """A count as a whole number's digits: the v4.1 file writes ``a#`` as ``8.0``."""
    head, dot, tail = text.partition(".")
    if not head.isdigit() or (dot and tail.strip("0")):
        raise SourceError(f"{where}: {key} {text!r} is not a whole number")
    return head


def _result(where: str, text: str) -> str:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise SourceError(f"{where}: Performance_Result {text!r} is not a number")
    return text


def read_rows_of(path: Path, line: int, number: int, cells: dict[str, str]) -> SummaryRow:
    """A row of checked cells as the CSV reader makes it."""
    ordered = {name: cells.get(name, "") for name in COLUMNS} | {name: cells.get(name, "") for name in EXTRA}
    return SummaryRow(
        path,
        line,
        number,
        ordered,
        float(ordered["Result"]),
        int(ordered["number_of_nodes"]),
        int(ordered["accelerators_per_node"]),
        int(ordered["total_accelerators"]),
        shape=SHAPE,
    )
