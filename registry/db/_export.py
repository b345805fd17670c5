"""Parquet export: one file per table, for engines that read Parquet where the registry outgrows one machine
(DuckDB on object storage, Spark, Trino, pandas).

Each file is read from the built database, so it holds exactly what ``registry query`` sees, with the same
types: bytes stay ``DECIMAL(38,0)``, which Parquet stores exactly. Each is written atomically.
"""

from __future__ import annotations

import io
from pathlib import Path

from registry._io import write_atomic
from registry.db._tables import TABLES


def export_parquet(database: Path, out_dir: Path) -> list[Path]:
    """Write ``<table>.parquet`` into ``out_dir`` for every table of the database; returns the files."""
    import duckdb
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    written: list[Path] = []
    connection = duckdb.connect(str(database), read_only=True)
    try:
        for table in TABLES:
            data = connection.sql(f'SELECT * FROM "{table.name}"').to_arrow_table()
            buffer = io.BytesIO()
            pq.write_table(data, buffer, compression="zstd")
            target = out_dir / f"{table.name}.parquet"
            write_atomic(target, buffer.getvalue())
            written.append(target)
    finally:
        connection.close()
    return written
