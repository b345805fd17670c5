"""The site's database pages, rendered from the code and the data so they cannot drift.

- :func:`render_tables_page`: every table and column with its type and meaning, from
  :data:`registry.db.TABLES` (the same definitions the database is built from);
- :func:`render_querying_page`: worked queries, each run at build time against the registry's database,
  with the answer it really gives.

Both return plain Markdown. An answer holds record text (a hardware record's name, an engine's version),
so it is written as an HTML table, every cell escaped, as the record pages are: in a Markdown table a
cell's text would still be read as Markdown, links and images included.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from registry.db import TABLES, TYPE_RULES, QueryResult, ensure_database, markdown_cell, run_queries, text
from registry.site._html import block
from registry.site._html import table as html_table


@dataclass(frozen=True)
class Example:
    """One worked query: the question it answers, a note on reading the answer, and the SQL."""

    question: str
    note: str
    sql: str


EXAMPLES: tuple[Example, ...] = (
    Example(
        "Which models need under 10 GiB of KV cache at 128K tokens in bf16?",
        "The architectural minimum (`ideal`) for one sequence; `total_bytes` is exact, `total_gib` is "
        "for reading.",
        """SELECT model_id, kv_bytes_per_token, total_bytes, round(total_gib, 2) AS total_gib
FROM kv_at_context
WHERE layout = 'ideal' AND kv_dtype = 'bf16' AND context = '128K'
  AND total_bytes < 10 * 2^30
ORDER BY total_bytes""",
    ),
    Example(
        "Which caches cost the most per token at 128K?",
        "`kv_bytes_per_token` is what one more token adds at that context: a sliding window that is not "
        "full yet still adds its entry (Phi-3.5-mini's 262,144-token window is longer than its "
        "131,072-token maximum). `kv_steady_state_bytes_per_token` is what a token adds once every "
        "window is full.",
        """SELECT model_id, kv_bytes_per_token, kv_steady_state_bytes_per_token,
       round(total_gib, 2) AS total_gib
FROM kv_at_context
WHERE layout = 'ideal' AND kv_dtype = 'bf16' AND context = '128K' AND computable
ORDER BY kv_bytes_per_token DESC, model_id""",
    ),
    Example(
        "Which runs keep their KV cache in fp8, and what was their prefix cache?",
        "`runs` holds kv-efficiency and benchmark records in one shape, so one filter covers both kinds.",
        """SELECT id, kind, kv_dtype, prefix_cache, context_tokens, batch, measured_ttft_s
FROM runs
WHERE kv_dtype LIKE 'fp8%'
ORDER BY id""",
    ),
    Example(
        "What did each benchmark measure, in SI units and per accelerator?",
        "`benchmark_metrics` holds one row per figure: the statistic, per what, the figure as written and "
        "in SI units; a system's throughput, power or memory is also divided by its accelerators.",
        """SELECT b.id, b.hardware_id, b.accelerators, m.metric, m.statistic, m.per, m.stated,
       m.value, m.unit, m.value_per_accelerator
FROM benchmarks AS b JOIN benchmark_metrics AS m ON m.benchmark_id = b.id
ORDER BY b.id, m.position""",
    ),
    Example(
        "How close does each result come to what its hardware allows (% of roofline)?",
        "`benchmark_bounds` holds one row per bound on a figure: the compute roof, the memory-bandwidth "
        "roof or floor, the prefill floor, the consistency between figures, and the memory fit. "
        "`reached` is the fraction of the bound the figure attains (x 100: the % of roofline); a bound "
        "that cannot be computed has a NULL `bound_value` and its `reason`.",
        """SELECT benchmark_id, bound, metric, per, stated, bound_value, unit,
       round(100 * reached, 2) AS pct_of_roofline, exceeded, reason
