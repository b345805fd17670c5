"""The serving tools ``registry import`` reads, each by the module that turns its files into runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from registry.authoring.importers import bench, genai_perf, guidellm, inference_perf, inferencex, llmd
from registry.authoring.importers.imported import BenchOptions, RunDraft
from registry.authoring.importers.runs import RunsResult, import_runs

Reader = Callable[[str, list[Path]], list[RunDraft]]

READERS: dict[str, Reader] = {
    "vllm-bench": bench.drafts,
    "sglang-bench": bench.drafts,
    "guidellm": guidellm.drafts,
    "genai-perf": genai_perf.drafts,
    "aiperf": genai_perf.drafts,
    "inference-perf": inference_perf.drafts,
    "llm-d": llmd.drafts,
    "inferencex": inferencex.drafts,
}
"""SOURCE -> the function reading its files into runs (called with the source name and the files)."""


def import_source(root: Path, source: str, paths: list[Path], options: BenchOptions) -> RunsResult:
    """Read every file of ``source``, then write its runs' records into the registry at ``root``."""
    return import_runs(root, READERS[source](source, paths), options)
