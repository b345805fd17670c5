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

from registry.authoring.importers import mlperf_maps as maps
from registry.authoring.importers import mlperf_rules as rules
from registry.authoring.importers.mlperf_log import SERVER_STYLE, milliseconds, runs_as
from registry.authoring.importers.mlperf_runs import LogFigures, RunFile, read_figures
from registry.authoring.importers.mlperf_table import SourceError, SummaryRow
from registry.authoring.importers.numbers import NumberRefused, source_number

MAX_SLUG = 100
"""A record id's slug is at most 100 characters."""


class Unmappable(Exception):
    """A row that has no record to map to; the message says which spelling or record is missing."""


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
    """What identifies a result: round, division, submitter, system, model and scenario, compared
    without case (``Example`` and ``EXAMPLE`` are one submitter: two records of one result would be two
    files that collide on a case-insensitive file system)."""
    return tuple(cell.casefold() for cell in _key_cells(row))


def _key_cells(row: SummaryRow) -> tuple[str, ...]:
    return tuple(
        row[column] for column in ("version", "Division", "Organization", "Platform", "Model", "Scenario")
    )


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
        if key not in maps.CPU_SYSTEMS:
            raise Unmappable(f"CPU-only system {key[0]} {key[1]!r} is not in the table of CPU systems")
        return _need(root, maps.CPU_SYSTEMS[key], f"CPU system {key[1]!r}"), [], row.nodes
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
    if row.nodes * row.accelerators_per_node != row.total_accelerators or row.total_accelerators == 0:
        raise Unmappable(
            f"number_of_nodes {row.nodes} x accelerators_per_node {row.accelerators_per_node} "
            f"is not total_accelerators {row.total_accelerators}"
        )
    return _need(root, maps.HARDWARE[name], repr(name)), [], row.total_accelerators


def _engine(root: Path, row: SummaryRow) -> str | None:
    entry = maps.FRAMEWORKS.get(row["framework"])
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
    submitter = _submitter_precision(row)
    formats = submitter.formats if submitter else maps.PRECISIONS.get(row["weight_data_types"])
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


def _metric(row: SummaryRow, scenario: str) -> dict[str, Any]:
    units = row["Units"]
    if units in maps.THROUGHPUT_UNITS:
        metric, unit = maps.THROUGHPUT_UNITS[units]
        limits = rules.limits(rules.benchmark_of(row["Model"]), scenario)
        constraints = [
            {"metric": m.metric, "statistic": m.statistic, "limit": f"{m.limit_ms} ms"} for m in limits
        ]
        figure = {
            "metric": metric,
            "statistic": "value",
            "per": "system",
            "stated": f"{row['Result']} {unit}",
        }
        return figure | ({"constraints": constraints} if constraints else {})
    if units in maps.LATENCY_UNITS and scenario in maps.LATENCY_STATISTICS:
        statistic = maps.LATENCY_STATISTICS[scenario]
        stated = f"{row['Result']} {maps.LATENCY_UNITS[units]}"
        return {"metric": "e2e_latency", "statistic": statistic, "per": "request", "stated": stated}
    raise Unmappable(f"Units {units!r} in scenario {row['Scenario']!r} is not in the metric tables")


_SCORE = re.compile(r"([A-Za-z][A-Za-z0-9_]*): (\S+)")


def accuracy(row: SummaryRow) -> list[dict[str, Any]]:
    """The ``Accuracy`` cell's scores, named as the source names them (in lower case): ``ROUGE1: 44.4
    ROUGE2: 22.1`` is two scores; a bare number is one score whose metric the source does not name."""
    text = row["Accuracy"].strip()
    if _is_number(text):
        return [{"metric": "unnamed", "value": _value(row, text)}]
    pairs = _SCORE.findall(text)
    if not pairs or _SCORE.sub("", text).strip() or not all(_is_number(v) for _, v in pairs):
        raise SourceError(
            f"{row.where}: Accuracy {row['Accuracy']!r} is neither a number nor 'NAME: number' pairs"
        )
    return [{"metric": name.lower(), "value": _value(row, value)} for name, value in pairs]


