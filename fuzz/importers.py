"""The importers' fuzz targets: one per ``registry import`` SOURCE, each fed its own published shape,
mutated.

Each input starts from the importer's fixture (a real file's shape: ``tests/fixtures/bench``,
``tests/fixtures/tools``, ``tests/fixtures/mlperf``) and is changed the ways a hostile or broken file
can be: a JSON value replaced by a hostile one (numbers at and past the edges, text with controls,
invisible characters, line breaks, 5,000 digits, deep nesting), a key written twice, the text's bytes
edited; an MLPerf row's cell replaced. The importer runs on it into a small registry holding the
records the fixtures name, with every option a complete record needs. The promises:

- the import ends in a record written or a ``RegistryError`` (a located refusal), never another
  exception (a traceback);
- every record it writes passes ``registry check`` with no error, but a draft (a record the import
  names as one, left for a person to complete: the fixtures are given every option they need, so a
  draft comes only from a file that stops stating what it stated);
- a refused import writes nothing, and leaves no temporary file.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from fuzz.strategies import REPO, Chooser, Drawn, byte_edit
from fuzz.targets import Outcome, _promise

SECONDS_PER_IMPORT = 30.0
"""The time bound for one import: several records, each made with ruamel.yaml's pure-Python round
trip and checked twice (by the import, then by the check), on a shared machine."""

BENCH = REPO / "tests" / "fixtures" / "bench"
TOOLS = REPO / "tests" / "fixtures" / "tools"
MLPERF = REPO / "tests" / "fixtures" / "mlperf" / "v6.1"

SOURCES: dict[str, Path] = {
    "vllm-bench": BENCH / "vllm-8qps-llama.json",
    "sglang-bench": BENCH / "sglang-pd-eagle.jsonl",
    "guidellm": TOOLS / "guidellm-v2.json",
    "genai-perf": TOOLS / "genai-perf-config.json",
    "aiperf": TOOLS / "aiperf.json",
    "inference-perf": TOOLS / "inference-perf-stage-0.json",
    "llm-d": TOOLS / "llmd-report-v0.2.json",
    "inferencex": TOOLS / "inferencex-agg.json",
    "mlperf": MLPERF / "summary.csv",
}
"""Each importer and the fixture its inputs start from."""

RECORDS = (
    *(f"engines/{p.stem}" for p in sorted((REPO / "records" / "engines").glob("*.yaml"))),
    "hardware/h100-sxm",
    "hardware/b200",
    "hardware/h200",
    "hardware/b300",
    "hardware/gb300",
    "hardware/mi350x",
    "hardware/rtx-pro-4500-blackwell",
    "hardware/xeon-6980p-2s-intel",
    "models/llama-3.1-8b-instruct",
    "models/qwen3-8b",
    "models/qwen3-32b",
    "models/gpt-oss-120b",
    "models/deepseek-r1",
    "models/llama-2-70b-chat",
    "models/qwen3-vl-235b-a22b-instruct",
)
"""The records the fixtures' runs name: the fuzz registry holds these and nothing else."""

HOSTILE_JSON = [
    "1e1200000",
    "-1e400",
    "1e308",
    "-0",
    "9" * 5000,
    "0." + "1" * 200,
    "-48.21",
    "0",
    "1.5e-45",
    "[" * 200 + "]" * 200,
    "{}",
    "[]",
    "null",
    "true",
    "Infinity",
    "NaN",
    '"inf"',
    '"trace"',
    json.dumps("x\ny: forged"),
    json.dumps("\x1b]0;owned\x07\x1b[2J"),
    json.dumps("Example\u200e"),
    json.dumps("a\u202eb"),
    json.dumps("tag\U000e0041"),
    json.dumps("X" * 400),
    json.dumps("javascript:alert(1)"),
    json.dumps("v6.1/../.."),
    json.dumps("../../../etc/passwd"),
    json.dumps("aux"),
    json.dumps('=HYPERLINK("https://example.com")'),
    json.dumps("meta-llama/Llama-3.1-8B-Instruct"),
    json.dumps("\u0661\u0660\u0660"),
    json.dumps(""),
]
"""JSON texts a value is replaced with."""

HOSTILE_CELLS = [
    "1_000",
    "\u0661\u0660\u0660\u0660",
    "-0",
    "1e308",
    "1e1200000",
    "9" * 5000,
    "NaN",
    " 12",
    "-5",
    "Example\nforged: line",
    "Example\u200f",
    "X" * 400,
    "v6.1/../..",
    "\x1b]0;owned\x07\x1b[2J",
    "EXAMPLE",
    "ROUGE1: " + "9" * 5000,
    "",
    "aux",
    "=cmd|' /C calc'!A0",
]
"""Cells an MLPerf row's cell is replaced with."""

