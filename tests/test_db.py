"""The registry database: tables against the records, exact bytes, staleness, refusal, atomic writes."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from registry.checker.pipeline import check
from registry.db import (
    CONTEXT_LADDER,
    ENGINE_LAYOUTS,
    KV_DTYPES,
    TABLES,
    BuildRefused,
    QueryError,
    Table,
    build_database,
    build_index,
    database_path,
    ensure_database,
    export_parquet,
    fingerprint,
    fingerprint_of,
    run_queries,
    run_query,
    stored_fingerprint,
)
from registry.db._values import decimal_array
from tests.conftest import REPO

CONFIGS = REPO / "tests" / "engine" / "configs"

# Quotes of every kind, backslashes, table pipes, markup, right-to-left text, CJK, emoji and a
# combining accent: what a record's text may hold and must come back unchanged.
TRICKY_TITLE = (
    'It\'s "quoted" \u2014 \u2018single\u2019 «guillemets» | pipe \\ backslash <b>bold</b> '
    "café ﬁ 漢字 עברית 🚀"
)
TRICKY_ID = "benchmarks/llama-fp8-cold"
TRICKY_NOTES = """Line one with 'single' and "double" quotes, a tab\there and e\u0301 (combining).

Second paragraph: `code`, *emphasis*, <script>alert("x")</script>, 100% & more — 🚀 done.
"""


def _replace(path: Path, old: str, new: str) -> None:
    """Edit a record file in place."""
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _yaml_text(record: dict[str, object]) -> str:
    """A record as YAML; JSON is YAML, so the text needs no hand quoting."""
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def _write(root: Path, record: dict[str, object]) -> None:
    path = root / "records" / f"{record['id']}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_yaml_text(record), encoding="utf-8")


def _source(title: str) -> list[dict[str, str]]:
    return [{"title": title, "url": "https://example.com/source"}]


def _model(slug: str, config_file: str, **extra: object) -> dict[str, object]:
    return {
        "schema_version": 1,
        "id": f"models/{slug}",
        "kind": "model",
        "title": slug,
        "evidence": "architectural",
        "name": slug,
        "org": "Example",
        "config_source": {"repository": "example/configs", "file": config_file, "revision": "0123abcd"},
        "config": json.loads((CONFIGS / config_file).read_text(encoding="utf-8")),
        "sources": _source(f"{slug} config"),
        **extra,
    }


def make_registry(root: Path) -> Path:
    """A small clean registry: DeepSeek-V3 and Llama 3.1 8B (configs as published), one engine, one
    accelerator, a kv-efficiency run whose claims hold, and a benchmark with fp8 KV and a cold prefix
    cache whose text is full of quotes and Unicode."""
    _write(root, _model("deepseek-v3", "deepseek-v3.json", max_context_tokens=163840))
    _write(root, _model("llama-3.1-8b", "llama-3.1-8b-instruct.json"))
    _write(
        root,
        {
            "schema_version": 1,
            "id": "engines/vllm",
            "kind": "engine",
            "title": "vLLM",
            "evidence": "architectural",
            "name": "vLLM",
            "repository": "vllm-project/vllm",
            "version": "0.33.0",
            "layout": "vllm",
            "capabilities": {"mla_decode": {"supported": True}, "fp8_kv": {"supported": True}},
            "sources": _source("vLLM source"),
        },
    )
    _write(
        root,
        {
            "schema_version": 1,
            "id": "hardware/gpu",
            "kind": "hardware",
            "title": "A GPU",
            "evidence": "source-reported",
            "name": "A GPU",
            "vendor": "Example",
            "devices": 8,
            "memory_per_device": "80 GB",
            "bandwidth_per_device": "3.35 TB/s",
            "sources": _source("datasheet"),
        },
    )
    _write(
        root,
        {
            "schema_version": 1,
            "id": "kv-efficiency/dsv3-128k",
            "kind": "kv-efficiency",
            "title": "DeepSeek-V3 at 128K",
            "evidence": "architectural",
            "model": "models/deepseek-v3",
            "layout": "vllm",
            "engine": "engines/vllm",
            "precision": {"weights": "bf16", "kv_cache": "bf16"},
            "context_tokens": "128K",
            "claims": [
                {
                    "quantity": "bytes_per_token",
                    "stated": "70,272 B",
                    "formula": "num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes",
                },
                {"quantity": "bytes_per_sequence", "stated": "~8.6 GiB"},
            ],
            "sources": _source("DeepSeek-V3 report"),
            "related": ["models/deepseek-v3"],
            "notes": "Same model as [[models/deepseek-v3]].",
        },
    )
    _write(
        root,
        {
            "schema_version": 2,
            "id": TRICKY_ID,
            "kind": "benchmark",
            "title": TRICKY_TITLE,
            "evidence": "measured",
            "model": "models/llama-3.1-8b",
            "engine": "engines/vllm",
            "layout": "vllm",
            "hardware": "hardware/gpu",
            "hardware_count": 1,
            "engine_version": "0.33.0",
            "workload": {"description": "one prompt", "input_tokens": 32768, "output_tokens": 1},
            "precision": {"weights": "bf16", "kv_cache": "fp8"},
            "context_tokens": 32768,
            "batch": 4,
            "prefix_cache": "cold",
            "scenario": "offline",
            "metrics": [
                {"metric": "ttft", "statistic": "mean", "per": "request", "stated": "1.25 s"},
                {"metric": "ttft", "statistic": "p99", "per": "request", "stated": "2.5 s"},
                {"metric": "memory", "statistic": "value", "per": "system", "stated": "8.6 GiB"},
                {
                    "metric": "output_throughput",
                    "statistic": "value",
                    "per": "system",
                    "stated": "1,000 tok/s",
                    "constraints": [{"metric": "tpot", "statistic": "p99", "limit": "40 ms"}],
                },
            ],
            "sources": _source("A blog"),
            "notes": TRICKY_NOTES,
            "tags": ["fp8-kv"],
        },
    )
    return root


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    return make_registry(tmp_path / "registry")


@pytest.fixture
def built(registry: Path) -> Path:
    return build_database(registry).path


def _one(path: Path, sql: str, *parameters: object) -> tuple[object, ...]:
    result = run_query(path, sql, list(parameters))
    assert len(result.rows) == 1, result.rows
    return result.rows[0]


def _count(path: Path, table: str) -> int:
    value = _one(path, f'SELECT count(*) FROM "{table}"')[0]
    assert isinstance(value, int)
    return value


# ---------------------------------------------------------------- contents against the records


def test_every_table_has_one_row_per_thing_it_describes(built: Path) -> None:
    counts = {table.name: _count(built, table.name) for table in TABLES}
    models, layouts = 2, len(ENGINE_LAYOUTS)
    assert counts["records"] == 6
    assert counts["models"] == models
    assert counts["runs"] == 2
    assert counts["claims"] == 2
    assert counts["engines"] == 1 and counts["hardware"] == 1
    assert counts["kv_at_context"] == models * layouts * len(KV_DTYPES) * len(CONTEXT_LADDER)
    # DeepSeek-V3: one MLA group and one multi-token-prediction group; Llama: one attention group.
    assert counts["layer_groups"] == (2 + 1) * layouts


def test_deepseek_v3_costs_70272_bytes_per_token_at_bf16_under_vllm(built: Path) -> None:
    per_token, total, computable = _one(
        built,
        "SELECT kv_bytes_per_token, total_bytes, computable FROM kv_at_context "
        "WHERE model_id = ? AND layout = 'vllm' AND kv_dtype = 'bf16' AND context = '128K'",
        "models/deepseek-v3",
    )
    assert per_token == Decimal(70272)
    assert total == Decimal(131072 * 70272)
    assert computable is True


def test_model_geometry_columns(built: Path) -> None:
    row = _one(
        built,
        "SELECT num_layers, mtp_layers, kv_lora_rank, qk_rope_head_dim, mla_layers, full_attention_layers, "
        "num_kv_heads, model_type FROM models WHERE id = 'models/deepseek-v3'",
    )
    assert row == (61, 1, 512, 64, 61, 0, None, "deepseek_v3")
    llama = _one(
        built,
        "SELECT num_layers, num_kv_heads, head_dim, num_attention_heads FROM models "
        "WHERE id = 'models/llama-3.1-8b'",
    )
    assert llama == (32, 8, 128, 32)


def test_runs_share_one_shape_and_carry_the_engines_bytes(built: Path) -> None:
    rows = run_query(
        built,
        "SELECT id, kind, kv_dtype, prefix_cache, context_tokens, total_bytes "
        "FROM runs WHERE kv_dtype LIKE 'fp8%' AND prefix_cache = 'cold'",
    ).rows
    assert [row[:5] for row in rows] == [("benchmarks/llama-fp8-cold", "benchmark", "fp8", "cold", 32768)]
    # Llama 3.1 8B, fp8 KV: 32 layers x 2 x 8 heads x 128 x 1 byte per token, 4 sequences of 32,768.
    assert rows[0][5] == Decimal(32 * 2 * 8 * 128 * 32768 * 4)
    kv_run = _one(
        built, "SELECT context_tokens, context_written, engine_layout FROM runs WHERE kind = 'kv-efficiency'"
    )
    assert kv_run == (131072, "128K", "vllm")


def test_measured_quantities_in_base_units(built: Path) -> None:
    sql = "SELECT measured_ttft_s, measured_memory_bytes FROM runs WHERE kind = ?"
    ttft, memory = _one(built, sql, "benchmark")
    assert ttft == 1.25
    assert memory == Decimal(round(Fraction(86, 10) * 2**30))
    columns = "memory_per_device_bytes, total_memory_bytes, bandwidth_per_device_bytes_per_s"
    hardware = _one(built, f"SELECT {columns} FROM hardware")
    assert hardware == (Decimal(80 * 10**9), Decimal(8 * 80 * 10**9), Decimal(335 * 10**10))


def test_claims_carry_stated_engine_value_and_verdict(built: Path) -> None:
    rows = run_query(
        built,
        "SELECT stated, stated_value, engine_value, verdict, misapplication FROM claims ORDER BY claim_index",
    ).rows
    assert rows[0] == ("70,272 B", Decimal(70272), Decimal(70272), "agrees", None)
    assert rows[1][0] == "~8.6 GiB" and rows[1][2] == Decimal(131072 * 70272) and rows[1][3] == "agrees"


def test_links_name_their_kind_and_field(built: Path) -> None:
    rows = run_query(
        built,
        "SELECT to_id, kind, field FROM links WHERE from_id = 'kv-efficiency/dsv3-128k' ORDER BY kind, field",
    ).rows
    assert rows == [
        ("engines/vllm", "engine", "engine"),
        ("models/deepseek-v3", "mention", "notes"),
        ("models/deepseek-v3", "model", "model"),
        ("models/deepseek-v3", "related", "related"),
    ]


def test_engine_capabilities_unstated_are_null(built: Path) -> None:
    assert _one(built, "SELECT mla_decode, fp8_kv, paged_kv FROM engines") == (True, True, None)


def test_record_text_round_trips_unchanged(built: Path, tmp_path: Path) -> None:
    title, notes, record = _one(built, "SELECT title, notes, record FROM records WHERE id = ?", TRICKY_ID)
    assert title == TRICKY_TITLE and notes == TRICKY_NOTES
    assert isinstance(record, str)
    assert json.loads(record)["title"] == TRICKY_TITLE
    export_parquet(built, tmp_path / "parquet")
    table = pq.read_table(tmp_path / "parquet" / "records.parquet").to_pylist()
    exported = next(row for row in table if row["id"] == TRICKY_ID)
    assert exported["title"] == TRICKY_TITLE and exported["notes"] == TRICKY_NOTES


# ---------------------------------------------------------------- exactness


def test_bytes_per_token_is_exact_for_every_storage_format() -> None:
    from registry.engine.dtypes import DTYPES

    for dtype in DTYPES.values():
        per_value = dtype.bytes_per_element
        stored = decimal_array([per_value, 70272 * per_value], 8).to_pylist()
        assert [Fraction(v) for v in stored] == [per_value, 70272 * per_value], dtype.name


def test_byte_totals_beyond_64_bits_stay_exact(tmp_path: Path) -> None:
    from registry.db import Column, Table
    from registry.db._build import arrow_table

    huge = 3 * 2**64 + 1
    table = Table("sizes", "", (Column("total_bytes", "DECIMAL(38,0)", ""),))
    path = tmp_path / "big.duckdb"
    connection = duckdb.connect(str(path))
    connection.execute(table.create_statement())
    connection.register("incoming", arrow_table(table, {"total_bytes": [huge]}))
    connection.execute("INSERT INTO sizes SELECT * FROM incoming")
    connection.close()
    assert _one(path, "SELECT total_bytes, total_bytes + 1 FROM sizes") == (Decimal(huge), Decimal(huge + 1))


def test_parquet_keeps_exact_decimal_bytes(built: Path, tmp_path: Path) -> None:
    written = export_parquet(built, tmp_path / "out")
    assert sorted(p.name for p in written) == sorted(f"{t.name}.parquet" for t in TABLES)
    kv = pq.read_table(tmp_path / "out" / "kv_at_context.parquet")
    assert str(kv.schema.field("total_bytes").type) == "decimal128(38, 0)"
    assert kv.num_rows == _count(built, "kv_at_context")


def test_a_registry_of_long_records_builds_and_exports(tmp_path: Path) -> None:
    """Notes and methodology may each hold 20,000 characters. DuckDB, held to a few megabytes while it
    loads the file and reads it back, refuses an insert or a read of that much text at once (measured:
    400 such records are about 32 MB in the records table): the build cuts its chunks by bytes too,
    and the export and the worked queries read a table too wide for the limit without it."""
    import hashlib

    root = tmp_path / "long"
    count = 400
    for number in range(count):
        words = " ".join(hashlib.sha256(f"{number}-{word}".encode()).hexdigest() for word in range(320))
        _write(
            root,
            {
                "schema_version": 1,
                "id": f"hardware/gpu-{number:03d}",
                "kind": "hardware",
                "title": f"GPU {number}",
                "evidence": "source-reported",
                "name": f"GPU {number}",
                "vendor": "Example",
                "devices": 8,
                "memory_per_device": "80 GB",
                "bandwidth_per_device": "3.35 TB/s",
                "sources": _source("datasheet"),
                "notes": words[:19_900],
                "methodology": words[-19_900:],
            },
        )
    built = build_database(root).path
    assert _count(built, "records") == count
    assert _one(built, "SELECT min(length(notes)), min(length(methodology)) FROM records") == (19_900, 19_900)
    written = {path.stem: path for path in export_parquet(built, tmp_path / "parquet")}
    records = pq.read_table(written["records"], columns=["id", "notes"])
    assert records.num_rows == count
    assert records.column("notes").to_pylist() == [
        row[0] for row in run_query(built, "SELECT notes FROM records").rows
    ]
    (first,) = run_queries(built, ["SELECT id, record FROM records ORDER BY id"], keep=2)
    assert [row[0] for row in first.rows] == ["hardware/gpu-000", "hardware/gpu-001"] and first.total == count


def test_parquet_is_written_in_bounded_row_groups_that_hold_every_row(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table is written a row group at a time, each cut at about ROW_GROUP_BYTES; the rows come out
    all there, in order, however small the groups."""
    from registry.db import _export

    whole = pq.read_table(export_parquet(built, tmp_path / "whole")[TABLES.index(_table("kv_at_context"))])
    assert pq.ParquetFile(tmp_path / "whole" / "kv_at_context.parquet").metadata.num_row_groups == 1
    monkeypatch.setattr(_export, "ROW_GROUP_BYTES", 1)
    target = tmp_path / "small" / "kv_at_context.parquet"
    export_parquet(built, tmp_path / "small")
    assert pq.ParquetFile(target).metadata.num_row_groups == whole.num_rows > 1
    assert pq.read_table(target).equals(whole)


