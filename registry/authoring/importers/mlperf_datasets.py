"""The mean input length of each MLPerf LLM benchmark's dataset and the cap on its output, with where
each comes from.

A benchmark's performance run draws its prompts from the benchmark's own dataset (the QSL). For the
benchmarks below LoadGen runs in equal issue mode in every scenario: ``loadgen/mlperf.conf`` sets
``<benchmark>.*.sample_concatenate_permutation = 1`` and the submission checker refuses a closed run
without it (``equal_issue_check``), so the run issues whole permutations of the performance sample set,
every sample equally often (``loadgen/loadgen.cc``: Offline pads its query to a multiple of the loaded
samples, each copy shuffled; Server and the other scenarios pad and bump their query count by the
loaded samples' count and draw each sample once per round), and its performance sample count is the
whole dataset (``performance_sample_count_override``). The mean input length over the samples a run
issued is then the dataset's mean.

MLCommons publishes no mean input length. Each figure is the mean of the ``input_length`` column of a
per-sample table extracted from MLCommons' own dataset file (the tokenized column the reference
implementation reads: ``tok_input_length`` or ``tok_input_len``), committed in
``openshift-psap/performance-dashboard`` with the script that wrote it
(``mlperf-data/original/generate_dataset_summaries.py``): the sum of the column over its rows, divided by
the rows, rounded down to a whole token (a prompt's work grows with its length, so rounding down keeps
the work a bound counts a lower bound). The tables agree with MLCommons where MLCommons states a figure:
each has the dataset's sample count; the Llama 3.1 405B and Mixtral tables' output column averages
684.68 and 144.84 tokens, the reference ``tokens_per_sample`` of each benchmark's README; no Llama 2 70B
prompt reaches the reference's filter of 1,024 tokens (``processorca.py``, ``seqlen_limit``).

Llama 3.1 8B's table is the length of ``tok_input`` in ``cnn_eval.json``: only that benchmark's reference
writes the field (``language/llama3.1-8b/download_cnndm.py``, with the Llama 3.1 8B Instruct tokenizer
and the benchmark's prompt template; GPT-J's file of the same name holds text only). Its edge variant
runs a 5,000-sample subset whose mean the table does not give, and is left out; GPT-J, gpt-oss-120b and
Qwen3-VL have no such table.

The output cap is the closed division's ``max_new_tokens`` (``inference_rules.adoc``, "Additional
inference parameters"); where the reference implementation sets a larger one the larger is taken
(a cap may only be too high to be a bound). An Open division run may change it, and gets no cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from registry.authoring.importers.mlperf_rules import benchmark_of
from registry.authoring.importers.mlperf_table import SummaryRow

DASHBOARD = ("openshift-psap/performance-dashboard", "71007029fb5bced1d79808e7e64dc4c2af82ea55")
"""The repository and commit of the per-sample tables."""

LOADGEN = ("mlcommons/inference", "b66003e10e2db4b8c36a448b0545ec90fcc6e9e9", "loadgen/mlperf.conf")
"""LoadGen's configuration, which sets equal issue mode and the performance sample counts."""


@dataclass(frozen=True)
class DatasetLengths:
    """One benchmark's dataset: its mean input tokens (rounded down), sample count and description."""

    input_tokens: int
    samples: int
    total_input_tokens: int
    dataset: str
    table: str
    conf_name: str
    """The benchmark's name in mlperf.conf."""
    max_output_tokens: int
    rule: str
    """The rules' row that caps the output, as written."""


_LLAMA2 = DatasetLengths(
    222,
    24576,
    5_463_976,
    "OpenOrca (MLCommons' 24,576-sample subset)",
    "llama2-70b-99.csv",
    "llama2-70b",
    1024,
    "|Summarization (Llama2-70b) |max_new_tokens |1024 | Maximum number of new tokens to generate",
)

LENGTHS = {
    "llama2-70b-99": _LLAMA2,
    "llama2-70b-99.9": _LLAMA2,
    "llama3.1-405b": DatasetLengths(
        9428,
        8313,
        78_380_323,
        "LongBench, LongDataCollections, RULER and GovReport (MLCommons' 8,313-sample subset)",
        "llama3-1-405b.csv",
        "llama3_1-405b",
        20000,
        "|Text Generation (Llama3.1-405B) |max_new_tokens |20000 | Maximum number of new tokens to generate",
    ),
    "llama3.1-8b": DatasetLengths(
        870,
        13368,
        11_639_915,
        "CNN/DailyMail 3.0.0 validation (13,368 articles)",
        "llama3-1-8b-datacenter.csv",
        "llama3_1-8b",
        128,
        "|Summarization (Llama3.1-8B) |max_new_tokens |128 | Maximum number of new tokens to generate",
    ),
    "mixtral-8x7b": DatasetLengths(
        427,
        15000,
        6_410_905,
        "OpenOrca, GSM8K and MBXP (MLCommons' 15,000 samples, 5,000 of each)",
        "mixtral-8x7b.csv",
        "mixtral-8x7b",
        1024,
        "|Text Generation (Mixtral-8x7B) |max_new_tokens |1024 | Maximum number of new tokens to generate",
    ),
    "deepseek-r1": DatasetLengths(
        803,
        4388,
        3_527_036,
        "AIME, MATH500, GPQA, MMLU-Pro and LiveCodeBench (MLCommons' 4,388-sample ensemble)",
        "deepseek-r1.csv",
        "deepseek-r1",
        20000,
        "|Reasoning (DeepSeek) |max_new_tokens |20000 | Maximum number of new tokens to generate",
    ),
}
"""Benchmark -> its dataset's lengths (module docstring)."""


