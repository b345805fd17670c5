"""``registry new``: a commented record to start from, with every figure the engine can compute filled in.

What is filled, and what is left to a person (the contributing page says the same):

- always: the modeline, ``schema_version``, ``id``, ``kind`` and the kind's usual ``evidence``;
- a ``kv-efficiency`` or ``benchmark`` record with ``--model``: the run shape from the options (context
  131,072, batch 1, KV bf16 and layout ``vllm`` unless given), a title, the engine record that declares
  the layout (if one does), ``related`` and the claims the formula engine computes for the model under
  that run: ``bytes_per_token`` (once every window is full, when it is not 0), ``bytes_per_sequence`` at
  the context, ``bytes_total`` for a batch above 1 and ``fixed_bytes`` when the model keeps recurrent
  state. Each stated value is the exact byte count written as ``70,272 B``, checked with the same claim
  check ``registry check`` runs, with the engine's trace as a comment above it. A derived record cites
  what its figures derive from: the model's config source, or else the model record's own sources;
- everything a person must write (a title, sources, names, measured figures) is left empty (``null`` or
  ``[]``) with a ``TODO`` comment. ``new`` never writes a placeholder that would pass for a value, so
  ``registry check`` keeps flagging each of those fields until it is filled; the command lists them.

``new`` refuses to overwrite an existing file. Its output is already in ``registry fmt``'s canonical form.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from registry.authoring.fmt import FmtLoadError, FmtRefused, format_text
from registry.check.load import resolve_plain
from registry.engine.units import format_bytes, format_int
from registry.errors import RegistryError
from registry.files import write_atomic
from registry.kinds.records import KINDS, SLUG_PATTERN, Engine, Model

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


@dataclass(frozen=True)
class NewOptions:
    """What ``registry new`` was asked for: ``kind``/``slug`` and, for a run, its shape."""

    kind: str
    slug: str
    model: str | None = None
    context_tokens: int = 131_072
    batch: int = 1
    kv_dtype: str = "bf16"
    state_dtype: str | None = None
    weights: str | None = None
    layout: str = "vllm"


@dataclass(frozen=True)
class ComputedClaim:
    """One claim ``new`` filled in: the quantity, the stated value and the trace behind it."""

    quantity: str
    stated: str
    trace: tuple[str, ...]


@dataclass
class NewRecord:
    """A record ``new`` made: where it goes, its text, the claims it computed and what is left to fill."""

    id: str
    path: Path
    text: str
    claims: list[ComputedClaim] = field(default_factory=list)
    to_fill: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- writing YAML by hand


@dataclass(frozen=True)
class Item:
    """A sequence item with comment lines above it."""

    value: Any
    above: tuple[str, ...] = ()


@dataclass(frozen=True)
class Todo:
    """An empty value a person must fill: written as ``null`` or ``[]`` with ``# TODO: what``."""

    what: str
    empty: Any = None


_YAML11_BOOLEANS = {"y", "n", "yes", "no", "on", "off"}
"""Strings YAML 1.1 tools read as booleans: quoted, although the registry reads YAML 1.2."""
_PLAIN = re.compile(r"[A-Za-z0-9~][A-Za-z0-9_.,/()+~:@=?&%# '-]*")


