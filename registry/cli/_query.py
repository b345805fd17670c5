"""registry query"""

from __future__ import annotations

import argparse
import sys

DESCRIPTION = """\
Run SQL against the registry database through a read-only connection. The database is built first
when it is missing or older than the records (a fingerprint of every record file and of the tool is
kept in its metadata table, so an edit is noticed even when modification times are not). SQL is
DuckDB's dialect; the tables and their columns are listed on the site's Database page, or with
registry query "DESCRIBE models".
"""

EPILOG = """\
examples:
  registry query "SELECT model_id, total_gib FROM kv_at_context
                  WHERE layout = 'ideal' AND kv_dtype = 'bf16' AND context = '128K'
                    AND total_bytes < 10 * 2^30 ORDER BY total_bytes"
  registry query "SELECT id, kv_dtype, prefix_cache FROM runs WHERE kv_dtype LIKE 'fp8%'" --format csv
  echo "SELECT count(*) FROM records" | registry query - --format json

exit codes: 0 answered, 1 the database could not be built (the registry has errors; they are listed),
2 could not run (an error in the SQL, a bad option).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sql", metavar="SQL", help="the query; '-' reads it from standard input")
    parser.add_argument(
        "--format",
        choices=("table", "csv", "json", "markdown"),
        default="table",
        help="output format (default: table)",
    )
    parser.add_argument("--db", metavar="PATH", help="the database file (default: build/registry.duckdb)")


def run(args: argparse.Namespace) -> int:
    from registry.cli._db import current_database  # lazy
    from registry.db import FORMATS, run_query  # lazy

    sql = sys.stdin.read() if args.sql == "-" else args.sql
    path = current_database(args)
    if path is None:
        return 1
    result = run_query(path, sql)
    sys.stdout.write(FORMATS[args.format](result))
    return 0
