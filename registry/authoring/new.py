"""``registry new``: a commented record to start from, with every figure the engine can compute filled in.

What is filled, and what is left to a person (the contributing page says the same):

- always: the modeline, ``schema_version``, ``id``, ``kind`` and the kind's usual ``evidence``;
- a ``kv-efficiency`` or ``benchmark`` record with ``--model``: the run shape from the options (context
  131,072, batch 1, KV bf16 and layout ``vllm`` unless given), a title, the engine record that declares
  the layout (if one does), ``related`` and the claims the formula engine computes for the model under
  that run (:mod:`registry.authoring.computed`), each with the engine's trace as a comment above it. A
  derived record cites what its figures derive from: the model's config source, or else the model
  record's own sources;
- everything a person must write (a title, sources, names, measured figures) is left empty (``null`` or
  ``[]``) with a ``TODO`` comment. ``new`` never writes a placeholder that would pass for a value, so
  ``registry check`` keeps flagging each of those fields until it is filled; the command lists them.

``new`` refuses to overwrite an existing file. Its output is already in ``registry fmt``'s canonical form
(:mod:`registry.authoring.writer`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from registry.authoring.computed import ComputedClaim, computed_claims
from registry.authoring.writer import Item, Todo, record_text
from registry.checker.pipeline import load_file, load_record
from registry.engine.variants import Run
from registry.errors import RegistryError
from registry.files import write_atomic
from registry.ids import id_problem, record_path
from registry.ids import record_id as resolve_id
from registry.kinds.fields import DTYPE_NAMES, ENGINE_LAYOUT_NAMES
from registry.kinds.records import (
    DTYPE_PATTERN,
    KINDS,
    LAYOUT_PATTERN,
    SCHEMA_VERSIONS,
    SLUG_PATTERN,
    Engine,
    Model,
)
from registry.results.specs import make_run

COLLECTIONS = {folder: kind for kind, folder in KINDS.items()}
RUN_KINDS = ("kv-efficiency", "benchmark")
EVIDENCE = {
    "model": "architectural",
    "kv-efficiency": "derived",
    "benchmark": "measured",
    "engine": "architectural",
    "hardware": "source-reported",
}
"""The evidence a new record of each kind usually has; the comment above it lists the others."""


DEFAULT_CONTEXT = 131_072
"""The context a run record gets when none is asked for (128K), unless its model's maximum is shorter."""


@dataclass(frozen=True)
class NewOptions:
    """What ``registry new`` was asked for: ``kind``/``slug`` and, for a run, its shape."""

    kind: str
    slug: str
    model: str | None = None
    context_tokens: int | None = None
    """The run's context; ``None`` is :data:`DEFAULT_CONTEXT`, or the model's maximum where that is shorter."""
    batch: int = 1
    kv_dtype: str = "bf16"
    state_dtype: str | None = None
    weights: str | None = None
    layout: str = "vllm"


@dataclass
class NewRecord:
    """A record ``new`` made: where it goes, its text, the claims it computed and what is left to fill."""

    id: str
    path: Path
    text: str
    claims: list[ComputedClaim] = field(default_factory=list)
    to_fill: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- the target and the registry


def parse_target(target: str) -> tuple[str, str]:
    """``kv-efficiency/llama-3.1-8b-128k`` (a kind or a collection, then a slug) → ``(kind, slug)``."""
    head, _, slug = target.removeprefix("records/").removesuffix(".yaml").partition("/")
    kind = head if head in KINDS else COLLECTIONS.get(head)
    if kind is None or not slug:
        raise RegistryError(
            f"{target!r} is not KIND/slug; KIND is one of {', '.join(KINDS)} (or its folder: "
            f"{', '.join(KINDS.values())}), e.g. kv-efficiency/llama-3.1-8b-128k"
        )
    if not re.fullmatch(SLUG_PATTERN, slug):
        raise RegistryError(
            f"{slug!r} is not a slug: lower-case letters, digits, '.', '_' and '-', at most 100"
        )
    return kind, slug


