"""One LLM row of an MLPerf Inference results summary as the fields of a benchmark record (schema v2).

The row is mapped through the tables of :mod:`registry.authoring.importers.mlperf_maps` and nothing else:
a spelling in no table, a record the registry does not have, or counts that disagree make the row
:class:`Unmappable`, with the reason in words. Figures are copied as the source writes them (the
``Result`` text, the accuracy scores), with their unit.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registry.authoring.importers import mlperf_checkpoints as checkpoints
from registry.authoring.importers import mlperf_datasets as datasets
from registry.authoring.importers import mlperf_engines as engines
from registry.authoring.importers import mlperf_maps as maps
from registry.authoring.importers import mlperf_rules as rules
from registry.authoring.importers.mlperf_log import SERVER_STYLE, milliseconds, runs_as
from registry.authoring.importers.mlperf_metrics import Unmappable, accuracy, metric_of, power_of, unit_of
from registry.authoring.importers.mlperf_rounds import rules_of
from registry.authoring.importers.mlperf_runs import LogFigures, RunFile, read_figures
from registry.authoring.importers.mlperf_table import SummaryRow

MAX_SLUG = 100
"""A record id's slug is at most 100 characters."""


@dataclass(frozen=True)
class Source:
    """Where the summary was read: the repository, the file in it and the commit."""

    repository: str
    file: str
    commit: str


@dataclass
class Mapped:
    """A row as a record: its id, its fields and the comment lines above some of them."""

    id: str
    row: SummaryRow
    fields: dict[str, Any]
    comments: dict[str, tuple[str, ...]] = field(default_factory=dict)


def slug(text: str) -> str:
    """Lower case, every run of characters outside ``[a-z0-9._-]`` one ``-``, trimmed of ``-``."""
    return re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-")


def id_key(row: SummaryRow) -> tuple[str, ...]:
    """What identifies a result: round, division, submitter, system, model and scenario, and the model
    that ran where a table names it apart from the benchmark and it differs, compared without case
    (``Example`` and ``EXAMPLE`` are one submitter: two records of one result would be two files that
    collide on a case-insensitive file system)."""
    return tuple(cell.casefold() for cell in _key_cells(row))


def _key_cells(row: SummaryRow) -> tuple[str, ...]:
    used = row.cells.get("UsedModel", "")
    return (
        row["version"],
        row["Division"],
        row["Organization"],
        row["Platform"],
        row["Model"],
        row["Scenario"],
    ) + ((used,) if used and used != row["Model"] else ())


def base_slug(row: SummaryRow) -> str:
    return slug(
        f"mlperf-{row['version']}-{row['Organization']}-{row['Platform']}-{row['Model']}-{row['Scenario']}"
    )


def hashed_slug(row: SummaryRow) -> str:
    """The slug with a short stable hash of the whole key, for a slug too long or shared by two keys."""
    digest = hashlib.sha256("\x1f".join(_key_cells(row)).encode()).hexdigest()[:8]  # as first written
    return f"{base_slug(row)[: MAX_SLUG - 9].rstrip('-._')}-{digest}"


def record_exists(root: Path, record_id: str) -> bool:
    return (root / "records" / f"{record_id}.yaml").is_file()


def _need(root: Path, record_id: str, what: str) -> str:
    if not record_exists(root, record_id):
        raise Unmappable(f"{what} maps to {record_id}, which has no record in this registry")
    return record_id


def _model(root: Path, row: SummaryRow) -> str:
    ran = maps.OTHER_MODEL_RAN.get((row["Organization"], row["Platform"], row["Model"]))
    if ran is not None:
        raise Unmappable(f"Model {row['Model']!r}: the run served {ran}, which has no model record")
    used = row.cells.get("UsedModel", "")
    other = checkpoints.other_checkpoint(row)
    if other is not None:
        return _need(root, other.model, f"UsedModel {used!r}")
    if used and used != row["Model"] and maps.USED_MODELS.get(used) != row["Model"]:
        raise Unmappable(
            f"UsedModel {used!r} ran under the benchmark {row['Model']!r}: another checkpoint than the "
            "benchmark's, in no table of the models that ran"
        )
    model = maps.LLM_MODELS[row["Model"]]
    if model is None:
        why = maps.NO_MODEL_RECORD.get(row["Model"], "")
        raise Unmappable(
            f"Model {row['Model']!r}: the registry has no model record of the checkpoint it runs{why}"
        )
    return _need(root, model, f"Model {row['Model']!r}")


