"""Configuration-class defaults for the fields a published config leaves out.

transformers fills an absent field with its configuration class's default, and that default is not
always what a reader would assume: ``SeedOssConfig`` defaults ``num_key_value_heads`` to 8 and
``head_dim`` to 128, ``StableLmConfig`` to MHA. :func:`class_defaults` gives an adapter a view in which
each absent field it *reads* takes its class default, with a note naming the field, the class and the
value; a field the adapter never reads adds no note. A field present as ``null`` keeps its null, which
the shared helpers read as the class does (``num_key_value_heads: null`` is MHA).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from registry.engine.adapters._config import ConfigView


class _WithDefaults(Mapping[str, Any]):
    """The config's fields, falling back to class defaults; each default read is noted once."""

    def __init__(self, fields: Mapping[str, Any], defaults: Mapping[str, Any], source: str, notes: list[str]):
        self._fields = fields
        self._defaults = defaults
        self._source = source
        self._notes = notes
        self._noted: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        if key in self._fields:
            return self._fields[key]
        value = self._defaults[key]
        if key not in self._noted:
            self._noted.add(key)
            self._notes.append(f"{key} is not in the config; the {self._source} default {value!r} applies")
        return value

    def __iter__(self) -> Iterator[str]:
        yield from self._fields
        yield from (key for key in self._defaults if key not in self._fields)

    def __len__(self) -> int:
        return len(self._fields) + sum(1 for key in self._defaults if key not in self._fields)


def class_defaults(view: ConfigView, source: str, **defaults: Any) -> ConfigView:
    """``view`` with ``defaults`` (the configuration class ``source``'s values) behind its own fields."""
    filled = ConfigView(view.model_type, _WithDefaults(view.fields, defaults, source, view.notes))
    filled.notes = view.notes
    return filled
