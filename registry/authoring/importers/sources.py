"""The serving tools ``registry import`` reads, each by the module that turns its files into runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from registry.authoring.importers import bench, genai_perf, guidellm, inference_perf, inferencex, llmd
from registry.authoring.importers.imported import BenchOptions, RunDraft
from registry.authoring.importers.runs import RunsResult, import_runs
from registry.errors import RegistryError

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


def import_source(
    root: Path, source: str, paths: list[Path], options: BenchOptions, *, force: bool = False
) -> RunsResult:
    """Read every file of ``source``, then write its runs' records into the registry at ``root``
    (merged into the records already there, unless ``force``)."""
    if options.file and len(paths) > 1:
        raise RegistryError(
            f"--file names one file's path in its repository, but {len(paths)} files are given"
        )
    return import_runs(root, READERS[source](source, paths), options, force=force)
