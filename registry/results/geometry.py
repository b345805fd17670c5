"""Each model's geometry, built once: its cache layout and config fields, or why it has none."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from registry.engine.adapters import (
    ConfigFieldError,
    ConfigValueError,
    UnsupportedModelType,
    geometry_fields,
    layer_groups_from_config,
    stated_dtype,
)
from registry.engine.compare import layout_differences
from registry.engine.dtypes import FLOAT_DTYPES, UnknownDtypeError, canonical_dtype, model_dtype_of
from registry.engine.layers import LayerGroups, LayerGroupsError
from registry.engine.variants import Fields
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model

ProblemKind = Literal["unsupported-model-type", "invalid-value", "missing-field", "layout"]
"""Why a model has no layout: a ``model_type`` no adapter reads, a stated but impossible config value,
a config field that is missing or unreadable, or a stated layout that cannot be laid out."""


@dataclass(frozen=True)
class LayoutProblem:
    """Why a model has no cache layout: what went wrong, the config field it concerns, and the
    engine's words."""

    kind: ProblemKind
    field: str | None
    """Where in ``config`` the field is, as a JSON pointer's tail (``time_step_limit/1``)."""
    message: str
    exception: str
    """The name of the error's class: the problem's words when the engine gave none."""


@dataclass(frozen=True)
class ModelGeometry:
    """A model's cache layout and config fields, or the problem that leaves it without a layout."""

    layout: LayerGroups | None
    fields: Fields
    derived: frozenset[str] = frozenset()
    """Field names the config does not state but :func:`geometry_fields` derives (``head_dim``)."""
    problem: LayoutProblem | None = None
    layout_differences: tuple[str, ...] = ()
    """Where a stated layout disagrees with the config beside it (:mod:`registry.engine.compare`)."""

    @property
    def error(self) -> str | None:
        """The problem in one line, as the database's ``layout_error`` has it; None with a layout."""
        if self.problem is None:
            return None
        return self.problem.message or self.problem.exception


def model_geometry(model: Model) -> ModelGeometry:
    """The model's geometry; a model that cannot be laid out gets its problem and the fields its config
    still gives."""
    try:
        geometry = _geometry(model_layer_groups(model), model.config)
    except ValueError as error:
        problem = layout_problem(error)
    else:
        return replace(geometry, layout_differences=_against_config(model, geometry.layout))
    return ModelGeometry(None, _fields_of(model), problem=problem)


def _against_config(model: Model, stated: LayerGroups | None) -> tuple[str, ...]:
    """A stated layout held against the layer groups its config gives; nothing when either is missing
    or the config cannot be laid out (its own problem is reported where the config is read)."""
    if model.layout is None or model.config is None or stated is None:
        return ()
    try:
        derived = layer_groups_from_config(model.config)
    except ValueError:
        return ()
    return tuple(layout_differences(stated, derived))


def config_problem(config: dict[str, Any]) -> LayoutProblem | None:
    """Why the engine cannot lay out ``config`` (as :func:`model_geometry` would find it in a model
    record holding it), or None when it can: ``registry import-config`` says so as the check will."""
    try:
        layer_groups_from_config(config)
    except ValueError as error:
        return layout_problem(error)
    return None


def layout_problem(error: ValueError) -> LayoutProblem:
    """The problem an adapter's or the layer groups' error states; any other error is raised again."""
    name = type(error).__name__
    if isinstance(error, UnsupportedModelType):
        return LayoutProblem("unsupported-model-type", "model_type", str(error), name)
    if isinstance(error, ConfigValueError):  # a stated but impossible value is an error, not an unknown
        return LayoutProblem("invalid-value", _pointer(error), str(error), name)
    if isinstance(error, ConfigFieldError):
        return LayoutProblem("missing-field", _pointer(error), str(error), name)
    if isinstance(error, LayerGroupsError):
        return LayoutProblem("layout", None, str(error), name)
    raise error


def _pointer(error: ConfigFieldError) -> str:
    """The field's place in the config as a JSON pointer's tail (``time_step_limit/1``)."""
    return "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in error.path)


def _geometry(layout: LayerGroups, config: dict[str, Any] | None) -> ModelGeometry:
    stated = {**(config or {}), **((config or {}).get("text_config") or {})}
    fields = geometry_fields(config or {})
    return ModelGeometry(layout, fields, frozenset(name for name in fields if name not in stated))


def _fields_of(model: Model) -> Fields:
    """The config's fields of a model without a layout, as far as they can be read."""
    try:
        return geometry_fields(model.config or {})
    except ConfigFieldError:
        return {}


def model_dtype(config: Mapping[str, Any], weights: str | None) -> str | None:
    """The dtype the model computes in: ``weights`` when it names an unquantized format, else the
    config's ``dtype`` / ``torch_dtype`` when that is one (quantized weights still compute in it), else
    None. An unknown ``weights`` name raises; a config's unknown spelling is not a dtype."""
    if weights is not None:
        told = model_dtype_of(canonical_dtype(weights))
        if told is not None:
            return told
    stated = stated_dtype(config)
    try:
        canonical = canonical_dtype(stated) if stated is not None else None
    except UnknownDtypeError:
        return None
    return canonical if canonical in FLOAT_DTYPES else None
