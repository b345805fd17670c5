"""The canonical key order of a record: the order ``registry fmt`` puts keys in and ``registry new`` and
``registry import-config`` write them in.

A whole record starts with its identity fields, then the kind's own fields in the order the pydantic class
declares them, then the fields every kind shares (citations and prose). A nested mapping (claims, sources,
precision, workload, errata, layer groups, config_source, capabilities) follows its own class; free data
(``config``) keeps the order it has; a key the model does not know goes last, in its own order.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from typing import Any, Literal, Union

from pydantic import BaseModel
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from registry.kinds.records import MODEL_CLASSES

HEAD = ("schema_version", "id", "kind", "title", "evidence")
"""The identity fields every record starts with."""


@dataclass(frozen=True)
class _DictOf:
    """A mapping field whose keys are data (``capabilities``): key order from a Literal, values typed."""

    keys: tuple[str, ...]
    value: type[BaseModel] | None


Spec = type[BaseModel] | _DictOf | None
"""What a YAML node holds: a record class, a typed mapping, or free data (kept as written)."""


def canonical_order(cls: type[BaseModel]) -> list[str]:
    """The key order of ``cls``: its declared field order, except that a whole record starts with the
    identity fields (:data:`HEAD`) and ends with the fields every kind shares (citations and prose),
    in their declared order. pydantic declares inherited fields first and ``kind`` last, which would
    put ``sources`` above ``name`` and ``kind`` at the bottom of a run."""
    fields = list(cls.model_fields)
    if cls not in MODEL_CLASSES.values():
        return fields
    shared = [name for name in fields if all(name in other.model_fields for other in MODEL_CLASSES.values())]
    tail = [name for name in shared if name not in HEAD]
    return [*HEAD, *(name for name in fields if name not in HEAD and name not in tail), *tail]


def _spec_of(annotation: Any) -> Spec:
    """The :data:`Spec` a field's annotation gives its value (lists give their items' spec)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _spec_of(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType, list):
        for argument in typing.get_args(annotation):
            found = _spec_of(argument)
            if found is not None:
                return found
        return None
    if origin is dict:
        key, value = typing.get_args(annotation)
        if typing.get_origin(key) is Literal:
            return _DictOf(tuple(str(k) for k in typing.get_args(key)), _model_class(_spec_of(value)))
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _model_class(spec: Spec) -> type[BaseModel] | None:
    return spec if isinstance(spec, type) else None


def _child_spec(spec: Spec, key: Any) -> Spec:
    if isinstance(spec, _DictOf):
        return spec.value
    if spec is None or not isinstance(key, str) or key not in spec.model_fields:
        return None
    return _spec_of(spec.model_fields[key].annotation)


def reorder(node: Any, spec: Spec) -> None:
    """Put the keys of every mapping under ``node`` in canonical order, in place."""
    if isinstance(node, CommentedMap):
        if spec is not None:
            order = list(spec.keys) if isinstance(spec, _DictOf) else canonical_order(spec)
            rank = {name: position for position, name in enumerate(order)}
            # sorted() is stable: keys the model does not know keep their own order, after the known ones
            for key in sorted(node, key=lambda k: rank.get(k, len(rank))):
                node.move_to_end(key)
        for key, value in node.items():
            reorder(value, _child_spec(spec, key))
    elif isinstance(node, CommentedSeq):
        for item in node:
            reorder(item, spec)
