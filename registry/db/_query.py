"""Running SQL against the database file, read-only, and rendering the answer.

Renderers are chosen by name from :data:`FORMATS`. Exact decimals stay exact: a whole number of bytes
prints without a decimal point in every format, and JSON carries it as a JSON integer however large.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from registry.errors import QueryError

T = TypeVar("T")

COUNTED_BATCH = 10_000
"""Rows read at a time past those kept, only to be counted."""


@dataclass(frozen=True)
class QueryResult:
    """Column names, their SQL types, and the rows, as DuckDB returns them."""

    columns: tuple[str, ...]
    types: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    total: int | None = None
    """How many rows the whole answer has, when only the first were kept (``run_query(keep=...)``)."""


def run_query(
    path: Path, sql: str, parameters: Sequence[Any] | None = None, *, keep: int | None = None
) -> QueryResult:
    """Run ``sql`` on the database at ``path`` through a read-only connection.

    ``parameters`` fill ``?`` placeholders; values are never spliced into the SQL text. With ``keep``,
    only the first ``keep`` rows are kept and :attr:`QueryResult.total` counts them all: the answer is
    read a batch at a time, so a query over every model of a large registry is never held whole.
    """
    with _connected(path) as connection:
        return _answer(connection, sql, parameters, keep)


def run_queries(path: Path, queries: Sequence[str], *, keep: int | None = None) -> list[QueryResult]:
    """Each of ``queries``, as :func:`run_query` runs it, through one connection held to
    :data:`READ_LIMIT` (:func:`within_limit`): opening the file costs as much as a small query, and
    DuckDB keeps what it has read, up to its limit, until the connection closes, so one connection
    answers them all, held to a limit so that what it keeps stays small."""
    with _connected(path, {"memory_limit": READ_LIMIT}) as connection:
        return [within_limit(connection, partial(_answer, connection, sql, None, keep)) for sql in queries]


READ_LIMIT = "16MB"
"""DuckDB's memory limit while the site reads the database back for the worked queries, where it would
otherwise keep every block it reads until the connection closes (the Parquet export has its own)."""


def within_limit(connection: Any, work: Callable[[], T], limit: str = READ_LIMIT) -> T:
    """``work()`` on ``connection``, held to ``limit``; when DuckDB cannot do it within the
    limit, once more under DuckDB's own (a share of the machine's memory). DuckDB reads 2,048 rows at a
    time whatever is asked for, and a record's notes and methodology may hold 20,000 characters each,
    so a query over records of long text may not fit a limit meant for the usual ones."""
    import duckdb  # lazy

    try:
        return work()
    except duckdb.OutOfMemoryException:
        connection.execute("RESET memory_limit")
        try:
            return work()
        finally:
            connection.execute(f"SET memory_limit = '{limit}'")


@contextmanager
def _connected(path: Path, config: dict[str, Any] | None = None) -> Iterator[Any]:
    """A read-only connection to ``path``; DuckDB's errors become :class:`QueryError`."""
    import duckdb  # lazy

    try:
        connection = duckdb.connect(str(path), read_only=True, config=config or {})
    except duckdb.Error as error:
        raise QueryError(f"cannot open {path}: {_first_line(error)}") from None
    try:
        yield connection
    except duckdb.Error as error:
        raise QueryError(f"SQL error: {error}") from None
    finally:
        connection.close()


def _answer(connection: Any, sql: str, parameters: Sequence[Any] | None, keep: int | None) -> QueryResult:
    cursor = connection.execute(sql, parameters) if parameters is not None else connection.execute(sql)
    if cursor.description is None:
        return QueryResult((), (), [])
    columns = tuple(str(d[0]) for d in cursor.description)
    types = tuple(str(d[1]) for d in cursor.description)
    if keep is None:
        return QueryResult(columns, types, cursor.fetchall())
    rows = cursor.fetchmany(keep) if keep > 0 else []
    total = len(rows)
    while batch := cursor.fetchmany(COUNTED_BATCH):
        total += len(batch)
    return QueryResult(columns, types, rows, total)


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


# ---------------------------------------------------------------- values


