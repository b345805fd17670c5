"""``registry import mlperf``: the LLM rows of MLPerf Inference results summaries as benchmark records.

Everything is read and checked before anything is written: every file's every row (a bad one is a
:class:`~registry.authoring.importers.mlperf_table.SourceError` naming its ``file:line``, and no record
changes), every mapping, every record's text. Then the records whose text differs from the file on
disk are written, each atomically. A row that is not an LLM benchmark is skipped and counted; an LLM
row that cannot be mapped is listed with its reason (the command then exits 1). Importing the same file
again writes nothing: a record's text depends only on its row, its source and its run's log summary,
whose figures an import given no log for the run keeps from the record as an earlier import wrote it
(:mod:`registry.authoring.importers.mlperf_runs`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from registry.authoring.importers import mlperf_maps as maps
from registry.authoring.importers.mlperf_json import read_table
from registry.authoring.importers.mlperf_log import FILE_NAME, read_log
from registry.authoring.importers.mlperf_metrics import Unmappable
from registry.authoring.importers.mlperf_record import (
    MAX_SLUG,
    Mapped,
    Source,
    base_slug,
    hashed_slug,
    id_key,
    map_row,
)
from registry.authoring.importers.mlperf_runs import RunFile, kept_figures
from registry.authoring.importers.mlperf_same import merge_filed_twice
from registry.authoring.importers.mlperf_table import SourceError, SummaryRow
from registry.authoring.importers.writing import Planned, Written, write_records
from registry.errors import RegistryError
from registry.reading import read_regular

README = "README.md"
README_BYTES = 1024 * 1024
_README_FIELDS = {
    "repository": re.compile(r"^- Source repository: `([^`]+)`", re.M),
    "file": re.compile(r"^- Source path: `([^`]+)`", re.M),
    "commit": re.compile(r"^- Commit read: `([0-9a-f]{7,40})`", re.M),
}


@dataclass(frozen=True)
class SourceOptions:
    """What the command line says of the source; a field left ``None`` is read from the README.md
    beside the file (the lines ``- Source repository:``, ``- Source path:`` and ``- Commit read:``)."""

    repository: str | None = None
    commit: str | None = None
    file: str | None = None


@dataclass(frozen=True)
class ResultsOptions:
    """A results tree (``closed/<submitter>/results/...``) whose runs' ``mlperf_log_summary.txt`` files
    the import reads where a row's ``Location`` finds one; where it is published comes from these fields,
    else from the README.md at its top (``- Source repository:`` and ``- Commit read:``)."""

    folder: Path
    repository: str | None = None
    commit: str | None = None


@dataclass(frozen=True)
class Unmapped:
    """An LLM row with no record to map to, and why."""

    where: str
    reason: str


@dataclass
class ImportResult(Written):
    """What an import found and did, for the command to report."""

    rows: int = 0
    logs: int = 0
    kept: int = 0
    """Records whose log figures were kept from an earlier import, as this one read no log for their run."""
    skipped: Counter[str] = field(default_factory=Counter)
    unmapped: list[Unmapped] = field(default_factory=list)
    no_log: list[Unmapped] = field(default_factory=list)
    """With a results tree: each LLM row whose run log was not found there, and where it was looked for."""
    merged: int = 0
    """Rows that file a measurement another row files under another benchmark, recorded with it."""


def source_of(path: Path, options: SourceOptions) -> Source:
    """The repository, file and commit of the summary at ``path``: the options, else its README."""
    found: dict[str, str | None] = {
        "repository": options.repository,
        "file": options.file,
        "commit": options.commit,
    }
    readme = path.parent / README
    if None in found.values() and readme.is_file():
        text = read_regular(readme, README_BYTES).decode("utf-8", errors="replace")
        for name, pattern in _README_FIELDS.items():
            match = pattern.search(text)
            if found[name] is None and match:
                found[name] = match.group(1)
    missing = [name for name, value in found.items() if value is None]
    if missing:
        raise RegistryError(
            f"{path}: where it was published is not known ({', '.join(missing)}): pass "
            f"{' '.join('--' + name for name in missing)}, or keep a {README} beside it that names them"
        )
    repository, file, commit = (str(found[name]) for name in ("repository", "file", "commit"))
    if not re.fullmatch(r"[0-9a-f]{7,40}", commit):
        raise RegistryError(f"{path}: commit {commit!r} is not a git commit (7 to 40 lower-case hex digits)")
    return Source(repository, file, commit)


def _ids(rows: list[SummaryRow]) -> dict[tuple[str, ...], str]:
    """Each result's record id: the slug of its key, or with a hash of the key when that slug is too
    long or another key shares it."""
    keys: dict[str, set[tuple[str, ...]]] = {}
    for row in rows:
        keys.setdefault(base_slug(row), set()).add(id_key(row))
    ids = {}
    for row in rows:
        plain = base_slug(row)
        unique = len(plain) <= MAX_SLUG and len(keys[plain]) == 1
        ids[id_key(row)] = f"benchmarks/{plain if unique else hashed_slug(row)}"
    return ids


def _results_source(results: ResultsOptions) -> tuple[str, str]:
    """The repository and commit of a results tree: the options, else the README.md at its top."""
    if not results.folder.is_dir():
        raise RegistryError(f"{results.folder}: --results names no folder")
    try:
        found = source_of(results.folder / FILE_NAME, SourceOptions(results.repository, results.commit, "."))
    except RegistryError:
        raise RegistryError(
            f"{results.folder}: where the results tree was published is not known or not a commit: pass "
            f"--results-repository and --results-commit, or keep a {README} at its top that names them"
        ) from None
    return found.repository, found.commit


RUN_FOLDER = ("performance", "run_1")
PREFIXES = ((), ("build", "submission"))
"""Where a round's tree may hold a row's ``Location``: at its top, or under ``build/submission/`` (the
folder v6.0's submission tooling writes the tree into)."""


def log_candidates(location: str) -> list[PurePosixPath]:
    """The paths, relative to a results tree, where a row's run log summary may be: its Location with
    any ``build/submission/`` prefix dropped or added, and ``performance/run_1`` appended to a Location
    that stops at the scenario folder (v4.1 and v5.1 tables)."""
    parts = PurePosixPath(location).parts
    if parts[:2] == PREFIXES[1]:
        parts = parts[2:]
    if parts[-2:] != RUN_FOLDER:
        parts = (*parts, *RUN_FOLDER)
    return [PurePosixPath(*prefix, *parts, FILE_NAME) for prefix in PREFIXES]


def _run_file(results: ResultsOptions, published: tuple[str, str], row: SummaryRow) -> RunFile | Unmapped:
    """The run's log summary under the results tree, read, or why the tree has none for the row."""
    location = PurePosixPath(row["Location"])
    if location.is_absolute() or ".." in location.parts:
        raise SourceError(f"{row.where}: Location {row['Location']!r} leaves the results tree")
    if not location.parts:
        return Unmapped(row.where, "its Location is empty")
    tried = log_candidates(row["Location"])
    for relative in tried:
        path = results.folder.joinpath(*relative.parts)
        if path.is_file():
            return RunFile(read_log(path), published[0], published[1], str(relative))
    deepest = _deepest(results.folder, tried[0])
    return Unmapped(
        row.where,
        f"no {FILE_NAME} at {' or '.join(str(t) for t in tried)}; "
        + (f"the tree stops at {deepest}" if deepest else "the tree has none of that path"),
    )


def _deepest(folder: Path, relative: PurePosixPath) -> str:
    """The longest leading part of ``relative`` that is a folder under ``folder`` ('' for none)."""
    found = ""
    for end in range(1, len(relative.parts)):
        if not folder.joinpath(*relative.parts[:end]).is_dir():
            break
        found = str(PurePosixPath(*relative.parts[:end])) + "/"
    return found


def plan_import(
    root: Path, paths: list[Path], options: SourceOptions, results: ResultsOptions | None = None
) -> tuple[ImportResult, list[Mapped]]:
    """Read, check and map every row of every file (and of each row's run log, with ``results``);
    nothing is written."""
    result = ImportResult()
    published = _results_source(results) if results else None
    read = [(read_table(path), source_of(path, options)) for path in paths]
    llm = [(row, source) for rows, source in read for row in rows if row["Model"] in maps.LLM_MODELS]
    result.rows = sum(len(rows) for rows, _ in read)
    result.skipped.update(
        row["Model"] for rows, _ in read for row in rows if row["Model"] not in maps.LLM_MODELS
    )
    ids = _ids([row for row, _ in llm])
    mapped: dict[str, Mapped] = {}
    for row, source in llm:
        found = _run_file(results, published, row) if results and published else None
        if isinstance(found, Unmapped):
            result.no_log.append(found)
        run = found if isinstance(found, RunFile) else None
        kept = None if run else kept_figures(root, ids[id_key(row)], row["Location"])
        result.logs += run is not None
        try:
            record = map_row(root, row, source, ids[id_key(row)], run, kept)
        except Unmappable as reason:
            result.unmapped.append(Unmapped(row.where, str(reason)))
            continue
        earlier = mapped.get(record.id)
        if earlier is not None and earlier.row.cells != row.cells:
            raise SourceError(
                f"{row.where}: the same result ({record.id}) as {earlier.row.where}, with other values"
            )
        mapped[record.id] = record
        result.kept += kept is not None
    records = merge_filed_twice(list(mapped.values()))
    result.merged = len(mapped) - len(records)
    return result, records


def import_mlperf(
    root: Path,
    paths: list[Path],
    options: SourceOptions,
    results: ResultsOptions | None = None,
    *,
    force: bool = False,
) -> ImportResult:
    """Import the summaries at ``paths`` into the registry at ``root``: every record whose text changed is
    written (all or none, merged into what is on disk unless ``force``), after every row and record (and every run log read under
    ``results``) has been checked."""
    result, mapped = plan_import(root, paths, options, results)
    planned = [
        Planned(record.id, record.fields, record.comments, where=record.row.where) for record in mapped
    ]
    write_records(root, planned, result, force=force)
    return result
