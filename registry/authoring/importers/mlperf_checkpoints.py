"""The checkpoint a row ran where it is not its benchmark's own: an open-division run of another model
under a benchmark (Krai's Llama 3.1 70B runs under llama2-70b-99.9), and benchmarks whose checkpoint
the registry holds no record of, so that its base model's record stands in. Each is an explicit
table entry with the file that names the checkpoint; each record says so in a comment on ``model``
and cites that file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from registry.authoring.importers import mlperf_maps as maps
from registry.authoring.importers.mlperf_table import SummaryRow


@dataclass(frozen=True)
class OtherCheckpoint:
    """A checkpoint another than the benchmark's, the model record that stands in for it, and the file
    of the submission that names it (repository, commit, path)."""

    checkpoint: str
    model: str
    repository: str
    commit: str
    file: str
    weights: str
    """The served weights' format, as the file states it (the table's weight_data_types is UNSET)."""
    stands_in: bool = True
    """Whether ``model`` is another checkpoint's record standing in (False: the checkpoint's own)."""


_KRAI_V5_1 = ("mlcommons/inference_results_v5.1", "965182b03376a00fcae415c54e560e1c83937932")
_KRAI_DOC = "open/Krai/documentation/calibration.md"

OTHER_CHECKPOINTS = {
    ("v5.1", "Krai", used): OtherCheckpoint(checkpoint, "models/llama-3.1-70b", *_KRAI_V5_1, _KRAI_DOC, "fp8")
    for used, checkpoint in (
        ("llama3_1-70b-fp8_dyn", "meta-llama/Llama-3.1-70B-Instruct"),
        ("llama3_1-70b-fp8_pre", "neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8"),
        ("llama3_1-70b-fp8_trtllm", "meta-llama/Llama-3.1-70B-Instruct"),
    )
} | {
    # v6.0's results repository as read (a fork of mlcommons', the one the v6.0 table is read from):
    # the run's measurements.json, "starting_weights_filename": the Instruct checkpoint, and
    # "weight_transformations": "fp8 quantization (dynamic)".
    ("v6.0", "Krai", "llama3_1-70b-fp8_dyn"): OtherCheckpoint(
        "meta-llama/Llama-3.1-70B-Instruct",
        "models/llama-3.1-70b",
        "gbeezybez/inference_results_v6.0",
        "232fbf90fceb1d55b633030556fb02deddb4517b",
        "open/Krai/results/h200_n1-vllm/llama3_1-70b-fp8_dyn/offline/measurements.json",
        "fp8",
    ),
    ("v5.1", "Krai", "llama2-70b-fp8_quark"): OtherCheckpoint(
        "meta-llama/Llama-2-70b-chat-hf", "models/llama-2-70b-chat", *_KRAI_V5_1, _KRAI_DOC, "fp8", False
    ),
}
"""(``version``, ``Organization``, ``UsedModel``) -> the checkpoint that ran, as the submission's own
calibration table names it for that folder ("Krai submissions ... use: 1. fp8 models dynamically
quantized ..., 1. an fp8 model pre-quantized by Neural Magic ..."): every one is served as fp8. The
registry's Llama 3.1 70B record is the base model's, standing in for the Instruct checkpoint and its FP8
copy; the Quark folder is the benchmark's own Llama 2 70B Chat, quantized to fp8."""


def other_checkpoint(row: SummaryRow) -> OtherCheckpoint | None:
    return OTHER_CHECKPOINTS.get((row["version"], row["Organization"], row.cells.get("UsedModel", "")))


def model_note(row: SummaryRow, benchmark: str) -> tuple[str, ...]:
    """The comment on a record's ``model`` when its record is not the checkpoint that ran."""
    other = other_checkpoint(row)
    if other is not None:
        said = (
            f"UsedModel {row['UsedModel']!r} ran under the {benchmark} benchmark: the submission's",
            f"{other.file} (sources) names its checkpoint {other.checkpoint}, served as {other.weights}.",
        )
        return said + (
            ("The registry has no record of that checkpoint, so its base model's record stands in.",)
            if other.stands_in
            else ()
        )
    if benchmark in maps.STAND_INS:
        checkpoint, readme = maps.STAND_INS[benchmark]
        return (
            f"The benchmark runs {checkpoint}, as MLPerf's reference implementation says",
            f"(mlcommons/inference {readme} at {maps.STAND_IN_COMMIT}). The registry has no",
            "record of that checkpoint, whose config.json was not read here, so its base model's record stands in.",
        )
    return ()


def precision_note(row: SummaryRow) -> tuple[str, ...]:
    """The comment on ``precision`` when the served weights are the submission file's, not the table's."""
    other = other_checkpoint(row)
    if other is None:
        return ()
    return (
        f"weight_data_types {row['weight_data_types']!r}: the submission's file (sources) says the",
        f"served weights are {other.weights}, and they are recorded so.",
    )


def citation(row: SummaryRow) -> list[dict[str, Any]]:
    """The submission's file that names the checkpoint that ran, where the row ran another one."""
    other = other_checkpoint(row)
    if other is None:
        return []
    return [
        {
            "title": f"{row['Organization']}'s MLPerf Inference {row['version']} file naming the checkpoint served",
            "url": f"https://github.com/{other.repository}/blob/{other.commit}/{other.file}",
            "file": other.file,
            "revision": other.commit,
            "section": row["UsedModel"],
        }
    ]
