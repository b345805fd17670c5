"""Reading an MLPerf Inference results summary in CSV into rows, every cell checked first.

Three CSV shapes, told apart by their header: the round's own ``summary.csv`` (31 named columns, as
v6.1 publishes it), and the per-submitter summary the submission checker writes (28 columns, without
``total_accelerators``, ``design_power_watts`` and ``PrivateID``, as the v5.1 checker writes it; 29
with ``total_accelerators``, as the v6.0 checker writes it). Every row comes out under the 31 columns'
names; a column a shape lacks is empty, and a missing ``total_accelerators`` is
``number_of_nodes x accelerators_per_node``. A row whose ``Units`` is a power unit is the checker's
power row for the result before it: its figure is that result's power. A file with another header, a
row with another number of fields, a ``Result`` that is not a number or a count that is not a whole
number is refused with its ``file:line``, before any record is made, so that an import writes
everything or nothing. The round tables of v4.1 to v6.0 are JSON
(:mod:`registry.authoring.importers.mlperf_json`).
"""

from __future__ import annotations

import csv
import dataclasses
import io
from dataclasses import dataclass
from pathlib import Path

from registry.authoring.importers.numbers import NumberRefused, source_number
from registry.errors import RegistryError
from registry.reading import read_regular

COLUMNS = (
    "Organization", "Availability", "Division", "SystemType", "SystemName", "Platform", "Model",
    "MlperfModel", "Scenario", "Result", "Accuracy", "number_of_nodes", "host_processor_model_name",
    "host_processors_per_node", "host_processor_core_count", "accelerator_model_name",
    "accelerators_per_node", "total_accelerators", "Location", "framework", "operating_system", "notes",
    "compliance", "errors", "version", "inferred", "has_power", "Units", "weight_data_types",
    "design_power_watts", "PrivateID",
)  # fmt: skip
"""The summary's columns, in the order MLCommons writes them."""

SUBMITTER_COLUMNS = tuple(
    c for c in COLUMNS if c not in ("total_accelerators", "design_power_watts", "PrivateID")
)
"""The submission checker's per-submitter summary (v5.1's checker): 28 columns."""
SUBMITTER_TOTAL_COLUMNS = tuple(c for c in COLUMNS if c not in ("design_power_watts", "PrivateID"))
"""The per-submitter summary of v6.0's checker, which adds ``total_accelerators``: 29 columns."""

SHAPES = {
    COLUMNS: "a round's summary.csv (31 columns)",
    SUBMITTER_COLUMNS: "a submitter's summary from the submission checker (28 columns)",
    SUBMITTER_TOTAL_COLUMNS: "a submitter's summary from the submission checker (29 columns)",
}
POWER_UNITS = ("Watts", "millijoules")

MAX_BYTES = 64 * 1024 * 1024
"""A results summary is a few hundred kilobytes; anything far larger is not one."""

_COUNTS = ("number_of_nodes", "accelerators_per_node", "total_accelerators")


class SourceError(RegistryError):
    """The file is not a results summary this importer can read; the message starts with ``file:line``."""


