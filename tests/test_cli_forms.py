"""The command line as a newcomer meets it: one set of id forms for every command that takes a record,
``--root`` before the command as after it, ``explain`` in plain words, and help that states each
command's exit codes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from registry.cli import COMMANDS, build_parser, main
from registry.engine.layers import Attention, LayerGroup, Parallel, Recurrent, StateTensor
from registry.engine.trace import group_line
from registry.ids import BadId, existing_record_id, id_problem, record_id
from tests.conftest import REPO

Capture = pytest.CaptureFixture[str]

ID_FORMS = [
    "models/deepseek-v3",
    "deepseek-v3",
    "models/deepseek-v3.yaml",
    "records/models/deepseek-v3.yaml",
    "./records/models/deepseek-v3.yaml",
]


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "tests" / "fixtures" / "seed-003" / "records", tmp_path / "records")
    (tmp_path / "records" / "models").mkdir()
    shutil.copy(REPO / "records" / "models" / "deepseek-v3.yaml", tmp_path / "records" / "models")
    return tmp_path


@pytest.mark.parametrize("form", ID_FORMS)
def test_explain_and_calc_take_the_same_id_forms(seed: Path, form: str, capsys: Capture) -> None:
    assert main(["calc", "--root", str(seed), "--model", form, "--context", "4K"]) == 0
    assert "61 × (512 + 64)" in capsys.readouterr().out
    assert main(["explain", "--root", str(seed), form]) == 0
    assert capsys.readouterr().out.startswith("models/deepseek-v3: ")


def test_a_bare_slug_resolves_to_its_collection_or_says_which(tmp_path: Path) -> None:
    for folder in ("models", "hardware"):
        (tmp_path / "records" / folder).mkdir(parents=True)
    (tmp_path / "records" / "models" / "twin.yaml").write_text("", encoding="utf-8")
    assert existing_record_id(tmp_path, "twin") == "models/twin"
    (tmp_path / "records" / "hardware" / "twin.yaml").write_text("", encoding="utf-8")
    with pytest.raises(BadId, match="several records: hardware/twin, models/twin"):
        existing_record_id(tmp_path, "twin")
    with pytest.raises(BadId, match="no record 'absent'"):
        existing_record_id(tmp_path, "absent")
    with pytest.raises(BadId, match="is not a record id"):
        existing_record_id(tmp_path, "../etc/passwd")


def test_explain_of_a_missing_bare_slug_is_exit_2(seed: Path, capsys: Capture) -> None:
    assert main(["explain", "--root", str(seed), "no-such-model"]) == 2
    assert "no record 'no-such-model'" in capsys.readouterr().err


PLAIN_WORDS_MODELS = ("llama-3.1-8b", "deepseek-v3", "qwen3-next-80b-a3b", "kimi-k3", "gemma-3-27b")
"""A model of each kind of layer group: attention, MLA, recurrent state, chunked and sliding windows."""


def test_explain_prints_plain_words_never_a_python_repr(tmp_path: Path, capsys: Capture) -> None:
    # The real records, alone in a registry: explaining one checks the whole registry it is in.
    (tmp_path / "records" / "models").mkdir(parents=True)
    for model in PLAIN_WORDS_MODELS:
        shutil.copy(REPO / "records" / "models" / f"{model}.yaml", tmp_path / "records" / "models")
    for model in PLAIN_WORDS_MODELS:
        assert main(["explain", "--root", str(tmp_path), model]) == 0
        out = capsys.readouterr().out
        assert "layer groups:" in out
        for repr_mark in ("Attention(", "MLA(", "Recurrent(", "StateTensor(", "SlidingWindow(", "=None"):
            assert repr_mark not in out, (model, repr_mark)
    assert main(["explain", "--root", str(tmp_path), "llama-3.1-8b"]) == 0
    assert (
        "32 × attention, layers 0–31: num_kv_heads 8, head_dim 128, v_head_dim 128" in capsys.readouterr().out
    )


@pytest.mark.parametrize("where", ["before", "after"])
def test_root_works_before_the_command_as_after_it(
    seed: Path, where: str, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["--root", str(seed), "check"] if where == "before" else ["check", "--root", str(seed)]
    monkeypatch.chdir(seed.parent)  # not a registry: only --root can find it
    assert main(argv) == 1  # the seed's deliberate mistakes, found in the registry --root names
    assert "records/kv-efficiency/" in capsys.readouterr().out


def test_root_after_the_command_wins_over_the_one_before(seed: Path, tmp_path: Path, capsys: Capture) -> None:
    assert main(["--root", str(tmp_path / "nowhere"), "explain", "--root", str(seed), "deepseek-v3"]) == 0
    assert capsys.readouterr().out.startswith("models/deepseek-v3: ")


def _help(command: str) -> str:
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    return str(sub.format_help())


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_commands_help_states_its_exit_codes(command: str) -> None:
    text = _help(command)
    assert "exit codes: 0 " in text, command
    assert re.search(r"\b2 ", text.split("exit codes:", 1)[1]), command


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_commands_help_has_examples(command: str) -> None:
    assert "examples:\n  registry " in _help(command), command


def test_every_option_of_calc_has_help() -> None:
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices["calc"]  # type: ignore[union-attr]
    for action in sub._actions:
        assert action.help, action.option_strings
    assert "text: the derivation" in _help("calc")


def test_a_bad_kv_dtype_lists_the_accepted_names(seed: Path, capsys: Capture) -> None:
    assert main(["calc", "--root", str(seed), "--model", "deepseek-v3", "--kv-dtype", "fp9"]) == 2
    err = capsys.readouterr().err
    assert "fp9" in err and "bf16" in err and "fp8" in err and "q8_0" in err
    for regex_mark in ("^(", ")$", "|"):
        assert regex_mark not in err, err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["new", "kv-efficiency/x", "--model", "deepseek-v3", "--kv-dtype", "fp9"],
        ["new", "kv-efficiency/x", "--model", "deepseek-v3", "--weights", "fp9"],
        ["new", "kv-efficiency/x", "--model", "deepseek-v3", "--layout", "vlm"],
    ],
)
def test_new_lists_accepted_names_not_a_regular_expression(
    seed: Path, argv: list[str], capsys: Capture
) -> None:
    assert main([*argv, "--root", str(seed)]) == 2
    err = capsys.readouterr().err
    assert "use one of" in err
    for regex_mark in ("^(", ")$", "|", "\\.", "{0,"):
        assert regex_mark not in err, err


def test_a_parallel_layer_is_described_part_by_part_in_words() -> None:
    mamba = Recurrent("mamba2", (StateTensor("ssm", (4, 64, 128)),))
    group = LayerGroup(Parallel((Attention(8, 128, 128), mamba)), (0, 1, 2))
    assert group_line(group) == (
        "3 × parallel, layers 0–2: attention (num_kv_heads 8, head_dim 128, v_head_dim 128) "
        "beside recurrent (mamba2) (state tensors ssm 4 × 64 × 128)"
    )


@pytest.mark.parametrize("slug", ["aux", "con", "nul", "prn", "com1", "lpt9", "nul.v2", "com0"])
def test_a_name_windows_reserves_is_no_record_id_for_new_or_an_import(
    slug: str, tmp_path: Path, capsys: Capture
) -> None:
    """Git for Windows cannot check out records/hardware/aux.yaml: one merged record would break every
    Windows clone, so ``new``, ``import --id`` and the check (tests/hostile/id-windows-reserved) refuse it."""
    (tmp_path / "records" / "hardware").mkdir(parents=True)
    assert main(["new", "--root", str(tmp_path), f"hardware/{slug}"]) == 2
    assert "Windows reserves" in capsys.readouterr().err
    assert not any((tmp_path / "records" / "hardware").iterdir())
    with pytest.raises(BadId, match="Windows reserves"):
        record_id(f"benchmarks/{slug}")


def test_an_id_differing_from_a_file_only_in_case_is_refused(tmp_path: Path) -> None:
    """On a case-insensitive file system (macOS, Windows) the two would be one file."""
    folder = tmp_path / "records" / "benchmarks"
    folder.mkdir(parents=True)
    (folder / "Example-run.yaml").write_text("x", encoding="utf-8")
    problem = id_problem(tmp_path, "benchmarks/example-run")
    assert problem is not None and "only in case" in problem
    assert id_problem(tmp_path, "benchmarks/other-run") is None
