"""Every key vLLM's and SGLang's serving benchmarks have written since 2024, and what each becomes.

The writers read (each file's history, at the commits named):

- vLLM ``benchmarks/benchmark_serving.py``: at 2024's generation the result holds
  ``request_inthroughput`` (sic) and ``input_throughput`` beside ``mean_``/``median_``/``p99_`` of
  ``ttft``, ``tpot`` and, in some releases, ``latency`` in ms; at 8668d7c05027b98ac66bd5540955dd2ce3a0f318
  ``request_throughput``, ``total_token_throughput``, ``best_of``, the per-request lists (``input_lens``,
  ``output_lens``, ``ttfts``, ``itls``, ``generated_texts``, ``errors``) and ``e2el`` statistics; at
  0049e29c41fd383bda519a3f250e3227713081ef ``burstiness``, ``max_concurrency`` and the goodput under the
  key ``request_goodput:`` (with its colon).
- vLLM ``vllm/benchmarks/serve.py`` (``vllm bench serve``) at 009e6d4a1cd6ba3fb2a9fc00f4ec06f5297232a1:
  ``endpoint_type``, ``label``, ``failed``, ``request_goodput``, ``max_output_tokens_per_s`` (the most
  output tokens whose arrival fell in one second), ``max_concurrent_requests`` (the most requests in
  flight at once), ``rtfx``, ``latencies``, ``start_times``, ``queue_times``, the ramp-up keys, the
  ``spec_decode_*`` counts read from the server's metrics before and after the run, ``diffusion_*``,
  ``probe_*``, client-queue statistics, and any ``--metadata KEY=VALUE`` pair as a key of its own (one
  such, ``framework``, says which engine served a line of an appended file).
- SGLang ``python/sglang/bench_serving.py`` at 0033168f0f58b2bc05aa0273bd475d9c01bafb1c and its
  successor ``python/sglang/benchmark/serving.py`` at 00f9ec472ffef82714c0407b842ccb5bd254d130: the
  dataset arguments, ``total_output_tokens_retokenized``, ``input_throughput``, ``total_throughput``,
  ``mean``/``median``/``std``/``p90``/``p95``/``p99`` of ``e2e_latency``, ``ttft``, ``tpot``, ``itl``,
  ``concurrency`` (the mean requests in flight: summed latencies over the duration), ``accept_length``
  (the server's ``avg_spec_accept_length``), ``tag``, ``server_info`` (the server's own arguments and
  version), ``total_input_text_tokens``/``total_input_vision_tokens``, ``max_output_tokens_per_s``,
  ``max_concurrent_requests`` and ``cache_report``.
"""

from __future__ import annotations

import re

LATENCY_KEY = re.compile(
    r"(mean|median|std|max|min|p[0-9]+(?:\.[0-9]+)?)_(ttft|tpot|itl|e2el|e2e_latency|latency)_ms"
)
"""A latency statistic as the writers name it: ``p99_ttft_ms``, ``median_e2el_ms`` (vLLM),
``mean_e2e_latency_ms`` (SGLang), ``mean_latency_ms`` (vLLM's 2024 request latency)."""
LATENCY_METRICS = {"ttft": "ttft", "tpot": "tpot", "itl": "itl", "e2el": "e2e_latency"}
LATENCY_METRICS |= {"e2e_latency": "e2e_latency", "latency": "e2e_latency"}
STATISTICS = {"mean": "mean", "median": "median", "max": "max", "min": "min", "p50": "median"}
STATISTICS |= {"p90": "p90", "p95": "p95", "p99": "p99", "p99.9": "p99.9"}
"""A file's statistic -> the record's; a standard deviation or another percentile is named, not stated."""

CLIENT_QUEUE = re.compile(r"(mean|median|std|p[0-9.]+)_(client_queue_time|e2el_including_client_queue)_ms")
PROBE = re.compile(r"probe_[a-z0-9_]+")
DIFFUSION = re.compile(r"diffusion_[a-z_]+")

