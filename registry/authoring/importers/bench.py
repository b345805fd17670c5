"""``registry import vllm-bench`` and ``registry import sglang-bench``: a user's own serving-benchmark
runs as benchmark records (schema version 2).

``vllm bench serve --save-result`` (and the older ``benchmarks/benchmark_serving.py``) writes one JSON
object, ``--append-result`` one object a line; ``python -m sglang.benchmark.serving --output-file`` (and
the older ``python -m sglang.bench_serving``) appends one object a line. The keys of every generation
are listed, with the commits they were read at, in :mod:`registry.authoring.importers.bench_keys`; what
each run becomes is :mod:`registry.authoring.importers.bench_record`, and the record is made and written
by :mod:`registry.authoring.importers.runs` as for every serving tool.
"""

from __future__ import annotations

from pathlib import Path

from registry.authoring.importers.bench_json import BenchRun, read_json, read_jsonl
from registry.authoring.importers.bench_record import Tool, draft
from registry.authoring.importers.imported import BenchOptions, RunDraft
from registry.authoring.importers.runs import RunsResult, import_runs
from registry.authoring.importers.sniff import refuse_other_tool

VLLM = Tool(
    source="vllm-bench",
    command="vllm bench serve",
    required=("backend", "num_prompts", "request_rate", "completed"),
    default_engine="engines/vllm",
)
SGLANG = Tool(
    source="sglang-bench",
    command="sglang.bench_serving",
    required=("backend", "dataset_name", "request_rate", "completed", "request_throughput", "mean_ttft_ms"),
    default_engine=None,
)
TOOLS = {tool.source: tool for tool in (VLLM, SGLANG)}
BenchResult = RunsResult


def read_runs(tool: Tool, paths: list[Path]) -> list[BenchRun]:
    """Every run object of every file; a file of another tool is refused, naming the tool."""
    reader = read_json if tool is VLLM else read_jsonl
    runs: list[BenchRun] = []
    for path in paths:
        refuse_other_tool(path, tool.source)
        runs.extend(reader(path, tool.required, tool.command))
    return runs


def drafts(source: str, paths: list[Path]) -> list[RunDraft]:
    tool = TOOLS[source]
    return [draft(run, tool) for run in read_runs(tool, paths)]


def import_bench(
    root: Path, source: str, paths: list[Path], options: BenchOptions, *, force: bool = False
) -> RunsResult:
    """Import the runs in ``paths`` into the registry at ``root``; drafts are named in the result."""
    return import_runs(root, drafts(source, paths), options, force=force)
