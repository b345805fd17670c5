"""The Downloads page and its files: the DuckDB database, a Parquet file per table, the JSON Schemas,
and a JSON dump of every record; plus the database's Querying and Tables pages.

The database is the one ``registry db`` builds (``build/registry.duckdb``). When it is current (its
fingerprint matches the records) it is reused as it is; otherwise it is rebuilt from the index this
build already checked, never by checking again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

from registry.checker.pipeline import CheckResult
from registry.db import build_index, database_path, export_parquet, fingerprint_of, stored_fingerprint
from registry.engine.units import format_bytes
from registry.kinds.records import KINDS, SCHEMA_VERSION, record_json
from registry.kinds.schema import read_schema
from registry.site import _paths
from registry.site._db_docs import render_querying_page, render_tables_page
from registry.site._html import block, link, table
from registry.site._parts import front_matter
from registry.site._writer import GeneratedFolder

PAGE = f"{_paths.GENERATED}/downloads.md"
QUERYING = f"{_paths.GENERATED}/querying.md"
TABLES = f"{_paths.REFERENCE}/database.md"
"""The database pages: where the database developer's page text expects to sit relative to each other."""


def records_json(result: CheckResult) -> Iterator[str]:
    """Every record as JSON, by id, in the shape of its JSON Schema: one record a line, in parts as
    they are made (the file is written from them and never held whole).

    Each record is encoded on its own, compactly, as the database's ``records.record`` column holds it
    (:func:`~registry.kinds.records.record_json`); a line per record keeps the file easy to grep and to
    diff.
    """
    yield f'{{"schema_version": {json.dumps(SCHEMA_VERSION)}, "records": [\n'
    separator = ""
    for entry in result.index:
        yield separator + record_json(entry.record)
        separator = ",\n"
    yield "\n]}\n"


def prepare_database(root: Path, result: CheckResult) -> Path:
    """The database file, rebuilt from the checked index when its fingerprint is not the records'."""
    path, build = stage_database(root, result)
    if build is not None:
        build()
    return path


def stage_database(root: Path, result: CheckResult) -> tuple[Path, Callable[[], object] | None]:
    """The database file, and, when it is stale, the function that builds it from the checked index.

    The site calls that function in a thread beside the page workers: the build makes and loads its
    tables a chunk of records at a time, so it holds little memory while the pages are made.
    """

    path = database_path(root)
    text = fingerprint_of(result.digests)
    if stored_fingerprint(path) == text:
        return path, None
    return path, lambda: build_index(result, path, text)


def write_downloads(
    root: Path,
    result: CheckResult,
    folder: GeneratedFolder,
    *,
    enabled: bool = True,
    database: Path | None = None,
) -> None:
    """Write the download files, the Downloads page and the database pages.

    With ``enabled`` false (a quick preview), only the JSON files are written and the database pages
    say how to get the rest. ``database`` is the file :func:`prepare_database` returned for this
    build, when it has already run.
    """

    files: list[tuple[str, str, Path]] = []
    files.append(
        (
            "records.json",
            "every record, as JSON",
            folder.write_parts(f"{_paths.DOWNLOADS}/records.json", records_json(result)),
        )
    )
    for kind in KINDS:
        source = root / "schemas" / f"{kind}.schema.json"
        if source.is_file():
            raw = read_schema(source)  # bounded, never through a link: the check has read it so
            target = folder.write(f"{_paths.DOWNLOADS}/schemas/{kind}.schema.json", raw)
            files.append((f"schemas/{kind}.schema.json", f"the JSON Schema of {kind} records", target))
    if enabled:
        database = database or prepare_database(root, result)
        target = folder.copy(f"{_paths.DOWNLOADS}/registry.duckdb", database)
        files.append(("registry.duckdb", "the DuckDB database: every table in one file", target))
        files.extend(_parquet(database, folder))
        querying = render_querying_page(root, database, downloads="downloads", current=True)
    else:
        querying = "# Querying\n\nThis build was made without the database; `registry site` builds it.\n"
    folder.write(QUERYING, front_matter("Querying") + querying)
    folder.write(TABLES, front_matter("Database tables") + render_tables_page())
    folder.write(PAGE, _page(files))


def _parquet(database: Path, folder: GeneratedFolder) -> list[tuple[str, str, Path]]:
    """Each table of the database as Parquet, exported beside the page and recorded as written."""

    out = folder.path(f"{_paths.DOWNLOADS}/parquet")
    found = []
    for path in export_parquet(database, out):
        folder.written.add(str(path))
        found.append((f"parquet/{path.name}", f"the {path.stem} table as Parquet", path))
    return found


def _page(files: list[tuple[str, str, Path]]) -> str:
    rows = [
        [link(f"downloads/{name}", name), what, format_bytes(path.stat().st_size)]
        for name, what, path in files
    ]
    return (
        front_matter("Downloads")
        + "# Downloads\n\n"
        + "The registry's data as files, made from the same checked records as this site. The database "
        "is what `registry db` builds; each Parquet file is one of its tables. See [Querying](querying.md) "
        "for worked SQL and [Database tables](reference/database.md) for every column.\n"
        + block(table(["File", "What it holds", "Size"], rows, numeric=(2,)))
    )
