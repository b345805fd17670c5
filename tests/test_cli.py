"""The command line as users and CI meet it: exit codes, formats, where it works, errors without tracebacks."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from registry.cli import main
from tests.conftest import GOLDEN


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "registry", *args], cwd=cwd, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """A registry with one error (S004) and one warning (R008)."""
    shutil.copytree(GOLDEN / "S004" / "records", tmp_path / "records")
    shutil.copytree(
        GOLDEN / "R008" / "records" / "hardware", tmp_path / "records" / "hardware", dirs_exist_ok=True
    )
    return tmp_path


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    shutil.copytree(GOLDEN / "R006" / "records" / "engines", tmp_path / "records" / "engines")
    return tmp_path


def test_exit_0_when_clean(clean: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--root", str(clean)]) == 0
    assert "all clean" in capsys.readouterr().err


def test_exit_1_on_errors_and_text_format(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--root", str(broken)]) == 1
    out, err = capsys.readouterr()
    assert "records/hardware/value.yaml:6:11: S004 invalid-value: 'evidence' is 'measurd'" in out
    assert "  hint: did you mean 'measured'?" in out
    assert "1 error, 1 warning" in err


def test_warnings_alone_exit_0(tmp_path: Path) -> None:
    shutil.copytree(GOLDEN / "R008" / "records", tmp_path / "records")
    assert main(["check", "--root", str(tmp_path)]) == 0


def test_json_format(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--root", str(broken), "--format", "json"])
    payload = json.loads(capsys.readouterr().out)
    assert payload["version"] == 1 and payload["ok"] is False
    assert payload["summary"] == {"error": 1, "warning": 1, "info": 0}
    first = payload["diagnostics"][0]
    assert set(first) == {"code", "name", "severity", "path", "line", "column", "message", "hint", "pointer"}
    assert (first["code"], first["line"], first["column"], first["pointer"]) == ("R008", 14, 5, "/related/0")


def test_github_format(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--root", str(broken), "--format", "github"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith(
        "::error file=records/hardware/value.yaml,line=6,col=11,title=S004 invalid-value::"
    )
    assert lines[0].startswith(
        "::warning file=records/hardware/gpu.yaml,line=14,col=5,title=R008 self-reference::"
    )
    assert "%0Ahint: " in lines[1]


def test_sarif_format(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--root", str(broken), "--format", "sarif"])
    payload = json.loads(capsys.readouterr().out)
    run_ = payload["runs"][0]
    assert payload["version"] == "2.1.0"
    rule_ids = [rule["id"] for rule in run_["tool"]["driver"]["rules"]]
    result = next(r for r in run_["results"] if r["ruleId"] == "S004")
    assert rule_ids[result["ruleIndex"]] == "S004"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (6, 11)


def test_finds_the_registry_from_a_subfolder(broken: Path) -> None:
    done = run(["check"], cwd=broken / "records" / "hardware")
    assert done.returncode == 1
    assert "records/hardware/value.yaml:6:11" in done.stdout


def test_no_registry_is_exit_2_with_a_short_message(tmp_path: Path) -> None:
    done = run(["check"], cwd=tmp_path)
    assert done.returncode == 2
    assert "no records/ folder" in done.stderr and "Traceback" not in done.stderr


def test_paths_narrow_the_report_but_references_resolve_everywhere(tmp_path: Path) -> None:
    shutil.copytree(GOLDEN / "R006" / "records", tmp_path / "records")
    assert (
        main(["check", "--root", str(tmp_path), str(tmp_path / "records" / "engines" / "example.yaml")]) == 0
    )
    assert main(["check", "--root", str(tmp_path), str(tmp_path / "records" / "hardware")]) == 1


def test_missing_path_is_exit_2(clean: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--root", str(clean), str(clean / "records" / "nope.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_bad_option_is_exit_2(clean: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "--format", "xml"])
    assert exit_info.value.code == 2


def test_rule_pages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "R004"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("R004 dangling-reference (references, error)")
    assert "Example output:" in page and "R004 dangling-reference:" in page
    assert main(["rule", "dangling-reference"]) == 0
    assert main(["rule"]) == 0
    assert "Y001 yaml-syntax" in capsys.readouterr().out
    assert main(["rule", "X999"]) == 2


def test_schema_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "records").mkdir()
    assert main(["schema", "--root", str(tmp_path), "--check"]) == 1
    assert main(["schema", "--root", str(tmp_path)]) == 0
    assert main(["schema", "--root", str(tmp_path), "--check"]) == 0
    schema = tmp_path / "schemas" / "model.schema.json"
    schema.write_text(schema.read_text().replace('"title"', '"titel"', 1))
    assert main(["schema", "--root", str(tmp_path), "--check"]) == 1
    assert "schemas/model.schema.json: stale" in capsys.readouterr().out


def test_internal_errors_are_one_line(
    monkeypatch: pytest.MonkeyPatch, clean: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import registry.checker.pipeline

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(registry.checker.pipeline, "check", explode)
    assert main(["check", "--root", str(clean)]) == 2
    err = capsys.readouterr().err
    assert "internal error (RuntimeError: boom)" in err and "Traceback" not in err


def test_python_dash_m_and_help() -> None:
    done = run(["--help"], cwd=Path.cwd())
    assert done.returncode == 0 and "check" in done.stdout
    done = run(["check", "--help"], cwd=Path.cwd())
    assert "examples:" in done.stdout and "exit codes" in done.stdout


def test_version_is_printed_on_request_and_read_only_then() -> None:
    """``--version`` prints the installed version; any other command leaves the package metadata
    unread (reading it cost every command, a re-check with nothing changed among them, 20 ms)."""
    from importlib.metadata import version

    done = run(["--version"], cwd=Path.cwd())
    assert done.returncode == 0 and done.stdout == f"registry {version('inference-efficiency-registry')}\n"
    probe = "import sys; from registry.cli import build_parser; build_parser(); print('importlib.metadata' in sys.modules)"
    answer = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert answer.stdout.strip() == "False"


def test_a_sarif_uri_is_a_percent_encoded_relative_reference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SARIF 2.1.0's artifactLocation.uri is a uri-reference: a raw space or ü is not one, and a raw
    '%20' would decode to another file's name."""
    (tmp_path / "records" / "hardware").mkdir(parents=True)
    (tmp_path / "records" / "hardware" / "a b ü%20.yaml").write_text("x: 1\n", encoding="utf-8")
    assert main(["check", "--root", str(tmp_path), "--format", "sarif", "--no-cache"]) == 1
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "records/hardware/a%20b%20%C3%BC%2520.yaml"
    assert urllib.parse.unquote(uri) == "records/hardware/a b ü%20.yaml"
