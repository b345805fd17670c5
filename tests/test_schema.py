"""The published contract and the code agree: the committed JSON Schemas are current, and every fixture is
accepted or rejected by the JSON Schema and by the pydantic model alike."""

from __future__ import annotations

import copy
import functools
import http.client
import json
import re
import socket
import urllib.request
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable

from registry.checker.fastload import fast_load_bytes
from registry.kinds.records import KINDS, MODEL_CLASSES
from registry.kinds.schema import SCHEMA_URI, record_validator, stale, validator_for
from tests.conftest import GOLDEN, REPO
from tests.corpus import record_files

FIXTURES = REPO / "tests" / "fixtures"


def _documents() -> Iterator[tuple[str, dict[str, Any]]]:
    paths = [
        *sorted((FIXTURES / "valid").glob("*.yaml")),
        *sorted(GOLDEN.rglob("*.yaml")),
        *record_files(),
        *sorted((FIXTURES / "seed-003").rglob("*.yaml")),
    ]
    for path in paths:
        # The check's own fast loader, which gives the canonical loader's data (tests/test_fastload.py).
        result = fast_load_bytes(path.name, path.read_bytes())
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
    ("scenario", "batch"),
    ("sweep", {"parameter": "request_rate", "value": 0}),
    ("metrics", [{"metric": "ttft", "statistic": "p99", "per": "request", "stated": "8.6 GiB"}]),
    ("metrics", [{"metric": "ttft", "statistic": "p99", "per": "request", "stated": "8.6 s\n"}]),
    (
        "metrics",
        [
            {
                "metric": "power",
                "statistic": "mean",
                "per": "system",
                "stated": "700 W",
                "constraints": [{"metric": "ttft", "statistic": "p99", "limit": "2 W"}],
            }
        ],
    ),
    ("metrics", []),
    ("precision", {"weights": "bf16"}),
    ("system", {"accelerators": [{"hardware": "hardware/example-gpu", "count": 8}]}),
    ("precision", {"weights": "fp4", "weight_formats": ["fp8"], "kv_cache": "fp9"}),
    ("provenance", {"source": "manual", "round": "v6.1"}),
    ("memory_per_device", "80 GB/token"),
    ("peak_dense_flops_per_device", {"fp8": "4.5 TB/s"}),
    ("peak_dense_flops_per_device", {"fp9": "4.5 PFLOP/s"}),
    ("peak_dense_flops_per_device", {"fp8": 4500}),
    ("interconnect_bandwidth_per_device", "1.8 PFLOP/s"),
    ("params_total_b", -1),
    ("params_total_b", "671"),
    ("devices", 1.0),
]


SAMPLED = {"records/benchmarks/": 10, "records/kv-efficiency/": 4}
"""Of the real registry's benchmark and KV-efficiency records, one in this many is mutated (every record
is validated as it is). They are hundreds of records of a few shapes, most made by an importer or a
generator, so each mutation of each of them tested the same rule again and again (10,000 cases, a
minute of the suite); the fixtures, the codes' examples, the seed and every other real record are
mutated whole."""


def _mutated(name: str) -> bool:
    every = next((n for folder, n in SAMPLED.items() if name.startswith(folder)), 1)
    return zlib.crc32(name.encode()) % every == 0


def _mutants() -> Iterator[tuple[str, dict[str, Any]]]:
    for name, data in _documents():
        yield name, data
        if not _mutated(name):
            continue
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
        data = fast_load_bytes(path.name, path.read_bytes()).document
        assert data is not None
        MODEL_CLASSES[data.data["kind"]].model_validate(data.data)


@functools.cache
def _real_documents() -> tuple[dict[str, Any], ...]:
    """Every record of the registry and of the valid fixtures, read once for every kind."""
    paths = [*sorted((REPO / "records").rglob("*.yaml")), *sorted((FIXTURES / "valid").glob("*.yaml"))]
    documents = [fast_load_bytes(path.name, path.read_bytes()).document for path in paths]
    return tuple(document.data for document in documents if document is not None)


