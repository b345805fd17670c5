"""Turning the runs every serving-tool importer reads into records, the same way for every tool.

Every file is read and every run mapped before anything is written (a bad file, an option the file
contradicts, a model no record matches: one located error, and no record changes); runs that cannot
become records for a stated reason (a hardware spelling no table maps) are listed with it and the others
written. The records are written through :mod:`registry.authoring.importers.writing`, so importing the
same files again changes no byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from registry.authoring.importers.imported import BenchOptions, RunDraft, build_record, default_id, named
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import ModelCatalog
from registry.authoring.importers.writing import Planned, Written, write_records
from registry.errors import RegistryError
from registry.ids import record_id


@dataclass(frozen=True)
class Unmapped:
    where: str
    reason: str


@dataclass
class RunsResult(Written):
    """What an import read, made and wrote, for the command to report."""

    runs: int = 0
    models: list[str] = field(default_factory=list)
    """How each run's model was chosen, one line a run: ``FILE:LINE: models/x: ...``."""
    unknown: list[str] = field(default_factory=list)
    """``FILE:LINE: a, b``: the keys a run holds that the importer does not know."""
    unmapped: list[Unmapped] = field(default_factory=list)


def check_options(options: BenchOptions, runs: list[RunDraft]) -> None:
    if options.record_id and len(runs) > 1:
        raise RegistryError(f"--id names one record, but the files hold {len(runs)} runs")
    if options.hardware and options.count is None:
        raise RegistryError("--hardware needs --count: how many of it ran the server")


def plan_runs(
    root: Path,
    runs: list[RunDraft],
    options: BenchOptions,
    result: RunsResult,
    models: ModelCatalog | None = None,
) -> list[Planned]:
    """Every run's record, nothing written; the runs that cannot be records go to ``result.unmapped``.
    ``models``: the registry's model catalogue, read from ``root`` when not given."""
    check_options(options, runs)
    models = models or ModelCatalog.read(root)
    planned: dict[str, tuple[RunDraft, Planned]] = {}
    for run in runs:
        rid = record_id(options.record_id, "benchmarks") if options.record_id else default_id(run)
        record = build_record(root, run, options, models, rid)
        if run.unmapped:
            result.unmapped.append(Unmapped(run.where, run.unmapped))
            continue
        earlier = planned.get(rid)
        if earlier is not None and earlier[1].fields != record.fields:
            raise SourceError(
                f"{run.where}: the same run as {earlier[0].where} (both would be {rid}); remove the copy"
            )
        planned[rid] = (run, replace(record, where=run.where))
        result.models.append(f"{run.where}: {record.fields['model']}: {record.comments['model'][0]}")
        if run.unknown:
            result.unknown.append(f"{run.where}: {named(run.unknown)}")
    return [record for _, record in planned.values()]


def import_runs(
    root: Path, runs: list[RunDraft], options: BenchOptions, *, force: bool = False
) -> RunsResult:
    """Import ``runs`` into the registry at ``root``; drafts, models, unknown keys and unmapped runs are
    named in the result. Each record is merged into the one on disk, unless ``force``
    (:func:`~registry.authoring.importers.writing.write_records`)."""
    result = RunsResult()
    records = plan_runs(root, runs, options, result)
    result.runs = len(runs)
    write_records(root, records, result, force=force)
    return result
