"""The tables of the registry database: every column's name, SQL type and meaning, in one place.

This is the contract of ``registry db``: the loader builds its Arrow tables from these definitions, the
database gets them as ``CREATE TABLE`` statements, the Parquet export keeps them, and the site's table
reference is rendered from the same text, so the three cannot drift apart.

The types follow one rule, stated in :mod:`registry.db._columns`.
"""

from __future__ import annotations

from registry.db._columns import BYTES, BYTES_PER_TOKEN, TYPE_RULES, Column, Table, _c
from registry.db._tables_benchmarks import BENCHMARK_BOUNDS, BENCHMARK_METRICS, BENCHMARKS

__all__ = ["TABLES", "TYPE_RULES", "Column", "Table"]

RECORDS = Table(
    "records",
    "One row per record: the envelope every kind shares, and the whole validated record as JSON.",
    (
        _c("id", "VARCHAR", "The record id: its path under records/ without .yaml, e.g. models/deepseek-v3."),
        _c("kind", "VARCHAR", "model, kv-efficiency, benchmark, engine or hardware."),
        _c("path", "VARCHAR", "The file, relative to the registry root."),
        _c("title", "VARCHAR", "The record's title, as written."),
        _c("evidence", "VARCHAR", "architectural, measured, source-reported or derived."),
        _c("schema_version", "INTEGER", "The version of the record format."),
        _c("notes", "VARCHAR", "Markdown notes, as written (may contain [[id]] links)."),
        _c("methodology", "VARCHAR", "Markdown methodology, as written."),
        _c("tags", "VARCHAR[]", "Tags, in the record's order."),
        _c("related", "VARCHAR[]", "Ids of related records, in the record's order."),
        _c("source_count", "INTEGER", "How many sources the record cites."),
        _c(
            "sources",
            "JSON",
            "The cited sources: title, url and where in the source (section, table, file, revision, quote).",
        ),
        _c("errata", "JSON", "Corrections kept beside the record (date, field, old, new, reason)."),
        _c("record", "JSON", "Every field of the validated record; reach any of them with ->> '$.field'."),
    ),
)

MODELS = Table(
    "models",
    "One row per model record: identity, and the geometry columns queries filter on. Dimensions are read "
    "from the model's cache layout (its config through the adapter for its model_type, or its stated "
    "layer groups); a dimension that differs between layers is NULL here and listed per group in "
    "layer_groups.",
    (
        _c("id", "VARCHAR", "The model record's id."),
        _c("name", "VARCHAR", "The model's name."),
        _c("org", "VARCHAR", "The organisation that publishes it."),
        _c("family", "VARCHAR", "The model family, when stated."),
        _c("params_total_b", "DOUBLE", "Total parameters, billions, as stated."),
        _c("params_active_b", "DOUBLE", "Parameters active per token, billions, as stated."),
        _c("release_date", "DATE", "Release date, when stated."),
        _c("license", "VARCHAR", "Licence, when stated."),
        _c("max_context_tokens", "BIGINT", "The longest context the model supports, in tokens, when stated."),
        _c(
            "geometry",
            "VARCHAR",
            "Where the geometry comes from: config (a verbatim config.json) or layout (stated layer groups).",
        ),
        _c("model_type", "VARCHAR", "The config's model_type (NULL for a stated layout)."),
        _c("config_repository", "VARCHAR", "The repository the config was read from."),
        _c("config_revision", "VARCHAR", "The commit or tag the config was read at."),
        _c("num_layers", "BIGINT", "Layers in the main stack (multi-token-prediction layers not counted)."),
        _c("mtp_layers", "BIGINT", "Multi-token-prediction layers beside the stack."),
        _c(
            "num_attention_heads",
            "BIGINT",
            "Query heads (num_attention_heads in the config), when the config states it.",
        ),
        _c(
            "num_kv_heads",
            "BIGINT",
            "KV heads of the attention layers (full, sliding-window, chunked); NULL when they differ or "
            "there are none.",
        ),
        _c("head_dim", "BIGINT", "Key head size of the attention layers; NULL when it differs between them."),
        _c(
            "v_head_dim",
            "BIGINT",
            "Value head size of the attention layers; NULL when it differs between them.",
        ),
        _c("kv_lora_rank", "BIGINT", "MLA latent width (kv_lora_rank); NULL without MLA layers."),
        _c("qk_rope_head_dim", "BIGINT", "MLA decoupled RoPE key size; NULL without MLA layers."),
        _c(
            "sliding_window",
            "BIGINT",
            "Window of the sliding-window layers, in tokens; NULL when none or when they differ.",
        ),
        _c("attention_chunk", "BIGINT", "Chunk of the chunked-attention layers, in tokens; NULL when none."),
        _c("full_attention_layers", "BIGINT", "Layers with full attention (MHA, GQA or MQA)."),
        _c("sliding_window_layers", "BIGINT", "Layers with sliding-window attention."),
        _c("chunked_layers", "BIGINT", "Layers with chunked attention."),
        _c("mla_layers", "BIGINT", "Layers with multi-head latent attention."),
        _c(
            "recurrent_layers",
            "BIGINT",
            "Layers with recurrent or linear-attention state (fixed per sequence).",
        ),
        _c("compressed_layers", "BIGINT", "Layers with sequence-compressed attention."),
        _c("shared_layers", "BIGINT", "Layers that read another layer's cache."),
        _c("no_cache_layers", "BIGINT", "Layers that keep no cache."),
        _c("layout_error", "VARCHAR", "Why no layout could be derived (NULL when it could)."),
        _c("config", "JSON", "The verbatim config.json fields, when the record has them."),
    ),
)

