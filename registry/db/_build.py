"""Building the database file: from a checked registry to tables, loaded in bulk, written atomically.

The build runs the whole check first and refuses a registry with errors, so every row comes from a
record that passed. Tables are built column by column as Arrow arrays, a chunk of records at a time;
each chunk is loaded with one ``INSERT ... SELECT`` a table before the next is made, so the build's
own memory (most of it DuckDB's) stays flat however large the registry. Every engine figure comes from
the check's :class:`~registry.results.Results`: the build never calls the engine. The file is written
beside the target under a temporary name and renamed into place, so a reader sees the previous file or
the new one, never half of one, and a failed build leaves the previous file as it was.

The ``metadata`` table records a *fingerprint*: a hash of every record file's path and bytes, the tool's
version and its source. ``registry query`` rebuilds whenever the fingerprint differs, which mtimes alone
cannot tell (a checkout restores old mtimes; an edit can keep the size).
"""

from __future__ import annotations

import gc
import hashlib
import itertools
import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]

from registry.checker.cache import file_digest
from registry.checker.clean import left_out, without_drafts
from registry.checker.discover import discover
from registry.checker.index import RegistryIndex
from registry.checker.pipeline import CheckResult, check
from registry.db import _rows_benchmarks as b
from registry.db import _rows_models as m
from registry.db import _rows_records as r
from registry.db import _rows_runs as u
from registry.db._rows_bounds import benchmark_bounds_columns
from registry.db._tables import METADATA, TABLES, Column, Table
from registry.db._values import POOL, Columns, decimal_array
from registry.diagnostics import Severity
from registry.errors import RegistryError
from registry.files import own_folder, refuse_link
from registry.kinds.records import record_json
from registry.results import Results

FORMAT_VERSION = "1"
"""The version of the table layout; a change makes every existing file stale."""

DEFAULT_DATABASE = Path("build") / "registry.duckdb"
"""Where ``registry db`` writes, relative to the registry root."""


class BuildRefused(RegistryError):
    """The registry has errors; the database is built only from a registry that checks clean."""

    def __init__(self, result: CheckResult) -> None:
        self.result = result
        errors = result.count(Severity.ERROR)
        plural = "error" if errors == 1 else "errors"
        super().__init__(
            f"the registry has {errors} {plural}; the database is built only from records that check "
            "clean (run 'registry check' to see them)"
        )


@dataclass
class BuildReport:
    """What a build wrote: the file, rows per table, and where the time went (seconds)."""

    path: Path
    fingerprint: str
    rows: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    left_out: tuple[str, ...] = ()
    """The record files left out as drafts, or for pointing at one (``leave_out_drafts``); empty for a
    registry that checks clean."""
    check: CheckResult | None = None
    """The whole check, when records were left out: its findings say why."""

    @property
    def total_rows(self) -> int:
        return sum(self.rows.values())


def database_path(root: Path, out: Path | None = None) -> Path:
    """The database file: ``out`` (relative to the working folder), else ``build/registry.duckdb``
    under ``root``."""
    return out if out is not None else root / DEFAULT_DATABASE


# ---------------------------------------------------------------- fingerprint


def tool_version() -> str:
    """The package version and a hash of its source: computed numbers change when the code does."""
    try:
        release = version("inference-efficiency-registry")
    except PackageNotFoundError:
        release = "unknown"
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for source in sorted(package.rglob("*.py")):
        digest.update(source.relative_to(package).as_posix().encode())
        digest.update(source.read_bytes())
    return f"{release}+{digest.hexdigest()[:16]}"


def fingerprint(root: Path) -> str:
    """A hash of every record file (path and content digest), the table layout version and the tool
    version; :func:`fingerprint_of` the digests, each file read once more (as the check cache reads it)."""
    files, _ = discover(root)
    digests = {}
    for relative in files:
        try:
            digests[relative] = file_digest(root / relative)
        except OSError:
            digests[relative] = "unreadable"  # the check refuses it; the file is stale either way
    return fingerprint_of(digests)


