"""Numbers JSON cannot spell in a published config: kept where no layout reads them, refused with the
field's place where one does.

Mamba-2 family configs (Nemotron-H, Falcon-H1, Bamba, Granite 4 hybrid, Mamba-2) carry
``"time_step_limit": [0.0, Infinity]``, as ``json.dumps`` writes transformers' default; transformers 5
writes the same number ``{"__float__": "Infinity"}``. ``calc --config`` and ``import-config`` read both,
a model record holds the second, and each is refused only in a field a layout reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from registry.authoring.fmt import format_text
from registry.authoring.import_config import ImportOptions, write_import
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from registry.config_file import read_config, value_positions
from registry.engine.adapters import ConfigFieldError, layer_groups_from_config
from registry.errors import RegistryError
from registry.reading import load_json
from registry.report.calc import calc_config
from tests.conftest import REPO

NEMOTRON_H = REPO / "tests" / "fixtures" / "configs" / "nemotron-h-shaped.json"
REVISION = "0123456789abcdef0123456789abcdef01234567"
URL = f"https://huggingface.co/example/nemotron-h-shaped/blob/{REVISION}/config.json"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "records").mkdir()
    return tmp_path


def _written(tmp_path: Path, config: dict[str, Any], name: str = "config.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


def _nemotron() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(NEMOTRON_H.read_text(encoding="utf-8"))
    return data


# ---------------------------------------------------------------- reading


def test_non_finite_numbers_are_read_as_transformers_5_writes_them(tmp_path: Path) -> None:
    text = b'{"a": [0.0, Infinity], "b": -Infinity, "c": NaN, "d": 1e999, "e": -1e999, "f": 1.5}'
    data = load_json(text, tmp_path / "config.json", non_finite=True)
    assert data == {
        "a": [0.0, {"__float__": "Infinity"}],
        "b": {"__float__": "-Infinity"},
        "c": {"__float__": "NaN"},
        "d": {"__float__": "Infinity"},
        "e": {"__float__": "-Infinity"},
        "f": 1.5,
    }


def test_other_json_still_refuses_them(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="not a finite number"):
        load_json(b'{"a": Infinity}', tmp_path / "x.json")


def test_both_spellings_give_the_same_layout(tmp_path: Path) -> None:
    """The file as ``json.dumps`` writes it and as transformers 5's ``to_json_string`` writes it."""
    bare = read_config(NEMOTRON_H)
    tagged = _nemotron() | {"time_step_limit": [0.0, {"__float__": "Infinity"}]}
    again = read_config(_written(tmp_path, tagged))
    assert bare == again
    assert layer_groups_from_config(bare).groups == layer_groups_from_config(again).groups


def test_a_field_no_layout_reads_changes_nothing(tmp_path: Path) -> None:
    without = {k: v for k, v in _nemotron().items() if k != "time_step_limit"}
    for layout in ("ideal", "vllm", "sglang", "transformers", "llama.cpp"):
        kept = calc_config(read_config(NEMOTRON_H), context_tokens=8192, engine_layout=layout)
        plain = calc_config(without, context_tokens=8192, engine_layout=layout)
        assert kept.total_bytes == plain.total_bytes is not None, layout


def test_the_nemotron_h_shaped_config_calcs_as_worked_by_hand() -> None:
    """3 Mamba-2 layers and 1 attention layer of 7 ("M-M*-M-"), in bf16 at 1,024 tokens, architectural
    minimum: conv (kernel − 1) × (heads × head_dim + 2 × n_groups × state) and SSM heads × head_dim ×
    state per Mamba layer; K and V of 2 heads of 256 / 8 = 32 per token for the attention layer."""
    conv = (4 - 1) * (32 * 16 + 2 * 2 * 16) * 2
    ssm = 32 * 16 * 16 * 2
    attention = 1024 * 2 * 2 * 32 * 2
    result = calc_config(read_config(NEMOTRON_H), context_tokens=1024, engine_layout="ideal")
    assert result.total_bytes == 3 * (conv + ssm) + attention


# ---------------------------------------------------------------- a field a layout reads


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("conv_kernel", "NaN", "'conv_kernel' is NaN"),
        ("ssm_state_size", "Infinity", "'ssm_state_size' is Infinity"),
        ("num_key_value_heads", "-Infinity", "'num_key_value_heads' is -Infinity"),
    ],
)
def test_calc_refuses_one_in_a_field_it_reads_at_its_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: str, named: str
) -> None:
    text = NEMOTRON_H.read_text(encoding="utf-8")
    line_of = next(i for i, line in enumerate(text.splitlines(), 1) if f'"{field}"' in line)
    column = text.splitlines()[line_of - 1].index(":") + 3
    before = f'"{field}": {_nemotron()[field]}'
    config = tmp_path / "config.json"
    config.write_text(text.replace(before, f'"{field}": {value}'), encoding="utf-8")
    assert main(["calc", "--config", str(config), "--context", "1K"]) == 2
    error = capsys.readouterr().err
    assert (
        f"{config}:{line_of}:{column}: nemotron_h config: {named} in the config, not a finite number" in error
    )


