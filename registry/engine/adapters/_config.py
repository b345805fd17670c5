"""Reading a published ``config.json``: the text model's fields, typed getters, and the two errors.

Multimodal wrappers (Gemma 3, Llama 4, Gemma 3n) nest the decoder's fields under ``text_config``; the
view merges them over the top level, the text config winning, because the cache belongs to the decoder.
Every getter names the field it could not read, so a missing or malformed field becomes a diagnostic
that says which field, never a ``KeyError``.

A number JSON cannot spell (infinity, NaN) reaches the adapters as :class:`NonFinite`, from the spelling
transformers 5 writes and reads back as the float, ``{"__float__": "Infinity"}`` (``PreTrainedConfig.
_encode_special_floats``, ``configuration_utils.py``): Mamba-2 configs carry ``"time_step_limit": [0.0,
Infinity]``, a field no layout reads. A getter asked for such a field refuses it with its name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

FLOAT_TAG = "__float__"
"""The key of transformers 5's spelling of a non-finite number: ``{"__float__": "Infinity"}``."""
NON_FINITE = ("Infinity", "-Infinity", "NaN")
"""The values that spelling takes (``_FLOAT_TAG_VALUES``), as Python's ``json`` writes the numbers."""


@dataclass(frozen=True)
class NonFinite:
    """A number a config states that is not finite (``Infinity``, ``-Infinity``, ``NaN``): kept, but never
    read as a number. ``text`` is the spelling, one of :data:`NON_FINITE`."""

    text: str

    def __repr__(self) -> str:
        return self.text


