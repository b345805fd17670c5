"""What ``registry new`` and ``registry import-config`` write is already canonical: ``registry fmt --check``
passes on every record they write and ``registry fmt`` changes no byte of it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from registry.authoring.import_config import ImportOptions, write_import
from registry.authoring.new import NewOptions, write_new
from registry.cli import main
from tests.conftest import REPO

CONFIGS = REPO / "tests" / "engine" / "configs"

NEW = [
    NewOptions("model", "a-model"),
    NewOptions("engine", "an-engine"),
    NewOptions("hardware", "a-gpu"),
    NewOptions("benchmark", "a-run"),
    NewOptions("kv-efficiency", "a-fact"),
    NewOptions("kv-efficiency", "llama", model="llama-3.1-8b"),
    NewOptions("kv-efficiency", "deepseek", model="deepseek-v3", kv_dtype="fp8", layout="sglang"),
    NewOptions("kv-efficiency", "gemma", model="gemma-2-9b", context_tokens=32_768),
    NewOptions("benchmark", "qwen3-next", model="qwen3-next-80b-a3b", batch=8, weights="bf16"),
]

AWKWARD = {
    "model_type": "x",
    "yes": "yes",
    "date": "2024-01-01",
    "colon": "a: b",
    "comma": "a, b",
    "hash": "x #y",
    "quote": 'say "hi"',
    "unicode": "ünïcødé",
    "lines": "one\ntwo",
    "floats": [1e-05, 1.0, 1e20, 0.1, -0.0],
    "nested": [[1, [2, {"k": "v, w"}]], [], {}, {"a": None}],
    "blocks": [{"x": 1}, {"y": [True, "null"]}],
    "map": {"inner": {"deeper": [None]}},
}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[Path, bytes]]:
    """A copy of the registry with records written by ``new`` and ``import-config``, and their bytes."""
    root = tmp_path_factory.mktemp("registry")
    shutil.copytree(REPO / "records", root / "records")
    paths = [write_new(root, options).path for options in NEW]
    awkward = root / "awkward.json"
    awkward.write_text(json.dumps(AWKWARD), encoding="utf-8")
    configs = [*sorted(CONFIGS.glob("*.json")), awkward]
    for number, config in enumerate(configs):
        options = ImportOptions(
            config, f"models/imported-{number}", "owner/repo", "v1", url="https://x.org/c"
        )
        paths.append(write_import(root, options).path)
    return root, {path: path.read_bytes() for path in paths}


def test_fmt_check_passes_on_every_written_record(
    written: tuple[Path, dict[Path, bytes]], capsys: pytest.CaptureFixture[str]
) -> None:
    root, files = written
    assert main(["fmt", "--check", "--root", str(root), *map(str, files)]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{len(files)} files: all in canonical form.\n"


def test_fmt_changes_no_byte_of_a_written_record(
    written: tuple[Path, dict[Path, bytes]], capsys: pytest.CaptureFixture[str]
) -> None:
    root, files = written
    assert main(["fmt", "--root", str(root), *map(str, files)]) == 0
    assert capsys.readouterr().out == ""
    assert {path: path.read_bytes() for path in files} == files
