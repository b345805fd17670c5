"""The benchmark tables of the registry database: ``benchmarks`` (one row per benchmark record: its run,
scenario, system, precisions, workload and provenance) and ``benchmark_metrics`` (one row per metric,
its value in SI units and per accelerator). Kept beside :mod:`registry.db._tables`, which lists them in
its ``TABLES``."""

from __future__ import annotations

from registry.db._columns import Table, _c

BENCHMARKS = Table(
    "benchmarks",
    "One row per benchmark record: the run (model, engine, hardware, accelerators), the scenario and "
    "sweep point, the system, the precisions, the workload and the provenance. Its figures are in "
    "benchmark_metrics.",
    (
        _c("id", "VARCHAR", "The benchmark record's id."),
        _c("title", "VARCHAR", "The record's title."),
        _c("evidence", "VARCHAR", "measured, source-reported, ..."),
        _c("model_id", "VARCHAR", "The model record."),
        _c("engine_id", "VARCHAR", "The engine record, when stated."),
        _c("engine_version", "VARCHAR", "The engine version, as written."),
        _c("layout", "VARCHAR", "The engine layout, as written."),
        _c(
            "hardware_id",
            "VARCHAR",
            "The hardware record; NULL for a system that mixes parts (see system_accelerators).",
        ),
        _c(
            "hardware_count",
            "INTEGER",
            "Units of the hardware record the run used, as stated (accelerators for a per-device record).",
        ),
        _c(
            "accelerators",
            "INTEGER",
            "Accelerators in the run: hardware_count, else the sum of a mixed system's parts (NULL when unknown).",
        ),
        _c(
            "scenario", "VARCHAR", "offline, server, interactive, single-stream, multi-stream or sweep-point."
        ),
        _c("sweep_parameter", "VARCHAR", "For a sweep point: request_rate or concurrency."),
        _c("sweep_value", "DOUBLE", "For a sweep point: requests per second, or sequences in flight."),
        _c("system_name", "VARCHAR", "The submitter's system name."),
        _c("nodes", "INTEGER", "Nodes in the system."),
        _c("accelerators_per_node", "INTEGER", "Accelerators per node."),
        _c("system_accelerators", "JSON", "A mixed system's parts: [{hardware, count}]."),
        _c("host_processor", "VARCHAR", "The host processor, as written."),
        _c("tensor_parallel", "INTEGER", "Tensor-parallel degree."),
        _c("pipeline_parallel", "INTEGER", "Pipeline-parallel degree."),
        _c("expert_parallel", "INTEGER", "Expert-parallel degree."),
        _c("data_parallel", "INTEGER", "Data-parallel degree."),
        _c(
            "prefill_accelerators",
            "INTEGER",
            "With prefill/decode disaggregation: accelerators serving prefill.",
        ),
        _c(
            "decode_accelerators",
            "INTEGER",
            "With prefill/decode disaggregation: accelerators serving decode.",
        ),
        _c("speculative_method", "VARCHAR", "The speculative decoding method, when used."),
        _c("speculative_draft_tokens", "INTEGER", "Tokens drafted per step."),
        _c("speculative_draft_model", "VARCHAR", "The draft model, as written."),
        _c("weights_dtype", "VARCHAR", "The main weight format (NULL when the source lists several)."),
        _c("weight_formats", "VARCHAR[]", "Every weight format the source lists, as it lists them."),
        _c("activations_dtype", "VARCHAR", "Activation format."),
        _c("kv_dtype", "VARCHAR", "KV-cache format (NULL when the source does not say)."),
        _c("state_dtype", "VARCHAR", "Recurrent-state format."),
        _c("context_tokens", "BIGINT", "The context length in tokens (NULL when the source states none)."),
        _c("batch", "BIGINT", "Sequences in the batch."),
        _c("prefix_cache", "VARCHAR", "none, cold or warm."),
        _c("dataset", "VARCHAR", "The dataset, as named."),
        _c(
            "input_tokens",
            "BIGINT",
            "Input tokens per request (the mean with lengths = mean, the cap with max).",
        ),
        _c("output_tokens", "BIGINT", "Output tokens per request (as input_tokens)."),
        _c("lengths", "VARCHAR", "fixed, mean or max: what input_tokens and output_tokens are."),
        _c("max_output_tokens", "BIGINT", "The most output tokens the benchmark lets a request generate."),
        _c("distribution", "VARCHAR", "How lengths vary, as the source says."),
        _c("requests", "BIGINT", "Requests in the run."),
        _c("request_rate", "VARCHAR", "The offered load, as written."),
        _c("request_rate_per_s", "DOUBLE", "The offered load, requests per second."),
        _c("concurrency", "BIGINT", "Requests in flight."),
        _c("workload", "VARCHAR", "The workload's description."),
        _c("metric_count", "INTEGER", "How many metrics the record states."),
        _c("accuracy", "JSON", "Accuracy results: [{metric, value, target, target_value, passed}]."),
        _c(
            "source",
            "VARCHAR",
            "Where the result was read: mlperf, vllm-bench, sglang-bench, guidellm, genai-perf, aiperf, "
            "inference-perf, llm-d, inferencex, or manual for a hand-written record.",
        ),
        _c("source_repository", "VARCHAR", "The source repository (owner/name)."),
        _c("source_file", "VARCHAR", "The file inside it."),
        _c("source_commit", "VARCHAR", "The commit it was read at."),
        _c("source_row", "BIGINT", "The 1-based data row of a table (the header not counted)."),
        _c("source_run_path", "VARCHAR", "The run's folder in the source."),
        _c(
            "source_benchmark",
            "VARCHAR",
            "The benchmark as the source names it (MLPerf's llama2-70b-99 and llama2-70b-99.9 differ).",
        ),
        _c("mlperf_round", "VARCHAR", "MLPerf round (v6.1, ...)."),
        _c("mlperf_division", "VARCHAR", "MLPerf division: closed or open."),
        _c("mlperf_availability", "VARCHAR", "MLPerf availability: available, preview or rdi."),
        _c("submitter", "VARCHAR", "The submitter."),
        _c("valid", "BOOLEAN", "The run log's verdict: true VALID, false INVALID, NULL when not read."),
    ),
)

