"""``registry new``: a record to start from, its computed claims checked clean, the rest left to fill."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from registry.authoring.computed import format_claim_bytes
from registry.authoring.fmt import format_text
from registry.authoring.new import NewOptions, parse_target, write_new
from registry.authoring.writer import scalar
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from registry.engine.compute import compute
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model
from tests.conftest import REPO


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the real registry, to write new records into."""
    root = tmp_path_factory.mktemp("registry")
    shutil.copytree(REPO / "records", root / "records")
    return root


def _data(path: Path) -> dict[str, object]:
    document = load_text(path.name, path.read_text(encoding="utf-8")).document
    assert document is not None
    return document.data


def _model(root: Path, model_id: str) -> Model:
    return Model.model_validate(_data(root / "records" / f"{model_id}.yaml"))


@pytest.mark.parametrize(
    ("slug", "model", "options"),
    [
        ("llama-128k", "models/llama-3.1-8b", {}),
        ("deepseek-v3-fp8-sglang", "models/deepseek-v3", {"kv_dtype": "fp8", "layout": "sglang"}),
        # its maximum, twice its 4,096-token window: a longer context draws R012 beyond-max-context
        ("gemma2-8k", "models/gemma-2-9b", {"context_tokens": 8192}),
        ("qwen3-next-batch", "models/qwen3-next-80b-a3b", {"context_tokens": 4096, "batch": 8}),
    ],
)
def test_a_run_record_with_a_model_checks_clean_as_written(
    corpus: Path, slug: str, model: str, options: dict[str, object]
) -> None:
    record = write_new(corpus, NewOptions("kv-efficiency", slug, model=model, **options))  # type: ignore[arg-type]
    assert record.claims and not record.to_fill
    result = check(corpus, [record.path])
    assert result.diagnostics == []


def test_stated_values_are_the_engine_s_exact_bytes(corpus: Path) -> None:
    record = write_new(
        corpus, NewOptions("kv-efficiency", "llama-exact", model="llama-3.1-8b", context_tokens=8192)
    )
    layout = model_layer_groups(_model(corpus, "models/llama-3.1-8b"))
    expected = compute(layout, context_tokens=8192, kv_dtype="bf16", engine_layout="vllm")
    claims = {c["quantity"]: c["stated"] for c in _data(record.path)["claims"]}  # type: ignore[attr-defined]
    assert claims == {
        "bytes_per_token": f"{expected.bytes_per_token:,} B",
        "bytes_per_sequence": f"{expected.total_bytes:,} B",
    }


def test_a_hybrid_model_gets_its_fixed_state_claimed(corpus: Path) -> None:
    record = write_new(corpus, NewOptions("benchmark", "qwen3-next-state", model="qwen3-next-80b-a3b"))
    assert "fixed_bytes" in [c.quantity for c in record.claims]


