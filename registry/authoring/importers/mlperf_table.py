"""Reading an MLPerf Inference results summary (``summary.csv``) into rows, every cell checked first.

The table is MLCommons' own: one header of 31 named columns, then one quoted row per submitted result
(a system, a benchmark model, a scenario). A file with another header, a row with another number of
fields, a ``Result`` that is not a number or a count that is not a whole number is refused with its
``file:line``, before any record is made, so that an import writes everything or nothing.
"""

from __future__ import annotations

import csv
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
    result: float
    nodes: int
    accelerators_per_node: int
    total_accelerators: int

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
        _check_header(path, header)
        start = reader.line_num + 1
        for fields in reader:
            rows.append(_row(path, start, len(rows) + 1, fields))
            start = reader.line_num + 1
    except csv.Error as error:
        raise SourceError(f"{path}:{reader.line_num}: not valid CSV ({error})") from None
    return rows


def _check_header(path: Path, fields: list[str]) -> None:
    if tuple(fields) == COLUMNS:
        return
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
        f"expected the {len(COLUMNS)} columns {', '.join(COLUMNS[:3])}, ... {COLUMNS[-1]}"
    )


def _row(path: Path, line: int, number: int, fields: list[str]) -> SummaryRow:
    where = f"{path}:{line}"
    if len(fields) != len(COLUMNS):
        raise SourceError(f"{where}: {len(fields)} fields, but the header has {len(COLUMNS)}")
    cells = dict(zip(COLUMNS, fields, strict=True))
    result = _number(where, cells["Result"])
    counts = [_count(where, name, cells[name]) for name in _COUNTS]
    return SummaryRow(path, line, number, cells, result, *counts)


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