def decode_non_finite(value: Any) -> Any:
    """``value`` with every ``{"__float__": "Infinity" | "-Infinity" | "NaN"}`` inside it (at any depth of
    objects and lists) made a :class:`NonFinite`, as transformers' ``_decode_special_floats`` makes it the
    float; a ``__float__`` object with another value is left an object, as transformers leaves it."""
    if isinstance(value, Mapping):
        if set(value) == {FLOAT_TAG} and value[FLOAT_TAG] in NON_FINITE:
            return NonFinite(value[FLOAT_TAG])
        return {key: decode_non_finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [decode_non_finite(item) for item in value]
    return value


def first_non_finite(name: str, value: Any) -> tuple[str, NonFinite] | None:
    """The first :class:`NonFinite` in ``value`` (itself, or inside its lists), named as the field it is
    (``time_step_limit[1]``); None when there is none. Objects are not searched: their fields are read,
    and refused, one by one."""
    if isinstance(value, NonFinite):
        return name, value
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = first_non_finite(f"{name}[{index}]", item)
            if found is not None:
                return found
    return None


class UnsupportedModelType(ValueError):
    """A ``model_type`` no adapter knows; the message lists what a layout would need instead.

    The registry never guesses a GQA layout for an unknown architecture: the caller turns this into a
    diagnostic that asks for an adapter or an explicit ``layout`` in the model record.
    """

    NEEDED: tuple[str, ...] = (
        "num_hidden_layers",
        "the mechanism of each layer (full, sliding-window, chunked, MLA, recurrent, shared)",
        "num_key_value_heads and head_dim for attention layers",
        "window or chunk sizes for local layers",
        "kv_lora_rank and qk_rope_head_dim for MLA layers",
        "the state tensor shapes (heads, key and value sizes, conv kernel) for recurrent layers",
    )

    def __init__(self, model_type: str | None, supported: Sequence[str] = ()) -> None:
        self.model_type = model_type
        self.needed = self.NEEDED
        named = "a config without 'model_type'" if model_type is None else f"model_type {model_type!r}"
        message = (
            f"{named} has no config adapter, so its cache layout cannot be derived; "
            f"a layout needs: {'; '.join(self.NEEDED)}. "
            "State an explicit 'layout' in the model record, or add an adapter"
        )
        if supported:
            message += f" (adapters exist for: {', '.join(supported)})"
        super().__init__(message)


class ConfigFieldError(ValueError):
    """A known ``model_type`` whose config lacks a field its layout needs, or holds a bad value."""

    def __init__(self, model_type: str, field: str, problem: str) -> None:
        super().__init__(f"{model_type} config: {field!r} {problem}")
        self.model_type = model_type
        self.field = field
        self.problem = problem

    @property
    def path(self) -> tuple[str | int, ...]:
        """Where the field is in the config: the objects a nested view was opened on (named after the
        model type, ``deepseek_v4 compress_rates``), then the field and its list indices
        (``time_step_limit[1]`` is ``("time_step_limit", 1)``)."""
        name, bracket, rest = self.field.partition("[")
        indices = [int(found) for found in re.findall(r"\[(\d+)\]", bracket + rest)]
        return (*self.model_type.split(" ")[1:], name, *indices)


class ConfigValueError(ConfigFieldError):
    """A field the config states with a value no model can have (not a whole number, below its minimum,
    an impossible count): the config is broken, where a missing field only leaves a size unknown."""


def non_finite_error(model_type: str, name: str, value: NonFinite) -> ConfigValueError:
    """The refusal of a non-finite number in a field the layout reads."""
    return ConfigValueError(
        model_type,
        name,
        f"is {value.text} in the config, not a finite number, and the layout reads it; a cache size "
        "cannot be computed from it",
    )


def refuse_non_finite(model_type: str, name: str, value: Any) -> Any:
    """``value``, unless it is (or its lists hold) a :class:`NonFinite`, which is refused naming the field."""
    found = first_non_finite(name, value)
    if found is not None:
        raise non_finite_error(model_type, *found)
    return value


def _whole(model_type: str, name: str, value: Any, minimum: int) -> int:
    """``value`` as an int; JSON writers sometimes emit ``128.0``, which is still a whole number."""
    if isinstance(value, NonFinite):
        raise non_finite_error(model_type, name, value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigValueError(model_type, name, f"must be a whole number, not {value!r}")
    if isinstance(value, float) and not value.is_integer():
        raise ConfigValueError(model_type, name, f"must be a whole number, not {value!r}")
    number = int(value)
    if number < minimum:
        raise ConfigValueError(model_type, name, f"must be at least {minimum}, not {number}")
    return number


class ConfigView:
    """The decoder's fields of one config, with the notes an adapter records while reading them."""

    def __init__(self, model_type: str, fields: Mapping[str, Any]) -> None:
        self.model_type = model_type
        self.fields = fields
        self.notes: list[str] = []

    def has(self, name: str) -> bool:
        """True when the field is present with a non-null value."""
        return self.fields.get(name) is not None

    def contains(self, name: str) -> bool:
        """True when the key is present at all; ``null`` counts (it can mean "no window")."""
        return name in self.fields

    def value(self, name: str) -> Any:
        """The field as written; a non-finite number in it (or in its lists) is refused, naming it, since
        the adapter asking reads it."""
        return refuse_non_finite(self.model_type, name, self.fields.get(name))

    def first_present(self, names: Sequence[str]) -> str | None:
        """The first of ``names`` (a field and its aliases) that holds a non-null value."""
        return next((n for n in names if self.has(n)), None)

    def require_int(self, name: str, *aliases: str, minimum: int = 1) -> int:
        """A whole-number field the layout cannot do without."""
        found = self.first_present((name, *aliases))
        if found is None:
            also = f" (or {', '.join(repr(a) for a in aliases)})" if aliases else ""
            raise ConfigFieldError(self.model_type, name, f"is required{also} but missing or null")
        return _whole(self.model_type, found, self.fields[found], minimum)

    def int_or_none(self, name: str, *, minimum: int = 1) -> int | None:
        """A whole-number field where ``null`` or absence both mean "none"."""
        if not self.has(name):
            return None
        return _whole(self.model_type, name, self.fields[name], minimum)

    def int_or_default(self, name: str, default: int, source: str, *, minimum: int = 1) -> int:
        """A field whose absence means the configuration class default applies (recorded as a note)."""
        if self.has(name):
            return _whole(self.model_type, name, self.fields[name], minimum)
        self.notes.append(f"{name} is not in the config; the {source} default {default} applies")
        return default

    def int_list(self, name: str, *, minimum: int = 0) -> list[int] | None:
        """A list of whole numbers, or None when the field is absent or null."""
        raw = refuse_non_finite(self.model_type, name, self.fields.get(name))
        if raw is None:
            return None
        if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
            raise ConfigFieldError(self.model_type, name, f"must be a list of whole numbers, not {raw!r}")
        return [_whole(self.model_type, f"{name}[{i}]", item, minimum) for i, item in enumerate(raw)]

    def str_list(self, name: str) -> list[str] | None:
        """A list of strings, or None when the field is absent or null."""
        raw = refuse_non_finite(self.model_type, name, self.fields.get(name))
        if raw is None:
            return None
        if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
            raise ConfigFieldError(self.model_type, name, f"must be a list of strings, not {raw!r}")
        for i, item in enumerate(raw):
            if not isinstance(item, str):
                raise ConfigFieldError(self.model_type, f"{name}[{i}]", f"must be a string, not {item!r}")
        return list(raw)

    def mapping(self, name: str) -> Mapping[str, Any]:
        """A nested object the layout needs (``linear_attn_config``)."""
        raw = refuse_non_finite(self.model_type, name, self.fields.get(name))
        if not isinstance(raw, Mapping):
            raise ConfigFieldError(self.model_type, name, "is required as an object but missing or not one")
        return raw

    def sub(self, name: str) -> ConfigView:
        """A view over a nested object, sharing this view's notes; errors name ``name.field``."""
        inner = ConfigView(f"{self.model_type} {name}", self.mapping(name))
        inner.notes = self.notes
        return inner


def merged_fields(config: Mapping[str, Any]) -> dict[str, Any]:
    """The top-level fields with ``text_config`` merged over them (the decoder's values win)."""
    merged = dict(config)
    text = config.get("text_config")
    if isinstance(text, Mapping):
        merged.update(text)
    return merged


DTYPE_FIELDS = ("dtype", "torch_dtype")
"""Where a config states the dtype the model computes in: ``dtype`` (transformers 5) or
``torch_dtype`` (transformers 4, and most published configs)."""


def stated_dtype(config: Mapping[str, Any]) -> str | None:
    """The dtype name a config states (``text_config`` over the top level; ``dtype`` over
    ``torch_dtype``), as written, or None when it states none as a string."""
    if not isinstance(config, Mapping):
        return None
    merged = merged_fields(config)
    for name in DTYPE_FIELDS:
        value = merged.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def read_config(config: Mapping[str, Any]) -> ConfigView:
    """A view keyed by the top-level ``model_type`` (the wrapper's, as published)."""
    if not isinstance(config, Mapping):
        raise ConfigFieldError("config", "config", f"must be a JSON object, not {type(config).__name__}")
    model_type = config.get("model_type")
    if not isinstance(model_type, str) or not model_type:
        raise UnsupportedModelType(None)
    return ConfigView(model_type, decode_non_finite(merged_fields(config)))
