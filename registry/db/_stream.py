"""``registry query``: a person's SQL on the database, locked down, interruptible and streamed.

- Locked down: the connection is read-only, and DuckDB may neither touch any other file
  (``enable_external_access = false``: no ``COPY ... TO``, ``read_csv``, ``read_text``, ``ATTACH``)
  nor install or load an extension, and ``lock_configuration`` keeps the SQL from changing that.
  ``allow_files`` lets the SQL read and write local files (an analyst joining their own CSV), and still
  installs and loads nothing: the extension folder is a path that cannot be made.
- Interruptible: the query runs in a worker thread while this one waits, so Ctrl-C reaches Python at
  once; it interrupts the connection, and the command exits 130.
- Streamed: rows are fetched and written a batch at a time, so an answer of millions of rows is never
  held whole. The ``table`` format, which needs every width before its first line, shows the first
  :data:`TABLE_ROWS` rows and says that more were left out.

Control characters in the answer (a value, a column name) are written as escapes in every format.
"""

from __future__ import annotations

import csv
import json
import re
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from registry.db._query import QueryResult, _numeric, as_table, markdown_cell, plain, spreadsheet_safe, text
from registry.errors import QueryError
from registry.terminal import terminal_safe as printable

BATCH = 2_048
"""Rows fetched at a time (DuckDB's own vector size)."""
TABLE_ROWS = 1_000
"""Rows the ``table`` format shows; the others formats write every row."""


NO_EXTENSIONS = "/dev/null/registry-no-extensions"
"""The extension folder: a path that cannot be made (under a device), so ``INSTALL`` fails before it
downloads anything, whatever repository it names, and ``LOAD`` finds nothing."""


def lock_down(connection: Any, *, allow_files: bool = False) -> None:
    """Turn off every way out of the database on ``connection``, then lock its configuration; with
    ``allow_files``, local files stay readable and writable (``allowed_directories``), still through no
    extension and over no network."""
    if allow_files:
        connection.execute("SET allowed_directories = ['/']")
    connection.execute("SET enable_external_access = false")
    connection.execute("SET lock_configuration = true")


LOCKED = (
    "; registry query reaches no file but the database: --allow-files lets the SQL read and write your "
    "own files, --format csv or json with your shell's '>' saves an answer, and 'registry export "
    "--parquet DIR' writes every table"
)
"""Said after DuckDB's own words when the SQL reached for a file (``COPY ... TO``, ``read_csv``)."""


OPENING_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "extension_directory": NO_EXTENSIONS,
}
"""What is set as the connection opens; :func:`lock_down` sets the rest (DuckDB takes
``allowed_directories`` only once the database has started)."""


def require_sql(sql: str) -> str:
    """``sql``, refused with a message when it is empty or only whitespace (DuckDB would answer
    nothing, with no description to write)."""
    if not sql.strip():
        raise QueryError('the SQL is empty; give a query, e.g. registry query "SELECT id FROM models"')
    return sql


DEFAULT_TIMEOUT = 60.0
"""Seconds a query may run before it is interrupted (``--timeout``): a query of the registry's tables
answers in well under a second; one that runs a minute is a cross join nobody meant."""
_MEMORY = re.compile(r"[0-9]{1,6}(\.[0-9]{1,3})?\s?(B|[KMGT]i?B)", re.IGNORECASE)
DEFAULT_MEMORY = "1GB"
"""DuckDB's memory limit for a query (``--memory-limit``); DuckDB's own default is most of the machine."""


STOP_SECONDS = 1.0
"""How long Ctrl-C waits for DuckDB to stop an interrupted query before it gives up on it."""


class StillRunning(KeyboardInterrupt):
    """Ctrl-C, with the interrupted query still winding down in DuckDB's threads after
    :data:`STOP_SECONDS`: its connection is left open, and only ending the process at once (not an
    interpreter shutdown, which DuckDB's running threads abort) stops it."""


