"""Property-based tests of the loader, the whole check, fmt and the quantity parsers on hostile records.

Inputs are real records (the registry's, the valid fixtures, the hostile corpus) mutated at the byte
level and at the value level (``fuzz/strategies.py``). The promises are the fuzz targets' own
(``fuzz/targets.py``): a document or located diagnostics, never an exception, findings inside the files
they name, no control character in the report, each input within the time bound; fmt keeps every value
or refuses. The same targets run for hours with ``python -m fuzz.run``; here a few hundred inputs.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz import targets
from fuzz.strategies import byte_mutated_record, hostile_record, quantity_text, yaml_like_text

_SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


@pytest.fixture(scope="module", autouse=True)
def _registry() -> Iterator[None]:
    yield
    targets.close_registry()


@settings(max_examples=300, **_SETTINGS)  # type: ignore[arg-type]
@given(byte_mutated_record())
def test_loader_on_mutated_records(item: tuple[str, bytes]) -> None:
    targets.loader(item[1])


@settings(max_examples=300, **_SETTINGS)  # type: ignore[arg-type]
@given(yaml_like_text)
def test_loader_on_yaml_like_text(text: str) -> None:
    targets.loader(text.encode("utf-8"))


@settings(max_examples=200, **_SETTINGS)  # type: ignore[arg-type]
@given(hostile_record())
def test_whole_check_on_hostile_records(item: tuple[str, bytes]) -> None:
    targets.check(item)


@settings(max_examples=100, **_SETTINGS)  # type: ignore[arg-type]
@given(hostile_record())
def test_fmt_keeps_every_value_or_refuses(item: tuple[str, bytes]) -> None:
    targets.fmt(item)


@settings(max_examples=400, **_SETTINGS)  # type: ignore[arg-type]
@given(quantity_text)
def test_quantity_and_context_parsers_on_any_text(text: str) -> None:
    targets.quantity(text)
