"""SQL over the registry: an embedded DuckDB file built from the checked records and the engine's
results, read-only queries against it, and a Parquet export of every table.

::

    records ──check──▶ index, results ──rows (Arrow, column-wise)──▶ build/registry.duckdb ──▶ query | Parquet

The tables and their columns are defined once, in :data:`TABLES` (with the type conventions of
:data:`TYPE_RULES`); the site's table reference is rendered from the same definitions, and its Querying
page runs its examples with :func:`run_queries` and prints the answers with :func:`as_markdown`.

Errors: :class:`BuildRefused` (carrying the check result) and :class:`QueryError`, both in the
exception tree of :mod:`registry.errors`, so the command line prints their message.
"""

from registry.db._build import (
    DEFAULT_DATABASE,
    BuildRefused,
    BuildReport,
    build_database,
    build_index,
    database_path,
    ensure_database,
    fingerprint,
    fingerprint_of,
    registry_tables,
    stored_fingerprint,
    stored_left_out,
)
from registry.db._export import export_parquet
from registry.db._query import (
    FORMATS,
    QueryResult,
    as_markdown,
    markdown_cell,
    run_queries,
    run_query,
    text,
)
from registry.db._stream import StillRunning, require_sql, stream_query
from registry.db._tables import TABLES, TYPE_RULES, Column, Table
from registry.errors import QueryError
from registry.results import CONTEXT_LADDER, ENGINE_LAYOUTS, KV_DTYPES

__all__ = [
    "CONTEXT_LADDER",
    "DEFAULT_DATABASE",
    "ENGINE_LAYOUTS",
    "FORMATS",
    "KV_DTYPES",
    "TABLES",
    "TYPE_RULES",
    "BuildRefused",
    "BuildReport",
    "Column",
    "QueryError",
    "QueryResult",
    "StillRunning",
    "Table",
    "as_markdown",
    "build_database",
    "build_index",
    "database_path",
    "ensure_database",
    "export_parquet",
    "fingerprint",
    "fingerprint_of",
    "markdown_cell",
    "registry_tables",
    "require_sql",
    "run_queries",
    "run_query",
    "stored_fingerprint",
    "stored_left_out",
    "stream_query",
    "text",
]