def stream_query(
    path: Path,
    sql: str,
    out: TextIO,
    format_: str,
    *,
    allow_files: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
    memory_limit: str = DEFAULT_MEMORY,
) -> None:
    """Run ``sql`` on the database at ``path`` and write its answer to ``out`` in ``format_`` as it
    comes, within ``timeout`` seconds and DuckDB's ``memory_limit`` (both set before the configuration
    is locked, so the SQL cannot raise them). Raises :class:`QueryError` for SQL that cannot run or
    runs past the timeout, ``KeyboardInterrupt`` on Ctrl-C (after interrupting the query), or
    :class:`StillRunning` when the query has not stopped a second later."""
    import duckdb  # lazy

    require_sql(sql)
    if not timeout > 0:
        raise QueryError(f"--timeout {timeout}: give a number of seconds above 0")
    if not _MEMORY.fullmatch(memory_limit):
        raise QueryError(f"--memory-limit {memory_limit!r}: give an amount such as 512MB, 1GB or 2GiB")
    try:
        connection = duckdb.connect(
            str(path), read_only=True, config={**OPENING_CONFIG, "memory_limit": memory_limit}
        )
        lock_down(connection, allow_files=allow_files)
    except duckdb.Error as error:
        raise QueryError(f"cannot open {path}: {str(error).splitlines()[0]}") from None
    failure: list[BaseException] = []
    cursor = connection.cursor()  # the one DuckDB lets another thread interrupt while it works

    def work() -> None:
        try:
            cursor.execute(sql)
            _write(cursor, out, format_)
        except BaseException as error:  # handed to the waiting thread
            failure.append(error)

    worker = threading.Thread(target=work, name="registry-query", daemon=True)
    worker.start()
    deadline = time.monotonic() + timeout
    try:
        while worker.is_alive():
            worker.join(0.05)
            if worker.is_alive() and time.monotonic() > deadline:
                cursor.interrupt()
                worker.join(5.0)
                raise QueryError(
                    f"the query ran past {timeout:g} seconds and was stopped (--timeout SECONDS allows more)"
                )
    except KeyboardInterrupt:
        cursor.interrupt()
        worker.join(STOP_SECONDS)
        if worker.is_alive():  # DuckDB is still winding down: say so, and let the caller end now
            raise StillRunning from None
        raise
    finally:
        if not worker.is_alive():
            _close(cursor, connection)
    if failure:
        if isinstance(failure[0], duckdb.Error):
            locked = isinstance(failure[0], duckdb.PermissionException) and not allow_files
            raise QueryError(f"SQL error: {printable(str(failure[0]))}{LOCKED if locked else ''}") from None
        raise failure[0]


def _close(cursor: Any, connection: Any, seconds: float = 5.0) -> None:
    """Close the connection once DuckDB has let go of it: an interrupted query winds its tasks down for
    a few milliseconds more, and a process that exits meanwhile is aborted by DuckDB's own threads."""
    import duckdb  # lazy

    deadline = time.monotonic() + seconds
    while True:
        try:
            cursor.close()
            connection.close()
            return
        except duckdb.Error:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)


def _cell(value: Any, *, spreadsheet: bool = False) -> str:
    """A value as text with its control characters escaped; a number holds none, so it skips the look.
    For a CSV cell (``spreadsheet``), text a spreadsheet would run is neutralised first."""
    if isinstance(value, int | float) or value is None:
        return text(value)
    return printable(spreadsheet_safe(value, text(value)) if spreadsheet else text(value))


def _batches(cursor: Any) -> Iterator[list[tuple[Any, ...]]]:
    while batch := cursor.fetchmany(BATCH):
        yield batch


def _write(cursor: Any, out: TextIO, format_: str) -> None:
    if cursor.description is None:
        return
    columns = tuple(printable(str(d[0])) for d in cursor.description)
    types = tuple(str(d[1]) for d in cursor.description)
    batches = _batches(cursor)
    if format_ == "table":
        _table(columns, types, batches, out)
    elif format_ == "csv":
        _csv(columns, batches, out)
    elif format_ == "json":
        _json(columns, batches, out)
    else:
        _markdown(columns, types, batches, out)


def _table(
    columns: tuple[str, ...], types: tuple[str, ...], batches: Iterator[list[Any]], out: TextIO
) -> None:
    rows: list[tuple[Any, ...]] = []
    more = False
    for batch in batches:
        rows.extend(tuple(_cell(value) for value in row) for row in batch)
        if len(rows) > TABLE_ROWS:
            more = True
            break
    shown = as_table(QueryResult(columns, types, rows[:TABLE_ROWS]))
    if more:
        shown = shown.rsplit("(", 1)[0] + (
            f"(the first {TABLE_ROWS:,} rows; more were left out: use --format csv or json for the whole "
            "answer, or LIMIT)\n"
        )
    out.write(shown)


def _csv(columns: Sequence[str], batches: Iterator[list[Any]], out: TextIO) -> None:
    """CSV as :func:`registry.db._query.as_csv` writes it (cells a spreadsheet would run neutralised),
    a batch at a time."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([spreadsheet_safe(name, name) for name in columns])
    for batch in batches:
        writer.writerows([_cell(value, spreadsheet=True) for value in row] for row in batch)


def _json(columns: Sequence[str], batches: Iterator[list[Any]], out: TextIO) -> None:
    """The same text as :func:`registry.db._query.as_json`, an object at a time."""
    first = True
    for batch in batches:
        for row in batch:
            item = dict(zip(columns, (plain(value) for value in row), strict=True))
            body = json.dumps(item, ensure_ascii=False, indent=2).replace("\n", "\n  ")
            out.write(("[\n  " if first else ",\n  ") + _json_escaped(body))
            first = False
    out.write("[]\n" if first else "\n]\n")


_JSON_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What ``json.dumps`` leaves raw with ``ensure_ascii=False`` but a terminal would act on."""


def _json_escaped(body: str) -> str:
    return _JSON_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", body)


def _markdown(
    columns: Sequence[str], types: Sequence[str], batches: Iterator[list[Any]], out: TextIO
) -> None:
    out.write("| " + " | ".join(markdown_cell(c) for c in columns) + " |\n")
    out.write("| " + " | ".join("---:" if _numeric(t) else "---" for t in types) + " |\n")
    for batch in batches:
        out.writelines("| " + " | ".join(printable(markdown_cell(v)) for v in row) + " |\n" for row in batch)
