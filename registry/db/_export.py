"""Parquet export: one file per table, for engines that read Parquet where the registry outgrows one machine
(DuckDB on object storage, Spark, Trino, pandas).

Each file is written by DuckDB itself from the built database (``COPY ... TO ... (FORMAT parquet)``), so
it holds exactly what ``registry query`` sees, with the same types: bytes stay ``DECIMAL(38,0)``, which
Parquet stores exactly. Each is written atomically.
"""

from __future__ import annotations

import os
import uuid
from functools import partial
from pathlib import Path
from typing import Any

from registry.db._query import within_limit
from registry.db._tables import TABLES

ROW_GROUP_BYTES = 4 << 20
"""A Parquet row group holds about this many bytes of a table (a narrow table's group holds tens of
thousands of rows, a group of records with their JSON about 1,800)."""

LIMIT = "24MB"
"""DuckDB's memory limit while it writes the files. It streams a table through, a row group at a time,
and keeps the blocks it has read, up to the limit, until the connection closes; the limit must still
hold a row group of records (:data:`ROW_GROUP_BYTES`).

DuckDB writes the files itself: reading the tables back into Arrow and writing them with pyarrow, as
the export did before, peaked higher, kept more and made larger files."""


def export_parquet(database: Path, out_dir: Path) -> list[Path]:
    """Write ``<table>.parquet`` into ``out_dir`` for every table of the database; returns the files."""
    import duckdb  # lazy

    written: list[Path] = []
    connection = duckdb.connect(str(database), read_only=True, config={"threads": 1, "memory_limit": LIMIT})
    try:
        for table in TABLES:
            target = out_dir / f"{table.name}.parquet"
            within_limit(connection, partial(_export_table, connection, table.name, target), LIMIT)
            written.append(target)
    finally:
        connection.close()
    return written


def _export_table(connection: Any, name: str, target: Path) -> None:
    """One table into ``target``: DuckDB writes a new file beside it (with the usual permissions, as
    any file it creates), which then replaces it. One thread keeps the rows in the table's order."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    quoted = str(temporary).replace("'", "''")
    try:
        connection.execute(
            f"COPY \"{name}\" TO '{quoted}' "
            f"(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE_BYTES {ROW_GROUP_BYTES})"
        )
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