def _following_every_reference(kind: str, schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Real records of ``kind`` that between them follow every ``$ref`` of its schema: one of each shape,
    and,
    for a definition none of them uses (errata are rare), the first of them again with the field that
    holds it taken from a real record (of any kind) that fills it in."""
    real = _real_documents()
    # One record of each shape (its keys and its values' JSON types, at every depth): the others of a
    # shape, a thousand imported records of one template, follow the same references. Should a value
    # lead elsewhere, the test's equality of followed and held references fails rather than passes.
    shapes = {_shape(data): data for data in reversed(real) if data.get("kind") == kind}
    documents = list(reversed(shapes.values()))
    used = set().union(*(_uses(schema, data) for data in documents))
    valid = validator_for(REPO, kind)
    for reference in sorted(_references(schema) - used):
        properties = schema["properties"].items()
        field = next(f for f, sub in properties if reference in _reached(schema, _references(sub)))
        # The donor's value must be one this kind holds: a benchmark's workload has fields a
        # kv-efficiency record's has not.
        donated = (
            {**documents[0], field: data[field]}
            for data in real
            if data.get(field) and data is not documents[0]
        )
        documents.append(next(document for document in donated if valid.is_valid(document)))
    return documents


def _shape(value: Any) -> Any:
    """A document's keys and its values' JSON types, at every depth, as a hashable value."""
    if isinstance(value, dict):
        return tuple(sorted((key, _shape(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("list", tuple(sorted({_shape(item) for item in value}, key=repr)))
    return type(value).__name__


def _uses(schema: dict[str, Any], data: dict[str, Any]) -> set[str]:
    """The references the fields ``data`` fills in lead to, read from the schema's properties."""
    properties = schema["properties"]
    return _reached(
        schema,
        set().union(*(_references(properties[f]) for f, value in data.items() if f in properties and value)),
    )


def _reached(schema: dict[str, Any], references: set[str]) -> set[str]:
    """``references`` and every reference the definitions they name hold in turn (a benchmark's
    ``system`` leads to its ``parallelism``)."""
    definitions = schema.get("$defs", {})
    reached, waiting = set(references), list(references)
    while waiting:
        inner = _references(definitions.get(waiting.pop().rsplit("/", 1)[-1], {})) - reached
        reached |= inner
        waiting.extend(inner)
    return reached


def _references(schema: Any) -> set[str]:
    """Every ``$ref`` a schema holds, at any depth."""
    if isinstance(schema, dict):
        found = {schema["$ref"]} if isinstance(schema.get("$ref"), str) else set()
        return found.union(*(_references(value) for value in schema.values()))
    if isinstance(schema, list):
        return set().union(*(_references(value) for value in schema))
    return set()


@contextmanager
def _network_refused() -> Iterator[list[str]]:
    """Network access made impossible inside the block: resolving a host name or opening a connection,
    through the socket module or urllib, is refused with ``OSError`` and recorded."""
    attempts: list[str] = []

    def refuse(what: str) -> Any:
        def refused(*args: object, **kwargs: object) -> NoReturn:
            attempts.append(what)
            raise OSError(f"{what}: network access is refused in this test")

        return refused

    with pytest.MonkeyPatch.context() as patch:
        for owner, name in [
            (socket, "getaddrinfo"),
            (socket, "create_connection"),
            (socket.socket, "connect"),
            (socket.socket, "connect_ex"),
            (urllib.request, "urlopen"),
        ]:
            patch.setattr(owner, name, refuse(f"{getattr(owner, '__name__', owner)}.{name}"))
        yield attempts


def _validate_offline(validator: Any, documents: list[dict[str, Any]]) -> set[str]:
    """Validate ``documents`` with the network unreachable and return the ``$ref``s followed. Fails
    when anything tried to fetch, a reference did not resolve, or a document is invalid."""
    followed: set[str] = set()
    resolver = type(Registry().resolver())
    lookup = resolver.lookup

    def recorded(self: Any, ref: str) -> Any:
        followed.add(ref)
        return lookup(self, ref)

    with _network_refused() as attempts, pytest.MonkeyPatch.context() as patch:
        patch.setattr(resolver, "lookup", recorded)
        try:
            errors = [error.message for document in documents for error in validator.iter_errors(document)]
        except Unresolvable as error:
            raise AssertionError(
                f"a reference did not resolve ({error}); network attempts: {attempts}"
            ) from None
    assert attempts == [], f"validation tried the network: {attempts}"
    assert errors == []
    return followed


def test_schema_validation_fetches_nothing() -> None:
    """Real records, which between them follow every ``$ref`` of every schema, validate with the network
    made unreachable: every reference resolves in the local registry."""
    validator_for.cache_clear()
    for kind in KINDS:
        schema = json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
        followed = _validate_offline(validator_for(REPO, kind), _following_every_reference(kind, schema))
        assert followed == _references(schema), kind


def _retrieve_over_http(uri: str) -> Resource[Any]:
    """A retriever that fetches with ``http.client`` (sockets, not urllib)."""
    address = urlsplit(uri)
    connection = http.client.HTTPSConnection(address.netloc, timeout=5)
    connection.request("GET", address.path)
    return Resource.from_contents(json.loads(connection.getresponse().read()))


_REMOTE = {"$schema": SCHEMA_URI, "$ref": "https://schemas.invalid/elsewhere.schema.json"}


@pytest.mark.parametrize(
    ("validator", "attempts"),
    [
        (record_validator()(_REMOTE, registry=Registry()), "[]"),
        (Draft202012Validator(_REMOTE), "['urllib.request.urlopen']"),
        (
            record_validator()(_REMOTE, registry=Registry(retrieve=_retrieve_over_http)),
            "['socket.create_connection']",
        ),
    ],
    ids=["local-registry", "jsonschema-default-urllib", "http-client-sockets"],
)
def test_the_offline_validation_fails_on_a_remote_reference(validator: Any, attempts: str) -> None:
    """The test above can fail: a reference the local registry does not hold fails it, whether the
    validator gives up (as the registry's do) or tries to fetch it, through urllib (jsonschema's default)
    or through sockets directly."""
    with pytest.raises(AssertionError, match=re.escape(f"network attempts: {attempts}")):
        _validate_offline(validator, [{}])


def test_schemas_are_draft_2020_12() -> None:
    for kind in KINDS:
        schema = json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert Path(schema["$id"]).name == f"{kind}.schema.json"
