"""What one run of a serving tool's result file says, whatever the tool, and the benchmark record
(schema version 2) it becomes.

Each importer reads its files into :class:`RunDraft` values: the figures as the file writes them, with
their units; the workload, load and system the file states; the model as the file names it; and every
key it read but could not state (with why) or did not know (by name). :func:`build_record` then adds
what the command line says (:class:`BenchOptions`), refuses an option the file contradicts (naming
both), resolves the model against the registry's model records (:mod:`registry.authoring.importers.
model_match`) and makes the record's fields and comments. What neither says is left out with a ``TODO``
comment, and the record is a draft that ``registry check`` flags until a person fills it in.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from registry.authoring.importers.bench_json import Number
from registry.authoring.importers.mlperf_engines import ENGINE_LAYOUTS
from registry.authoring.importers.mlperf_record import slug
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import FileModel, ModelCatalog, resolve_model
from registry.authoring.importers.writing import Planned
from registry.authoring.writer import Todo
from registry.errors import RegistryError
from registry.ids import record_id, record_path


@dataclass(frozen=True)
class BenchOptions:
    """What the command line says of the runs beyond their files; ``None`` where it says nothing."""

    model: str | None = None
    hardware: str | None = None
    count: int | None = None
    engine: str | None = None
    engine_version: str | None = None
    weights: str | None = None
    kv_cache: str | None = None
    prefix_cache: str | None = None
    scenario: str | None = None
    context: int | None = None
    record_id: str | None = None
    url: str | None = None
    speculative_method: str | None = None
    repository: str | None = None
    commit: str | None = None
    file: str | None = None
    notes: str | None = None
    cite: tuple[str, ...] = ()
    """Further sources of what the options say (a manifest, a datasheet): ``TITLE URL`` or a URL."""


@dataclass
class RunDraft:
    """One run as a file states it. ``where`` locates it (``file``, ``file:line`` or ``file: /pointer``)."""

    source: str
    command: str
    path: Path
    where: str
    text: str
    """The run's own text, whose digest makes its default id (the same run keeps its id)."""
    row: int | None = None
    place: str = ""
    """Where in its file the run is (a JSON pointer for a file of several runs), part of its default id,
    which never depends on the folder the file is read from."""
    model: FileModel | None = None
    engine: str | None = None
    engine_why: str = ""
    engine_version: str | None = None
    hardware: str | None = None
    count: int | None = None
    hardware_why: str = ""
    precision: dict[str, str] = field(default_factory=dict)
    parallelism: dict[str, int] = field(default_factory=dict)
    disaggregation: dict[str, int] | None = None
    speculative: dict[str, Any] | None = None
    workload: dict[str, Any] = field(default_factory=dict)
    scenario: str | None = None
    sweep: dict[str, Any] | None = None
    load: str = ""
    """How load was offered, in words, for the title: ``8.0 req/s, concurrency 64``."""
    metrics: list[dict[str, Any]] = field(default_factory=list)
    not_stated: list[str] = field(default_factory=list)
    """Keys read but not stated as a figure, each with why: ``std_ttft_ms (no such statistic)``."""
    unknown: list[str] = field(default_factory=list)
    """Keys the importer does not know, by name (JSON pointers for nested ones)."""
    read: list[str] = field(default_factory=list)
    """What the record took from the file beyond its figures, for its comments: ``tp_size 8 from
    server_info``."""
    unmapped: str | None = None
    """Why the run cannot become a record (a hardware spelling no table maps, ...), or ``None``."""

    def stated(self, value: Number, unit: str) -> str:
        return stated(value, unit)

    def add_metric(self, metric: str, statistic: str, per: str, value: Number, unit: str) -> None:
        self.metrics.append(
            {"metric": metric, "statistic": statistic, "per": per, "stated": stated(value, unit)}
        )


def stated(value: Number, unit: str) -> str:
    """A number as the file writes it, with a unit: ``969.03 tok/s`` (an exponent written out)."""
    text = str(value)
    return f"{format(value, 'f') if isinstance(value, Decimal) and 'E' in text else text} {unit}"


