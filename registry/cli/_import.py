"""registry import"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from registry.authoring.importers.writing import Written
from registry.cli._common import registry_root
from registry.errors import RegistryError
from registry.terminal import terminal_safe

SOURCES = (
    "mlperf",
    "vllm-bench",
    "sglang-bench",
    "guidellm",
    "genai-perf",
    "aiperf",
    "inference-perf",
    "llm-d",
    "inferencex",
)

DESCRIPTION = """\
Turn published benchmark results into benchmark records (schema version 2) under records/benchmarks/.

SOURCE mlperf reads MLPerf Inference results tables of any round: a round's summary.csv (31 columns,
v6.1), the summary_results.json that v4.1 to v6.0 publish instead, and the submission checker's
per-submitter summary (28 columns; 29 with total_accelerators); a file of another shape or tool is named
as such. Each LLM row (llama2-70b-99 and -99.9, llama3.1-405b, llama3.1-8b, mixtral-8x7b, deepseek-r1,
gpt-oss-120b, qwen3-vl-235b-a22b, ...) becomes one record whose id is made of the round, submitter,
system, model and scenario, so it is stable: importing
the same file again changes nothing, a later round adds records, and a changed value rewrites its
record. The model, hardware and engine come from explicit tables of MLPerf's spellings; a row whose
spelling is in no table, or whose record the registry lacks, is listed with the reason and not written.
Rows of other benchmarks (vision, speech, recommendation, ...) are skipped and counted.

Where the file was published (repository, path, commit) goes into each record's provenance: give it with
the options, or keep a README.md beside the file with the lines '- Source repository: `owner/name`',
'- Source path: `summary.csv`' and '- Commit read: `<sha>`'.

Each record carries MLPerf's own rules for its benchmark and scenario, from that round's submission
checker (mlcommons/inference at the commit that checked the round, cited in the record): the TTFT and
TPOT targets (99th percentile) of Server and Interactive runs, or the end-to-end target of
qwen3-vl-235b-a22b, as constraints of its result; and each accuracy score's target. The result's unit
is the one the round's checker reads the benchmark's result in (tokens/s for the LLM benchmarks), and
the run log's own figure where one is read; a Units column that contradicts them is overridden, and
the record's comment says so. The result ID (v4.1-0049, 5.1-0001) and the table's inferred flag are
kept in provenance. The benchmark keeps its accuracy suffix (llama2-70b-99 and -99.9 are two
benchmarks, ranked apart); one run filed under both with the same result is one record, the -99.9
one, whose provenance.also_filed_as names the -99 row.

With --results DIR, a results tree laid out as the round's repository (closed/<submitter>/results/...),
each row's run folder (its Location, with or without v6.0's build/submission/ prefix, and with
performance/run_1 added to a v4.1 or v5.1 Location that stops at the scenario folder) is looked up under
DIR, and each row whose log is not there is listed with where it was looked for: where it holds an mlperf_log_summary.txt, the
record also gets the run's TTFT, TPOT and end-to-end latency statistics (mean, median, p90, p95, p99,
p99.9, min, max, in ms) and its VALID/INVALID verdict, and cites the file. A log of another scenario, or
with other latency targets than the benchmark's, makes its row unmappable (listed). Where the tree is
published comes from --results-repository and --results-commit, or a README.md at its top. An import
given no log for a run keeps the log figures (and their citation) that an earlier import wrote into the
run's record, so re-importing the summary alone changes nothing; a log read again replaces them.

Every file is read and checked before anything is written: a malformed row, a wrong header, a Result
that is not a number, a file of another tool or a malformed log summary is reported as FILE:LINE and
nothing changes.

The files serving tools write, one record per run, each SOURCE its tool:
  vllm-bench      'vllm bench serve --save-result' (and benchmarks/benchmark_serving.py since 2024):
                  one JSON object, or one a line with --append-result
  sglang-bench    'python -m sglang.benchmark.serving' / 'sglang.bench_serving' --output-file: JSONL
  guidellm        GuideLLM's benchmarks.json (metadata.version 1 or 2): one record per benchmark
  genai-perf      profile_export_genai_perf.json, and AIPerf's profile_export_aiperf.json (also 'aiperf')
  inference-perf  inference-perf's stage_<N>_ or summary_lifecycle_metrics.json
  llm-d           an llm-d Benchmark Report v0.2 (JSON or YAML), checked against its schema first
  inferencex      InferenceX's aggregated rows: an agg_*.json row or the collected array of them
Every figure is copied with the unit the file gives it (nothing is converted); a key the importer does
not know is named, in the output and in the record's comment, never dropped in silence.

What the file says about itself is read: the model (vLLM's model_id, SGLang's server_info.model_path,
a Hub cache folder .../models--ORG--NAME/snapshots/REV/, GuideLLM's backend model, ...) is matched to the
model record whose hub_repositories (or Hub config_source.repository) holds it, and the output says
which record and why; --model names the record instead, and a file that names another model is refused,
naming both. The mean input and output lengths are the file's own (vLLM's total_input_tokens /
completed). SGLang's server_info gives tensor, data, pipeline and expert parallelism, the version, the KV
format and speculative decoding; vLLM's spec_decode_* keys the tokens drafted a step and the acceptance
length. A line's 'framework' key (written by --metadata framework=...) names its engine.