def scalar(value: Any, *, flow: bool = False) -> str:
    """A YAML scalar whose value the registry's loader reads back exactly: plain when that is safe,
    else double-quoted (a JSON string is a valid YAML double-quoted scalar)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    plain = _PLAIN.fullmatch(text) and text == text.strip() and isinstance(resolve_plain(text), str)
    awkward = ": " in text or " #" in text or text.endswith(":") or (flow and "," in text)
    awkward = awkward or text.lower() in _YAML11_BOOLEANS
    if plain and not awkward and text != "~":
        return text
    return json.dumps(text, ensure_ascii=False)


def _flow(value: Any) -> str:
    """A value in flow style: ``[a, b]``, ``{k: v}``, or a scalar safe inside brackets."""
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k, flow=True)}: {_flow(v)}" for k, v in value.items()) + "}"
    return scalar(value, flow=True)


def yaml_lines(key: str, value: Any, indent: int = 0, *, flow_lists: bool = False) -> list[str]:
    """``key: value`` as block YAML at ``indent``; with ``flow_lists``, lists of scalars in flow style
    (as config.json copies are written)."""
    pad = " " * indent
    key = scalar(key)
    if isinstance(value, Todo):
        empty = "[]" if value.empty == [] else scalar(value.empty)
        return [f"{pad}{key}: {empty}  # TODO: {value.what}"]
    if isinstance(value, dict) and value:
        lines = [f"{pad}{key}:"]
        for name, inner in value.items():
            lines += yaml_lines(name, inner, indent + 2, flow_lists=flow_lists)
        return lines
    if (
        isinstance(value, list)
        and value
        and (not flow_lists or all(isinstance(v, dict | Item) for v in value))
    ):
        lines = [f"{pad}{key}:"]
        for item in value:
            lines += _item_lines(item, indent + 2, flow_lists)
        return lines
    if isinstance(value, list):
        return [f"{pad}{key}: {_flow(value)}"]
    if isinstance(value, dict):
        return [f"{pad}{key}: {{}}"]
    return [f"{pad}{key}: {scalar(value)}"]


def _item_lines(item: Any, indent: int, flow_lists: bool) -> list[str]:
    pad = " " * indent
    above = item.above if isinstance(item, Item) else ()
    value = item.value if isinstance(item, Item) else item
    lines = [f"{pad}# {line}".rstrip() for line in above]
    if not isinstance(value, dict):
        return [*lines, f"{pad}- {_flow(value)}"]
    if not value:
        return [*lines, f"{pad}- {{}}"]
    for position, (name, inner) in enumerate(value.items()):
        sub = yaml_lines(name, inner, indent + 2, flow_lists=flow_lists)
        if position == 0:
            sub[0] = f"{pad}- {sub[0][indent + 2 :]}"
        lines += sub
    return lines


def record_text(
    fields: dict[str, Any], comments: dict[str, tuple[str, ...]], flow: tuple[str, ...] = ()
) -> str:
    """A record's text in canonical form: each field, with ``comments[field]`` as comment lines above it;
    the lists inside the fields named in ``flow`` are written in flow style."""
    lines: list[str] = []
    for key, value in fields.items():
        lines += [f"# {line}".rstrip() for line in comments.get(key, ())]
        lines += yaml_lines(key, value, flow_lists=key in flow)
    try:
        return format_text("\n".join(lines) + "\n")
    except (FmtLoadError, FmtRefused) as error:
        raise RegistryError(
            f"the record cannot be written as YAML that reads back the same: {error}"
        ) from None


# ---------------------------------------------------------------- the target and the registry


def parse_target(target: str) -> tuple[str, str]:
    """``kv-efficiency/llama-3.1-8b-128k`` (a kind or a collection, then a slug) → ``(kind, slug)``."""
    head, _, slug = target.partition("/")
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
    from registry.check.pipeline import load_file

    base = layout.split("@", 1)[0]
    found: list[str] = []
    for path in sorted((root / "records" / "engines").glob("*.yaml")):
        loaded = load_file(root, path.relative_to(root).as_posix())
        engine = None if isinstance(loaded, list) else loaded[0]
        if isinstance(engine, Engine) and engine.layout and engine.layout.split("@", 1)[0] == base:
            found.append(engine.id)
    return found[0] if len(found) == 1 else None


def format_claim_bytes(value: Fraction) -> str | None:
    """An exact byte count as a stated value (``70,272 B``, ``4,608.5 B``); None when it has no finite
    decimal expansion and so cannot be written exactly."""
    if value.denominator == 1:
        return f"{format_int(value.numerator)} B"
    from registry.engine.trace import number

    written = number(value)
    return None if "/" in written else f"{written} B"


def human_bytes(text: str) -> str:
    """``17,179,869,184 B`` → ``17,179,869,184 B (16 GiB)`` for a reader."""
    value = Fraction(text.removesuffix(" B").replace(",", ""))
    return text if value < 1024 else f"{text} ({format_bytes(value)})"


# ---------------------------------------------------------------- claims a run's figures


def _check_options(options: NewOptions) -> None:
    from registry.kinds.records import DTYPE_PATTERN, LAYOUT_PATTERN

    for name, value in (
        ("--kv-dtype", options.kv_dtype),
        ("--state-dtype", options.state_dtype),
        ("--weights", options.weights),
    ):
        if value is not None and not re.fullmatch(DTYPE_PATTERN, value):
            raise RegistryError(
                f"{name} {value!r} is not a dtype the records know: {DTYPE_PATTERN.strip('^$')}"
            )
    if not re.fullmatch(LAYOUT_PATTERN, options.layout):
        raise RegistryError(
            f"--layout {options.layout!r} is not an engine layout: {LAYOUT_PATTERN.strip('^$')}"
        )
    if options.batch < 1 or options.context_tokens < 1:
        raise RegistryError("--context and --batch are at least 1")


def run_for(options: NewOptions) -> Any:
    """The engine's run for the record's run shape, built as the check builds it from a record
    (``registry.check.formulas.run_of``): unquantized weights are the activations' dtype."""
    from registry.engine.dtypes import model_dtype_of
    from registry.engine.variants import Run

    return Run(
        context_tokens=options.context_tokens,
        batch=options.batch,
        engine=options.layout,
        kv_dtype=options.kv_dtype,
        state_dtype=options.state_dtype,
        model_dtype=model_dtype_of(options.weights),
    )