def engine_for(root: Path, layout: str) -> str | None:
    """The id of the one engine record that declares ``layout`` (its version suffix aside), if any."""
    base = layout.split("@", 1)[0]
    found: list[str] = []
    for path in sorted((root / "records" / "engines").glob("*.yaml")):
        loaded = load_file(root, path.relative_to(root).as_posix())
        engine = None if isinstance(loaded, list) else loaded[0]
        if isinstance(engine, Engine) and engine.layout and engine.layout.split("@", 1)[0] == base:
            found.append(engine.id)
    return found[0] if len(found) == 1 else None


# ---------------------------------------------------------------- the run


def _check_options(options: NewOptions) -> None:
    for name, value in (
        ("--kv-dtype", options.kv_dtype),
        ("--state-dtype", options.state_dtype),
        ("--weights", options.weights),
    ):
        if value is not None and not re.fullmatch(DTYPE_PATTERN, value):
            raise RegistryError(
                f"{name} {value!r} is not a dtype the records know; use one of {', '.join(DTYPE_NAMES)}"
            )
    if not re.fullmatch(LAYOUT_PATTERN, options.layout):
        raise RegistryError(
            f"--layout {options.layout!r} is not an engine layout; use one of "
            f"{', '.join(ENGINE_LAYOUT_NAMES)}, optionally with a version (transformers@4)"
        )
    if options.batch < 1 or (options.context_tokens is not None and options.context_tokens < 1):
        raise RegistryError("--context and --batch are at least 1")


def default_context(model: Model | None) -> tuple[int, str | None]:
    """The context of a run record whose context was not asked for, and a note when it is not the default:
    a record past its model's maximum would draw R012 beyond-max-context the moment it is written."""
    limit = model.max_context_tokens if model is not None else None
    if limit is None or limit >= DEFAULT_CONTEXT:
        return DEFAULT_CONTEXT, None
    return (
        limit,
        f"context: {limit:,} tokens, the model's max_context_tokens (shorter than {DEFAULT_CONTEXT:,})",
    )


def run_for(options: NewOptions) -> Run:
    """The engine's run for the record's run shape, built as the check builds it from a record."""
    return make_run(
        context_tokens=options.context_tokens or DEFAULT_CONTEXT,
        batch=options.batch,
        engine_layout=options.layout,
        kv_dtype=options.kv_dtype,
        state_dtype=options.state_dtype,
        weights=options.weights,
    )


# ---------------------------------------------------------------- the fields of each kind


def _derived_sources(model: Model) -> list[dict[str, Any]]:
    """What a derived record's figures come from: the model's config file, or the model's own sources."""
    source = model.config_source
    if source is not None and source.url is not None:
        cited = [s for s in model.sources if s.url == source.url]
        if cited:
            return [cited[0].model_dump(exclude_none=True)]
        return [
            {
                "title": f"{source.file} of {source.repository}",
                "url": source.url,
                "file": source.file,
                "revision": source.revision,
            }
        ]
    return [s.model_dump(exclude_none=True) for s in model.sources]


def _run_fields(root: Path, options: NewOptions, model: Model | None) -> dict[str, Any]:
    benchmark = options.kind == "benchmark"
    weights: Any = options.weights
    if benchmark and weights is None:  # a person says which, or lists several in weight_formats
        weights = Todo("the weights' format in the run, e.g. nvfp4; null with weight_formats when several")
    precision = {
        "weights": weights,
        "kv_cache": options.kv_dtype,
        "recurrent_state": options.state_dtype,
    }
    title: Any = Todo("a title for people: model, what is measured, the setting")
    if model is not None and not benchmark:
        run = f"{options.context_tokens:,} tokens ({options.kv_dtype} KV, {options.layout} layout)"
        title = f"{model.name}: KV cache at {run}"
    fields: dict[str, Any] = {
        "title": title,
        "model": model.id if model else Todo("the model record, e.g. models/llama-3.1-8b"),
    }
    engine = engine_for(root, options.layout)
    if engine is not None:
        fields["engine"] = engine
    fields["layout"] = options.layout
    if benchmark:
        fields["hardware"] = Todo("the hardware record, e.g. hardware/h100-sxm")
    fields["precision"] = {k: v for k, v in precision.items() if v is not None}
    fields.update(context_tokens=options.context_tokens, batch=options.batch, prefix_cache="none")
    if benchmark:
        fields["workload"] = Todo("input and output tokens, requests, concurrency, dataset")
        fields["scenario"] = Todo("offline, server, interactive, single-stream, multi-stream or sweep-point")
        fields["metrics"] = Todo(
            "the measured figures: metric, statistic, per, stated as the source writes it, e.g. "
            "{metric: ttft, statistic: mean, per: request, stated: 8.6 s}",
            [],
        )
    if model is None:
        fields["sources"] = Todo("where the figures come from: title, url, section or table", [])
    elif benchmark:
        fields["sources"] = Todo("where the measured figures come from: title, url, section or table", [])
    else:
        fields["sources"] = _derived_sources(model)
    if model is not None:
        fields["related"] = [model.id]
    return fields


