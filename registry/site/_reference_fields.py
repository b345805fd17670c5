"""The record-field reference: every field of every kind, read from the JSON Schemas the record model
generates, so a field added to the model appears here without anyone writing it down.

Nested objects are flattened into dotted paths (``precision.kv_cache``, ``claims[].stated``,
``capabilities.<key>.supported``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from registry.kinds.records import KINDS
from registry.kinds.schema import generate
from registry.site._html import block, element, table
from registry.site._parts import front_matter

Schema = dict[str, Any]


def _resolve(node: Schema, defs: Schema) -> Schema:
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        return dict(defs[reference.rsplit("/", 1)[1]])
    return node


def type_words(node: Schema, defs: Schema) -> str:
    """A field's type in words: ``string``, ``one of: a, b``, ``list of Source``, ``integer or string``."""
    reference = node.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/$defs/"):
        return reference.rsplit("/", 1)[1]
    node = _resolve(node, defs)
    if "enum" in node:
        return "one of: " + ", ".join(str(v) for v in node["enum"])
    if "const" in node:
        return f"always {node['const']}"
    if "anyOf" in node:
        words = [type_words(option, defs) for option in node["anyOf"] if option.get("type") != "null"]
        nullable = any(option.get("type") == "null" for option in node["anyOf"])
        return " or ".join(dict.fromkeys(words)) + (" (or null)" if nullable else "")
    kind = node.get("type", "object" if "properties" in node else "any")
    if kind == "array":
        return f"list of {type_words(node.get('items', {}), defs)}"
    if kind == "string" and "x-dimensions" in node:
        return "quantity in " + " or ".join(node["x-dimensions"])
    if kind == "object" and isinstance(node.get("additionalProperties"), dict) and "properties" not in node:
        keys = node.get("propertyNames", {}).get("enum")
        named = f" ({', '.join(keys)})" if keys else ""
        return f"mapping{named} of {type_words(node['additionalProperties'], defs)}"
    return str(kind)


def _description(node: Schema, defs: Schema) -> str:
    if node.get("description"):
        return str(node["description"])
    resolved = _resolve(node, defs)
    if resolved is not node and resolved.get("description"):
        return str(resolved["description"]).split("\n\n", 1)[0]
    for option in node.get("anyOf", []):
        inner = _resolve(option, defs)
        if inner.get("description"):
            return str(inner["description"]).split("\n\n", 1)[0]
    return ""


def _object_of(node: Schema, defs: Schema) -> Schema | None:
    """The object schema a field holds (directly, in a list, or as a nullable option), if any."""
    node = _resolve(node, defs)
    if node.get("type") == "array":
        return _object_of(node.get("items", {}), defs)
    if isinstance(node.get("additionalProperties"), dict) and "properties" not in node:
        return _object_of(node["additionalProperties"], defs)
    for option in node.get("anyOf", []):
        found = _object_of(option, defs)
        if found is not None:
            return found
    return node if "properties" in node else None


def fields(schema: Schema, defs: Schema, prefix: str = "") -> Iterator[tuple[str, str, bool, str]]:
    """(path, type, required, description) for every field, depth first, in schema order."""
    required = set(schema.get("required", []))
    for name, node in schema.get("properties", {}).items():
        path = f"{prefix}{name}"
        yield path, type_words(node, defs), name in required, _description(node, defs)
        inner = _object_of(node, defs)
        if inner is not None:
            yield from fields(inner, defs, path + _step(node, defs))


def _step(node: Schema, defs: Schema) -> str:
    """How a nested field's path continues: ``[].`` into a list, ``.<key>.`` into a mapping, ``.`` else."""
    options = [_resolve(o, defs) for o in node.get("anyOf", [])] or [_resolve(node, defs)]
    for option in options:
        if option.get("type") == "array":
            return "[]."
        if isinstance(option.get("additionalProperties"), dict) and "properties" not in option:
            return ".<key>."
    return "."


def render_fields_page() -> str:
    """Every field of every record kind."""
    parts = [
        front_matter("Record fields"),
        "# Record fields\n\n",
        "Every field of every record kind, from the JSON Schemas in `schemas/` (generated from the record "
        "model). Nested fields are written with dots; `[]` marks a list of objects and `<key>` a mapping's "
        "keys.\n",
    ]
    for kind, folder in KINDS.items():
        schema = generate(kind)
        defs = schema.get("$defs", {})
        rows = [
            [element("code", path), words, "required" if needed else "", description]
            for path, words, needed, description in fields(schema, defs)
        ]
        parts.append(
            f"## {kind}\n\nRecords under `records/{folder}/`; schema `schemas/{kind}.schema.json`.\n"
        )
        parts.append(block(table(["Field", "Type", "Required", "Meaning"], rows), class_="fields"))
    return "".join(parts)