def _lines_giving(stated: str, trace: tuple[str, ...]) -> tuple[str, ...]:
    """The trace lines that arrive at ``stated`` (``... = 70,272 B``): the derivation of that figure."""
    return tuple(line for line in trace if f"= {stated}" in line)


def computed_claims(
    model: Model, options: NewOptions
) -> tuple[list[ComputedClaim], list[str], tuple[str, ...]]:
    """The claims the engine can fill for ``model`` under the options' run, each checked as ``registry
    check`` checks it; a note for each figure left out, saying why; and the whole trace for one sequence."""
    from registry.engine.claims import ClaimSpec, check_claim
    from registry.engine.variants import measure
    from registry.kinds.geometry import model_fields, model_layout

    run = run_for(options)
    try:
        layout = model_layout(model)
    except ValueError as error:
        return [], [f"no claims: the engine cannot lay out {model.id}: {error}"], ()
    quantities = [
        "bytes_per_token",
        "bytes_per_sequence",
        *(["bytes_total"] if run.batch > 1 else []),
        "fixed_bytes",
    ]
    claims: list[ComputedClaim] = []
    notes: list[str] = []
    trace: tuple[str, ...] = ()
    for quantity in quantities:
        try:
            measured = measure(layout, run, quantity)  # type: ignore[arg-type]
        except ValueError as error:
            return [], [f"no claims: {error}"], ()
        if quantity == "bytes_per_sequence":
            trace = measured.result.trace
        if measured.value is None:
            notes.append(f"{quantity} left out: {measured.reason}")
            continue
        if measured.value == 0:
            continue  # no growth once windows are full, or no recurrent state: nothing worth claiming
        stated = format_claim_bytes(measured.value)
        if stated is None:
            notes.append(f"{quantity} left out: {measured.value} B cannot be written exactly in decimals")
            continue
        verdict = check_claim(ClaimSpec(quantity, stated), layout, model_fields(model), run)  # type: ignore[arg-type]
        if verdict.agrees is not True:
            raise RegistryError(
                f"internal error: the engine's own {quantity} {stated} does not check; please report it"
            )
        claims.append(ComputedClaim(quantity, stated, _lines_giving(stated, measured.result.trace)))
    return claims, notes, trace if claims else ()


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
    if benchmark and weights is None:  # a measured run names its weight precision (BenchmarkPrecision)
        weights = Todo("the weights' format in the run, e.g. bf16 or fp8")
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
        fields["measured_ttft"] = Todo("the measured figures, as the source writes them, e.g. '8.6 s'")
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
    record_id = f"{KINDS[options.kind]}/{options.slug}"
    model = None
    if options.model is not None:
        if options.kind not in RUN_KINDS:
            raise RegistryError(
                f"--model belongs to {' and '.join(RUN_KINDS)} records, not to a {options.kind} record"
            )
        from registry.check.pipeline import load_record

        wanted = options.model if options.model.startswith("models/") else f"models/{options.model}"
        model = load_record(root, wanted, Model)
    head: dict[str, Any] = {
        "schema_version": 1,
        "id": record_id,
        "kind": options.kind,
        "evidence": EVIDENCE[options.kind],
    }
    body = _run_fields(root, options, model) if options.kind in RUN_KINDS else _kind_fields(options.kind)
    fields = {**head, **body}
    comments = _COMMENTS
    result = NewRecord(record_id, root / "records" / f"{record_id}.yaml", "")
    if model is not None:
        result.claims, result.notes, trace = computed_claims(model, options)
        fields["claims"] = [
            Item({"quantity": c.quantity, "stated": c.stated}, c.trace) for c in result.claims
        ]
        comments = {**_COMMENTS, "claims": trace}
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