BENCHMARK_METRICS = Table(
    "benchmark_metrics",
    "One row per metric of a benchmark record: what was measured, the statistic, per what, the figure "
    "as written and in SI units, per accelerator where that follows, and the latency targets it had to "
    "meet.",
    (
        _c("benchmark_id", "VARCHAR", "The benchmark record."),
        _c("position", "INTEGER", "Position in the record's metrics, from 0."),
        _c(
            "metric",
            "VARCHAR",
            "ttft, tpot, itl, e2e_latency, output_throughput, input_throughput, total_throughput, goodput, "
            "request_goodput, "
            "request_throughput, sample_throughput, query_throughput, accuracy, power, energy_per_token or memory.",
        ),
        _c(
            "statistic", "VARCHAR", "mean, median, p90, p95, p99, p99.9, max, min or value (a single figure)."
        ),
        _c("per", "VARCHAR", "system, accelerator or request."),
        _c("stated", "VARCHAR", "The figure as written, e.g. '36,384.0838 tok/s'."),
        _c(
            "value",
            "DOUBLE",
            "The figure in SI units: seconds, tokens/s, requests/s, W, J/token, bytes, or a ratio "
            "(accuracy: a bare score as written).",
        ),
        _c(
            "unit",
            "VARCHAR",
            "The SI unit of value: s, tokens/s, requests/s, W, J/token, B, ratio or number.",
        ),
        _c(
            "value_per_accelerator",
            "DOUBLE",
            "value / accelerators when per = system and the count is known (throughput, power, memory); "
            "value itself when per = accelerator; NULL otherwise (per request, or no count).",
        ),
        _c("accelerators", "INTEGER", "The run's accelerators (benchmarks.accelerators), for the division."),
        _c("constraints", "JSON", "The latency targets imposed on the figure: [{metric, statistic, limit}]."),
    ),
)

BENCHMARK_BOUNDS = Table(
    "benchmark_bounds",
    "One row per bound on a benchmark figure (compute roof, memory-bandwidth roof or floor, prefill "
    "floor, consistency between figures) and one per benchmark's memory fit: the bound in SI units, its "
    "inputs and derivation, and the fraction of it the figure reaches (reached x 100 is the % of "
    "roofline); a bound that cannot be computed has a NULL bound and says why in reason.",
    (
        _c("benchmark_id", "VARCHAR", "The benchmark record."),
        _c(
            "position",
            "INTEGER",
            "The bounded figure's position in the record's metrics (benchmark_metrics.position); NULL for "
            "the memory fit.",
        ),
        _c(
            "bound",
            "VARCHAR",
            "compute-roof, bandwidth-roof, decode-roof, prefill-floor, consistency or memory-fit.",
        ),
        _c("metric", "VARCHAR", "The bounded figure's metric (NULL for the memory fit)."),
        _c("statistic", "VARCHAR", "The bounded figure's statistic."),
        _c("per", "VARCHAR", "The bounded figure's per: system, accelerator or request."),
        _c("side", "VARCHAR", "ceiling (a most), floor (a least) or equal (a relation between figures)."),
        _c(
            "stated", "VARCHAR", "The figure as written (for the memory fit: the least memory the run needs)."
        ),
        _c("value", "DOUBLE", "The figure in SI units (unit)."),
        _c("bound_value", "DOUBLE", "The bound in the same unit; NULL when it cannot be computed."),
        _c("unit", "VARCHAR", "tokens/s, requests/s, s or B."),
        _c(
            "reached",
            "DOUBLE",
            "The fraction of the bound the figure reaches: the figure over a ceiling, a floor over the "
            "figure, the figure over what a relation expects. At most 1 for a plausible figure (x 100: the "
            "% of roofline).",
        ),
        _c("tolerance", "DOUBLE", "How far past the bound a figure may go before the check flags it."),
        _c("exceeded", "BOOLEAN", "The figure breaks the bound by more than its tolerance (a finding)."),
        _c("slip", "VARCHAR", "For a broken bound: the likeliest slip that makes the figure fit, if any."),
        _c("reason", "VARCHAR", "Why the bound cannot be computed (NULL when it can)."),
        _c(
            "description",
            "VARCHAR",
            "The bound in words, e.g. 'the compute roof of 8 x NVIDIA B200 at fp4 ...'.",
        ),
        _c("inputs", "JSON", "The bound's inputs by name, as its derivation writes them."),
        _c("derivation", "VARCHAR[]", "The derivation, line by line, as 'registry explain' prints it."),
    ),
)