def _is_number(text: str) -> bool:
    return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?", text) is not None


def _value(row: SummaryRow, text: str) -> int | float:
    """A score by the record's rules for numbers (a 5,000-digit one is refused, not an internal error)."""
    try:
        value = source_number(text)
    except NumberRefused as refused:
        raise SourceError(f"{row.where}: Accuracy {refused}") from None
    return value if isinstance(value, int) else float(value)


def _system(row: SummaryRow, parts: list[dict[str, Any]]) -> dict[str, Any]:
    system: dict[str, Any] = {"name": row["SystemName"], "nodes": row.nodes}
    if row.accelerators_per_node:
        system["accelerators_per_node"] = row.accelerators_per_node
    if parts:
        system["accelerators"] = parts
    host = row["host_processor_model_name"].strip()
    if host and host != "N/A":
        system["host_processor"] = host
    return system


def _provenance(row: SummaryRow, source: Source) -> dict[str, Any]:
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
    benchmark = rules.benchmark_of(row["Model"])
    scores, named = rules.with_targets(accuracy(row), benchmark, scenario)
    model = _model(root, row)
    hardware, parts, count = _hardware(root, row)
    engine = _engine(root, row)
    metrics = [_metric(row, scenario)]
    provenance = _provenance(row, source)
    if run is not None:
        _check_run(run, scenario, benchmark)
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
        "engine_version": row["framework"],
        "layout": maps.ENGINE_LAYOUTS[engine] if engine else "ideal",
    }
    if hardware is not None:
        fields["hardware"] = hardware
    fields |= {
        "hardware_count": count,
        "precision": _precision(row),
        "prefix_cache": "none",
        "workload": {"description": _workload(row)},
        "scenario": scenario,
        "system": _system(row, parts),
        "metrics": metrics,
        "accuracy": scores,
        "provenance": provenance,
        "sources": _sources(
            row, source, figures, ruled=bool(rules.limits(benchmark, scenario)) or _targeted(scores)
        ),
        "related": [
            model,
            *([hardware] if hardware else [p["hardware"] for p in parts]),
            *([engine] if engine else []),
        ],
        "tags": ["mlperf"],
    }
    return Mapped(record_id, row, fields, _comments(row, engine, scores, named, figures))


def _targeted(scores: list[dict[str, Any]]) -> bool:
    return any("target" in score for score in scores)


def _check_run(run: RunFile, scenario: str, benchmark: str) -> None:
    """A run's log must be of the row's scenario and state the benchmark's own latency targets."""
    log = run.log
    if not runs_as(log.scenario, scenario):
        raise Unmappable(f"{log.path}: the log's scenario {log.scenario!r} is not the row's {scenario!r}")
    if scenario not in SERVER_STYLE:
        return
    for limit in rules.limits(benchmark, scenario):
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
        "precision": _submitter_note(row, submitter) if submitter else (),
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
    row: SummaryRow, source: Source, figures: LogFigures | None, *, ruled: bool
) -> list[dict[str, Any]]:
    """The summary's row, then the run's log, the submitter's config and the checker's rules where used."""
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
    return found + ([dict(rules.CITATION)] if ruled else [])


def _title(row: SummaryRow) -> str:
    title = f"MLPerf Inference {row['version']} {row['Model']} {row['Scenario']}: {row['Organization']}, {row['SystemName']}"
    return title if len(title) <= 300 else title[:297] + "..."


def _workload(row: SummaryRow) -> str:
    return (
        f"The MLPerf Inference {row['version']} {row['MlperfModel']} benchmark ({row['Model']}), "
        f"{row['Scenario']} scenario, with the benchmark's own dataset; the results summary gives no "
        "lengths, request counts or rates."
    )


def _citation(row: SummaryRow, source: Source) -> dict[str, Any]:
    return {
        "title": f"MLPerf Inference {row['version']} results summary",
        "url": f"https://github.com/{source.repository}/blob/{source.commit}/{source.file}",
        "publisher": "MLCommons",
        "file": source.file,
        "revision": source.commit,
        "section": f"data row {row.row}",
    }
