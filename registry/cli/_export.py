"""registry export"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DESCRIPTION = """\
Export every table of the registry database as one Parquet file per table (records.parquet,
models.parquet, ...), for DuckDB on object storage, Spark, Trino or pandas once the registry outgrows
one machine. The database is built first when it is missing or older than the records. Byte columns
keep their exact DECIMAL(38,0) type. Each file is written atomically.
"""

EPILOG = """\
examples:
  registry export --parquet build/parquet
  duckdb -c "SELECT * FROM 'build/parquet/kv_at_context.parquet' LIMIT 5"

exit codes: 0 written, 1 the database could not be built (the registry has errors; they are listed),
2 could not run.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--parquet", metavar="DIR", required=True, help="the folder to write <table>.parquet files into"
    )
    parser.add_argument("--db", metavar="PATH", help="the database file (default: build/registry.duckdb)")


def run(args: argparse.Namespace) -> int:
    from registry.cli._db import current_database  # lazy
    from registry.db import export_parquet  # lazy

    path = current_database(args)
    if path is None:
        return 1
    written = export_parquet(path, Path(args.parquet))
    sys.stderr.write(f"Wrote {len(written)} Parquet files to {args.parquet}.\n")
    return 0
