"""``registry query`` on SQL that tries to reach past the database: it touches no file but the database,
installs and loads no extension, and cannot unlock itself; ``--allow-files`` reads the analyst's own
files and still installs nothing. A long query stops on Ctrl-C with exit 130; a large answer streams;
control characters in an answer are written as escapes.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from registry.cli import main
from registry.site._db_docs import _INTRO
from tests.browser.site_registry import make_registry
from tests.test_hostile import run_cli


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small clean registry with its database built."""
    registry = make_registry(tmp_path_factory.mktemp("query"))
    code, _, err = run_cli("db", "--root", str(registry))
    assert code == 0, err
    return registry


def query(root: Path, sql: str, *options: str) -> tuple[int, str, str]:
    return run_cli("query", sql, "--root", str(root), *options)


def test_copy_to_cannot_replace_a_record(root: Path) -> None:
    record = root / "records" / "models" / "example-llama.yaml"
    before = record.read_bytes()
    code, out, _ = query(root, f"COPY (SELECT 'pwned' AS x) TO '{record}' (FORMAT csv)")
    assert code == 2 and out == ""
    assert record.read_bytes() == before
    code, _, _ = query(root, f"COPY (SELECT 'pwned' AS x) TO '{root / 'new.csv'}' (FORMAT csv)")
    assert code == 2 and not (root / "new.csv").exists()


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_text('/etc/passwd')",
        "SELECT * FROM read_blob('/etc/hostname')",
        "SELECT * FROM glob('/etc/*')",
        "ATTACH '/tmp/registry-attached.duckdb' AS other",
        "INSTALL httpfs",
        "LOAD httpfs",
        "SELECT * FROM read_parquet('https://attacker.example/x.parquet')",
        "SET enable_external_access = true",
        "SET autoinstall_known_extensions = true",
        "RESET enable_external_access",
    ],
)
def test_sql_reaches_nothing_outside_the_database(root: Path, sql: str) -> None:
    code, out, err = query(root, sql)
    assert code == 2, out
    assert err.startswith("registry query: error: SQL error:") and len(err.strip().splitlines()) == 1, err
    assert not Path("/tmp/registry-attached.duckdb").exists()


def test_allow_files_reads_the_analysts_files_and_still_installs_nothing(root: Path, tmp_path: Path) -> None:
    prices = tmp_path / "prices.csv"
    prices.write_text("model,price\nmodels/example-llama,3\n", encoding="utf-8")
    sql = f"SELECT m.id, p.price FROM models AS m JOIN read_csv('{prices}') AS p ON p.model = m.id"
    assert query(root, sql)[0] == 2
    code, out, err = query(root, sql, "--allow-files", "--format", "csv")
    assert code == 0, err
    assert out == "id,price\nmodels/example-llama,3\n"
    statements = ("INSTALL httpfs", "INSTALL httpfs FROM core", "FORCE INSTALL httpfs", "LOAD httpfs")
    for statement in (*statements, "SET autoinstall_known_extensions = true", "SET allowed_directories = []"):
        for options in ((), ("--allow-files",)):
            code, _, err = query(root, statement, *options)
            assert code == 2, statement
            assert "download" not in err.lower(), err  # refused before any network access


