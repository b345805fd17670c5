"""The database of the real records/ tree, and the site pages generated from it.

Nothing here is skipped: a records/ tree with errors refuses the build and fails these tests, as it
should.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from registry.checker.pipeline import CheckResult
from registry.db import TABLES, build_index, fingerprint, run_query
from registry.site._db_docs import EXAMPLES, SHOWN_ROWS, render_querying_page, render_tables_page
from tests.conftest import REPO


@pytest.fixture(scope="module")
def checked(real_check: CheckResult) -> CheckResult:
    result = real_check
    errors = [f"{d.path}:{d.line}: {d.code} {d.message}" for d in result.diagnostics if d.severity == "error"]
    assert result.ok, "records/ has errors, so the database would be refused:\n" + "\n".join(errors)
    return result


@pytest.fixture(scope="module")
def real_db(checked: CheckResult, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "registry.duckdb"
    return build_index(checked, path, fingerprint(REPO)).path


def _scalar(path: Path, sql: str) -> object:
    return run_query(path, sql).rows[0][0]


def test_tables_hold_every_record(checked: CheckResult, real_db: Path) -> None:
    index = checked.index
    runs = [e.record for e in index if e.record.kind in ("kv-efficiency", "benchmark")]
    assert _scalar(real_db, "SELECT count(*) FROM records") == len(index.entries)
    assert _scalar(real_db, "SELECT count(*) FROM models") == len(index.of_kind("model"))
    assert _scalar(real_db, "SELECT count(*) FROM engines") == len(index.of_kind("engine"))
    assert _scalar(real_db, "SELECT count(*) FROM hardware") == len(index.of_kind("hardware"))
    assert _scalar(real_db, "SELECT count(*) FROM runs") == len(runs)
    assert _scalar(real_db, "SELECT count(*) FROM claims") == sum(len(r.claims) for r in runs)


def test_deepseek_v3_per_token_under_vllm(real_db: Path) -> None:
    value = _scalar(
        real_db,
        "SELECT kv_bytes_per_token FROM kv_at_context WHERE model_id = 'models/deepseek-v3' "
        "AND layout = 'vllm' AND kv_dtype = 'bf16' AND context = '128K'",
    )
    assert value == Decimal(70272)


def test_ordering_by_bytes_per_token_ranks_a_long_window_by_its_cost(real_db: Path) -> None:
    """Phi-3.5-mini's every layer has a 262,144-token window over a 131,072-token maximum: at 128K each
    token still costs 393,216 B. Ranked by bytes per token it sits with the caches of its size (48 GiB
    at 128K), not among the smallest with a per-token figure of 0."""
    rows = run_query(
        real_db,
        "SELECT model_id, kv_bytes_per_token, kv_steady_state_bytes_per_token, total_bytes "
        "FROM kv_at_context WHERE layout = 'ideal' AND kv_dtype = 'bf16' AND context = '128K' "
        "AND computable ORDER BY kv_bytes_per_token, model_id",
    ).rows
    by_model = {row[0]: row[1:] for row in rows}
    assert by_model["models/phi-3.5-mini"] == (Decimal(393216), Decimal(0), 131072 * 393216)
    order = [row[0] for row in rows]
    smaller = "models/llama-3.2-1b"  # 16 layers × 2 × 8 KV heads × 64 × 2 B: 32 KiB per token
    assert order.index(smaller) < order.index("models/phi-3.5-mini")
    # A cache that holds every token so far (no window full yet, no fixed state) costs per token
    # exactly its total over the context: the order by cost per token is the order by size.
    linear = [row for row in rows if row[3] == 131072 * row[1] and row[3] > 0]
    assert any(row[0] == "models/phi-3.5-mini" for row in linear)
    assert [row[0] for row in sorted(linear, key=lambda r: (r[3], r[0]))] == [row[0] for row in linear]


def test_no_cache_that_still_grows_costs_nothing_per_token(real_db: Path) -> None:
    """At every ladder context, a cache that is larger at a longer context under the same layout and
    format does not cost 0 B per token where it stands. (vLLM frees a window's blocks a whole block at
    a time, so its full windows swing by a block from token to token: left out.)"""
    rows = run_query(
        real_db,
        "SELECT k.model_id, k.layout, k.kv_dtype, k.context FROM kv_at_context AS k "
        "JOIN kv_at_context AS n ON n.model_id = k.model_id AND n.layout = k.layout "
        "AND n.kv_dtype = k.kv_dtype AND n.context_tokens > k.context_tokens "
        "WHERE k.layout <> 'vllm' AND k.computable AND n.total_bytes > k.total_bytes "
        "AND k.kv_bytes_per_token = 0 "
        "AND k.fixed_bytes = 0 AND NOT EXISTS (SELECT 1 FROM layer_groups AS g "
        "WHERE g.model_id = k.model_id AND g.mechanism IN ('chunked', 'compressed'))",
    ).rows
    assert rows == []


def test_querying_page_shows_every_query_with_its_real_answer(real_db: Path) -> None:
    page = render_querying_page(REPO, real_db)
    assert len(EXAMPLES) >= 8
    blocks = re.findall(r"```sql\n(.*?)\n```\n\n(.*?)\n\*([\d,]+) rows?(.*?)\.\*", page, re.S)
    assert [sql for sql, _, _, _ in blocks] == [example.sql for example in EXAMPLES]
    truncated = 0
    for sql, table, written, rest in blocks:
        count = int(written.replace(",", ""))
        assert count >= 1, f"no rows for:\n{sql}"
        shown = min(count, SHOWN_ROWS)
        assert len(table.strip().splitlines()) == shown + 2  # header, rule, one line per row shown
        assert (rest == f"; the first {SHOWN_ROWS} shown, `registry query` gives them all") == (count > shown)
        truncated += count > shown
    assert truncated >= 1  # the claims query answers with every claim of the registry


def test_tables_page_documents_every_column() -> None:
    page = render_tables_page()
    for table in TABLES:
        section = page.split(f"## `{table.name}`\n", 1)[1].split("\n## ", 1)[0]
        for column in table.columns:
            assert f"| `{column.name}` | `{column.sql}` |" in section, (table.name, column.name)
