"""The database of the real records/ tree, and the site pages generated from it.

Nothing here is skipped: a records/ tree with errors refuses the build and fails these tests, as it
should.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from registry.checker.pipeline import CheckResult, check
from registry.db import TABLES, build_index, fingerprint, run_query
from registry.site._db_docs import EXAMPLES, SHOWN_ROWS, render_querying_page, render_tables_page
from tests.conftest import REPO


@pytest.fixture(scope="module")
def checked() -> CheckResult:
    result = check(REPO)
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
