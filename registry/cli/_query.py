"""registry query"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DESCRIPTION = """\
Run SQL against the registry database through a read-only connection that can touch no other file:
COPY ... TO, read_csv(), read_text() and ATTACH are refused, and no extension is installed or loaded
(INSTALL httpfs fails), whatever the SQL sets. --allow-files lets the SQL read and write files, to join
your own data; it still installs and loads no extension. The database is built first
when it is missing or older than the records (a fingerprint of every record file and of the tool is
kept in its metadata table, so an edit is noticed even when modification times are not). SQL is
DuckDB's dialect; the tables and their columns are listed on the site's Database page, or with
registry query "DESCRIBE models".

To take the answer or the tables elsewhere on purpose: --format csv (or json) written to a file by your
shell, or 'registry export --parquet DIR' for every table as Parquet.
"""

EPILOG = """\
examples:
  registry query "SELECT model_id, total_gib FROM kv_at_context
                  WHERE layout = 'ideal' AND kv_dtype = 'bf16' AND context = '128K'
                    AND total_bytes < 10 * 2^30 ORDER BY total_bytes"
  registry query "SELECT id, kv_dtype, prefix_cache FROM runs WHERE kv_dtype LIKE 'fp8%'" --format csv
  echo "SELECT count(*) FROM records" | registry query - --format json
  registry query --allow-files "SELECT m.id, t.price FROM models AS m
                                JOIN read_csv('my-prices.csv') AS t ON t.model = m.id"
  registry query "SELECT * FROM models" --format csv > models.csv
  registry export --parquet build/parquet          (every table, as Parquet)

A draft (a record that does not validate yet, such as one 'registry new' wrote with fields left to
fill) does not stop the query: the database is built without it and the records pointing at it, its
findings are listed on standard error, and each query of that file notes the records it lacks. Any
other error (a wrong number, a dangling reference) still refuses the build.

The answer is written as it is read, a batch of rows at a time; the table format shows the first 1,000
rows and says when there were more (csv, json and markdown write them all). Control characters in a
value are written as escapes; in csv, a text cell starting with =, +, -, @, a tab or a carriage return
gets a leading ' so that a spreadsheet shows it rather than running it. A query runs at most --timeout
seconds (default 60) within --memory-limit of memory (default 1GB), both set before the SQL runs, which
cannot raise them. Ctrl-C stops the query (exit 130).

exit codes: 0 answered (drafts left out are noted on standard error), 1 the database could not be
built (the registry has errors other than drafts'; they are listed), 2 could not run (an error in the
SQL, an empty query, a bad option, a --db folder that does not exist, a query past its --timeout or
its --memory-limit), 130 interrupted.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sql", metavar="SQL", help="the query; '-' reads it from standard input")
    parser.add_argument(
        "--format",
        choices=("table", "csv", "json", "markdown"),
        default="table",
        help="output format (default: table)",
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="the database file (default: build/registry.duckdb); its folder must exist",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=float,
        default=60.0,
        help="stop a query that runs longer than this (default: 60 seconds)",
    )
    parser.add_argument(
        "--memory-limit",
        metavar="AMOUNT",
        default="1GB",
        help="the most memory DuckDB may use for the query, e.g. 512MB, 4GB (default: 1GB); the SQL "
        "cannot raise it",
    )
    parser.add_argument(
        "--allow-files",
        action="store_true",
        help="let the SQL read and write files (read_csv, COPY ... TO); still no extension is installed",
    )


def run(args: argparse.Namespace) -> int:
    from registry.cli._db import current_database  # lazy
    from registry.db import StillRunning, require_sql, stream_query  # lazy
    from registry.errors import RegistryError  # lazy

    if args.db and not Path(args.db).parent.is_dir():
        raise RegistryError(f"--db {args.db}: the folder {Path(args.db).parent} does not exist")
    sql = require_sql(sys.stdin.read() if args.sql == "-" else args.sql)
    path = current_database(args, leave_out_drafts=True)
    if path is None:
        return 1
    try:
        stream_query(
            path,
            sql,
            sys.stdout,
            args.format,
            allow_files=args.allow_files,
            timeout=args.timeout,
            memory_limit=args.memory_limit,
        )
    except StillRunning:
        # Ctrl-C, and DuckDB has not let go of the query a second later: end the process now, as
        # Ctrl-C asks (an ordinary exit would wait on, then be aborted by, DuckDB's threads).
        sys.stderr.write("registry: interrupted\n")
        sys.stderr.flush()
        os._exit(130)
    return 0