def fingerprint_of(digests: Mapping[str, str]) -> str:
    """The fingerprint of record files known by their content digests, as a check took them
    (:attr:`registry.checker.pipeline.CheckResult.digests`): a database built from a checked index is stamped
    with exactly the bytes that were checked, and a file edited since makes it stale."""
    digest = hashlib.sha256(f"format {FORMAT_VERSION}\ntool {tool_version()}\n".encode())
    for relative, content in sorted(digests.items()):
        digest.update(f"{relative}\0{content}\n".encode())
    return digest.hexdigest()


# ---------------------------------------------------------------- tables


def _column_builders(index: RegistryIndex, results: Results) -> dict[str, Callable[[], Columns]]:
    """Each data table's builder; the models are listed once and shared."""
    found = cache(lambda: m.models(index, results))
    return {
        "records": lambda: r.records_columns(index),
        "models": lambda: m.models_columns(found()),
        "layer_groups": lambda: m.layer_groups_columns(found(), results),
        "runs": lambda: u.runs_columns(index, results),
        "claims": lambda: u.claims_columns(index, results),
        "benchmarks": lambda: b.benchmarks_columns(index),
        "benchmark_metrics": lambda: b.benchmark_metrics_columns(index),
        "benchmark_bounds": lambda: benchmark_bounds_columns(index, results),
        "kv_at_context": lambda: m.kv_at_context_columns(found(), results),
        "engines": lambda: r.engines_columns(index),
        "hardware": lambda: r.hardware_columns(index),
        "links": lambda: r.links_columns(index),
    }


def arrow_table(table: Table, columns: Columns) -> pa.Table:
    """The columns as one Arrow table (``{}`` is an empty table). Types are the declared ones, except
    that a decimal column whose values all fit 64 bits travels as ``int64`` (:func:`decimal_array`);
    the database's declared types apply on insert."""
    names = table.column_names
    if not columns:
        columns = {name: [] for name in names}
    if columns.keys() != set(names):
        extra, missing = sorted(columns.keys() - set(names)), sorted(set(names) - columns.keys())
        raise ValueError(f"table {table.name}: extra columns {extra}, missing columns {missing}")
    if len({len(values) for values in columns.values()}) > 1:
        raise ValueError(f"table {table.name}: columns of different lengths")
    arrays = [_array(table.name, column, columns[column.name]) for column in table.columns]
    return pa.Table.from_arrays(arrays, names=list(names))


def _array(table: str, column: Column, values: list[Any]) -> pa.Array:
    scale = column.scale
    try:
        return (
            pa.array(values, type=column.arrow, memory_pool=POOL)
            if scale is None
            else decimal_array(values, scale)
        )
    except (pa.ArrowException, OverflowError, UnicodeError) as error:
        # A value the check let through but the column cannot hold: a size beyond the column's
        # integer type, or text that is not Unicode (a lone surrogate inside a verbatim config).
        raise RegistryError(f"{table}.{column.name} cannot hold a value of the records: {error}") from None


CHUNK = 1000
"""Records per chunk of a build: a chunk's rows are made, loaded into the file and dropped before the
next chunk's, so the build's memory does not grow with the registry. Each chunk costs DuckDB an insert
per table, so smaller chunks load more slowly and larger ones peak higher."""

CHUNK_ROWS = 50_000
"""Rows a chunk may hold at most, counted as one a record and a model's ``kv_at_context`` rows more:
a thousand models make about 100,000 rows, and chunks of a thousand records of any kind made the
build's memory grow with the registry until its chunks were all models. Smaller chunks of rows loaded
more slowly and peaked no lower (the performance page has the build's figures)."""


CHUNK_BYTES = 4 << 20
"""Bytes of records' JSON a chunk may hold at most. A ``records`` row holds its record's JSON and its
Markdown fields again beside it, and notes and methodology may hold 20,000 characters each: DuckDB
held to its limit (:data:`LOAD_SETTINGS`) refuses an insert whose text comes near that limit, so a
chunk's text is bounded well below it. A chunk of a thousand records of the usual size stays far under
the bound."""