def _kind_fields(kind: str) -> dict[str, Any]:
    title = Todo("a title for people")
    sources = Todo("where every figure comes from: title, url, and the section, table or file@revision", [])
    if kind == "model":
        return {
            "title": title,
            "name": Todo("the model's name"),
            "org": Todo("who publishes it"),
            "params_total_b": Todo("total parameters, billions, from the model card"),
            "layout": Todo("layer groups, or use 'registry import-config' to copy config.json"),
            "sources": sources,
        }
    if kind == "engine":
        return {
            "title": title,
            "name": Todo("the engine's name"),
            "repository": Todo("owner/name"),
            "version": Todo("the release the capabilities were read at"),
            "capabilities": {},
            "sources": sources,
        }
    return {
        "title": title,
        "name": Todo("the product name"),
        "vendor": Todo("who makes it"),
        "devices": 1,
        "memory_per_device": Todo("as the datasheet writes it, e.g. '80 GB'"),
        "sources": sources,
    }


_COMMENTS: dict[str, tuple[str, ...]] = {
    "evidence": ("evidence: architectural | measured | source-reported | derived",),
}


def build(root: Path, options: NewOptions) -> NewRecord:
    """The record for ``options`` and what is left to fill; see the module docstring."""
    _check_options(options)
    record_id = resolve_id(f"{KINDS[options.kind]}/{options.slug}")  # the one id rule (ids.id_problem)
    if (problem := id_problem(root, record_id)) is not None:
        raise RegistryError(f"{record_id} cannot be written: {problem}")
    model = None
    if options.model is not None:
        if options.kind not in RUN_KINDS:
            raise RegistryError(
                f"--model belongs to {' and '.join(RUN_KINDS)} records, not to a {options.kind} record"
            )
        model = load_record(root, resolve_id(options.model, "models"), Model)
    context_note = None
    if options.context_tokens is None:
        context, context_note = default_context(model)
        options = replace(options, context_tokens=context)
    head: dict[str, Any] = {
        "schema_version": SCHEMA_VERSIONS[options.kind],
        "id": record_id,
        "kind": options.kind,
        "evidence": EVIDENCE[options.kind],
    }
    body = _run_fields(root, options, model) if options.kind in RUN_KINDS else _kind_fields(options.kind)
    fields = {**head, **body}
    comments = _COMMENTS
    result = NewRecord(record_id, record_path(root, record_id), "")
    if model is not None:
        result.claims, result.notes, trace = computed_claims(model, run_for(options))
        fields["claims"] = [
            Item({"quantity": c.quantity, "stated": c.stated}, c.trace) for c in result.claims
        ]
        comments = {**_COMMENTS, "claims": trace}
    if context_note is not None:
        result.notes.insert(0, context_note)
    result.to_fill = [
        key
        for key, value in fields.items()
        if isinstance(value, Todo)
        or (isinstance(value, dict) and any(isinstance(v, Todo) for v in value.values()))
    ]
    result.text = record_text(fields, comments)
    return result


def new_record(root: Path, options: NewOptions) -> NewRecord:
    """The record ``new`` would write for ``options``; nothing is written."""
    return build(root, options)


def write_new(root: Path, options: NewOptions) -> NewRecord:
    """Make the record and write it atomically, refusing to overwrite an existing file."""
    record = build(root, options)
    if record.path.exists():
        shown = record.path.relative_to(root).as_posix()
        raise RegistryError(
            f"{shown} already exists; 'registry new' never overwrites a record: "
            "edit it, or choose another slug"
        )
    write_atomic(record.path, record.text)
    return record