LAYER_GROUPS = Table(
    "layer_groups",
    "One row per model, engine layout and layer group: which layers use which mechanism with which "
    "dimensions, whether the engine handles it, and what it costs at bf16.",
    (
        _c("model_id", "VARCHAR", "The model record's id."),
        _c(
            "layout",
            "VARCHAR",
            "The engine layout: ideal (the architectural minimum), vllm, sglang, trtllm, llama.cpp, transformers,"
            " transformers@4.",
        ),
        _c(
            "group_index",
            "INTEGER",
            "Position of the group in the layout, from 0; multi-token-prediction groups come last.",
        ),
        _c(
            "mechanism",
            "VARCHAR",
            "attention, sliding-window, chunked, mla, recurrent, compressed, shared or no-cache.",
        ),
        _c(
            "variant",
            "VARCHAR",
            "The mechanism's family when it has one (kda, gated-deltanet, mamba2, csa, ...).",
        ),
        _c("mtp", "BOOLEAN", "True for multi-token-prediction layers beside the main stack."),
        _c("layer_count", "BIGINT", "How many layers the group has."),
        _c("layers", "INTEGER[]", "The layers' indices, from 0."),
        _c(
            "num_kv_heads",
            "BIGINT",
            "KV heads (attention-family layers, or the K/V pair a compressed entry holds).",
        ),
        _c("head_dim", "BIGINT", "Key head size."),
        _c("v_head_dim", "BIGINT", "Value head size."),
        _c("window", "BIGINT", "Sliding window in tokens (also a compressed layer's local window)."),
        _c("chunk", "BIGINT", "Attention chunk in tokens."),
        _c("kv_lora_rank", "BIGINT", "MLA latent width (also a compressed layer's latent)."),
        _c("qk_rope_head_dim", "BIGINT", "MLA decoupled RoPE key size."),
        _c("compress_ratio", "BIGINT", "Tokens per entry of a sequence-compressed layer."),
        _c("index_head_dim", "BIGINT", "Key size of a sparse-attention indexer cache."),
        _c("supported", "BOOLEAN", "False when the engine layout does not handle this mechanism."),
        _c("unsupported_reason", "VARCHAR", "The engine's reason, when it does not handle the mechanism."),
        _c(
            "not_computable",
            "VARCHAR",
            "Which unknown dimension keeps the group's bytes from being computed.",
        ),
        _c(
            "kv_steady_state_bytes_per_token_bf16",
            BYTES_PER_TOKEN,
            "Bytes one more token adds across the group's layers, KV in bf16, once every window is full "
            "(0 for a window layer: its bytes per token at a context are in kv_at_context and runs).",
        ),
        _c(
            "fixed_bytes_bf16",
            BYTES,
            "Fixed per-sequence state of the group's layers at bf16 (recurrent layers), in bytes.",
        ),
    ),
)

