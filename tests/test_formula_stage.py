"""The formula stage of `registry check`: every stated number of every record, checked and located."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from registry.checker.pipeline import check
from registry.diagnostics import Diagnostic
from registry.engine.compute import compute
from registry.engine.units import parse_quantity
from registry.kinds.geometry import layer_groups_from_specs
from registry.kinds.records import LayerGroupSpec
from tests.conftest import GOLDEN

REPO = Path(__file__).resolve().parent.parent
SEED = REPO / "tests" / "fixtures" / "seed-003"
SEED_RECORD = "records/kv-efficiency/deepseek-v3-mla-vs-mha-128k.yaml"


def formula_findings(root: Path) -> list[Diagnostic]:
    return [d for d in check(root).diagnostics if d.code.startswith("F")]


@pytest.fixture
def seed_registry(tmp_path: Path) -> Path:
    """The verbatim seed transcription beside the DeepSeek-V3 model record it references."""
    shutil.copytree(SEED, tmp_path, dirs_exist_ok=True)
    models = tmp_path / "records" / "models"
    models.mkdir(parents=True, exist_ok=True)
    if not (models / "deepseek-v3.yaml").exists():
        shutil.copy(REPO / "records" / "models" / "deepseek-v3.yaml", models)
    return tmp_path


def _load(path: Path) -> dict[str, Any]:
    return dict(YAML(typ="safe").load(path.read_text(encoding="utf-8")))


def _by_hand(claim: dict[str, Any], config: dict[str, Any]) -> Fraction:
    """Each seed claim's value, worked out from DeepSeek-V3's published geometry without the engine.

    MLA caches kv_lora_rank + qk_rope_head_dim values per token and layer; the MHA-equivalent caches
    num_attention_heads K heads of qk_nope + qk_rope and V heads of v_head_dim; the naive GQA formula is
    num_key_value_heads K and V heads of hidden_size / num_attention_heads (no head_dim in this config).
    """
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    size = {"bf16": 2, "fp8": 1}[claim.get("kv_cache", "bf16")]
    per_token = {
        "actual": layers * (config["kv_lora_rank"] + config["qk_rope_head_dim"]) * size,
        "mha-equivalent": layers
        * heads
        * (config["qk_nope_head_dim"] + config["qk_rope_head_dim"] + config["v_head_dim"])
        * size,
        "naive-gqa": layers * 2 * config["num_key_value_heads"] * (config["hidden_size"] // heads) * size,
    }
    variant = claim.get("variant", "actual")
    if claim["quantity"] == "ratio":
        return Fraction(per_token[variant], per_token[claim["versus"]])
    if claim["quantity"] == "bytes_per_sequence":
        return Fraction(131072 * per_token[variant])
    return Fraction(per_token[variant])


def test_the_seed_gets_a_finding_for_every_number_that_does_not_follow_and_none_for_those_that_do(
    seed_registry: Path,
) -> None:
    record = _load(seed_registry / SEED_RECORD)
    config = _load(seed_registry / "records" / "models" / "deepseek-v3.yaml")["config"]
    assert record["context_tokens"] == 131072 and record["layout"] == "ideal"
    expected_wrong = {
        position
        for position, claim in enumerate(record["claims"])
        if not parse_quantity(claim["stated"]).admits(_by_hand(claim, config))
    }
    found = formula_findings(seed_registry)
    flagged = {int(d.pointer.split("/")[2]) for d in found if d.pointer.startswith("/claims/")}
    assert flagged == expected_wrong
    assert 0 < len(expected_wrong) < len(record["claims"])
    assert all(d.path == SEED_RECORD for d in found)


def test_the_seeds_mistakes_are_named(seed_registry: Path) -> None:
    record = _load(seed_registry / SEED_RECORD)
    found = {d.pointer: d for d in formula_findings(seed_registry)}
    positions = {claim["stated"]: i for i, claim in enumerate(record["claims"])}

    def finding(stated: str) -> Diagnostic:
        return found[f"/claims/{positions[stated]}/stated"]

    assert finding("5,856 KiB").code == "F001"
    assert "v-head-at-k-size" in finding("5,856 KiB").message
    assert "4,880 KiB" in finding("5,856 KiB").hint
    assert "v-head-at-k-size" in finding("85.3x").message
    assert finding("4,000,256 B").code == "F002"
    assert "gqa-on-mla-v-head" in finding("~57x").message
    assert "nearest" in finding("~717 GiB").message


def test_findings_point_at_the_stated_value(seed_registry: Path) -> None:
    text = (seed_registry / SEED_RECORD).read_text(encoding="utf-8").splitlines()
    for diagnostic in formula_findings(seed_registry):
        line = text[diagnostic.line - 1]
        assert line[diagnostic.column - 1 :].startswith(line.split("stated: ")[1])


def test_the_real_registry_has_no_formula_findings() -> None:
    assert [d for d in formula_findings(REPO) if d.severity.value == "error"] == []


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


UNKNOWN_MODEL = """\
schema_version: 1
id: models/{slug}
kind: model
title: Step-3.7-Flash
evidence: architectural
name: Step-3.7-Flash
org: StepFun
config_source:
  repository: ai-dynamo/aiconfigurator
  file: aic-core/src/aiconfigurator_core/model_configs/stepfun-ai--Step-3.7-Flash_config.json
  revision: e10f03afeef31daef314e480efd2a5d059ff3fd9
