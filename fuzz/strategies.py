"""Hypothesis strategies for hostile input: bytes, YAML-like text, mutated records, formulas, quantities.

Mutated records start from real files (the registry's records, the valid fixtures, the hostile corpus)
and change them the two ways a pull request can: at the byte level (insert, delete or overwrite bytes,
splice in YAML's special tokens and known attacks) and at the value level (load the record, replace one
node with a value of another type or an extreme size, drop or add a key, and write it out again).
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

REPO = Path(__file__).resolve().parent.parent
T = TypeVar("T")

FIXTURES = {
    "model-config": "models/example-llama",
    "model-layout": "models/example-hybrid",
    "hardware": "hardware/example-gpu",
    "engine": "engines/example",
    "run": "benchmarks/example-run",
}
"""The valid fixtures (tests/fixtures/valid/NAME.yaml) and the id each has as a record."""

TOKENS = [
    "- ",
    ": ",
    "? ",
    ",",
    "[",
    "]",
    "{",
    "}",
    "&a ",
    "*a",
    "&b [*a, *a, *a]",
    "!!str ",
    "!!int ",
    "!local ",
    "!!python/object/apply:os.system ['true'] ",
    "%TAG !e! tag:yaml.org,2002:\n",
    "%YAML 1.1\n",
    "---\n",
    "...\n",
    "|\n  ",
    ">-\n  ",
    "#",
    "'",
    '"',
    "\\e",
    "\\0",
    "\\u202e",
    "\t",
    "\r\n",
    "\r",
    "\ufeff",
    "\u202e",
    "\u2028",
    "\x85",
    "\x00",
    "\x1b[2J",
    "é",
    "\U0001f600",
    "1e400",
    "-1e400",
    ".nan",
    ".inf",
    "0x" + "f" * 120,
    "0o" + "7" * 120,
    "9" * 120,
    "-0",
    "0.0",
    "~",
    "null",
    "true",
    "yes",
    "2024-12-26",
    "[[kv-efficiency/x]]",
    "[[../../etc/passwd]]",
    "records/../../etc/passwd",
    "/etc/passwd",
    "h\u0430rdware",
    "models/\u0435xample",
    "131,072",
    "128K",
    "~8.6 GiB",
    "70,272 B",
    "85.3x",
    "num_hidden_layers.__class__",
    "__import__('os')",
    "2 ** 2 ** 2 ** 64",
    "1 / 0",
    "(" * 40,
]
"""Pieces spliced into records: YAML indicators, escapes, encodings, numbers at the edges, attacks."""


@cache
def seed_files() -> tuple[tuple[str, bytes], ...]:
    """(relative path under records/, bytes) of every seed: records, valid fixtures, hostile corpus."""
    seeds: list[tuple[str, bytes]] = []
    for path in sorted((REPO / "records").glob("*/*.yaml")):
        seeds.append((path.relative_to(REPO / "records").as_posix(), path.read_bytes()))
    for name, record_id in FIXTURES.items():
        seeds.append((f"{record_id}.yaml", (REPO / "tests/fixtures/valid" / f"{name}.yaml").read_bytes()))
    for path in sorted((REPO / "tests/hostile").glob("*/records/*/*.yaml")):
        if path.is_file() and not path.is_symlink():
            seeds.append((path.relative_to(path.parents[1]).as_posix(), path.read_bytes()))
    return tuple(seeds)


# ---------------------------------------------------------------- byte-level mutation


class Chooser(Protocol):
    """Where a mutation takes its choices: Hypothesis's ``draw`` (:class:`Drawn`, which shrinks what it
    finds) or a seeded random source (:class:`Seeded`, a thousand times cheaper, for long campaigns)."""

    def pick(self, items: Sequence[T]) -> T: ...

    def integer(self, low: int, high: int) -> int: ...

    def binary(self, low: int, high: int) -> bytes: ...


@dataclass(frozen=True)
class Drawn:
    draw: st.DrawFn

    def pick(self, items: Sequence[T]) -> T:
        return self.draw(st.sampled_from(items))

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def binary(self, low: int, high: int) -> bytes:
        return self.draw(st.binary(min_size=low, max_size=high))


@dataclass(frozen=True)
class Seeded:
    source: random.Random

    def pick(self, items: Sequence[T]) -> T:
        return items[self.source.randrange(len(items))]

    def integer(self, low: int, high: int) -> int:
        return self.source.randint(low, high)

    def binary(self, low: int, high: int) -> bytes:
        return self.source.randbytes(self.source.randint(low, high))


def byte_edit(choose: Chooser, data: bytes) -> bytes:
    """One byte-level edit: a token or bytes inserted, bytes deleted or overwritten, a line doubled."""
    at = choose.integer(0, len(data))
    kind = choose.pick(["insert-token", "insert-bytes", "delete", "overwrite", "duplicate-line"])
    if kind == "insert-token":
        return data[:at] + choose.pick(TOKENS).encode("utf-8") + data[at:]
    if kind == "insert-bytes":
        return data[:at] + choose.binary(1, 8) + data[at:]
    if kind == "delete":
        return data[:at] + data[at + choose.integer(1, 16) :]
    if kind == "overwrite":
        chunk = choose.binary(1, 4)
        return data[:at] + chunk + data[at + len(chunk) :]
    lines = data.splitlines(keepends=True) or [b""]
    line = choose.integer(0, len(lines) - 1)
    return b"".join([*lines[: line + 1], lines[line], *lines[line + 1 :]])


@st.composite
def _byte_edit(draw: st.DrawFn, data: bytes) -> bytes:
    return byte_edit(Drawn(draw), data)


@st.composite
def byte_mutated_record(draw: st.DrawFn) -> tuple[str, bytes]:
    """A seed record with one to five byte-level edits."""
    path, data = draw(st.sampled_from(seed_files()))
    for _ in range(draw(st.integers(1, 5))):
        data = draw(_byte_edit(data))
    return path, data


# ---------------------------------------------------------------- value-level mutation

_TEXT = st.text(st.characters(codec="utf-8"), max_size=30)
EXTREME_VALUES: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, 1, 2**40, 2**40 + 1, 2**63, 10**99, -(10**99)]),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXT,
    st.sampled_from(TOKENS),
    st.lists(st.integers(-5, 5), max_size=4),
    st.dictionaries(st.sampled_from(["a", "kind", "id", "layers"]), st.integers(-5, 5), max_size=3),
)
"""Values of every YAML type, at the edges of their range."""


def _load(data: bytes) -> dict[str, Any] | None:
    from registry.checker.load import load_canonical

    result = load_canonical("seed.yaml", data)
    return result.document.data if result.document else None


@cache
def _loadable_seeds() -> tuple[tuple[str, Any], ...]:
    """The seeds that load, with their values (a strategy must not re-parse 300 files per input)."""
    loaded = ((path, _load(raw)) for path, raw in seed_files())
    return tuple((path, data) for path, data in loaded if data is not None)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _nodes(item, (*path, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


def _dump(data: Any) -> bytes:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue().encode("utf-8")


@st.composite
def value_mutated_record(draw: st.DrawFn) -> tuple[str, bytes]:
    """A loadable seed with one to three nodes replaced by other values, a key dropped or added."""
    path, data = draw(st.sampled_from(_loadable_seeds()))
    for _ in range(draw(st.integers(1, 3))):
        nodes = _nodes(data)
        target = draw(st.sampled_from(nodes))
        action = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
        if action == "replace":
            data = _replace(data, target, draw(EXTREME_VALUES))
        elif action == "drop" and target and isinstance(data, dict):
            parent = _nodes_get(data, target[:-1])
            if isinstance(parent, dict):
                data = _replace(data, target[:-1], {k: v for k, v in parent.items() if k != target[-1]})
        elif action == "add" and isinstance(data, dict):
            key = draw(st.sampled_from(["extra", "kind", "layout", "config", "claims"]))
            data = {**data, key: draw(EXTREME_VALUES)}
    return path, _dump(data)


def _nodes_get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def hostile_record() -> st.SearchStrategy[tuple[str, bytes]]:
    """A record file as a pull request could bring it: mutated bytes or mutated values."""
    return st.one_of(byte_mutated_record(), value_mutated_record())


# ---------------------------------------------------------------- text for the small parsers

YAML_ALPHABET = st.sampled_from(
    [*"abkind:-[]{},&*!|>'\"#%@`?~ \n\t0123456789.eE+xyz\\/", "\r\n", "\ufeff", "é", "\x00", "\u202e"]
)
yaml_like_text = st.lists(YAML_ALPHABET, max_size=300).map("".join)

_NAMES = ["num_hidden_layers", "kv_lora_rank", "qk_rope_head_dim", "bytes", "head_dim", "x", "__class__"]
EXPRESSION_PIECES = st.sampled_from(
    [
        *_NAMES,
        "0",
        "1",
        "2",
        "61",
        "576",
        "131,072",
        "1.5",
        "9" * 45,
        "+",
        "-",
        "*",
        "/",
        "x",
        "\u00d7",
        "\u00b7",
        "\u00f7",
        "\u2212",
        "**",
        "^",
        "(",
        ")",
        " ",
        ".",
        ",",
        "'",
        "[",
        "]",
        "lambda",
        ":",
        "()",
    ]
)
expression_text = st.one_of(
    st.lists(EXPRESSION_PIECES, max_size=40).map("".join),
    st.text(max_size=60),
)

QUANTITY_PIECES = st.sampled_from(
    [
        "~",
        "\u2248",
        "0",
        "1",
        "7",
        "9" * 30,
        ",",
        ".",
        " ",
        "B",
        "KiB",
        "GiB",
        "GB",
        "kB",
        "x",
        "\u00d7",
        "%",
        "s",
        "ms",
        "\u00b5s",
        "/token",
        "per token",
        "tok/s",
        "TB/s",
        "K",
        "M",
        "-",
        "e400",
        "NaN",
        "inf",
    ]
)
quantity_text = st.one_of(st.lists(QUANTITY_PIECES, max_size=8).map("".join), st.text(max_size=40))