RULES = ("mlcommons/inference_policies", "ac93e89c0c9a8819eb0ad987768c2f6e22896714", "inference_rules.adoc")
"""The MLPerf Inference rules that cap each benchmark's output in the closed division."""


def _closed(row: SummaryRow) -> bool:
    return row["Division"].strip().lower() == "closed"


def workload(row: SummaryRow) -> dict[str, Any]:
    """A results table row's workload: what it ran, and the fields its benchmark's dataset states (none
    where unknown), with the output cap in the closed division."""
    found = LENGTHS.get(benchmark_of(row["Model"]))
    described = (
        f"The MLPerf Inference {row['version']} {row['MlperfModel']} benchmark ({row['Model']}), "
        f"{row['Scenario']} scenario, with the benchmark's own dataset; "
    )
    if found is None:
        return {"description": described + "the results summary gives no lengths, request counts or rates."}
    return {
        "description": described
        + "the mean input length is the dataset's (sources); the results summary gives no request counts "
        "or rates.",
        "input_tokens": found.input_tokens,
        "lengths": "mean",
        **({"max_output_tokens": found.max_output_tokens} if _closed(row) else {}),
        "dataset": found.dataset,
        "distribution": (
            f"each of the {found.samples:,} samples issued equally often (LoadGen's equal issue mode); "
            f"input_tokens is their mean, {found.total_input_tokens:,} tokens over {found.samples:,} samples, "
            "rounded down"
        ),
    }


def citations(row: SummaryRow) -> list[dict[str, Any]]:
    """The per-sample table the mean is counted from, LoadGen's settings that make it the run's, and in
    the closed division the rule that caps the output."""
    benchmark = benchmark_of(row["Model"])
    found = LENGTHS.get(benchmark)
    if found is None:
        return []
    rules_repository, rules_commit, rules_file = RULES
    cap = [
        {
            "title": "MLPerf Inference rules: additional inference parameters (closed division)",
            "url": f"https://github.com/{rules_repository}/blob/{rules_commit}/{rules_file}",
            "publisher": "MLCommons",
            "file": rules_file,
            "revision": rules_commit,
            "section": "Additional inference parameters",
            "quote": found.rule,
        }
    ]
    repository, commit = DASHBOARD
    table = f"mlperf-data/summaries/{found.table}"
    conf_repository, conf_commit, conf = LOADGEN
    name = found.conf_name
    return [
        {
            "title": f"Per-sample token lengths of MLCommons' {benchmark} dataset file ({found.table})",
            "url": f"https://github.com/{repository}/blob/{commit}/{table}",
            "publisher": "openshift-psap (extracted from MLCommons' dataset file)",
            "file": table,
            "revision": commit,
            "section": (
                f"column input_length, {found.samples:,} rows summing to {found.total_input_tokens:,} tokens "
                f"(mean {found.total_input_tokens / found.samples:.2f})"
            ),
        },
        {
            "title": "MLPerf Inference LoadGen: equal issue mode (loadgen.cc, GenerateQueries)",
            "url": f"https://github.com/{conf_repository}/blob/{conf_commit}/loadgen/loadgen.cc",
            "publisher": "MLCommons",
            "file": "loadgen/loadgen.cc",
            "revision": conf_commit,
            "quote": (
                "When sample_concatenate_permutation is turned on, pad to a multiple of the complete "
                "dataset to ensure fairness."
            ),
        },
        {
            "title": "MLPerf Inference LoadGen configuration (mlperf.conf)",
            "url": f"https://github.com/{conf_repository}/blob/{conf_commit}/{conf}",
            "publisher": "MLCommons",
            "file": conf,
            "revision": conf_commit,
            "quote": (
                f"{name}.*.performance_sample_count_override = {found.samples}; "
                f"{name}.*.sample_concatenate_permutation = 1"
            ),
        },
        *(cap if _closed(row) else []),
    ]