def _hardware(root: Path, row: SummaryRow) -> tuple[str | None, list[dict[str, Any]], int]:
    """The single hardware record, or the parts of a mixed system, and the count of accelerators."""
    name = row["accelerator_model_name"]
    if name == maps.CPU_ONLY and row.total_accelerators == 0:
        key = (row["Organization"], row["Platform"])
        earlier = maps.ROUND_CPU_SYSTEMS.get((row["version"], *key))
        found = (
            earlier
            if (row["version"], *key) in maps.ROUND_CPU_SYSTEMS or row["version"] != "v6.1"
            else maps.CPU_SYSTEMS.get(key)
        )
        if found is None:
            raise Unmappable(
                f"CPU-only system {key[0]} {key[1]!r} of {row['version']} is not in the table of CPU systems"
            )
        return _need(root, found, f"CPU system {key[1]!r}"), [], row.nodes
    if name in maps.MIXED_HARDWARE:
        parts = [{"hardware": _need(root, hw, repr(name)), "count": n} for hw, n in maps.MIXED_HARDWARE[name]]
        total = sum(n for _, n in maps.MIXED_HARDWARE[name])
        if total != row.total_accelerators:
            raise Unmappable(
                f"{name!r} has {total} parts in the table, but total_accelerators is {row.total_accelerators}"
            )
        return None, parts, total
    if name not in maps.HARDWARE:
        raise Unmappable(f"accelerator_model_name {name!r} is not in the hardware table")
    if name in maps.COUNT_IN_NAME:
        return _need(root, maps.HARDWARE[name], repr(name)), [], maps.COUNT_IN_NAME[name]
    if row.nodes * row.accelerators_per_node != row.total_accelerators or row.total_accelerators == 0:
        raise Unmappable(
            f"number_of_nodes {row.nodes} x accelerators_per_node {row.accelerators_per_node} "
            f"is not total_accelerators {row.total_accelerators}"
        )
    return _need(root, maps.HARDWARE[name], repr(name)), [], row.total_accelerators


def _engine(root: Path, row: SummaryRow) -> str | None:
    entry = engines.FRAMEWORKS.get(row["framework"])
    if entry is None:
        raise Unmappable(f"framework {row['framework']!r} is not in the framework table")
    said, engine = entry.for_model(row["Model"])
    if not said:
        raise Unmappable(f"framework {row['framework']!r} does not say which engine ran {row['Model']!r}")
    return None if engine is None else _need(root, engine, f"framework {row['framework']!r}")


def _submitter_precision(row: SummaryRow) -> maps.SubmitterPrecision | None:
    return maps.SUBMITTER_PRECISIONS.get(
        (row["Organization"], row["Platform"], row["Model"], row["Scenario"])
    )


def _precision(row: SummaryRow) -> dict[str, Any]:
    submitter, other = _submitter_precision(row), checkpoints.other_checkpoint(row)
    formats = submitter.formats if submitter else maps.PRECISIONS.get(row["weight_data_types"])
    if other is not None:
        formats = maps.Formats((other.weights,))
    if submitter is None and row["weight_data_types"] in maps.REFUSED_PRECISIONS:
        reason = maps.REFUSED_PRECISIONS[row["weight_data_types"]]
        raise Unmappable(f"weight_data_types {row['weight_data_types']!r} {reason}")
    if formats is None:
        raise Unmappable(f"weight_data_types {row['weight_data_types']!r} is not in the precision table")
    precision: dict[str, Any] = {
        "weights": formats.weights[0] if len(formats.weights) == 1 else None,
        "weight_formats": list(formats.weights),
    }
    if formats.activations:
        precision["activations"] = formats.activations
    precision["kv_cache"] = formats.kv_cache
    return precision


def _system(row: SummaryRow, parts: list[dict[str, Any]]) -> dict[str, Any]:
    system: dict[str, Any] = {"name": row["SystemName"], "nodes": row.nodes}
    if row.accelerators_per_node and row["accelerator_model_name"] not in maps.COUNT_IN_NAME:
        system["accelerators_per_node"] = row.accelerators_per_node
    if parts:
        system["accelerators"] = parts
    host = row["host_processor_model_name"].strip()
    if host and host != "N/A":
        system["host_processor"] = host
    return system


def _provenance(row: SummaryRow, source: Source) -> dict[str, Any]:
    found = _provenance_fields(row, source)
    if row.cells.get("ID"):
        found["result_id"] = row["ID"]
    if row["inferred"] in ("1", "True", "true"):
        found["inferred"] = True
    return found