LISTED = 40
"""The most key names a comment or a line of output lists; the rest are counted."""


def named(keys: list[str]) -> str:
    """``a, b, c`` for a few keys; ``a, ..., and 960 more`` for a file of thousands."""
    shown = ", ".join(keys[:LISTED])
    return shown if len(keys) <= LISTED else f"{shown}, and {len(keys) - LISTED} more"


def default_id(run: RunDraft) -> str:
    """The file's name and a digest of the run's text, so the same run keeps its id."""
    digest = hashlib.sha256((f"{run.place}\n" if run.place else "").encode() + run.text.encode()).hexdigest()[
        :8
    ]
    stem = slug(run.path.stem)[:60].strip("-._") or "run"
    return f"benchmarks/{run.source}-{stem}-{digest}"


def existing(root: Path, text: str, collection: str) -> str:
    """The id ``text`` names in ``collection``, whose record must exist."""
    wanted = record_id(text, collection)
    if not record_path(root, wanted).is_file():
        raise RegistryError(f"{wanted}: no such record in this registry")
    return wanted


def agree(run: RunDraft, what: str, option: str | int | None, from_file: str | int | None) -> Any:
    """The option when given, else the file's value; both given and different is an error naming both."""
    if option is not None and from_file is not None and str(option) != str(from_file):
        raise SourceError(
            f"{run.where}: the file says {what} {from_file!r}, the command line {option!r}; "
            "they cannot both be right (leave the option out, or fix it)"
        )
    return option if option is not None else from_file


_TODO = {
    "hardware": "TODO: hardware and hardware_count: the accelerator and how many ran the server (--hardware, --count)",
    "engine": "TODO: engine: the engine record that served the run (--engine)",
    "engine_version": "TODO: engine_version: the server's version (--engine-version)",
    "prefix_cache": "TODO: prefix_cache: none, cold or warm, as the server ran (--prefix-cache)",
}
_CONTEXT_NOTE = "No context_tokens: the result file states none (give it with --context)."


def _engine(root: Path, run: RunDraft, options: BenchOptions) -> str | None:
    if options.engine:
        chosen = existing(root, options.engine, "engines")
        return agree(run, "the engine", chosen, run.engine) if run.engine else chosen
    if run.engine and record_path(root, run.engine).is_file():
        return run.engine
    return None


def _hardware(root: Path, run: RunDraft, options: BenchOptions) -> tuple[str | None, int | None]:
    hardware = agree(
        run,
        "the hardware",
        existing(root, options.hardware, "hardware") if options.hardware else None,
        run.hardware,
    )
    count = agree(run, "the accelerator count", options.count, run.count)
    if hardware and not options.hardware and not record_path(root, hardware).is_file():
        run.unmapped = (
            f"the file's hardware ({run.hardware_why}) is {hardware}, which this registry has no record of"
        )
    return hardware, count


def _system(run: RunDraft, options: BenchOptions) -> dict[str, Any]:
    system: dict[str, Any] = {}
    if run.parallelism:
        system["parallelism"] = dict(run.parallelism)
    if run.disaggregation:
        system["disaggregation"] = dict(run.disaggregation)
    if run.speculative is not None:
        speculative = dict(run.speculative)
        method = agree(run, "the speculative method", options.speculative_method, speculative.get("method"))
        speculative = ({"method": method} if method else {}) | {
            k: v for k, v in speculative.items() if k != "method"
        }
        system["speculative"] = speculative
    elif options.speculative_method:
        system["speculative"] = {"method": options.speculative_method}
    return system


