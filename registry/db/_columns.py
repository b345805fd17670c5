"""The column and table types of the registry database, and the rule its types follow.

A byte count is ``DECIMAL(38,0)`` (exact; a 1M-token cache for a large batch passes 2^63, and DuckDB
writes ``HUGEINT`` to Parquet as a lossy ``DOUBLE`` while ``DECIMAL(38,0)`` travels exactly to Spark,
Trino and pandas); bytes per token are ``DECIMAL(38,8)``, exact for every storage format because block
formats hold at most 2^8 values per block; ``DOUBLE`` is only for times, rates and ratios meant for
display. Units are part of the column name (``total_bytes``, ``context_tokens``, ``measured_ttft_s``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa  # type: ignore[import-untyped]

TYPE_RULES = """\
Byte counts are `DECIMAL(38,0)`: exact, and wide enough for a 1M-token cache of a large batch, which
passes 2^63. (DuckDB's `HUGEINT` would be as exact inside the database, but becomes a lossy `DOUBLE` in
Parquet, while `DECIMAL(38,0)` reaches Spark, Trino and pandas unchanged.) Bytes per token are
`DECIMAL(38,8)`, exact for every storage format: a block format holds at most 256 values per block, so a
per-token size is a multiple of 1/256 byte. `DOUBLE` is used only for times, rates and ratios meant for
reading. Units are part of the column name: `total_bytes`, `context_tokens`, `measured_ttft_s`. A
context written 128K is 131,072 tokens; GB is 10^9 bytes and GiB 2^30.
"""
"""The type conventions, as the site's table reference prints them."""

BYTES = "DECIMAL(38,0)"
BYTES_PER_TOKEN = "DECIMAL(38,8)"
BYTES_PER_TOKEN_SCALE = 8

_ARROW: dict[str, pa.DataType] = {
    "VARCHAR": pa.string(),
    "JSON": pa.string(),
    "BOOLEAN": pa.bool_(),
    "INTEGER": pa.int32(),
    "BIGINT": pa.int64(),
    "DOUBLE": pa.float64(),
    "DATE": pa.date32(),
    BYTES: pa.decimal128(38, 0),
    BYTES_PER_TOKEN: pa.decimal128(38, BYTES_PER_TOKEN_SCALE),
    "VARCHAR[]": pa.list_(pa.string()),
    "INTEGER[]": pa.list_(pa.int32()),
}


@dataclass(frozen=True)
class Column:
    """One column: its name, its DuckDB type and what it holds."""

    name: str
    sql: str
    doc: str

    @property
    def scale(self) -> int | None:
        """Digits after the point of a ``DECIMAL`` column; None for other types."""
        if not self.sql.startswith("DECIMAL("):
            return None
        return int(self.sql[len("DECIMAL(") : -1].split(",")[1])

    @property
    def arrow(self) -> pa.DataType:
        """The Arrow type the loader builds the column with (``JSON`` travels as text)."""
        return _ARROW[self.sql]


@dataclass(frozen=True)
class Table:
    """One table: its name, what one row is, and its columns in order."""

    name: str
    doc: str
    columns: tuple[Column, ...]

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    def create_statement(self) -> str:
        """``CREATE TABLE`` with the declared types; names are ours, never from a record."""
        columns = ",\n  ".join(f'"{column.name}" {column.sql}' for column in self.columns)
        return f'CREATE TABLE "{self.name}" (\n  {columns}\n)'


def _c(name: str, sql: str, doc: str) -> Column:
    return Column(name, sql, doc)