OPTIONS = {
    "hardware": "hardware/h100-sxm",
    "count": 1,
    "engine_version": "0.11.0",
    "prefix_cache": "cold",
    "url": "https://example.org/run.json",
}
"""What a complete record needs that the files do not say (the model, where a file names none, is
the fixture's)."""
MODELS = {"inference-perf": "models/llama-3.1-8b-instruct"}
SOURCE_OPTIONS: dict[str, dict[str, Any]] = {
    "aiperf": {"engine": "engines/vllm"},
    "genai-perf": {"engine": "engines/vllm"},
    "inference-perf": {"engine": "engines/vllm"},
    "guidellm": {"engine": "engines/vllm"},
    "sglang-bench": {"engine_version": None, "hardware": "hardware/h200", "count": 8},
    "llm-d": {"hardware": None, "count": None},
    "inferencex": {"hardware": None, "count": None, "engine_version": None},
}
"""What each fixture needs beyond :data:`OPTIONS` to make complete records: what its file states is
left to the file (an option the file contradicts is refused), and what it lacks is given."""


def _paths(value: Any) -> list[tuple[Any, ...]]:
    """Every path into ``value``, the root first, depth first in document order (one list, no copies:
    the guidellm fixture has some 1,100 values)."""
    found: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        found.append(path)
        if isinstance(item, dict):
            stack.extend(((*path, key), child) for key, child in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend(((*path, index), item[index]) for index in range(len(item) - 1, -1, -1))
    return found


@cache
def _fixture_paths(source: str) -> tuple[tuple[Any, ...], ...]:
    return tuple(_paths(_fixture(source)))


_MARK = "\u0000HOSTILE\u0000"


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _set(value[head], rest, new)}
    copy = list(value)
    copy[head] = _set(copy[head], rest, new)
    return copy


@cache
def _fixture(source: str) -> Any:
    """The source's fixture, parsed once (a JSON document, or sglang-bench's list of JSON lines)."""
    text = SOURCES[source].read_text(encoding="utf-8")
    if source == "sglang-bench":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)


def _dumped(source: str, data: Any) -> str:
    return "\n".join(json.dumps(item) for item in data) if source == "sglang-bench" else json.dumps(data)


def json_mutant(choose: Chooser, source: str) -> bytes:
    """The source's fixture with one or two values replaced by hostile JSON text, maybe a key written
    twice, maybe its bytes edited."""
    data = _fixture(source)
    for round_ in range(choose.integer(1, 2)):
        path = choose.pick(_fixture_paths(source) if round_ == 0 else _paths(data))
        hostile = choose.pick(HOSTILE_JSON)
        if path:
            try:
                # What the file would read back as, without writing and reading the whole file: each
                # hostile text is one JSON value, so only the value at ``path`` changes.
                data = _set(data, path, json.loads(hostile))
                continue
            except ValueError:  # a value Python's reader refuses (5,000 digits): the file goes as text
                pass
        # The root (sglang-bench's file of lines becomes the lines of what replaced it), or a text that
        # is not Python's JSON: written into the whole file, and the file read back if it reads.
        dumped = _dumped(source, _set(data, path, _MARK)).replace(json.dumps(_MARK), hostile, 1)
        try:
            data = (
                [json.loads(line) for line in dumped.splitlines()]
                if source == "sglang-bench"
                else json.loads(dumped)
            )
        except ValueError:
            return _maybe_edited(choose, dumped.encode("utf-8"))
    dumped = _dumped(source, data)
    if choose.integer(0, 1) and dumped.startswith("{"):
        key = choose.pick(sorted(data) if isinstance(data, dict) and data else ["x"])
        dumped = "{" + f"{json.dumps(key)}: 99999.0, " + dumped[1:]
    return _maybe_edited(choose, dumped.encode("utf-8"))


def _maybe_edited(choose: Chooser, raw: bytes) -> bytes:
    return byte_edit(choose, raw) if choose.integer(0, 3) == 0 else raw


@cache
def _mlperf_rows() -> tuple[dict[str, str], ...]:
    with (MLPERF / "summary.csv").open(encoding="utf-8", newline="") as handle:
        return tuple(csv.DictReader(handle))


