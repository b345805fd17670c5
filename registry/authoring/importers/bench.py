"""``registry import vllm-bench`` and ``registry import sglang-bench``: a user's own serving-benchmark
runs as benchmark records (schema version 2).

The writers read, and the keys taken from them:

- vLLM, ``vllm/benchmarks/serve.py`` at commit 009e6d4a1cd6ba3fb2a9fc00f4ec06f5297232a1 of
  vllm-project/vllm: ``main_async`` builds ``result_json`` (``date``, ``endpoint_type``, ``backend``,
  ``label``, ``model_id``, ``tokenizer_id``, ``num_prompts``, ``request_rate`` (``"inf"`` when
  unbounded), ``burstiness``, ``max_concurrency``) and merges ``benchmark``'s ``result`` into it
  (``completed``, ``failed``, ``total_input_tokens``, ``total_output_tokens``, ``request_throughput``,
  ``request_goodput``, ``output_throughput``, ``total_token_throughput``, ``max_output_tokens_per_s``,
  and, from ``process_one_metric``, ``mean_``/``median_``/``std_``/``p{N}_`` + ``ttft``/``tpot``/
  ``itl``/``e2el`` + ``_ms``), then ``json.dump`` s it to the ``--save-result`` file.
- SGLang, ``python/sglang/bench_serving.py`` at commit 0033168f0f58b2bc05aa0273bd475d9c01bafb1c of
  sgl-project/sglang: ``benchmark`` builds ``result`` (``backend``, ``dataset_name``, ``request_rate``,
  ``max_concurrency``, ``sharegpt_output_len``, ``random_input_len``, ``random_output_len``,
  ``random_range_ratio``, ``duration``, ``completed``, ``total_input_tokens``, ``total_output_tokens``,
  ``request_throughput``, ``input_throughput``, ``output_throughput``, ``mean``/``median``/``std``/
  ``p99`` of ``e2e_latency``, ``ttft``, ``tpot`` and ``itl`` in ``_ms``, ``p95_itl_ms``,
  ``concurrency``, ``accept_length``) and appends ``json.dumps(result)`` as one line of
  ``--output-file``. Its successor, ``python/sglang/benchmark/serving.py`` at commit
  00f9ec472ffef82714c0407b842ccb5bd254d130 (``python -m sglang.benchmark.serving``), writes the same
  line with more keys: ``tag``, ``server_info`` (the server's own description, not read here),
  ``total_throughput``, ``p90_``/``p95_`` of every latency, ``max_output_tokens_per_s``,
  ``max_concurrent_requests``, and ``request_rate`` ``"trace"`` when ``--use-trace-timestamps`` sent
  each request at its trace's time (read as a ``server`` run with no rate).

Everything is read, checked and mapped before anything is written (a bad file is one located error and
no record changes), then written through :mod:`registry.authoring.importers.writing`, so importing the
same file again changes no byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from registry.authoring.importers.bench_json import BenchRun, read_json, read_jsonl
from registry.authoring.importers.bench_record import BenchOptions, Tool, default_id, map_run
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.writing import Planned, Written, write_records
from registry.errors import RegistryError
from registry.ids import record_id

VLLM = Tool(
    source="vllm-bench",
    command="vllm bench serve",
    required=(
        "date",
        "backend",
        "model_id",
        "num_prompts",
        "request_rate",
        "completed",
        "request_throughput",
    ),
    throughputs={
        "request_throughput": ("request_throughput", "req/s", "value"),
        "output_throughput": ("output_throughput", "tok/s", "value"),
        "total_token_throughput": ("total_throughput", "tok/s", "value"),
        "max_output_tokens_per_s": ("output_throughput", "tok/s", "max"),
    },
    model_key="model_id",
    engines={"sglang": "engines/sglang"},
    default_engine="engines/vllm",
)
SGLANG = Tool(
    source="sglang-bench",
    command="sglang.bench_serving",
    required=("backend", "dataset_name", "request_rate", "completed", "request_throughput", "mean_ttft_ms"),
    throughputs={
        "request_throughput": ("request_throughput", "req/s", "value"),
        "output_throughput": ("output_throughput", "tok/s", "value"),
        "total_throughput": ("total_throughput", "tok/s", "value"),
        "max_output_tokens_per_s": ("output_throughput", "tok/s", "max"),
    },
    model_key="model_id",
    engines={
        name: engine
        for names, engine in (
            (("sglang", "sglang-native", "sglang-oai", "sglang-oai-chat"), "engines/sglang"),
            (("vllm", "vllm-chat"), "engines/vllm"),
        )
        for name in names
    },
    default_engine=None,
)
TOOLS = {tool.source: tool for tool in (VLLM, SGLANG)}


@dataclass
class BenchResult(Written):
    """What an import read, made and wrote, for the command to report."""

    runs: int = 0
    drafts: list[str] = field(default_factory=list)


def read_runs(tool: Tool, paths: list[Path]) -> list[BenchRun]:
    reader = read_json if tool is VLLM else read_jsonl
    return [run for path in paths for run in reader(path, tool.required, tool.command)]


def plan(root: Path, source: str, paths: list[Path], options: BenchOptions) -> list[Planned]:
    """Read, check and map every run of every file; nothing is written."""
    tool = TOOLS[source]
    runs = read_runs(tool, paths)
    if options.record_id and len(runs) > 1:
        raise RegistryError(f"--id names one record, but the files hold {len(runs)} runs")
    if options.hardware and options.count is None:
        raise RegistryError("--hardware needs --count: how many of it ran the server")
    planned: dict[str, tuple[BenchRun, Planned]] = {}
    for run in runs:
        rid = record_id(options.record_id, "benchmarks") if options.record_id else default_id(run, tool)
        record = map_run(root, run, tool, options, rid)
        earlier = planned.get(rid)
        if earlier is not None and earlier[1].fields != record.fields:
            raise SourceError(
                f"{run.where}: the same run as {earlier[0].where} (both would be {rid}); remove the copy"
            )
        planned[rid] = (run, record)
    return [record for _, record in planned.values()]


def import_bench(root: Path, source: str, paths: list[Path], options: BenchOptions) -> BenchResult:
    """Import the runs in ``paths`` into the registry at ``root``; drafts are named in the result."""
    records = plan(root, source, paths, options)
    result = BenchResult(runs=len(records))
    result.drafts = [record.id for record in records if record.draft]
    write_records(root, records, result)
    return result