def plain(value: Any) -> Any:
    """A value in its JSON form: whole decimals as ints, other decimals as numbers when the JSON text
    reads back as the same decimal (else as text), dates as ISO text, lists and structs element-wise."""
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return int(value)
        as_float = float(value)  # written as its shortest repr, which must read back as the decimal
        return as_float if Decimal(repr(as_float)) == value else str(value.normalize())
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    return value


def text(value: Any) -> str:
    """A value as one cell of text: NULL is empty, decimals without trailing zeros, lists in brackets."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return str(int(value))
        return format(value.normalize(), "f")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple | dict):
        return json.dumps(plain(value), ensure_ascii=False)
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    return str(value)


# ---------------------------------------------------------------- formats


def _numeric(sql_type: str) -> bool:
    return sql_type.split("(")[0] in {
        "TINYINT",
        "SMALLINT",
        "INTEGER",
        "BIGINT",
        "HUGEINT",
        "UTINYINT",
        "USMALLINT",
        "UINTEGER",
        "UBIGINT",
        "UHUGEINT",
        "DECIMAL",
        "DOUBLE",
        "FLOAT",
        "REAL",
        "NUMBER",
    }


def as_table(result: QueryResult) -> str:
    """Aligned columns for a terminal: numbers to the right, a rule under the header, a row count."""
    cells = [[text(v).replace("\n", " ") for v in row] for row in result.rows]
    widths = [max([len(name), *(len(row[i]) for row in cells)]) for i, name in enumerate(result.columns)]
    right = [_numeric(t) for t in result.types]

    def line(values: Sequence[str]) -> str:
        padded = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)]
        return "  ".join(padded).rstrip()

    lines = [line(result.columns), "  ".join("-" * w for w in widths)]
    lines.extend(line(row) for row in cells)
    count = len(result.rows)
    lines.append(f"({count} row{'s' if count != 1 else ''})")
    return "\n".join(lines) + "\n"


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads a cell starting with as a formula (OWASP's list for CSV injection)."""


def spreadsheet_safe(value: Any, cell: str) -> str:
    """A CSV cell that a spreadsheet shows as text: one starting with :data:`FORMULA_STARTS` gets a
    leading ``'``, as OWASP recommends (a record's name ``=HYPERLINK(...)`` would otherwise run when the
    file is opened). A number's cell is left as it is (``-3`` is a number, never a formula)."""
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return cell
    return f"'{cell}" if cell.startswith(FORMULA_STARTS) else cell


def as_csv(result: QueryResult) -> str:
    """RFC 4180 CSV with a header row; NULL is an empty field; text a spreadsheet would run is
    neutralised (:func:`spreadsheet_safe`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([spreadsheet_safe(name, name) for name in result.columns])
    writer.writerows([spreadsheet_safe(v, text(v)) for v in row] for row in result.rows)
    return buffer.getvalue()


def as_json(result: QueryResult) -> str:
    """A JSON array with one object per row, keyed by column name."""
    objects = [dict(zip(result.columns, (plain(v) for v in row), strict=True)) for row in result.rows]
    return json.dumps(objects, ensure_ascii=False, indent=2) + "\n"


def markdown_cell(value: Any) -> str:
    """One Markdown table cell: pipes escaped, line breaks folded, HTML-significant characters escaped."""
    cell = text(value).replace("\\", "\\\\").replace("|", "\\|")
    cell = cell.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(cell.split()) if "\n" in cell or "\r" in cell else cell


def as_markdown(result: QueryResult) -> str:
    """A Markdown (GitHub-flavoured) table; numbers aligned right."""
    header = "| " + " | ".join(markdown_cell(c) for c in result.columns) + " |"
    rule = "| " + " | ".join("---:" if _numeric(t) else "---" for t in result.types) + " |"
    body = ["| " + " | ".join(markdown_cell(v) for v in row) + " |" for row in result.rows]
    return "\n".join([header, rule, *body]) + "\n"


FORMATS: dict[str, Callable[[QueryResult], str]] = {
    "table": as_table,
    "csv": as_csv,
    "json": as_json,
    "markdown": as_markdown,
}
"""Every output format of ``registry query``, by name."""