def test_without_context_a_run_stops_at_its_model_s_maximum_and_says_so(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Gemma 2 9B stops at 8,192 tokens: the 128K default would be a record that draws R012 at once."""
    argv = ["new", "kv-efficiency/gemma2-default", "--model", "gemma-2-9b", "--root", str(corpus)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "  context: 8,192 tokens, the model's max_context_tokens (shorter than 131,072)\n" in out
    path = corpus / "records/kv-efficiency/gemma2-default.yaml"
    assert _data(path)["context_tokens"] == 8192
    assert check(corpus, [path]).diagnostics == []
    # a model whose maximum is the default or longer keeps the default, without a note
    record = write_new(corpus, NewOptions("kv-efficiency", "llama-default", model="llama-3.1-8b"))
    assert _data(record.path)["context_tokens"] == 131_072 and not record.notes


def test_each_claim_has_its_derivation_above_it(corpus: Path) -> None:
    record = write_new(corpus, NewOptions("kv-efficiency", "llama-trace", model="llama-3.1-8b"))
    lines = record.text.splitlines()
    for claim in record.claims:
        stated = lines.index(f"    stated: {claim.stated}")
        assert lines[stated - 2].startswith("  # ") and f"= {claim.stated}" in lines[stated - 2]


def test_the_record_is_written_in_canonical_form(corpus: Path) -> None:
    record = write_new(corpus, NewOptions("kv-efficiency", "llama-canonical", model="llama-3.1-8b"))
    assert format_text(record.text) == record.text == record.path.read_text(encoding="utf-8")


def test_new_refuses_to_overwrite(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    existing = corpus / "records" / "hardware" / "h100-sxm.yaml"
    before = existing.read_bytes()
    assert main(["new", "hardware/h100-sxm", "--root", str(corpus)]) == 2
    assert "records/hardware/h100-sxm.yaml already exists" in capsys.readouterr().err
    assert existing.read_bytes() == before


@pytest.mark.parametrize("kind", ["model", "engine", "hardware", "benchmark", "kv-efficiency"])
def test_every_field_left_to_fill_is_empty_and_flagged_by_check(corpus: Path, kind: str) -> None:
    record = write_new(corpus, NewOptions(kind, f"skeleton-{kind}"))
    data = _data(record.path)
    assert all(
        data[name] in (None, []) or (isinstance(data[name], dict) and None in data[name].values())
        for name in record.to_fill
    )
    result = check(corpus, [record.path])
    flagged = {d.pointer.split("/")[1] for d in result.diagnostics}
    assert flagged and flagged <= set(record.to_fill)
    assert all(f"\n{name}:" in record.text and "# TODO: " in record.text for name in record.to_fill)


def test_the_command_says_what_it_computed_and_what_is_left(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "new",
                "kv-efficiency/llama-cli",
                "--model",
                "llama-3.1-8b",
                "--context",
                "128K",
                "--root",
                str(corpus),
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == (
        "wrote records/kv-efficiency/llama-cli.yaml\n"
        "  bytes_per_token      131,072 B (128 KiB)\n"
        "  bytes_per_sequence   17,179,869,184 B (16 GiB)\n"
        "  each claim checked against the model's geometry, with its derivation above it\n"
    )
    assert main(["new", "hardware/cli-gpu", "--root", str(corpus)]) == 0
    assert capsys.readouterr().out.endswith(
        "to fill in (marked TODO; 'registry check' reports the required ones until they are): "
        "title, name, vendor, memory_per_device, sources\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "widgets/x"], "is not KIND/slug"),
        (["new", "hardware/Bad Slug"], "is not a slug"),
        (["new", "hardware/x", "--model", "llama-3.1-8b"], "--model belongs to"),
        (["new", "kv-efficiency/x", "--model", "no-such-model"], "no record 'models/no-such-model'"),
        (["new", "kv-efficiency/x", "--kv-dtype", "fp7"], "--kv-dtype 'fp7'"),
        (["new", "kv-efficiency/x", "--layout", "tgi"], "--layout 'tgi'"),
        (["new", "kv-efficiency/x", "--context", "lots"], "--context"),
    ],
)
def test_bad_requests_cannot_run(
    corpus: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main([*argv, "--root", str(corpus)]) == 2
    assert message in capsys.readouterr().err
    assert not (corpus / "records" / "kv-efficiency" / "x.yaml").exists()


def test_targets_accept_the_kind_or_its_folder() -> None:
    assert parse_target("benchmarks/run-1") == parse_target("benchmark/run-1") == ("benchmark", "run-1")
    assert parse_target("models/x")[0] == "model"


def test_claim_bytes_are_written_exactly_or_not_at_all() -> None:
    assert format_claim_bytes(Fraction(70272)) == "70,272 B"
    assert format_claim_bytes(Fraction(9217, 2)) == "4,608.5 B"
    assert format_claim_bytes(Fraction(1, 3)) is None


@pytest.mark.parametrize(
    "value", ["plain", "70,272 B", "yes", "null", "1e5", "0o17", "a: b", "#x", "", " pad", "~", "1.0"]
)
def test_scalars_read_back_as_the_same_string(value: str) -> None:
    document = load_text("x.yaml", f"key: {scalar(value)}\n").document
    assert document is not None and document.data == {"key": value}


def test_a_new_benchmark_is_written_at_schema_version_2(corpus: Path) -> None:
    """Each kind at its own version: a benchmark at 2, with its scenario and metrics left to fill."""
    record = write_new(corpus, NewOptions("benchmark", "llama-v2", model="llama-3.1-8b"))
    data = _data(record.path)
    assert data["schema_version"] == 2 and data["metrics"] == [] and data["scenario"] is None
    assert "measured_ttft" not in data and {"scenario", "metrics"} <= set(record.to_fill)
    assert _data(write_new(corpus, NewOptions("hardware", "gpu-v1")).path)["schema_version"] == 1
