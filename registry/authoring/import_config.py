"""``registry import-config``: a model record from a published ``config.json``.

The config is copied verbatim under ``config`` (same keys in the same order, same value types; checked
by loading the written record back), ``config_source`` says where it was read (repository, file,
revision, and the URL when given), and the cache layout the engine derives from it through the adapters
is written as a comment above ``config``: per layer group, how many layers, which mechanism, and its
dimensions. A ``model_type`` no adapter knows is still imported, config kept, with a warning that the
engine cannot lay it out (a person can then state a ``layout``).

``name`` defaults to the id's slug and ``org`` to the repository's owner; both are said to be derived so
a person can correct them. Without ``--url`` there is no source to cite, so ``sources`` is left empty
with a TODO and ``registry check`` reports it until it is filled. An existing file is never overwritten.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from registry.authoring.writer import Todo, record_text
from registry.config_file import read_config
from registry.engine.adapters import ConfigFieldError, UnsupportedModelType, layer_groups_from_config
from registry.engine.layers import LayerGroupsError
from registry.engine.trace import layer_span
from registry.errors import RegistryError
from registry.files import write_atomic
from registry.ids import record_id as resolve_id
from registry.ids import record_path


@dataclass(frozen=True)
class ImportOptions:
    """Where the config is, which record to write, and where the config was published."""

    config_path: Path
    record_id: str
    repository: str
    revision: str
    file: str = "config.json"
    url: str | None = None
    name: str | None = None
    org: str | None = None


@dataclass
class Imported:
    """The model record made from a config: its text, the layer groups found, warnings, what to fill."""

    id: str
    path: Path
    text: str = ""
    groups: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    derived: list[str] = field(default_factory=list)
    to_fill: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- reading the config


def read_config_json(path: Path) -> dict[str, Any]:
    """A config.json as a dict in its published key order, read with a record's bounds (duplicate keys,
    NaN and Infinity, deep nesting, huge integers, anything but a regular file refused) and its geometry
    checked: :func:`registry.config_file.read_config`."""
    return read_config(path)


# ---------------------------------------------------------------- the layout, as a comment


def _shape(sizes: tuple[int | None, ...]) -> str:
    """``3 × 8192``, with ``?`` for an unknown size."""
    return " × ".join("?" if n is None else str(n) for n in sizes)


def _dimensions(mechanism: Any) -> str:
    """``num_kv_heads 8, head_dim 128, v_head_dim 128``: the mechanism's known sizes, by field name."""
    parts: list[str] = []
    for item in dataclasses.fields(mechanism):
        value = getattr(mechanism, item.name)
        if value is None or item.name == "variant":
            continue
        if item.name == "tensors":
            shapes = ", ".join(f"{t.name} {_shape(t.shape)}" for t in value)
            parts.append(f"state tensors {shapes}")
        elif item.name == "inner":
            parts.append(f"entries like {value.kind} ({_dimensions(value)})")
        else:
            parts.append(f"{item.name} {value}")
    return ", ".join(parts)


def _group_line(group: Any) -> str:
    mechanism = group.mechanism
    variant = getattr(mechanism, "variant", None)
    name = f"{mechanism.kind} ({variant})" if variant else mechanism.kind
    dims = _dimensions(mechanism)
    return f"{group.count} × {name}, layers {layer_span(group.layers)}" + (f": {dims}" if dims else "")


def describe_layer_groups(config: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """What the adapters find in ``config``: one line per layer group, the adapter's notes, and warnings
    (an unknown ``model_type``, a field the adapter cannot read)."""
    try:
        layout = layer_groups_from_config(config)
    except UnsupportedModelType as error:
        named = "no model_type" if error.model_type is None else f"model_type {error.model_type!r}"
        return (
            [],
            [],
            [
                f"no adapter lays out {named}: the config is kept, but the engine cannot compute "
                "this model's cache; state a 'layout' in the record, or add an adapter"
            ],
        )
    except (ConfigFieldError, LayerGroupsError) as error:
        return [], [], [f"the engine cannot lay out this config: {error}"]
    lines = [_group_line(group) for group in layout.groups]
    lines += [f"multi-token prediction, not counted: {_group_line(group)}" for group in layout.mtp_groups]
    return lines, list(layout.notes), []


def _layout_comment(config: dict[str, Any], result: Imported) -> tuple[str, ...]:
    groups, notes, warnings = describe_layer_groups(config)
    result.groups, result.warnings = groups, warnings
    if warnings:
        return tuple(f"warning: {w}" for w in warnings)
    model_type = config.get("model_type")
    head = f"The cache layout the engine derives from this config (model_type {model_type}):"
    return (head, *(f"  {line}" for line in groups), *(f"  note: {note}" for note in notes))


# ---------------------------------------------------------------- the record


def _record_id(text: str) -> tuple[str, str]:
    wanted = resolve_id(text, "models")
    return wanted, wanted.split("/", 1)[1]


def _fields(options: ImportOptions, config: dict[str, Any], result: Imported, slug: str) -> dict[str, Any]:
    owner = options.repository.split("/", 1)[0] if "/" in options.repository else None
    name = options.name or slug
    org = options.org or owner
    if options.name is None:
        result.derived.append(f"name {name!r} (from the id)")
    if options.org is None and owner is not None:
        result.derived.append(f"org {owner!r} (the repository's owner)")
    source = {"repository": options.repository, "file": options.file, "revision": options.revision}
    if options.url:
        source["url"] = options.url
    sources: Any = Todo("where the config is published: title, url, file, revision", [])
    if options.url:
        sources = [
            {
                "title": f"{options.file} of {options.repository}",
                "url": options.url,
                "file": options.file,
                "revision": options.revision,
            }
        ]
    return {
        "schema_version": 1,
        "id": result.id,
        "kind": "model",
        "title": name,
        "evidence": "architectural",
        "name": name,
        "org": org if org else Todo("who publishes the model"),
        "config_source": source,
        "config": config,
        "sources": sources,
    }


def import_config(root: Path, options: ImportOptions) -> Imported:
    """The model record for ``options`` (nothing is written)."""
    record_id, slug = _record_id(options.record_id)
    result = Imported(record_id, record_path(root, record_id))
    config = read_config_json(options.config_path)
    fields = _fields(options, config, result, slug)
    result.to_fill = [key for key, value in fields.items() if isinstance(value, Todo)]
    result.text = record_text(fields, {"config": _layout_comment(config, result)}, flow=("config",))
    return result


def write_import(root: Path, options: ImportOptions) -> Imported:
    """Make the model record and write it atomically, refusing to overwrite an existing file."""
    result = import_config(root, options)
    if result.path.exists():
        raise RegistryError(
            f"records/{result.id}.yaml already exists; 'registry import-config' never overwrites a record"
        )
    write_atomic(result.path, result.text)
    return result