FROM benchmark_bounds
WHERE bound <> 'consistency'
ORDER BY reached DESC NULLS LAST, benchmark_id""",
    ),
    Example(
        "How does one model's cache differ between engines?",
        "The same model at 128K under each engine layout: block rounding, padding, and whether the "
        "engine caches the MLA latent or expanded per-head K and V. NULL means no number, and "
        "`not_computable` says why.",
        """SELECT layout, kv_bytes_per_token, total_bytes, round(total_gib, 2) AS total_gib
FROM kv_at_context
WHERE model_id = 'models/deepseek-v3' AND kv_dtype = 'bf16' AND context = '128K'
ORDER BY layout""",
    ),
    Example(
        "Which models mix cache mechanisms?",
        "Layer counts per mechanism from `models`: every model with more than one kind of layer.",
        """SELECT id, num_layers, full_attention_layers, sliding_window_layers, chunked_layers,
       mla_layers, recurrent_layers, compressed_layers
FROM models
WHERE (full_attention_layers > 0)::INT + (sliding_window_layers > 0)::INT + (chunked_layers > 0)::INT
    + (mla_layers > 0)::INT + (recurrent_layers > 0)::INT + (compressed_layers > 0)::INT > 1
ORDER BY id""",
    ),
    Example(
        "How does each part of the cache grow from 4K to 1M tokens?",
        "The growing part scales with the context, the window part stops at the window, the fixed part "
        "(recurrent state) never moves.",
        """SELECT model_id, context, growing_bytes, window_bytes, fixed_bytes, total_bytes
FROM kv_at_context
WHERE layout = 'vllm' AND kv_dtype = 'bf16'
  AND model_id IN ('models/gemma-2-9b', 'models/qwen3-next-80b-a3b')
ORDER BY model_id, context_tokens""",
    ),
    Example(
        "Does every stated number follow from the geometry?",
        "Each claim beside the engine's value for the same quantity; a disagreement names the known "
        "misapplication that explains it.",
        """SELECT run_id, claim_index, quantity, variant, stated, engine_value, verdict, misapplication
FROM claims
ORDER BY run_id, claim_index""",
    ),
    Example(
        "How many 128K-token sequences fit in one accelerator's memory, KV cache only?",
        "A cross join of hardware and kv_at_context; weights and activations are left out, so this is an "
        "upper bound.",
        """SELECT h.name AS hardware, k.model_id,
       CAST(floor(h.memory_per_device_bytes / k.total_bytes) AS BIGINT) AS sequences
FROM hardware AS h, kv_at_context AS k
WHERE k.layout = 'vllm' AND k.kv_dtype = 'fp8' AND k.context = '128K' AND k.computable
  AND k.model_id IN ('models/deepseek-v3', 'models/llama-3.1-70b')
ORDER BY hardware, k.model_id""",
    ),
    Example(
        "Which engines handle which cache mechanisms?",
        "One column per capability; NULL where no source says either way.",
        """SELECT name, version, mla_decode, fp8_kv, sliding_window, hybrid_state, prefix_caching, paged_kv
FROM engines
ORDER BY name""",
    ),
    Example(
        "Which records are referred to most?",
        "`links` holds the model, engine and hardware a run names, `related` ids and `[[id]]` mentions.",
        """SELECT to_id, count(*) AS links, count(DISTINCT from_id) AS from_records
FROM links
GROUP BY to_id
ORDER BY links DESC, to_id
LIMIT 8""",
    ),
    Example(
        "Where can an engine layout not give a number, and why?",
        "Unsupported mechanisms and unknown dimensions are reported, never estimated.",
        """SELECT model_id, layout, mechanism, layer_count,
       coalesce(unsupported_reason, not_computable) AS why
FROM layer_groups
WHERE NOT supported OR not_computable IS NOT NULL
ORDER BY model_id, layout, group_index
LIMIT 10""",
    ),
)
"""The Querying page's examples, in page order."""