RUNS = Table(
    "runs",
    "One row per kv-efficiency or benchmark record, in their shared run shape, so one filter on dtype, "
    "context or prefix-cache state covers both kinds; with the engine's bytes for the run's own settings.",
    (
        _c("id", "VARCHAR", "The record id."),
        _c("kind", "VARCHAR", "kv-efficiency or benchmark."),
        _c("title", "VARCHAR", "The record's title."),
        _c("evidence", "VARCHAR", "architectural, measured, source-reported or derived."),
        _c("model_id", "VARCHAR", "The model record the run is about."),
        _c("engine_id", "VARCHAR", "The engine record, when stated."),
        _c("engine_version", "VARCHAR", "The engine version, as written."),
        _c(
            "layout",
            "VARCHAR",
            "The engine layout the numbers assume, as written (vllm, sglang@0.5.7, ideal, ...).",
        ),
        _c(
            "engine_layout",
            "VARCHAR",
            "The layout the computed columns use: layout itself when the formula engine has rules for it "
            "as written, else NULL.",
        ),
        _c("hardware_id", "VARCHAR", "The hardware record, when stated."),
        _c("hardware_count", "INTEGER", "How many units of that hardware."),
        _c("weights_dtype", "VARCHAR", "Weight precision."),
        _c("kv_dtype", "VARCHAR", "KV-cache precision."),
        _c("state_dtype", "VARCHAR", "Recurrent-state precision, when stated."),
        _c(
            "context_tokens",
            "BIGINT",
            "The context length in tokens (128K = 131,072); NULL for a benchmark whose source states none.",
        ),
        _c("context_written", "VARCHAR", "The context length as written in the record (NULL when none)."),
        _c("batch", "BIGINT", "Sequences in the batch."),
        _c("prefix_cache", "VARCHAR", "Prefix-cache state: none, cold or warm."),
        _c("workload", "VARCHAR", "The workload's description."),
        _c("input_tokens", "BIGINT", "Input tokens per request."),
        _c("output_tokens", "BIGINT", "Output tokens per request."),
        _c("requests", "BIGINT", "Requests in the run."),
        _c("concurrency", "BIGINT", "Requests in flight."),
        _c("dataset", "VARCHAR", "The dataset, when named."),
        _c(
            "measured_ttft",
            "VARCHAR",
            "Time to first token, as written: a kv-efficiency record's measured_ttft; for a benchmark, "
            "its first ttft metric per request of statistic value, else mean, else median (never a "
            "percentile; every figure is in benchmark_metrics).",
        ),
        _c("measured_ttft_s", "DOUBLE", "Time to first token, seconds."),
        _c(
            "measured_tpot",
            "VARCHAR",
            "Time per output token, as written (for a benchmark: its tpot metric per request, chosen as "
            "for measured_ttft).",
        ),
        _c("measured_tpot_s", "DOUBLE", "Time per output token, seconds."),
        _c(
            "measured_throughput",
            "VARCHAR",
            "Output throughput, as written (for a benchmark: its output_throughput metric per system, "
            "chosen as for measured_ttft).",
        ),
        _c("measured_throughput_tok_s", "DOUBLE", "Output throughput, tokens per second."),
        _c(
            "measured_memory",
            "VARCHAR",
            "Observed memory, as written (for a benchmark: its memory metric per system, chosen as for "
            "measured_ttft).",
        ),
        _c("measured_memory_bytes", BYTES, "Observed cache memory in bytes (rounded to the byte)."),
        _c(
            "kv_bytes_per_token",
            BYTES_PER_TOKEN,
            "The engine's bytes one more token adds at the run's context, for its model, layout and KV "
            "dtype (a sliding window not yet full at that context adds its entry).",
        ),
        _c(
            "kv_steady_state_bytes_per_token",
            BYTES_PER_TOKEN,
            "The engine's bytes one more token adds once every window is full.",
        ),
        _c("total_bytes", BYTES, "The engine's cache bytes at the run's context and batch."),
        _c("growing_bytes", BYTES, "Part of total_bytes that grows with every token."),
        _c("window_bytes", BYTES, "Part of total_bytes bounded by sliding windows or chunks."),
        _c("fixed_bytes", BYTES, "Part of total_bytes that is fixed per sequence (recurrent state)."),
        _c("not_computable", "VARCHAR", "Why the engine gives no bytes for this run (NULL when it does)."),
        _c("claim_count", "INTEGER", "How many claims the record states."),
    ),
)