def test_db_in_a_folder_that_does_not_exist_is_an_error(root: Path, tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such"
    code, _, err = query(root, "SELECT 1", "--db", str(missing / "x.duckdb"))
    assert code == 2 and "does not exist" in err
    assert not (tmp_path / "no").exists()


def _registry_command() -> list[str]:
    return [sys.executable, "-c", "import sys; from registry.cli import main; sys.exit(main())"]


def test_ctrl_c_stops_a_long_query_with_exit_130(root: Path) -> None:
    sql = "SELECT sum(hash(a.range * b.range)) FROM range(100000000) AS a, range(100000000) AS b"
    process = subprocess.Popen(
        [*_registry_command(), "query", sql, "--root", str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3.0)  # started, and deep in the query
    assert process.poll() is None
    interrupted = time.perf_counter()
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("still running 5 s after Ctrl-C")
    assert process.returncode == 130, err
    assert time.perf_counter() - interrupted < 5
    assert "Traceback" not in err


def test_ctrl_c_ends_the_process_when_duckdb_is_slow_to_stop_the_query(root: Path) -> None:
    """Under load DuckDB may take longer than Ctrl-C waits to stop a query: the process still ends at
    once with 130, not after DuckDB has wound down (or aborted at exit)."""
    sql = "SELECT sum(hash(a.range * b.range)) FROM range(100000000) AS a, range(100000000) AS b"
    program = (
        "import sys, threading, time, _thread\n"
        "import registry.db._stream as stream\n"
        "from registry.cli import main\n"
        "stream.STOP_SECONDS = 0.0  # DuckDB never stops in time\n"
        "threading.Thread(target=lambda: (time.sleep(1.5), _thread.interrupt_main()), daemon=True).start()\n"
        "sys.exit(main())\n"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", program, "query", sql, "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 130, done.stderr
    assert "registry: interrupted" in done.stderr and "Traceback" not in done.stderr
    assert time.perf_counter() - started < 30


def _peak_kib(root: Path, sql: str) -> tuple[int, bytes]:
    """The peak memory of ``registry query SQL --format csv`` in its own process, and its output."""
    measured = (
        "import resource, sys; from registry.cli import main; code = main(); "
        "sys.stderr.write(f'peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n'); sys.exit(code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", measured, "query", sql, "--root", str(root), "--format", "csv"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stderr.decode().rsplit("peak ", 1)[1]), done.stdout


def test_a_large_answer_streams(root: Path) -> None:
    """A million rows as CSV go to the output a batch at a time: the process holds no more than for ten
    (held whole, they took over 250 MiB more)."""
    rows = 1_000_000
    small, _ = _peak_kib(root, "SELECT range AS n, range * 2 AS m FROM range(10)")
    large, out = _peak_kib(root, f"SELECT range AS n, range * 2 AS m FROM range({rows})")
    assert out.count(b"\n") == rows + 1
    assert (large - small) / 1024 < 64, f"{(large - small) / 1024:.0f} MiB more for {rows:,} rows"


def test_the_table_format_caps_its_rows_and_says_so(root: Path) -> None:
    code, out, _ = query(root, "SELECT range AS n FROM range(5000)")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 + 1_000 + 1
    assert "the first 1,000 rows; more were left out" in lines[-1]
    code, out, _ = query(root, "SELECT range AS n FROM range(3)")
    assert out.splitlines()[-1] == "(3 rows)"


@pytest.mark.parametrize("format_", ["table", "csv", "json", "markdown"])
def test_control_characters_in_an_answer_are_escaped(root: Path, format_: str) -> None:
    sql = "SELECT chr(27) || '[2J' || chr(155) || '31m' || chr(8238) || chr(13) AS x, 1 AS \"y\x1b\""
    code, out, err = query(root, sql, "--format", format_)
    assert code == 0, err
    for raw in ("\x1b", "\x9b", "\u202e", "\r"):
        assert raw not in out, (format_, out)
    assert "[2J" in out


def test_allow_files_is_documented_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["query", "--help"])
    help_text = capsys.readouterr().out
    assert "--allow-files" in help_text and "registry query --allow-files" in help_text
    assert "registry query --allow-files" in _INTRO and "read_csv(" in _INTRO


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_csv_cell_a_spreadsheet_would_run_is_neutralised(root: Path, start: str) -> None:
    """OWASP's CSV injection: a text cell starting with = + - @, a tab or a carriage return gets a
    leading ' (a number, even a negative one, stays a number)."""
    code, out, _ = query(
        root, f"SELECT chr({ord(start)}) || 'HYPERLINK(1)' AS name, -3 AS n", "--format", "csv"
    )
    assert code == 0
    (header, row) = out.splitlines()[:2]
    assert header == "name,n" and row.startswith("'") and row.endswith(",-3")


def test_a_query_past_its_timeout_is_stopped(root: Path) -> None:
    sql = "SELECT sum(hash(a.range * b.range)) FROM range(100000000) AS a, range(100000000) AS b"
    started = time.perf_counter()
    code, _, err = query(root, sql, "--timeout", "0.5")
    assert code == 2 and "ran past 0.5 seconds" in err
    assert time.perf_counter() - started < 5


def test_a_query_past_its_memory_limit_is_an_error_not_the_machines_memory(root: Path) -> None:
    sql = "SELECT list(range) FROM range(50000000)"
    code, _, err = query(root, sql, "--memory-limit", "64MB", "--format", "csv")
    assert code == 2 and "memory" in err.lower() and "Traceback" not in err
    code, _, err = query(root, "SELECT 1", "--memory-limit", "lots")
    assert code == 2 and "--memory-limit" in err


def test_the_sql_cannot_raise_the_limits(root: Path) -> None:
    code, _, err = query(root, "SET memory_limit = '100GB'")
    assert code == 2 and "lock" in err.lower()
