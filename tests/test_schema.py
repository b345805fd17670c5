"""The published contract and the code agree: the committed JSON Schemas are current, and every fixture is
accepted or rejected by the JSON Schema and by the pydantic model alike."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from registry.check.load import load_bytes
from registry.kinds.records import KINDS, MODEL_CLASSES
from registry.kinds.schema import stale, validator_for
from tests.conftest import GOLDEN, REPO

FIXTURES = REPO / "tests" / "fixtures"


def _documents() -> Iterator[tuple[str, dict[str, Any]]]:
    paths = [
        *sorted((FIXTURES / "valid").glob("*.yaml")),
        *sorted(GOLDEN.rglob("*.yaml")),
        *sorted((REPO / "records").rglob("*.yaml")),
        *sorted((FIXTURES / "seed-003").rglob("*.yaml")),
    ]
    for path in paths:
        result = load_bytes(path.name, path.read_bytes())
        if result.document is not None:
            yield path.relative_to(REPO).as_posix(), result.document.data


_MUTATIONS: list[tuple[str, Any]] = [
    ("batch", 1.0),
    ("batch", "1"),
    ("batch", True),
    ("batch", 0),
    ("context_tokens", "128 K"),
    ("context_tokens", "0"),
    ("context_tokens", 0),
    ("context_tokens", "128K\n"),
    ("id", "models/x\n"),
    ("id", "models/../x"),
    ("id", "/etc/passwd"),
    ("title", ""),
    ("evidence", "guessed"),
    ("layout", "vllm@"),
    ("tags", ["Not-Lower"]),
    ("sources", []),
    ("related", ["models/x\n"]),
    ("schema_version", 2),
    ("measured_ttft", "8.6 GiB"),
    ("measured_ttft", "8.6 s\n"),
    ("memory_per_device", "80 GB/token"),
    ("params_total_b", -1),
    ("params_total_b", "671"),
    ("devices", 1.0),
]


def _mutants() -> Iterator[tuple[str, dict[str, Any]]]:
    for name, data in _documents():
        yield name, data
        for field, value in _MUTATIONS:
            if field in data:
                changed = copy.deepcopy(data)
                changed[field] = value
                yield f"{name} with {field}={value!r}", changed
        for index, claim in enumerate(data.get("claims", [])):
            for key, value in [
                ("stated", "70,272 B/token"),
                ("stated", "85.3x"),
                ("stated", "5 s"),
                ("versus", "actual"),
                ("quantity", "ratio"),
                ("context_tokens", "1M"),
                ("kv_cache", "fp9"),
                ("variant", "Actual"),
            ]:
                changed = copy.deepcopy(data)
                changed["claims"][index] = {**claim, key: value}
                yield f"{name} claim {index} with {key}={value!r}", changed
        if data.get("kind") == "model":
            for drop in ("config", "config_source", "layout"):
                changed = {k: v for k, v in data.items() if k != drop}
                yield f"{name} without {drop}", changed


CASES = list(_mutants())


def test_committed_schemas_are_current() -> None:
    assert stale(REPO) == []


def test_the_corpus_of_fixtures_is_large() -> None:
    assert len(CASES) > 300


@pytest.mark.parametrize(("name", "data"), CASES, ids=[name for name, _ in CASES])
def test_schema_and_model_agree(name: str, data: dict[str, Any]) -> None:
    kind = data.get("kind")
    if kind not in KINDS:
        pytest.skip("no kind: dispatch fails before either validator runs")
    schema_ok = not any(True for _ in validator_for(REPO, kind).iter_errors(data))
    try:
        MODEL_CLASSES[kind].model_validate(data)
        model_ok = True
    except ValidationError:
        model_ok = False
    assert schema_ok == model_ok


def test_valid_fixtures_are_valid() -> None:
    for path in sorted((FIXTURES / "valid").glob("*.yaml")):
        data = load_bytes(path.name, path.read_bytes()).document
        assert data is not None
        MODEL_CLASSES[data.data["kind"]].model_validate(data.data)


def test_schema_validation_fetches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.request

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a schema reference went to the network")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    validator_for.cache_clear()
    for kind in KINDS:
        list(validator_for(REPO, kind).iter_errors({}))


def test_schemas_are_draft_2020_12() -> None:
    import json

    for kind in KINDS:
        schema = json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert Path(schema["$id"]).name == f"{kind}.schema.json"