def test_a_value_inside_a_list_it_reads_is_named_with_its_index(tmp_path: Path) -> None:
    config = {
        "model_type": "qwen3_5_text",
        "num_hidden_layers": 2,
        "layer_types": ["linear_attention", {"__float__": "NaN"}],
    }
    with pytest.raises(ConfigFieldError, match=r"'layer_types\[1\]' is NaN") as raised:
        layer_groups_from_config(read_config(_written(tmp_path, config)))
    assert raised.value.path == ("layer_types", 1)


def test_a_float_field_read_by_value_is_refused_too() -> None:
    """DeepSeek-V4 reads ``partial_rotary_factor`` as a float: infinity is not quietly passed over."""
    config = {
        "model_type": "deepseek_v4",
        "num_hidden_layers": 1,
        "partial_rotary_factor": {"__float__": "NaN"},
    }
    with pytest.raises(ConfigFieldError, match="'partial_rotary_factor' is NaN"):
        layer_groups_from_config(config)


# ---------------------------------------------------------------- import-config and the model record


def _options(config: Path, record_id: str = "models/nemotron-h-shaped") -> ImportOptions:
    return ImportOptions(config, record_id, "example/nemotron-h-shaped", REVISION, url=URL)


def test_import_config_keeps_it_and_the_record_checks_clean(root: Path) -> None:
    result = write_import(root, _options(NEMOTRON_H))
    assert '  time_step_limit: [0.0, {"__float__": Infinity}]' in result.text.splitlines()
    assert any("time_step_limit[1] is Infinity" in line for line in result.text.splitlines()[:30])
    assert len(result.groups) == 3
    assert result.findings == []
    assert check(root, [result.path]).diagnostics == []
    assert format_text(result.text) == result.text
    document = load_text("x.yaml", result.text).document
    assert document is not None
    assert document.data["config"]["time_step_limit"] == [0.0, {"__float__": "Infinity"}]


def test_the_record_calcs_as_the_file_does(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_import(root, _options(NEMOTRON_H))
    for source in (["--model", "nemotron-h-shaped"], ["--config", str(NEMOTRON_H)]):
        args = ["calc", *source, "--context", "8K", "--format", "json", "--root", str(root)]
        assert main(args) == 0
    first, second = capsys.readouterr().out.split("\n}\n", 1)
    assert json.loads(first + "}")["total_bytes"] == json.loads(second)["total_bytes"]


def test_the_check_locates_one_in_a_field_a_layout_reads(root: Path, tmp_path: Path) -> None:
    config = _nemotron() | {"conv_kernel": {"__float__": "NaN"}}
    result = write_import(root, _options(_written(tmp_path, config)))
    [finding] = [f for f in check(root, [result.path]).diagnostics if f.code == "S004"]
    line = next(i for i, text in enumerate(result.text.splitlines(), 1) if text.startswith("  conv_kernel:"))
    assert (finding.line, finding.column) == (line, len("  conv_kernel: ") + 1)
    assert "'conv_kernel' is NaN in the config" in finding.message
    assert finding.pointer == "/config/conv_kernel"


def test_the_check_locates_an_index_inside_a_list(root: Path, tmp_path: Path) -> None:
    config = {
        "model_type": "qwen3_5_text",
        "num_hidden_layers": 2,
        "layer_types": ["linear_attention", {"__float__": "NaN"}],
    }
    result = write_import(root, _options(_written(tmp_path, config), "models/broken"))
    [finding] = [f for f in check(root, [result.path]).diagnostics if f.code == "S004"]
    assert finding.pointer == "/config/layer_types/1"
    line = next(i for i, text in enumerate(result.text.splitlines(), 1) if "layer_types:" in text)
    assert finding.line == line
    assert finding.column == result.text.splitlines()[line - 1].index("{") + 1


# ---------------------------------------------------------------- where each value of a JSON file is


def test_value_positions_place_every_value() -> None:
    text = '{\n  "a": [1, {"b": -Infinity}],\n  "s": "x\\"]}, [",\n  "c": {"d": [[], [NaN]]}\n}'
    positions = value_positions(text)
    assert positions[("a",)] == (2, 8)
    assert positions[("a", 1, "b")] == (2, 18)
    assert positions[("s",)] == (3, 8)
    assert positions[("c", "d", 1, 0)] == (4, 20)
    assert ("c", "d", 0, 0) not in positions