@dataclass(frozen=True)
class SummaryRow:
    """One data row: its cells by column name, where it is in the file, and its checked numbers."""

    path: Path
    line: int
    row: int
    cells: dict[str, str]
    """The row's cells under the 31 columns' names, with ``ID``, ``UsedModel``, ``power`` and
    ``power_units`` where the shape has them (empty otherwise)."""
    result: float
    nodes: int
    accelerators_per_node: int
    total_accelerators: int
    shape: str = ""
    """What kind of file the row was read from, in words."""

    def __getitem__(self, column: str) -> str:
        return self.cells[column]

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def read_summary(path: Path) -> list[SummaryRow]:
    """Every data row of the summary at ``path``, or :class:`SourceError` for the first bad one."""
    raw = read_regular(path, MAX_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise SourceError(f"{path}:{line}: not UTF-8 text, so not an MLPerf results summary") from None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[SummaryRow] = []
    try:
        header = next(reader, None)
        if header is None:
            raise SourceError(
                f"{path}:1: the file is empty; an MLPerf results summary starts with its header"
            )
        columns = _check_header(path, header)
        start = reader.line_num + 1
        for fields in reader:
            row = _row(path, start, len(rows) + 1, fields, columns)
            if row["Units"] in POWER_UNITS:
                rows[-1:] = [_with_power(row, rows[-1] if rows else None)]
            else:
                rows.append(row)
            start = reader.line_num + 1
    except csv.Error as error:
        raise SourceError(f"{path}:{reader.line_num}: not valid CSV ({error})") from None
    return rows


def _with_power(power: SummaryRow, result: SummaryRow | None) -> SummaryRow:
    """The result row before a power row, with that power: the checker writes a result's power as the
    next row, the same but for its ``Result`` and ``Units``."""
    same = ("Organization", "Platform", "Model", "Scenario")
    if result is None or any(result[c] != power[c] for c in same) or result["power"]:
        raise SourceError(
            f"{power.where}: a power row ({power['Units']}) that follows no result of its system"
        )
    cells = result.cells | {"power": power["Result"], "power_units": power["Units"]}
    return dataclasses.replace(result, cells=cells)


def _check_header(path: Path, fields: list[str]) -> tuple[str, ...]:
    if tuple(fields) in SHAPES:
        return tuple(fields)
    missing = [name for name in COLUMNS if name not in fields]
    extra = [name for name in fields if name not in COLUMNS]
    detail = []
    if missing:
        detail.append(f"missing {', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
    if extra:
        detail.append(f"unknown {', '.join(repr(e) for e in extra[:5])}{' ...' if len(extra) > 5 else ''}")
    if not detail:
        detail.append("the columns are in another order")
    raise SourceError(
        f"{path}:1: not the header of an MLPerf Inference results summary ({'; '.join(detail)}); "
        f"expected the {len(COLUMNS)} columns {', '.join(COLUMNS[:3])}, ... {COLUMNS[-1]} of a round's "
        f"summary.csv, or the submission checker's {len(SUBMITTER_COLUMNS)} or {len(SUBMITTER_TOTAL_COLUMNS)}"
    )


EXTRA = ("ID", "UsedModel", "power", "power_units")
"""Cells some shapes have beyond the 31 columns: the result ID, the model that ran (where the benchmark
is another column), and the result's power."""


def _row(path: Path, line: int, number: int, fields: list[str], columns: tuple[str, ...]) -> SummaryRow:
    where = f"{path}:{line}"
    if len(fields) != len(columns):
        raise SourceError(f"{where}: {len(fields)} fields, but the header has {len(columns)}")
    given = dict(zip(columns, fields, strict=True))
    cells = {name: given.get(name, "") for name in COLUMNS} | dict.fromkeys(EXTRA, "")
    if "total_accelerators" not in given:
        nodes = _count(where, "number_of_nodes", cells["number_of_nodes"])
        per_node = _count(where, "accelerators_per_node", cells["accelerators_per_node"] or "0")
        cells["total_accelerators"] = str(nodes * per_node)
    if not cells["accelerators_per_node"] and cells["accelerator_model_name"] in ("", "N/A"):
        cells["accelerators_per_node"] = "0"
    result = _number(where, cells["Result"])
    nodes, per_node, total = (_count(where, name, cells[name]) for name in _COUNTS)
    return SummaryRow(path, line, number, cells, result, nodes, per_node, total, shape=SHAPES[columns])


def _number(where: str, text: str) -> float:
    """A Result cell, read by the record's rules for numbers (:func:`~registry.authoring.importers.
    numbers.source_number`: no ``1_000``, no other script's digits, no ``1e308``), and not negative."""
    try:
        value = float(source_number(text))
    except NumberRefused as refused:
        raise SourceError(f"{where}: Result {refused}") from None
    if value < 0:
        raise SourceError(f"{where}: Result {text!r} is not a number a result can be (it is negative)")
    return value


def _count(where: str, column: str, text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise SourceError(f"{where}: {column} {text!r} is not a whole number")
    return int(text)