CLAIMS = Table(
    "claims",
    "One row per claim of a kv-efficiency or benchmark record: the number a person stated, the "
    "engine's number for the same quantity, their difference, the verdict and, when they disagree, the "
    "known misapplication that explains the stated number.",
    (
        _c("run_id", "VARCHAR", "The record that states the claim."),
        _c("claim_index", "INTEGER", "Position in the record's claims, from 0."),
        _c("quantity", "VARCHAR", "bytes_per_token, bytes_per_sequence, bytes_total, fixed_bytes or ratio."),
        _c("variant", "VARCHAR", "What the number describes: actual, mha-equivalent, naive-gqa, ..."),
        _c("versus", "VARCHAR", "For a ratio, the variant it compares with."),
        _c(
            "context_tokens",
            "BIGINT",
            "The context the claim is about (the run's unless the claim overrides it).",
        ),
        _c(
            "kv_dtype",
            "VARCHAR",
            "The KV precision the claim is about (the run's unless the claim overrides it).",
        ),
        _c("stated", "VARCHAR", "The value as written, e.g. '70,272 B' or '~8.6 GiB'."),
        _c("stated_value", BYTES_PER_TOKEN, "The stated value in its base unit (bytes, or a plain ratio)."),
        _c("stated_unit", "VARCHAR", "The unit it was written in (B, KiB, GB, x, ...)."),
        _c(
            "engine_value",
            BYTES_PER_TOKEN,
            "The engine's value for the same quantity (NULL when not computable).",
        ),
        _c("difference", BYTES_PER_TOKEN, "stated_value - engine_value."),
        _c("relative_difference", "DOUBLE", "difference / engine_value, for display."),
        _c("verdict", "VARCHAR", "The check's verdict on the claim."),
        _c(
            "misapplication",
            "VARCHAR",
            "The known wrong formula that explains a disagreeing stated value, when one does.",
        ),
        _c("message", "VARCHAR", "The check's explanation."),
        _c("formula", "VARCHAR", "The author's own formula, as written."),
        _c("basis", "VARCHAR", "The author's account of the number."),
    ),
)

KV_AT_CONTEXT = Table(
    "kv_at_context",
    "One row per model, engine layout, KV dtype and context on the standard ladder (4K, 32K, 128K, 1M): "
    "the engine's cache bytes for one sequence. Recurrent state is in the engine's default state dtype; "
    "multi-token-prediction layers are left out.",
    (
        _c("model_id", "VARCHAR", "The model record's id."),
        _c("layout", "VARCHAR", "The engine layout."),
        _c("kv_dtype", "VARCHAR", "The KV-cache format."),
        _c("context", "VARCHAR", "The ladder step: 4K, 32K, 128K or 1M."),
        _c("context_tokens", "BIGINT", "The context in tokens (4K = 4,096; 1M = 1,048,576)."),
        _c(
            "within_max_context",
            "BOOLEAN",
            "Whether the model supports this context (NULL when its maximum is not stated).",
        ),
        _c(
            "computable",
            "BOOLEAN",
            "False when the engine gives no number (unsupported mechanism or dtype, unknown dimension).",
        ),
        _c(
            "kv_bytes_per_token",
            BYTES_PER_TOKEN,
            "Bytes one more token adds at this context (a sliding window not yet full adds its entry): "
            "what orders caches by their cost per token.",
        ),
        _c(
            "kv_steady_state_bytes_per_token",
            BYTES_PER_TOKEN,
            "Bytes one more token adds once every window is full.",
        ),
        _c("total_bytes", BYTES, "The whole cache of one sequence at the context."),
        _c("growing_bytes", BYTES, "Part that grows with every token."),
        _c("window_bytes", BYTES, "Part bounded by sliding windows or chunks."),
        _c("fixed_bytes", BYTES, "Part fixed per sequence (recurrent state)."),
        _c("total_gib", "DOUBLE", "total_bytes / 2^30, for display."),
        _c("not_computable", "VARCHAR", "Why there is no number (NULL when computable)."),
    ),
)