How load was offered is the scenario: a finite request rate is 'server'; a fixed concurrency (vLLM's
max_concurrency with request_rate inf, GuideLLM's concurrent, genai-perf's concurrency) is
'sweep-point' with sweep.parameter concurrency; every request at once with no cap is 'offline';
GuideLLM's synchronous is 'single-stream'. --scenario overrides it.

What the file lacks comes from the options (--hardware with --count, --engine-version, --prefix-cache,
--weights, --kv-cache, --context, --speculative-method, --url; --repository, --commit and --file cite
a file read from a repository, --cite each further source, --notes the record's notes); an option the
file contradicts is refused, naming both. The engine is the one the file names (the client backend, the
framework, the stack's tool), else vLLM for vllm-bench. The id is --id, or the file's name with a digest
of the run's text, so the same run keeps its id. A record still missing hardware, engine version,
prefix-cache state or where it is published is a draft: those fields are left out with a TODO comment,
and 'registry check' names each until filled.

Importing again merges into the records already there: a field the source does not state (the hardware,
engine version, sources or notes a person filled into a draft), and the comments a person added, are
kept; a value the source states replaces the record's, and each one that changed is listed under its
record as 'POINTER: OLD -> NEW'. --force replaces each record with the source's own instead, discarding
whatever was added or edited by hand. Every record is checked with 'registry check''s own rules before
anything is written (a value the check would refuse stops the import, naming its place in the source),
and the records are written all or none: an error, a full disk or Ctrl-C leaves the registry as it was.

Bad input is located and nothing is written: JSON that does not parse (FILE:LINE:COLUMN), a file of
another tool (named: 'this is a GuideLLM benchmarks.json; use `registry import guidellm`'), a value of
the wrong type (its JSON pointer, e.g. FILE: /benchmarks/0/metrics).
"""

EPILOG = """\
examples:
  registry import mlperf data/mlperf-inference-v6.1/summary.csv
  registry import mlperf summary.csv --repository mlcommons/inference_results_v6.1 \\
      --commit 7bf15fd8089655a71fb75c81a744d7ba5a632424
  registry import mlperf summary.csv --results inference_results_v6.1

  registry import vllm-bench result.json --model models/llama-3.1-8b --hardware hardware/h100-sxm \\
      --count 1 --engine-version 0.11.0 --prefix-cache cold --url https://example.org/result.json
  registry import sglang-bench runs.jsonl --hardware hardware/b200 --count 8
  registry import guidellm benchmarks.json --hardware hardware/h100-sxm --count 1 --engine engines/vllm
  registry import inferencex agg_dsr1_fp8.json --url https://github.com/SemiAnalysisAI/InferenceX

exit codes: 0 every LLM row imported, 1 some rows could not be mapped (listed; the others are written),
2 could not run (a bad file, with FILE:LINE; nothing is written).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source",
        choices=SOURCES,
        metavar="SOURCE",
        help="the kind of file: " + ", ".join(SOURCES),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path, help="the files to import")
    parser.add_argument(
        "--repository",
        metavar="OWNER/NAME",
        help="the repository that publishes the files (mlperf default: README.md)",
    )
    parser.add_argument(
        "--commit", metavar="SHA", help="the commit the files were read at (mlperf default: README.md)"
    )
    parser.add_argument(
        "--file", metavar="PATH", help="the files' path in that repository (default: README.md)"
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace each record with the source's own, discarding fields, notes and comments added by "
        "hand (default: merge into the record on disk, keeping them)",
    )
    parser.add_argument(
        "--results",
        metavar="DIR",
        type=Path,
        help="mlperf: a results tree to read the runs' log summaries from",
    )
    parser.add_argument(
        "--results-repository",
        metavar="OWNER/NAME",
        help="mlperf: the repository of --results (default: its README.md)",
    )
    parser.add_argument(
        "--results-commit",
        metavar="SHA",
        help="mlperf: the commit --results was read at (default: its README.md)",
    )

    bench = parser.add_argument_group("the serving tools' files (every SOURCE but mlperf)")
    bench.add_argument(
        "--model", metavar="ID", help="the model record the runs served (default: the one the file names)"
    )
    bench.add_argument("--hardware", metavar="ID", help="the hardware record of the accelerators")
    bench.add_argument("--count", metavar="N", type=int, help="how many accelerators served the run")
    bench.add_argument("--engine", metavar="ID", help="the engine record (default: from the backend)")
    bench.add_argument("--engine-version", metavar="VERSION", help="the server's version")
    bench.add_argument("--weights", metavar="DTYPE", help="the weights' precision (bf16, fp8, ...)")
    bench.add_argument("--kv-cache", metavar="DTYPE", help="the KV cache's precision")
    bench.add_argument("--prefix-cache", choices=("none", "cold", "warm"), help="the prefix cache's state")
    bench.add_argument(
        "--scenario",
        choices=("offline", "server", "interactive", "single-stream", "multi-stream"),
        help="how load was offered (default: server with a finite request rate, else offline)",
    )
    bench.add_argument(
        "--context",
        metavar="N",
        type=int,
        help="the run's context length (default: none, as the file states none)",
    )
    bench.add_argument(
        "--id", metavar="ID", help="the record's id, for a single run (default: file and digest)"
    )
    bench.add_argument("--url", metavar="URL", help="where the result file is published")
    bench.add_argument(
        "--notes", metavar="MARKDOWN", help="the record's notes: what the file does not say, and its sources"
    )
    bench.add_argument(
        "--cite",
        metavar="'TITLE URL'",
        action="append",
        help="a further source of what the options say (a manifest, a datasheet); repeatable",
    )
    bench.add_argument(
        "--speculative-method",
        metavar="NAME",
        help="the speculative decoding method (eagle3, mtp, ngram, ...)",
    )


def run(args: argparse.Namespace) -> int:
    if args.source != "mlperf":
        return _run_bench(args)
    from registry.authoring.importers.mlperf import ResultsOptions, SourceOptions, import_mlperf  # lazy

    options = SourceOptions(args.repository, args.commit, args.file)
    results = (
        ResultsOptions(args.results, args.results_repository, args.results_commit) if args.results else None
    )
    result = import_mlperf(registry_root(args), list(args.files), options, results, force=args.force)
    records = len(result.new) + len(result.changed) + len(result.unchanged)
    llm = records + result.merged + len(result.unmapped)
    skipped = ", ".join(f"{model} {count}" for model, count in sorted(result.skipped.items()))
    lines = [
        f"read {result.rows} rows: {llm} LLM rows, {result.skipped.total()} skipped (not LLM: {skipped or 'none'})"
    ]
    if results:
        lines.append(f"run log summaries read under {results.folder}: {result.logs}")
        if result.no_log:
            lines.append(f"no run log found for {len(result.no_log)} LLM rows:")
            lines += [f"  {item.where}: {item.reason}" for item in result.no_log]
    if result.merged:
        lines.append(
            f"rows filing a run another row files under the stricter -99.9 benchmark (one record, "
            f"provenance.also_filed_as): {result.merged}"
        )
    if result.kept:
        lines.append(f"run log figures kept from an earlier import (no log read for the run): {result.kept}")
    lines.append(
        f"records: {len(result.new)} new, {len(result.changed)} changed, {len(result.unchanged)} unchanged"
    )
    lines += _written(result)
    if result.unmapped:
        lines.append(f"not imported, {len(result.unmapped)} LLM rows that cannot be mapped:")
        lines += [f"{item.where}: {item.reason}" for item in result.unmapped]
    sys.stdout.write("\n".join(map(terminal_safe, lines)) + "\n")
    return 1 if result.unmapped else 0


def _run_bench(args: argparse.Namespace) -> int:
    from registry.authoring.importers.imported import BenchOptions  # lazy
    from registry.authoring.importers.sources import import_source  # lazy

    if args.results:
        raise RegistryError("--results is a results tree of MLPerf runs; cite a run with --url")
    options = BenchOptions(
        model=args.model,
        hardware=args.hardware,
        count=args.count,
        engine=args.engine,
        engine_version=args.engine_version,
        weights=args.weights,
        kv_cache=args.kv_cache,
        prefix_cache=args.prefix_cache,
        scenario=args.scenario,
        context=args.context,
        record_id=args.id,
        url=args.url,
        speculative_method=args.speculative_method,
        repository=args.repository,
        commit=args.commit,
        file=args.file,
        notes=args.notes,
        cite=tuple(args.cite or ()),
    )
    result = import_source(registry_root(args), args.source, list(args.files), options, force=args.force)
    lines = [
        f"read {result.runs} runs: {len(result.new)} new, {len(result.changed)} changed, {len(result.unchanged)} unchanged"
    ]
    lines += _written(result)
    lines += ["model of each run:", *(f"  {line}" for line in result.models)] if result.models else []
    if result.unknown:
        lines.append("keys no importer of this tool knows (not read; named in each record's comment):")
        lines += [f"  {line}" for line in result.unknown]
    if result.drafts:
        lines.append(
            f"{len(result.drafts)} drafts: fill the fields their TODO comments name ('registry check' lists them)"
        )
    if result.unmapped:
        lines.append(f"not imported, {len(result.unmapped)} runs that cannot be mapped:")
        lines += [f"{item.where}: {item.reason}" for item in result.unmapped]
    sys.stdout.write("\n".join(map(terminal_safe, lines)) + "\n")
    return 1 if result.unmapped else 0


def _written(result: Written) -> list[str]:
    """The new and changed records, each changed one with the source values that changed."""
    lines = [f"  new      records/{record_id}.yaml" for record_id in result.new]
    for record_id in result.changed:
        lines.append(f"  changed  records/{record_id}.yaml")
        lines += [f"             {change}" for change in result.changes.get(record_id, [])]
    return lines