def registry_tables(index: RegistryIndex, results: Results) -> dict[str, pa.Table]:
    """Every data table of the index's records as Arrow, their figures from ``results`` (``metadata``
    is added when the file is written); the build makes them :func:`a chunk at a time <table_chunks>`."""
    builders = _column_builders(index, results)
    # Bulk allocation: cyclic collections over hundreds of thousands of new, acyclic values would
    # cost more than the whole build and free nothing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return {
            table.name: arrow_table(table, builders[table.name]())
            for table in TABLES
            if table.name in builders
        }
    finally:
        if collecting:
            gc.enable()


def table_chunks(index: RegistryIndex, results: Results, size: int = CHUNK) -> Iterator[dict[str, pa.Table]]:
    """Every data table, a chunk of records at a time in id order (at most ``size`` records, about
    :data:`CHUNK_ROWS` rows and :data:`CHUNK_BYTES` of JSON): the chunks' rows, one after another, are
    the rows of the whole tables in the same order. A record's references still resolve against the
    whole index. A chunk's decimal column may travel as ``int64`` where another's does not
    (:func:`decimal_array`); the file's declared types apply to both."""
    chunk: list[str] = []
    rows = json_bytes = 0
    for record_id in sorted(index.entries):
        entry = index.entries[record_id]
        weight = 1 + (len(m.LADDER) if entry.kind == "model" else 0)
        size_of = len(record_json(entry.record).encode("utf-8", "surrogatepass"))
        if chunk and (len(chunk) >= size or rows + weight > CHUNK_ROWS or json_bytes + size_of > CHUNK_BYTES):
            yield registry_tables(index.part(chunk), results)
            chunk, rows, json_bytes = [], 0, 0
        chunk.append(record_id)
        rows += weight
        json_bytes += size_of
    if chunk:
        yield registry_tables(index.part(chunk), results)


def _metadata(fingerprint_text: str, records: int, missing: tuple[str, ...] = ()) -> pa.Table:
    import duckdb  # lazy

    values = {
        "fingerprint": fingerprint_text,
        "tool_version": tool_version(),
        "format_version": FORMAT_VERSION,
        "records": str(records),
        "duckdb_version": duckdb.__version__,
        "left_out": "\n".join(missing),
    }
    return arrow_table(METADATA, {"key": list(values), "value": list(values.values())})


# ---------------------------------------------------------------- writing the file

LOAD_SETTINGS: dict[str, str | bool | int | float | list[str]] = {"threads": 1, "memory_limit": "32MB"}
"""DuckDB's settings while it loads the chunks. One thread: a chunk is small, and the site loads the
file while its page workers use every core (one thread also loaded faster alone). A memory limit:
DuckDB then writes out and evicts the blocks it has filled rather than keeping the whole database in
memory until the last checkpoint; a larger limit loaded a little faster for a higher peak."""


def write_database(chunks: Iterable[dict[str, pa.Table]], path: Path) -> tuple[dict[str, int], float]:
    """Create every table with its declared types, then load each chunk of tables in bulk as it comes,
    into a temporary file beside ``path`` that replaces it only when complete. Returns the rows per
    table and the seconds DuckDB spent loading (the rest of the time is the chunks' making)."""
    import duckdb  # lazy

    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.parent / f".{path.name}.{uuid.uuid4().hex}.tmp"
    rows = {table.name: 0 for table in TABLES}
    loading = 0.0
    try:
        connection = duckdb.connect(str(temporary), config=LOAD_SETTINGS)
        try:
            for table in TABLES:
                connection.execute(table.create_statement())
            for tables in chunks:
                started = time.perf_counter()
                for name, arrow in tables.items():
                    connection.register("incoming", arrow)
                    connection.execute(f'INSERT INTO "{name}" SELECT * FROM incoming')
                    connection.unregister("incoming")
                    rows[name] += arrow.num_rows
                loading += time.perf_counter() - started
            started = time.perf_counter()
            connection.execute("CHECKPOINT")
            loading += time.perf_counter() - started
        finally:
            connection.close()
        os.replace(temporary, path)
    finally:
        for leftover in (temporary, temporary.with_name(temporary.name + ".wal")):
            leftover.unlink(missing_ok=True)
    return rows, loading