def _provenance_fields(row: SummaryRow, source: Source) -> dict[str, Any]:
    division, availability = row["Division"].lower(), row["Availability"].lower()
    if division not in ("closed", "open"):
        raise Unmappable(f"Division {row['Division']!r} is neither closed nor open")
    if availability not in ("available", "preview", "rdi"):
        raise Unmappable(f"Availability {row['Availability']!r} is not available, preview or rdi")
    return {
        "source": "mlperf",
        "repository": source.repository,
        "file": source.file,
        "commit": source.commit,
        "row": row.row,
        "run_path": row["Location"],
        "benchmark": rules.benchmark_of(row["Model"]),
        "round": row["version"],
        "division": division,
        "availability": availability,
        "submitter": row["Organization"],
    }


_CONTEXT_NOTE = (
    "No context_tokens: the summary states no sequence lengths, and no stand-in is taken for one.",
)
_PREFIX_NOTE = (
    'MLPerf Inference rules (inference_rules.adoc, "LoadGen Operation"): caching values derived from',
    "activations across queries is prohibited, so no prefix cache is reused.",
)
_ENGINE_NOTE = ("The summary's framework column, as written.",)
_NO_ENGINE_NOTE = ("The framework names no serving engine the registry records; no cache figure is claimed.",)
_UNNAMED_NOTE = ("The summary gives the score without naming its metric.",)


def map_row(
    root: Path,
    row: SummaryRow,
    source: Source,
    record_id: str,
    run: RunFile | None = None,
    kept: LogFigures | None = None,
) -> Mapped:
    """The record of one LLM row, with the figures of its run's log summary where this import read one
    (``run``), else those an earlier import wrote (``kept``); or :class:`Unmappable`. Accuracy text that
    does not parse is bad input (:class:`SourceError`)."""
    scenario = maps.SCENARIOS.get(row["Scenario"].lower())
    if scenario is None:
        raise Unmappable(f"Scenario {row['Scenario']!r} is not in the scenario table")
    round_rules = rules_of(row["version"])
    if round_rules is None:
        raise Unmappable(f"version {row['version']!r}: no round whose submission-checker rules are tabled")
    benchmark = rules.benchmark_of(row["Model"])
    scores, named = rules.with_targets(accuracy(row), rules.targets(round_rules, benchmark, scenario))
    model = _model(root, row)
    hardware, parts, count = _hardware(root, row)
    engine = _engine(root, row)
    provenance = _provenance(row, source)
    if run is not None:
        _check_run(run, scenario, benchmark, round_rules)
    unit = unit_of(row, round_rules, scenario, run)
    metrics = [metric_of(row, scenario, round_rules, unit), *power_of(row)]
    figures = read_figures(run, row["version"], scenario) if run is not None else kept
    if figures is not None:
        metrics += figures.metrics
        if figures.valid is not None:
            provenance["valid"] = figures.valid
    fields: dict[str, Any] = {
        "schema_version": 2,
        "id": record_id,
        "kind": "benchmark",
        "title": _title(row),
        "evidence": "measured",
        "model": model,
        "engine": engine,
        "engine_version": row["framework"].strip() or "not stated in the table",
        "layout": engines.ENGINE_LAYOUTS[engine] if engine else "ideal",
    }
    if hardware is not None:
        fields["hardware"] = hardware
    fields |= {
        "hardware_count": count,
        "precision": _precision(row),
        "prefix_cache": "none",
        "workload": datasets.workload(row),
        "scenario": scenario,
        "system": _system(row, parts),
        "metrics": metrics,
        "accuracy": scores,
        "provenance": provenance,
        "sources": _sources(
            row,
            source,
            figures,
            round_rules
            if unit.overridden or rules.limits(round_rules, benchmark, scenario) or _targeted(scores)
            else None,
        ),
        "related": [
            model,
            *([hardware] if hardware else [p["hardware"] for p in parts]),
            *([engine] if engine else []),
        ],
        "tags": ["mlperf"],
    }
    comments = _comments(row, engine, scores, named, figures)
    if unit.overridden:
        comments["metrics"] = unit.overridden + comments.get("metrics", ())
    if row["accelerator_model_name"] in maps.COUNT_IN_NAME:
        comments["hardware_count"] = _count_note(row, count)
    if provenance.get("inferred"):
        comments["provenance"] = _INFERRED_NOTE
    if note := checkpoints.model_note(row, benchmark):
        comments["model"] = note
    return Mapped(record_id, row, fields, comments)


_INFERRED_NOTE = (
    "The table marks this result inferred (its inferred column): see the description of",
    "provenance.inferred in the benchmark schema.",
)