ENGINES = Table(
    "engines",
    "One row per engine record, with one column per capability (NULL when no source says either way).",
    (
        _c("id", "VARCHAR", "The engine record's id."),
        _c("name", "VARCHAR", "The engine's name."),
        _c("repository", "VARCHAR", "Its source repository."),
        _c("version", "VARCHAR", "The release the capabilities were read at."),
        _c("layout", "VARCHAR", "The formula engine's layout for it, if any."),
        _c("mla_decode", "BOOLEAN", "Has an MLA decode path."),
        _c("fp8_kv", "BOOLEAN", "Stores the KV cache in fp8."),
        _c("sliding_window", "BOOLEAN", "Frees tokens that fall out of a sliding window."),
        _c("hybrid_state", "BOOLEAN", "Keeps recurrent state beside attention KV."),
        _c("prefix_caching", "BOOLEAN", "Reuses cached prefixes across requests."),
        _c("paged_kv", "BOOLEAN", "Allocates the cache in pages or blocks."),
        _c("quantized_kv", "BOOLEAN", "Stores the KV cache in formats below 8 bits or with scales."),
        _c("capabilities", "JSON", "Every capability with its detail, version and source."),
    ),
)

HARDWARE = Table(
    "hardware",
    "One row per hardware record, memory in exact bytes (GB is 10^9 bytes, GiB 2^30).",
    (
        _c("id", "VARCHAR", "The hardware record's id."),
        _c("name", "VARCHAR", "The accelerator or system."),
        _c("vendor", "VARCHAR", "Its vendor."),
        _c("devices", "INTEGER", "Accelerators in one unit of this record."),
        _c("memory_per_device", "VARCHAR", "Memory per device as the datasheet writes it."),
        _c("memory_per_device_bytes", BYTES, "Memory per device in bytes."),
        _c("total_memory_bytes", BYTES, "devices x memory_per_device_bytes."),
        _c("bandwidth_per_device", "VARCHAR", "Memory bandwidth per device as written."),
        _c("bandwidth_per_device_bytes_per_s", BYTES, "Memory bandwidth per device in bytes per second."),
    ),
)

LINKS = Table(
    "links",
    "One row per reference from one record to another: the model, engine and hardware a run names, "
    "related ids, and [[id]] links in Markdown.",
    (
        _c("from_id", "VARCHAR", "The record that refers."),
        _c("to_id", "VARCHAR", "The record referred to."),
        _c("kind", "VARCHAR", "model, engine, hardware, related or mention (an [[id]] link)."),
        _c(
            "field",
            "VARCHAR",
            "The field that holds it: model, engine, hardware, related, notes or methodology.",
        ),
    ),
)

METADATA = Table(
    "metadata",
    "How the file was built: the content fingerprint of the records and the tool, and the versions.",
    (
        _c("key", "VARCHAR", "fingerprint, tool_version, format_version, records or duckdb_version."),
        _c("value", "VARCHAR", "Its value."),
    ),
)

TABLES: tuple[Table, ...] = (
    RECORDS,
    MODELS,
    LAYER_GROUPS,
    RUNS,
    CLAIMS,
    BENCHMARKS,
    BENCHMARK_METRICS,
    BENCHMARK_BOUNDS,
    KV_AT_CONTEXT,
    ENGINES,
    HARDWARE,
    LINKS,
    METADATA,
)
"""Every table of the database, in documentation order."""