def build_record(root: Path, run: RunDraft, options: BenchOptions, models: ModelCatalog, rid: str) -> Planned:
    """The record of one run; what neither the file nor the options give is left out with a ``TODO``."""
    model, model_note = resolve_model(run.where, run.model, options.model, models)
    hardware, count = _hardware(root, run, options)
    engine = _engine(root, run, options)
    fields: dict[str, Any] = {
        "schema_version": 2,
        "id": rid,
        "kind": "benchmark",
        "title": f"{run.command}: {model}, {run.load or 'load not stated'}"[:300],
        "evidence": "measured",
        "model": model,
    }
    fields |= {"engine": engine} if engine else {}
    version = agree(run, "the engine version", options.engine_version, run.engine_version)
    fields |= {"engine_version": version} if version else {}
    fields["layout"] = ENGINE_LAYOUTS.get(engine or run.engine or "", "ideal")
    fields |= {"hardware": hardware, "hardware_count": count} if hardware and count else {}
    precision = {
        "weights": agree(run, "the weights' format", options.weights, run.precision.get("weights")),
        "kv_cache": agree(run, "the KV cache's format", options.kv_cache, run.precision.get("kv_cache")),
    }
    fields["precision"] = precision
    fields |= {"context_tokens": options.context} if options.context else {}
    prefix = agree(run, "the prefix cache", options.prefix_cache, run.workload.pop("prefix_cache", None))
    fields |= {"prefix_cache": prefix} if prefix else {}
    fields["workload"] = {key: value for key, value in run.workload.items() if value is not None}
    scenario = options.scenario or run.scenario
    fields |= {"scenario": scenario} if scenario else {}
    if scenario == "sweep-point" and run.sweep:
        fields["sweep"] = run.sweep
    system = _system(run, options)
    fields |= {"system": system} if system else {}
    fields["metrics"] = run.metrics
    provenance: dict[str, Any] = {"source": run.source}
    provenance |= {"repository": options.repository} if options.repository else {}
    provenance["file"] = options.file or run.path.name
    provenance |= {"commit": options.commit} if options.commit else {}
    provenance |= {"row": run.row} if run.row else {}
    fields["provenance"] = provenance
    fields["sources"] = _sources(run, options)
    related = [model, *([hardware] if hardware else []), *([engine] if engine else [])]
    fields["related"] = list(dict.fromkeys(related))
    fields |= {"notes": options.notes} if options.notes else {}
    fields["tags"] = [run.source]
    missing = [_TODO[name] for name in _TODO if name not in fields]
    return Planned(
        rid, fields, _comments(run, options, model_note, missing), bool(missing) or not options.url
    )


def _sources(run: RunDraft, options: BenchOptions) -> Any:
    citation: dict[str, Any] = {"title": f"{run.command} result {run.path.name}"[:200]}
    citation |= {"file": options.file or run.path.name}
    citation |= {"revision": options.commit} if options.commit else {}
    further = [_citation(text) for text in options.cite]
    if options.url:
        return [{"url": options.url} | citation, *further]
    return Todo("where the result file is published (--url)", [])


def _citation(text: str) -> dict[str, str]:
    """``TITLE URL`` (or a bare URL, titled by its last path component) as a source entry."""
    title, _, url = text.strip().rpartition(" ")
    return {"title": (title.strip() or url.rstrip("/").rsplit("/", 1)[-1] or url)[:200], "url": url}


def _comments(
    run: RunDraft, options: BenchOptions, model_note: str, missing: list[str]
) -> dict[str, tuple[str, ...]]:
    metrics: list[str] = list(missing)
    if run.not_stated:
        metrics.append(f"Read but not stated: {'; '.join(run.not_stated)}.")
    if run.unknown:
        metrics.append(f"Keys this importer does not know (not read): {named(run.unknown)}.")
    comments: dict[str, tuple[str, ...]] = {
        "model": (model_note,),
        "workload": () if options.context else (_CONTEXT_NOTE,),
        "precision": ("From the command line (--weights, --kv-cache) or the file; null where neither says.",),
        "metrics": tuple(metrics),
        "provenance": tuple(run.read),
    }
    if missing:
        comments["evidence"] = ("evidence: architectural | measured | source-reported | derived",)
    return {key: lines for key, lines in comments.items() if lines}