SETUP = {
    "date": "when the run was made",
    "endpoint_type": "the client's endpoint",
    "backend": "the client backend (it names the engine)",
    "label": "a label",
    "model_id": "read as the model",
    "tokenizer_id": "the tokenizer",
    "best_of": "a sampling setting",
    "use_beam_search": "a sampling setting",
    "num_prompts": "the prompts asked for (completed is stated)",
    "request_rate": "read as the offered load",
    "burstiness": "the arrivals' gamma shape (1: Poisson)",
    "max_concurrency": "read as the concurrency cap",
    "ramp_up_strategy": "a rising request rate",
    "ramp_up_start_rps": "a rising request rate",
    "ramp_up_end_rps": "a rising request rate",
    "framework": "read as the engine of this line",
    "tag": "a label",
    "dataset_name": "read as the dataset",
    "sharegpt_output_len": "read as the dataset's lengths",
    "random_input_len": "read as the dataset's lengths",
    "random_output_len": "read as the dataset's lengths",
    "random_range_ratio": "read as the dataset's lengths",
    "server_info": "read as the server's description",
    "duration": "quoted in the workload",
    "completed": "read as the requests",
    "failed": "quoted in the workload",
    "total_input_tokens": "read as the mean input length",
    "total_output_tokens": "read as the mean output length",
    "total_input_text_tokens": "part of total_input_tokens",
    "total_input_vision_tokens": "part of total_input_tokens",
    "total_output_tokens_retokenized": "a recount of total_output_tokens",
    "concurrency": "quoted in the workload (the mean requests in flight)",
    "max_concurrent_requests": "quoted in the workload (the peak requests in flight)",
    "rtfx": "a speech-recognition figure",
    "cache_report": "the prefix cache's hits, quoted in the workload",
    "rps_change_events": "a rising request rate's steps",
}
"""Keys every generation may hold that are not figures the record states, with what the importer does."""

PER_REQUEST = frozenset(
    {"input_lens", "output_lens", "ttfts", "itls", "latencies", "start_times", "queue_times"}
    | {"generated_texts", "errors", "cached_tokens", "cached_tokens_details"}
)
"""Per-request lists (``--save-detailed``, ``--output-details``): the statistics over them are stated."""

SPECULATIVE = frozenset(
    {
        "spec_decode_acceptance_rate",
        "spec_decode_acceptance_length",
        "spec_decode_num_drafts",
        "spec_decode_draft_tokens",
        "spec_decode_accepted_tokens",
        "spec_decode_per_position_acceptance_rates",
        "accept_length",
    }
)

THROUGHPUTS = {
    "request_throughput": ("request_throughput", "req/s"),
    "request_inthroughput": ("request_throughput", "req/s"),
    "input_throughput": ("input_throughput", "tok/s"),
    "output_throughput": ("output_throughput", "tok/s"),
    "total_token_throughput": ("total_throughput", "tok/s"),
    "total_throughput": ("total_throughput", "tok/s"),
    "request_goodput": ("request_goodput", "req/s"),
    "request_goodput:": ("request_goodput", "req/s"),
}
"""Throughput keys -> (metric, unit), every one per system and a single figure (``value``)."""
PEAK_OUTPUT = "max_output_tokens_per_s"

ENGINES = {
    "sglang": "engines/sglang",
    "sgl": "engines/sglang",
    "vllm": "engines/vllm",
    "trt": "engines/tensorrt-llm",
    "trtllm": "engines/tensorrt-llm",
    "tensorrt-llm": "engines/tensorrt-llm",
    "llama.cpp": "engines/llama.cpp",
}
"""A ``framework`` value (written by ``--metadata framework=...``) -> the engine record it names."""

SGLANG_BACKENDS = {"sglang", "sglang-native", "sglang-oai", "sglang-oai-chat"}
VLLM_BACKENDS = {"vllm", "vllm-chat"}
SERVER_INFO = (
    "model_path",
    "tp_size",
    "dp_size",
    "pp_size",
    "ep_size",
    "version",
    "kv_cache_dtype",
    "speculative_algorithm",
    "speculative_num_steps",
    "speculative_num_draft_tokens",
    "speculative_draft_model_path",
    "disaggregation_mode",
)
"""What the import reads of SGLang's ``server_info``; the rest is the server's other arguments."""

KV_DTYPES = {"fp8_e4m3": "fp8_e4m3", "fp8_e5m2": "fp8_e5m2", "bf16": "bf16", "bfloat16": "bf16"}
KV_DTYPES |= {"fp16": "fp16", "float16": "fp16"}
"""SGLang's ``kv_cache_dtype`` -> the record's format; ``auto`` (the model's own) is not read."""
