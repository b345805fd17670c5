"""check_claim: a stated number against the engine, the author's formula and the catalogue of mistakes."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from registry.engine.adapters import geometry_fields, layer_groups_from_config
from registry.engine.claims import ClaimSpec, ClaimVerdict, check_claim, show_value
from registry.engine.layers import MLA, LayerGroup, LayerGroups, Recurrent, StateTensor
from registry.engine.units import parse_quantity
from registry.engine.variants import ClaimQuantity, Run

MODELS = Path(__file__).resolve().parents[2] / "records" / "models"
RUN = Run(context_tokens=131072, model_dtype="bf16")


@cache
def config(name: str) -> dict[str, Any]:
    record = YAML(typ="safe").load((MODELS / f"{name}.yaml").read_text(encoding="utf-8"))
    return dict(record["config"])


def dsv3() -> dict[str, Any]:
    return config("deepseek-v3")


def mla_per_token() -> int:
    c = dsv3()
    return int(c["num_hidden_layers"] * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * 2)


def check(
    quantity: ClaimQuantity, stated: str, *, model: str = "deepseek-v3", run: Run = RUN, **fields: Any
) -> ClaimVerdict:
    claim = ClaimSpec(quantity=quantity, stated=stated, **fields)
    return check_claim(claim, layer_groups_from_config(config(model)), geometry_fields(config(model)), run)


@pytest.mark.parametrize(
    ("quantity", "stated", "extra"),
    [
        ("bytes_per_token", "70,272 B", {}),
        ("bytes_per_token", "70,272 B/token", {}),
        ("bytes_per_token", "68.6 KiB", {}),
        ("bytes_per_sequence", "~8.6 GiB", {}),
        ("bytes_per_sequence", "~4.3 GiB", {"kv_dtype": "fp8"}),
        ("bytes_per_sequence", "~17.2 GiB", {"context_tokens": 262144}),
        ("fixed_bytes", "0 B", {}),
    ],
)
def test_a_figure_that_follows_from_the_geometry_agrees(
    quantity: ClaimQuantity, stated: str, extra: Any
) -> None:
    verdict = check(quantity, stated, **extra)
    assert verdict.agrees is True
    assert verdict.misapplication is None


def test_written_precision_is_the_tolerance() -> None:
    exact = mla_per_token()
    assert check("bytes_per_token", f"{exact:,} B").agrees
    assert check("bytes_per_token", f"{exact + 1:,} B").agrees is False
    assert check("bytes_per_token", f"{exact / 1024:.3f} KiB").agrees
    assert check("bytes_per_token", f"{exact / 1024 + 0.1:.1f} KiB").agrees is False


def test_engine_value_is_exact_and_the_trace_shows_the_factors() -> None:
    verdict = check("bytes_per_token", "70,272 B")
    c = dsv3()
    assert verdict.engine_value == Fraction(mla_per_token())
    product = f"{c['num_hidden_layers']} × ({c['kv_lora_rank']} + {c['qk_rope_head_dim']}) × 2"
    assert any(product in line for line in verdict.trace)


def test_the_seeds_mha_equivalent_is_named_and_its_formula_is_the_mistake() -> None:
    formula = "num_hidden_layers * 2 * num_attention_heads * (qk_nope_head_dim + qk_rope_head_dim) * 2"
    verdict = check("bytes_per_token", "5,856 KiB", variant="mha-equivalent", formula=formula)
    c = dsv3()
    real = (
        c["num_hidden_layers"]
        * c["num_attention_heads"]
        * (c["qk_nope_head_dim"] + c["qk_rope_head_dim"] + c["v_head_dim"])
        * 2
    )
    assert verdict.engine_value == real
    assert verdict.agrees is False
    assert verdict.misapplication is not None and verdict.misapplication.name == "v-head-at-k-size"
    assert verdict.formula is not None and verdict.formula.matches is True
    assert verdict.formula.explained_by is not None
    assert verdict.formula.explained_by.name == "v-head-at-k-size"


def test_a_ratio_divides_per_token_bytes_of_two_variants() -> None:
    verdict = check("ratio", "85.3x", variant="mha-equivalent", versus="actual")
    c = dsv3()
    mha = (
        c["num_hidden_layers"]
        * c["num_attention_heads"]
        * (c["qk_nope_head_dim"] + c["qk_rope_head_dim"] + c["v_head_dim"])
        * 2
    )
    assert verdict.engine_value == Fraction(mha, mla_per_token())
    assert verdict.misapplication is not None
    assert (verdict.misapplication.name, verdict.misapplication.applied_to) == (
        "v-head-at-k-size",
        "mha-equivalent",
    )
    assert "mha-equivalent:" in verdict.trace and "actual:" in verdict.trace


def test_a_correct_formula_beside_a_wrong_figure_is_an_arithmetic_slip() -> None:
    formula = "num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes"
    verdict = check("bytes_per_token", "70,372 B", formula=formula)
    assert verdict.formula is not None
    assert verdict.formula.value == mla_per_token()
    assert verdict.formula.matches is False
    assert verdict.misapplication is not None and verdict.misapplication.name == "arithmetic-slip"
    assert verdict.formula.rendered == "61 × (512 + 64) × 2"


def test_the_formula_knows_bytes_context_and_batch() -> None:
    formula = "context_tokens * batch * num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes"
    run = Run(context_tokens=131072, batch=2, kv_dtype="fp8")
    verdict = check("bytes_total", "~8.6 GiB", formula=formula, run=run)
    assert verdict.formula is not None and verdict.formula.matches is True
    assert verdict.agrees is True


def test_a_formula_that_cannot_be_evaluated_still_leaves_the_figure_checked() -> None:
    verdict = check(
        "bytes_per_token", "70,272 B", formula="num_layers * (kv_lora_rank + qk_rope_head_dim) * 2"
    )
    assert verdict.formula is not None and verdict.formula.error is not None
    assert verdict.formula.error.column == 1
    assert "num_hidden_layers" in verdict.formula.error.message
    assert verdict.agrees is True


def test_the_dimension_is_checked_before_any_arithmetic() -> None:
    verdict = check("bytes_per_sequence", "70,272 B/token")
    assert verdict.wrong_dimension
    assert verdict.engine_value is None and verdict.agrees is None
    assert check("ratio", "70,272 B", variant="mha-equivalent", versus="actual").wrong_dimension


def test_an_unreadable_stated_value_is_reported_not_raised() -> None:
    assert check("bytes_per_token", "seventy KB").stated_error


def test_an_unknown_variant_is_reported() -> None:
    verdict = check("bytes_per_token", "1 B", variant="mqa-equivalent")
    assert "mqa-equivalent" in verdict.unknown_variant
    assert verdict.engine_value is None


def test_an_engine_layout_that_cannot_hold_the_dtype_is_unsupported() -> None:
    verdict = check(
        "bytes_per_token", "35,136 B", run=Run(context_tokens=1, kv_dtype="fp8", engine_layout="llama.cpp")
    )
    assert "fp8" in verdict.unsupported
    assert verdict.agrees is None


def test_an_unknown_engine_layout_is_unsupported() -> None:
    verdict = check("bytes_per_token", "70,272 B", run=Run(context_tokens=1, engine_layout="lmdeploy"))
    assert "lmdeploy" in verdict.unsupported


def test_an_unknown_dimension_makes_the_claim_not_computable() -> None:
    kda = Recurrent(
        "kda", (StateTensor("conv", (3, None), role="conv"), StateTensor("state", (96, 128, 128)))
    )
    layout = LayerGroups("explicit", (LayerGroup(kda, tuple(range(3))), LayerGroup(MLA(512, 64), (3, 4))))
    verdict = check_claim(ClaimSpec("bytes_per_sequence", "1 GiB"), layout, {}, RUN)
    assert verdict.engine_value is None
    assert "conv" in verdict.not_computable
    assert not verdict.unsupported


def test_a_ratio_against_a_variant_without_per_token_cache_is_not_computable() -> None:
    kda = Recurrent("kda", (StateTensor("state", (96, 128, 128)),))
    layout = LayerGroups("explicit", (LayerGroup(kda, (0, 1)),))
    verdict = check_claim(ClaimSpec("ratio", "2x", variant="actual", versus="actual"), layout, {}, RUN)
    assert "no per-token cache" in verdict.not_computable


def test_unexplained_disagreement_gives_the_nearest_candidates() -> None:
    verdict = check("bytes_per_sequence", "~717 GiB", variant="naive-gqa")
    assert verdict.agrees is False and verdict.misapplication is None
    assert len(verdict.nearest) == 3
    stated = parse_quantity("~717 GiB").value
    distances = [abs(c.value - stated) for c in verdict.nearest]
    assert distances == sorted(distances)


def test_show_value_writes_the_stated_unit_and_the_exact_bytes() -> None:
    kib = parse_quantity("5,856 KiB")
    assert show_value(Fraction(4_997_120), kib) == "4,880 KiB (4,997,120 B)"
    assert show_value(Fraction(4_997_120), kib, exact_bytes=False) == "4,880 KiB"
    assert show_value(Fraction(640, 9), parse_quantity("85.3x")) == "71.111x"
    assert show_value(Fraction(70_272), parse_quantity("70,272 B")) == "70,272 B"