def build_index(checked: CheckResult, path: Path, fingerprint_text: str) -> BuildReport:
    """Build the database at ``path`` from a registry that has already been checked (its index and the
    engine's results), a chunk of records at a time: each chunk's rows are made and loaded before the
    next chunk's are made. The record files the check read but its index leaves out (a
    :func:`~registry.checker.clean.without_drafts`'s) are named in the metadata table, so that a later
    query can say so.

    An existing file is replaced only when it is a registry database: ``--out`` or ``--db`` pointing
    at someone's own file must not destroy it.
    """
    # the folder (``build/``) and the file are the registry's own: a committed link would send the
    # database, and the replacing of an old one, wherever it points
    own_folder(checked.root.absolute(), path.parent.absolute())
    refuse_link(path)
    if path.exists() and stored_fingerprint(path) is None:
        raise RegistryError(f"{path} exists and is not a registry database; not replacing it")
    index, results = checked.index, checked.results
    if results is None:
        raise RegistryError("the registry was checked without its formulas; the database needs their results")
    started = time.perf_counter()
    missing = left_out(checked)
    metadata = {"metadata": _metadata(fingerprint_text, len(index.entries), missing)}
    rows, loading = write_database(itertools.chain(table_chunks(index, results, CHUNK), [metadata]), path)
    report = BuildReport(path, fingerprint_text, rows, left_out=missing)
    report.seconds["tables"] = time.perf_counter() - started - loading
    report.seconds["load"] = loading
    return report


def build_database(root: Path, out: Path | None = None, *, leave_out_drafts: bool = False) -> BuildReport:
    """Check the registry at ``root`` and, when it has no errors, build its database file.

    Raises :class:`BuildRefused` (carrying the check result) when the check finds errors. With
    ``leave_out_drafts``, errors that are only drafts' (records that do not validate yet, and the records
    pointing at one: :func:`~registry.checker.clean.without_drafts`) do not refuse the build: the rest
    is built, and the report names the files left out and carries the whole check.
    """
    started = time.perf_counter()
    result = check(root)
    checked = time.perf_counter() - started
    whole = result
    if not result.ok and leave_out_drafts:
        result = without_drafts(result).result
    if not result.ok:
        raise BuildRefused(whole)
    # Of the bytes the check read: a file edited during the build leaves the database stale.
    report = build_index(result, database_path(root, out), fingerprint_of(result.digests))
    report.seconds = {"check": checked, **report.seconds}
    report.check = whole if report.left_out else None
    return report


def stored_fingerprint(path: Path) -> str | None:
    """The fingerprint a database file was built with; None for a missing or unreadable file."""
    return _stored(path, "fingerprint")


def stored_left_out(path: Path) -> tuple[str, ...]:
    """The record files a database file was built without (their errors kept them out); none for a
    file built from a clean registry, or one that cannot be read."""
    value = _stored(path, "left_out")
    return tuple(value.split("\n")) if value else ()


def _stored(path: Path, key: str) -> str | None:
    """A value of the file's ``metadata`` table; None for a missing or unreadable file or key."""
    import duckdb  # lazy

    if not path.is_file():
        return None
    try:
        connection = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:
        return None
    try:
        found = connection.execute("SELECT value FROM metadata WHERE key = ?", [key]).fetchone()
    except duckdb.Error:
        return None
    finally:
        connection.close()
    return None if found is None else str(found[0])


def ensure_database(
    root: Path, out: Path | None = None, *, leave_out_drafts: bool = False
) -> tuple[Path, BuildReport | None]:
    """The database file, built first when it is missing or its fingerprint is not the registry's
    (``leave_out_drafts`` as :func:`build_database` takes it).

    Returns the path and the build's report (None when the file was already current).
    """
    path = database_path(root, out)
    # A file built without some records is current only for a caller that takes one.
    if stored_fingerprint(path) == fingerprint(root) and (leave_out_drafts or not stored_left_out(path)):
        return path, None
    return path, build_database(root, out, leave_out_drafts=leave_out_drafts)