def _count_note(row: SummaryRow, count: int) -> tuple[str, ...]:
    return (
        f"{row['accelerator_model_name']!r} and the platform {row['Platform']!r} say {count} accelerators;",
        f"number_of_nodes {row.nodes} x accelerators_per_node {row.accelerators_per_node} gives "
        f"{row.total_accelerators}. The name's count is",
        "taken, since a count per node cannot state a node with fewer; accelerators_per_node is left out.",
    )


def _targeted(scores: list[dict[str, Any]]) -> bool:
    return any("target" in score for score in scores)


def _check_run(run: RunFile, scenario: str, benchmark: str, round_rules: rules.RoundRules) -> None:
    """A run's log must be of the row's scenario and state the benchmark's own latency targets."""
    log = run.log
    if not runs_as(log.scenario, scenario):
        raise Unmappable(f"{log.path}: the log's scenario {log.scenario!r} is not the row's {scenario!r}")
    if scenario not in SERVER_STYLE:
        return
    for limit in rules.limits(round_rules, benchmark, scenario):
        stated = log.targets.get(limit.metric)
        if stated is not None and stated != limit.limit_ms * 10**6:
            raise Unmappable(
                f"{log.path}: the log's {limit.metric} target {milliseconds(stated)} is not "
                f"{benchmark}'s {limit.limit_ms} ms in the submission checker"
            )


def _comments(
    row: SummaryRow,
    engine: str | None,
    scores: list[dict[str, Any]],
    named: bool,
    figures: LogFigures | None,
) -> dict[str, tuple[str, ...]]:
    submitter = _submitter_precision(row)
    comments = {
        "workload": _CONTEXT_NOTE,
        "prefix_cache": _PREFIX_NOTE,
        "engine_version": _ENGINE_NOTE,
        "layout": () if engine else _NO_ENGINE_NOTE,
        "precision": _submitter_note(row, submitter) if submitter else checkpoints.precision_note(row),
        "metrics": _LOG_NOTE if figures else (),
        "accuracy": (_NAMED_NOTE if named else _UNNAMED_NOTE if scores[0]["metric"] == "unnamed" else ())
        + (_TARGET_NOTE if _targeted(scores) else ()),
    }
    return {k: v for k, v in comments.items() if v}


_NAMED_NOTE = (
    "The summary gives the score without naming its metric; the submission checker's only accuracy",
    "target for this benchmark names it.",
)
_TARGET_NOTE = (
    "Targets: the submission checker's accuracy-target (sources); target_value is the least that passes.",
)
_LOG_NOTE = (
    "After the summary's result: the run log's latency statistics, in ns there and in ms here (the",
    "decimal point moved); its 97th percentiles have no statistic name here and are left out.",
)


def _submitter_note(row: SummaryRow, submitter: maps.SubmitterPrecision) -> tuple[str, ...]:
    return (
        f"weight_data_types {row['weight_data_types']!r} lists the checkpoint's storage types; the",
        f"submitter's config of this run (sources) serves {submitter.checkpoint},",
        "whose name states NVFP4 weights and an FP8 KV cache.",
    )


def _sources(
    row: SummaryRow, source: Source, figures: LogFigures | None, ruled: rules.RoundRules | None
) -> list[dict[str, Any]]:
    """The summary's row, then the run's log, the submitter's config, the dataset's lengths and the
    checker's rules where used."""
    found = [_citation(row, source)] + ([figures.citation] if figures else [])
    submitter = _submitter_precision(row)
    if submitter is not None:
        repository, commit = maps.SUBMITTER_FILES
        found.append(
            {
                "title": f"{row['Organization']}'s MLPerf Inference {row['version']} config of this run",
                "url": f"https://github.com/{repository}/blob/{commit}/{submitter.file}",
                "file": submitter.file,
                "revision": commit,
                "section": "MODEL_REPO_ID",
            }
        )
    lengths = datasets.citations(row)
    return found + checkpoints.citation(row) + lengths + ([ruled.citation] if ruled else [])


def _title(row: SummaryRow) -> str:
    title = f"MLPerf Inference {row['version']} {row['Model']} {row['Scenario']}: {row['Organization']}, {row['SystemName']}"
    return title if len(title) <= 300 else title[:297] + "..."


def _citation(row: SummaryRow, source: Source) -> dict[str, Any]:
    return {
        "title": f"MLPerf Inference {row['version']} results summary",
        "url": f"https://github.com/{source.repository}/blob/{source.commit}/{source.file}",
        "publisher": "MLCommons",
        "file": source.file,
        "revision": source.commit,
        "section": f"data row {row.row}",
    }