def mlperf_mutant(choose: Chooser) -> bytes:
    """The MLPerf fixture with a few cells replaced (or a row doubled with one cell changed)."""
    rows = list(_mlperf_rows())
    columns = list(rows[0])
    for _ in range(choose.integer(1, 3)):
        row = choose.integer(0, len(rows) - 1)
        column = choose.pick(columns)
        cell = choose.pick(HOSTILE_CELLS)
        if choose.integer(0, 4) == 0:
            rows.append(rows[row] | {column: cell})
        else:
            rows[row] = rows[row] | {column: cell}
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return _maybe_edited(choose, out.getvalue().encode("utf-8"))


def mutant(choose: Chooser, source: str) -> bytes:
    """One input for ``source``'s importer."""
    return mlperf_mutant(choose) if source == "mlperf" else json_mutant(choose, source)


def inputs(source: str) -> st.SearchStrategy[bytes]:
    """The Hypothesis strategy of ``source``'s inputs: :func:`mutant`, drawn (so that it shrinks)."""
    return st.composite(lambda draw: mutant(Drawn(draw), source))()


class FuzzRegistry:
    """A small registry holding :data:`RECORDS`, and a folder for each input's file."""

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="registry-fuzz-import-")
        self.root = Path(self.folder.name) / "registry"
        for record_id in RECORDS:
            target = self.root / "records" / f"{record_id}.yaml"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(REPO / "records" / f"{record_id}.yaml", target)
        shutil.copytree(REPO / "schemas", self.root / "schemas")
        self.inputs = Path(self.folder.name) / "input"
        self.inputs.mkdir()
        shutil.copy(MLPERF / "README.md", self.inputs / "README.md")

    def clear(self) -> None:
        shutil.rmtree(self.root / "records" / "benchmarks", ignore_errors=True)


_REGISTRY: FuzzRegistry | None = None


def fuzz_registry() -> FuzzRegistry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = FuzzRegistry()
    return _REGISTRY


def close() -> None:
    global _REGISTRY
    if _REGISTRY is not None:
        _REGISTRY.folder.cleanup()
        _REGISTRY = None


def import_target(source: str, raw: bytes) -> Outcome:
    """Import ``raw`` as a file of ``source``; see the module's docstring for the promises."""
    from registry.authoring.importers.imported import BenchOptions
    from registry.authoring.importers.mlperf import SourceOptions, import_mlperf
    from registry.authoring.importers.sources import import_source
    from registry.authoring.importers.writing import Written
    from registry.checker.pipeline import check
    from registry.diagnostics import Severity
    from registry.errors import RegistryError

    place = fuzz_registry()
    place.clear()
    path = place.inputs / ("summary.csv" if source == "mlperf" else SOURCES[source].name)
    path.write_bytes(raw)

    def run() -> Outcome:
        result: Written
        try:
            if source == "mlperf":
                result = import_mlperf(place.root, [path], SourceOptions())
            else:
                given = {"model": MODELS.get(source), **OPTIONS, **SOURCE_OPTIONS.get(source, {})}
                options = BenchOptions(**given)
                result = import_source(place.root, source, [path], options)
        except RegistryError as refused:
            folder = place.root / "records" / "benchmarks"
            _promise(not folder.exists() or not any(folder.iterdir()), "a refused import wrote files")
            return Outcome(("refused",), (str(refused)[:200],))
        written = place.root / "records" / "benchmarks"
        if not result.new:
            return Outcome(("nothing written",))
        checked = check(place.root, [written], formulas=True)
        drafts = {f"records/{record_id}.yaml" for record_id in result.drafts}
        errors = [d for d in checked.diagnostics if d.severity is Severity.ERROR and d.path not in drafts]
        _promise(not errors, f"wrote a record the check refuses: {errors[0] if errors else ''}")
        leftovers = [p.name for p in written.iterdir() if p.name.endswith(".tmp")]
        _promise(not leftovers, f"temporary files left: {leftovers}")
        return Outcome(("written",) * len(result.new))

    started = time.perf_counter()
    outcome = run()
    seconds = time.perf_counter() - started
    _promise(seconds < SECONDS_PER_IMPORT, f"took {seconds:.1f} s, past the {SECONDS_PER_IMPORT} s bound")
    return Outcome(outcome.codes, outcome.messages, seconds)


def target(source: str) -> Any:
    """The fuzz target of one importer."""

    def run(raw: bytes) -> Outcome:
        return import_target(source, raw)

    run.__name__ = f"import_{source.replace('-', '_')}"
    return run