config:
  model_type: step3p7
  num_hidden_layers: 45
sources:
  - title: Step-3.7-Flash config.json
    url: https://example.com/config.json
"""

RUN = """\
schema_version: 1
id: kv-efficiency/{slug}
kind: kv-efficiency
title: A run
evidence: architectural
model: models/{model}
layout: ideal
precision:
  kv_cache: bf16
context_tokens: 4096
claims:
  - quantity: bytes_per_token
    stated: 1 KiB
sources:
  - title: A source
    url: https://example.com/source
"""


def test_a_model_without_an_adapter_is_reported_once_on_the_model(tmp_path: Path) -> None:
    _write(tmp_path, "records/models/step.yaml", UNKNOWN_MODEL.format(slug="step"))
    _write(tmp_path, "records/models/unused.yaml", UNKNOWN_MODEL.format(slug="unused"))
    for slug in ("one", "two"):
        _write(tmp_path, f"records/kv-efficiency/{slug}.yaml", RUN.format(slug=slug, model="step"))
    found = formula_findings(tmp_path)
    assert [(d.code, d.path, d.pointer) for d in found] == [
        ("F006", "records/models/step.yaml", "/config/model_type"),
        ("F006", "records/models/unused.yaml", "/config/model_type"),
    ]
    assert "num_key_value_heads" in found[0].message


def test_a_run_that_references_a_missing_model_is_left_to_the_reference_check(tmp_path: Path) -> None:
    _write(tmp_path, "records/kv-efficiency/one.yaml", RUN.format(slug="one", model="absent"))
    assert formula_findings(tmp_path) == []
    assert [d.code for d in check(tmp_path).diagnostics] == ["R004"]


def test_an_explicit_layout_becomes_engine_groups_in_order() -> None:
    specs = [
        LayerGroupSpec(
            layers=3, mechanism="recurrent", variant="kda", state_heads=4, state_k_dim=8, state_v_dim=8
        ),
        LayerGroupSpec(layers=1, mechanism="mla", kv_lora_rank=512, qk_rope_head_dim=64),
        LayerGroupSpec(layers=2, mechanism="sliding-window", num_kv_heads=8, head_dim=128, window=4096),
    ]
    layout = layer_groups_from_specs("models/example", specs)
    assert [g.layers for g in layout.groups] == [(0, 1, 2), (3,), (4, 5)]
    result = compute(layout, context_tokens=8192, model_dtype="bf16")
    assert result.fixed_bytes == 3 * 4 * 8 * 8 * 2
    assert result.bytes_per_token == 1 * (512 + 64) * 2
    assert result.window_bytes == 2 * 4096 * 2 * 8 * 128 * 2


def test_an_unknown_dimension_in_an_explicit_layout_is_not_computable() -> None:
    specs = [LayerGroupSpec(layers=2, mechanism="recurrent", variant="kda", state_heads=4, conv_kernel=4)]
    result = compute(layer_groups_from_specs("models/example", specs), context_tokens=1, model_dtype="bf16")
    assert result.total_bytes is None
    assert result.not_computable


def test_a_run_is_checked_against_its_hardware_memory(tmp_path: Path) -> None:
    shutil.copytree(GOLDEN / "F008" / "records", tmp_path / "records")
    run = tmp_path / "records" / "benchmarks" / "deepseek-v3-one-h100.yaml"
    assert [d.code for d in formula_findings(tmp_path)] == ["F008"]
    # 671B bf16 weights (1,342 GB) and a 9.2 GB cache fit 17 x 80 GB but not 16 x 80 GB.
    run.write_text(run.read_text(encoding="utf-8").replace("hardware_count: 1", "hardware_count: 17"))
    assert formula_findings(tmp_path) == []
    run.write_text(run.read_text(encoding="utf-8").replace("hardware_count: 17", "hardware_count: 16"))
    assert [d.code for d in formula_findings(tmp_path)] == ["F008"]


def test_an_engine_layout_problem_is_reported_once_per_record(tmp_path: Path) -> None:
    shutil.copytree(GOLDEN / "F004" / "records", tmp_path / "records")
    run = tmp_path / "records" / "kv-efficiency" / "deepseek-v3-llama-cpp-fp8.yaml"
    text = run.read_text(encoding="utf-8")
    claim = "  - quantity: bytes_per_token\n    stated: 35,136 B\n"
    run.write_text(text.replace(claim, claim * 3))
    assert [(d.code, d.pointer) for d in formula_findings(tmp_path)] == [("F004", "/layout")]
