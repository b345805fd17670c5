"""Which tool wrote a JSON file, from its shape, so that a file given to the wrong importer is named
for what it is ("this is a GuideLLM benchmarks.json; use `registry import guidellm`") instead of being
refused for the keys it lacks.

Each shape is the keys its writer always writes (the importers' modules cite the writers): nothing is
guessed beyond naming the tool in an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from registry.authoring.importers.bench_json import parse_json
from registry.authoring.importers.mlperf_table import SourceError
from registry.reading import read_regular

NAMES = {
    "vllm-bench": "vllm bench serve result",
    "sglang-bench": "SGLang bench_serving result line",
    "guidellm": "GuideLLM benchmarks.json",
    "genai-perf": "genai-perf profile_export_genai_perf.json",
    "aiperf": "AIPerf profile_export_aiperf.json",
    "inference-perf": "inference-perf lifecycle-metrics report",
    "llm-d": "llm-d Benchmark Report",
    "inferencex": "InferenceX aggregated result",
    "mlperf": "MLPerf Inference summary_results.json",
}
COMMANDS = {"aiperf": "genai-perf"}
"""The import command of a tool another command reads (AIPerf's export is read by genai-perf's)."""


def _object(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("benchmarks"), list) and (
        "metadata" in value or "args" in value or "config" in value
    ):
        return "guidellm"
    if {"load_summary", "successes", "failures"} <= value.keys():
        return "inference-perf"
    if isinstance(value.get("version"), str) and ("run" in value or "results" in value):
        return "llm-d"
    if isinstance(value.get("input_config"), dict):
        config = value["input_config"]
        return (
            "aiperf"
            if "loadgen" in config or ("endpoint" in config and "perf_analyzer" not in config)
            else "genai-perf"
        )
    if {"hw", "conc", "tput_per_gpu"} <= value.keys():
        return "inferencex"
    if "num_prompts" in value and "completed" in value:
        return "vllm-bench"
    if "dataset_name" in value and "completed" in value and "mean_ttft_ms" in value:
        return "sglang-bench"
    return None


def identify(value: Any) -> str | None:
    """The source name of the tool whose file ``value`` is, or None when no shape fits."""
    if isinstance(value, list) and value and isinstance(value[0], dict):
        if {"ID", "Submitter", "Scenario"} <= value[0].keys():
            return "mlperf"
        return "inferencex" if _object(value[0]) == "inferencex" else None
    return _object(value)


def _first_value(path: Path, text: str) -> Any:
    """The file's JSON value, or its first line's (JSONL), read as every importer reads JSON; ``None``
    when neither parses (the importer's reader then says where)."""
    try:
        return parse_json(path, text)
    except SourceError:
        pass
    for line in text.splitlines():
        if line.strip():
            try:
                return parse_json(path, line, 1)
            except SourceError:
                return None
    return None


def other_tool(value: Any, source: str) -> str | None:
    """The message naming the tool that wrote ``value`` when it is not the one ``source`` reads."""
    found = identify(value)
    if found is None or COMMANDS.get(found, found) == COMMANDS.get(source, source):
        return None
    return f"this is a {NAMES[found]}; use `registry import {COMMANDS.get(found, found)}`"


def refuse_other_tool(path: Path, source: str) -> None:
    """Refuse ``path`` when its first JSON value is another tool's file, naming the tool; a file that
    does not parse is left to the reader, which says where."""
    try:
        text = read_regular(path, 64 * 1024 * 1024).decode("utf-8")
    except (UnicodeDecodeError, OSError):
        return
    message = other_tool(_first_value(path, text), source)
    if message is not None:
        raise SourceError(f"{path}: {message}")