def test_parquet_keeps_the_databases_types(built: Path, tmp_path: Path) -> None:
    """NOT NULL columns stay required and JSON columns stay JSON, as DuckDB reads them back."""
    target = export_parquet(built, tmp_path / "out")[TABLES.index(_table("records"))]
    schema = pq.read_schema(target)
    assert not schema.field("id").nullable and schema.field("notes").nullable
    assert _one(built, f"SELECT typeof(record) FROM read_parquet('{target}') LIMIT 1") == ("JSON",)


def test_parquet_export_leaves_no_temporary_file_wherever_it_writes(built: Path, tmp_path: Path) -> None:
    """DuckDB is given the file's name inside SQL: a folder with a quote in its name is still one."""
    out = tmp_path / "the team's 'parquet'"
    written = export_parquet(built, out)
    assert sorted(out.iterdir()) == sorted(written)
    assert pq.read_table(written[0]).num_rows == _count(built, TABLES[0].name)


def _table(name: str) -> Table:
    return next(table for table in TABLES if table.name == name)


# ---------------------------------------------------------------- staleness, refusal, atomic writes


def test_query_builds_when_missing_and_only_when_records_change(registry: Path) -> None:
    path, report = ensure_database(registry)
    assert report is not None and path.is_file()
    assert ensure_database(registry)[1] is None
    record = registry / "records" / "hardware" / "gpu.yaml"
    stat = record.stat()
    record.write_text(record.read_text(encoding="utf-8").replace('"A GPU"', '"B GPU"'), encoding="utf-8")
    os.utime(record, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime and size: only content tells
    path, report = ensure_database(registry)
    assert report is not None
    assert _one(path, "SELECT title FROM records WHERE id = 'hardware/gpu'") == ("B GPU",)


def test_the_file_is_stamped_with_the_bytes_that_were_checked(registry: Path) -> None:
    """The fingerprint is made from the digests the check took as it read: a record edited after
    it was read, while the database was being built, leaves the file stale."""
    result = check(registry)
    assert fingerprint_of(result.digests) == fingerprint(registry)  # as read afresh
    _replace(registry / "records" / "hardware" / "gpu.yaml", '"A GPU"', '"B GPU"')
    path = database_path(registry)
    build_index(result, path, fingerprint_of(result.digests))
    path, report = ensure_database(registry)
    assert report is not None
    assert _one(path, "SELECT title FROM records WHERE id = 'hardware/gpu'") == ("B GPU",)


def test_a_new_record_makes_the_file_stale(registry: Path) -> None:
    path, _ = ensure_database(registry)
    before = stored_fingerprint(path)
    _write(
        registry,
        {
            "schema_version": 1,
            "id": "hardware/other",
            "kind": "hardware",
            "title": "Other",
            "evidence": "measured",
            "name": "Other",
            "vendor": "Example",
            "memory_per_device": "96 GiB",
            "sources": _source("sheet"),
        },
    )
    path, report = ensure_database(registry)
    assert report is not None and stored_fingerprint(path) != before
    assert _count(path, "hardware") == 2


def test_a_broken_registry_is_refused_and_the_previous_file_kept(registry: Path) -> None:
    path = build_database(registry).path
    previous = path.read_bytes()
    broken = registry / "records" / "hardware" / "gpu.yaml"
    _replace(broken, '"source-reported"', '"measurd"')
    with pytest.raises(BuildRefused) as refused:
        build_database(registry)
    assert "S004" in {d.code for d in refused.value.result.diagnostics}
    assert "run 'registry check'" in str(refused.value)
    assert path.read_bytes() == previous
    with pytest.raises(BuildRefused):
        ensure_database(registry)


def test_a_failed_write_leaves_the_previous_file_and_no_temporary(built: Path) -> None:
    from registry.db._build import write_database
    from registry.errors import RegistryError

    def chunks() -> Iterator[dict[str, pa.Table]]:
        yield {}
        raise RegistryError("a chunk's rows could not be made")  # after the file was begun

    previous = built.read_bytes()
    with pytest.raises(RegistryError, match="could not be made"):
        write_database(chunks(), built)
    assert built.read_bytes() == previous
    assert [p.name for p in built.parent.iterdir()] == [built.name]


@pytest.mark.parametrize(("records", "rows"), [(1, 10**9), (10**9, 50)])
def test_a_build_in_chunks_holds_the_same_rows_as_one_in_a_single_chunk(
    registry: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, records: int, rows: int
) -> None:
    """The build loads a chunk of records at a time, cut by records or by rows (a model makes about a
    hundred); cutting the registry into chunks of one record, or with each model in a chunk of its
    own, must change no row, no order within a table, and no reference (a run's model is in another
    chunk)."""
    from registry.db import _build

    single = build_database(registry, tmp_path / "single.duckdb").path
    monkeypatch.setattr(_build, "CHUNK", records)
    monkeypatch.setattr(_build, "CHUNK_ROWS", rows)
    tables = _build.registry_tables
    chunks: list[int] = []
    monkeypatch.setattr(
        _build, "registry_tables", lambda part, results: chunks.append(len(part.entries)) or {}
    )
    checked = check(registry)
    assert checked.results is not None
    list(_build.table_chunks(checked.index, checked.results, records))
    assert len(chunks) > 1 and sum(chunks) == len(check(registry).index.entries)
    monkeypatch.setattr(_build, "registry_tables", tables)
    chunked = build_database(registry, tmp_path / "chunked.duckdb").path
    for table in TABLES:
        if table.name == "metadata":
            continue
        query = f'SELECT * FROM "{table.name}"'
        assert run_query(chunked, query).rows == run_query(single, query).rows, table.name


def test_a_part_of_the_index_iterates_its_records_and_resolves_every_reference(registry: Path) -> None:
    from registry.checker.pipeline import check

    index = check(registry).index
    part = index.part([TRICKY_ID])
    assert [entry.id for entry in part] == [TRICKY_ID]
    assert part.of_kind("model") == []
    assert part.get("models/llama-3.1-8b") == index.get("models/llama-3.1-8b")


def test_the_file_is_opened_read_only(built: Path) -> None:
    from registry.db import QueryError

    with pytest.raises(QueryError, match="read-only"):
        run_query(built, "DELETE FROM records")
    assert _count(built, "records") == 6


def test_declared_types_are_the_files_types(built: Path) -> None:
    for table in TABLES:
        described = run_query(built, f'DESCRIBE "{table.name}"').rows
        assert [(row[0], row[1]) for row in described] == [(c.name, c.sql) for c in table.columns], table.name


def test_a_value_no_column_can_hold_is_a_message_not_a_crash(registry: Path) -> None:
    from registry.errors import RegistryError

    record = registry / "records" / "models" / "llama-3.1-8b.yaml"
    _replace(record, '"num_key_value_heads": 8', f'"num_key_value_heads": 8, "head_dim": {2**70}')
    # The benchmark on it would fail its memory fit first (such a cache fills no memory there is).
    (registry / "records" / "benchmarks" / "llama-fp8-cold.yaml").unlink()
    with pytest.raises(RegistryError, match=r"^models\.head_dim cannot hold a value of the records"):
        build_database(registry)


def test_a_query_can_keep_its_first_rows_and_still_count_them_all(built: Path) -> None:
    """The Querying page shows the first rows of each answer and how many there are, without holding
    an answer of every model of a large registry."""
    sql = "SELECT model_id, layout, kv_dtype, context FROM kv_at_context ORDER BY ALL"
    whole = run_query(built, sql)
    assert len(whole.rows) > 3 and whole.total is None
    kept = run_query(built, sql, keep=3)
    assert kept.rows == whole.rows[:3] and kept.total == len(whole.rows)
    assert run_query(built, sql, keep=0).rows == [] and run_query(built, sql, keep=0).total == len(whole.rows)


def test_several_queries_through_one_connection_answer_as_each_alone(built: Path) -> None:
    """The Querying page runs its worked queries through one connection; each answer is the one the
    query gives alone, in order, and an error still names the SQL's problem."""
    queries = [
        "SELECT id FROM records ORDER BY id",
        "SELECT model_id, total_bytes FROM kv_at_context ORDER BY ALL",
        "SELECT count(*) FROM claims",
    ]
    together = run_queries(built, queries, keep=2)
    for sql, answer in zip(queries, together, strict=True):
        alone = run_query(built, sql, keep=2)
        assert (answer.columns, answer.rows, answer.total) == (alone.columns, alone.rows, alone.total)
    with pytest.raises(QueryError, match="SQL error"):
        run_queries(built, [queries[0], "SELECT nothing FROM records"])