_INTRO = """\
# Querying

The checked records and the formula engine's bytes for every model, engine layout and KV format are
in one DuckDB file. Build it and ask it anything in SQL:

```console
$ registry db
$ registry query "SELECT id, num_layers, num_kv_heads FROM models ORDER BY id" --format markdown
```

`registry query` rebuilds the file first whenever a record (or the tool) changed since it was built,
and opens it read-only, reaching no other file: `COPY ... TO`, `read_csv()` and `ATTACH` are refused and
no extension is installed or loaded. To join your own files, opt in with `--allow-files` (it still
installs nothing):

```console
$ registry query --allow-files "SELECT m.id, p.price FROM models AS m JOIN read_csv('prices.csv') AS p ON p.model = m.id"
```

The answer is written as it is read; the `table` format shows the first 1,000 rows and says when
there were more. `--format` is `table`, `csv`, `json` or `markdown`. `registry export --parquet
DIR` writes one Parquet file per table for DuckDB on object storage, Spark, Trino or pandas. The
tables and their columns are listed on the [database reference](reference/database.md).

Each query below ran against the registry when this page was built; the tables are its real output.
"""


def _downloads(prefix: str) -> str:
    files = ", ".join(f"[{t.name}.parquet]({prefix}/parquet/{t.name}.parquet)" for t in TABLES)
    return (
        "## Downloads\n\n"
        f"The database as one file: [registry.duckdb]({prefix}/registry.duckdb). Every table as Parquet: "
        f"{files}.\n"
    )


def render_querying_page(
    root: Path, database: Path | None = None, downloads: str | None = None, *, current: bool = False
) -> str:
    """The Querying page: each example's SQL and the answer it gives on the registry at ``root``.

    The database is built first when missing or stale (``database`` defaults to
    ``build/registry.duckdb``), unless the caller says it is ``current`` (it has just made sure, and
    hashing every record file again would cost more than all the queries); ``downloads`` is the site
    path the database and Parquet files are published under, when they are.
    """
    path = database if current and database is not None else ensure_database(root, database)[0]
    parts = [_INTRO]
    if downloads is not None:
        parts.append(_downloads(downloads.rstrip("/")))
    results = run_queries(path, [example.sql for example in EXAMPLES], keep=SHOWN_ROWS)
    for example, result in zip(EXAMPLES, results, strict=True):
        answer = _answer_table(result) if result.rows else "*No rows.*\n"
        count = result.total or 0
        total = f"*{count:,} row{'s' if count != 1 else ''}"
        if count > SHOWN_ROWS:
            total += f"; the first {SHOWN_ROWS} shown, `registry query` gives them all"
        parts.append(
            f"## {example.question}\n\n{example.note}\n\n```sql\n{example.sql}\n```\n\n{answer}\n{total}.*\n"
        )
    return "\n".join(parts)


def _answer_table(result: QueryResult) -> str:
    """A query's answer as an HTML table, every cell escaped; columns of numbers aligned right."""
    numeric = [
        i
        for i in range(len(result.columns))
        if all(
            isinstance(row[i], int | float | Decimal) and not isinstance(row[i], bool) for row in result.rows
        )
    ]
    rows = [[text(value) for value in row] for row in result.rows]
    return block(html_table(result.columns, rows, numeric=numeric))


SHOWN_ROWS = 25
"""Rows of each answer printed on the page: enough to read the answer's shape; the whole answer of a
query over every model or claim would be a page of thousands of rows on a large registry."""


def render_tables_page() -> str:
    """The database reference: every table, what one row is, and every column with its type."""
    parts = [
        "# Database tables\n",
        "`registry db` builds these tables in `build/registry.duckdb`; `registry export --parquet DIR` "
        "writes each as `<table>.parquet` with the same columns and types. Examples are on the "
        "[Querying](../querying.md) page.\n",
        TYPE_RULES,
    ]
    for table in TABLES:
        rows = "\n".join(
            f"| `{column.name}` | `{column.sql}` | {markdown_cell(column.doc)} |" for column in table.columns
        )
        header = "| column | type | meaning |\n| --- | --- | --- |"
        parts.append(f"## `{table.name}`\n\n{table.doc}\n\n{header}\n{rows}\n")
    return "\n".join(parts)
