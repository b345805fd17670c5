"""The catalogue of known wrong formulas: each names the mistake behind a number people actually write."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from registry.codes.explain import render_rule
from registry.codes.formula import CLAIM_MISMATCH
from registry.engine.adapters import geometry_fields, layer_groups_from_config
from registry.engine.misapply import (
    BY_NAME,
    CATALOGUE,
    SEEN_PAIRS,
    Candidate,
    Side,
    Situation,
    candidates,
    explain,
    explain_situation,
    pair_candidates,
)
from registry.engine.units import parse_quantity
from registry.engine.variants import ClaimQuantity, Run, measure, variant_layer_groups
from registry.site._reference_codes import render_code_page

MODELS = Path(__file__).resolve().parents[2] / "records" / "models"


@cache
def config(name: str) -> dict[str, Any]:
    record = YAML(typ="safe").load((MODELS / f"{name}.yaml").read_text(encoding="utf-8"))
    return dict(record["config"])


def side(model: str, variant: str = "actual", run: Run | None = None) -> Side:
    layout = layer_groups_from_config(config(model))
    fields = geometry_fields(config(model))
    built = variant_layer_groups(variant, layout, fields)
    return Side(variant, built, layout, fields, run or Run(context_tokens=131072, model_dtype="bf16"))


def named(
    model: str,
    quantity: ClaimQuantity,
    stated: str,
    variant: str = "actual",
    versus: str | None = None,
    run: Run | None = None,
) -> str | None:
    """The misapplication that explains ``stated``, or None."""
    subject = side(model, variant, run)
    other = None if versus is None else side(model, versus, run)
    quantity_of = "bytes_per_token" if quantity == "ratio" else quantity
    exact = measure(subject.layout, subject.run, quantity_of).value
    if other is not None and exact is not None:
        bottom = measure(other.layout, other.run, "bytes_per_token").value
        assert bottom
        exact = exact / bottom
    situation = Situation(quantity, subject, other, parse_quantity(stated), subject.run.context_tokens)
    match = explain_situation(situation, exact)[1].match
    return None if match is None else match.name


def test_catalogue_names_are_permanent_kebab_case_and_unique() -> None:
    names = [entry.name for entry in CATALOGUE]
    assert len(names) == len(set(names)) == len(BY_NAME)
    for entry in CATALOGUE:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.name)
        assert entry.description and not entry.description.endswith(".")
        kinds = (entry.change is not None) + (entry.reading is not None)
        assert kinds == (0 if entry.name == "arithmetic-slip" else 1)


def test_gqa_formula_on_mla_with_each_head_size_people_pick() -> None:
    c = config("deepseek-v3")
    layers, kv_heads = c["num_hidden_layers"], c["num_key_value_heads"]
    for head, name in (
        (c["hidden_size"] // c["num_attention_heads"], "gqa-on-mla-hidden-head"),
        (c["qk_nope_head_dim"] + c["qk_rope_head_dim"], "gqa-on-mla-qk-head"),
        (c["v_head_dim"], "gqa-on-mla-v-head"),
    ):
        assert named("deepseek-v3", "bytes_per_token", f"{layers * 2 * kv_heads * head * 2:,} B") == name


def test_mla_counted_as_k_and_v_or_without_its_rope_key() -> None:
    c = config("deepseek-v3")
    layers, rank, rope = c["num_hidden_layers"], c["kv_lora_rank"], c["qk_rope_head_dim"]
    assert (
        named("deepseek-v3", "bytes_per_token", f"{layers * 2 * (rank + rope) * 2:,} B") == "mla-kv-doubled"
    )
    assert named("deepseek-v3", "bytes_per_token", f"{layers * rank * 2:,} B") == "mla-rope-omitted"


def test_mha_equivalent_with_v_at_the_k_head_size_is_the_seed_figure() -> None:
    # The seed record: "61 x 2 x 128 heads x (128+64) x 2 = 5,856 KiB/token — an 85.3x reduction".
    assert named("deepseek-v3", "bytes_per_token", "5,856 KiB", "mha-equivalent") == "v-head-at-k-size"
    assert named("deepseek-v3", "ratio", "85.3x", "mha-equivalent", "actual") == "v-head-at-k-size"


def test_gqa_mistakes_on_a_gqa_model() -> None:
    c = config("llama-3.1-8b")
    layers, heads, kv_heads = c["num_hidden_layers"], c["num_attention_heads"], c["num_key_value_heads"]
    head = c["hidden_size"] // heads
    assert named("llama-3.1-8b", "bytes_per_token", f"{layers * 2 * heads * head * 2:,} B") == (
        "attention-heads-as-kv-heads"
    )
    assert (
        named("llama-3.1-8b", "bytes_per_token", f"{layers * kv_heads * head * 2:,} B") == "kv-factor-missing"
    )
    assert (
        named("llama-3.1-8b", "bytes_per_token", f"{layers * 2 * kv_heads * head * 4:,} B") == "kv-dtype-fp32"
    )


def test_head_size_derived_from_hidden_size_where_head_dim_is_given() -> None:
    c = config("qwen3-32b")
    derived = c["hidden_size"] // c["num_attention_heads"]
    wrong = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * derived * 2
    assert named("qwen3-32b", "bytes_per_token", f"{wrong:,} B") == "head-dim-from-hidden"


def test_sliding_window_ignored_and_window_layers_dropped() -> None:
    c = config("mistral-7b-v0.1")
    run = Run(context_tokens=8 * c["sliding_window"])
    head = c["hidden_size"] // c["num_attention_heads"]
    per_token = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * head * 2
    ignored = f"{run.context_tokens * per_token:,} B"
    assert named("mistral-7b-v0.1", "bytes_per_sequence", ignored, run=run) == "window-ignored"
    assert named("mistral-7b-v0.1", "bytes_per_sequence", "0 B", run=run) == "window-layers-dropped"


def test_hybrid_mistakes() -> None:
    run = Run(context_tokens=32768, model_dtype="bf16")
    subject = side("qwen3-next-80b-a3b", run=run)
    fixed_value = measure(subject.layout, run, "fixed_bytes").value
    total_value = measure(subject.layout, run, "bytes_per_sequence").value
    assert fixed_value is not None and total_value is not None
    fixed, total = int(fixed_value), int(total_value)
    model = "qwen3-next-80b-a3b"
    assert named(model, "bytes_per_sequence", f"{total - fixed:,} B", run=run) == "recurrent-state-ignored"
    assert named(model, "bytes_per_sequence", f"{fixed:,} B", run=run) == "hybrid-called-constant"
    assert named(model, "fixed_bytes", f"{total:,} B", run=run) == "hybrid-called-constant"
    attention_everywhere = measure(
        side("qwen3-next-80b-a3b", "naive-gqa", run).layout, run, "bytes_per_sequence"
    ).value
    assert attention_everywhere is not None
    everywhere = f"{int(attention_everywhere):,} B"
    assert named(model, "bytes_per_sequence", everywhere, run=run) == "hybrid-kv-everywhere"
    assert named(model, "bytes_per_sequence", f"{total + fixed:,} B", run=run) == "state-dtype-fp32"


def test_indexer_omitted_and_fp8_mla_at_one_byte_in_an_engine_layout() -> None:
    c = config("deepseek-v3.2")
    layers, rank, rope = c["num_hidden_layers"], c["kv_lora_rank"], c["qk_rope_head_dim"]
    ideal = Run(context_tokens=1, kv_dtype="bf16")
    latent_only = layers * (rank + rope) * 2
    assert named("deepseek-v3.2", "bytes_per_token", f"{latent_only:,} B", run=ideal) == "indexer-omitted"
    vllm = Run(context_tokens=1, kv_dtype="fp8", engine_layout="vllm")
    one_byte = layers * (rank + rope + c["index_head_dim"]) * 1
    assert named("deepseek-v3.2", "bytes_per_token", f"{one_byte:,} B", run=vllm) == "fp8-mla-at-one-byte"


def test_unit_family_swaps() -> None:
    c = config("deepseek-v3")
    exact = 131072 * c["num_hidden_layers"] * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * 2
    in_gib, in_gb = Fraction(exact, 2**30), Fraction(exact, 10**9)
    assert named("deepseek-v3", "bytes_per_sequence", f"{float(in_gib):.1f} GB") == "binary-as-decimal"
    assert named("deepseek-v3", "bytes_per_sequence", f"{float(in_gb):.1f} GiB") == "decimal-as-binary"
    assert named("deepseek-v3", "bytes_per_sequence", f"{float(in_gib):.1f} GiB") is None  # it agrees


def test_per_token_and_total_swapped_and_batch_ignored() -> None:
    c = config("deepseek-v3")
    per_token = c["num_hidden_layers"] * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * 2
    assert named("deepseek-v3", "bytes_per_sequence", f"{per_token:,} B") == "per-token-as-total"
    assert named("deepseek-v3", "bytes_per_token", f"{131072 * per_token:,} B") == "total-as-per-token"
    run = Run(context_tokens=131072, batch=4)
    assert named("deepseek-v3", "bytes_total", f"{131072 * per_token:,} B", run=run) == "batch-ignored"


def test_a_k_of_context_read_as_a_thousand_tokens() -> None:
    c = config("deepseek-v3")
    per_token = c["num_hidden_layers"] * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * 2
    assert named("deepseek-v3", "bytes_per_sequence", f"{128_000 * per_token:,} B") == "context-k-as-thousand"


def test_mla_called_constant_memory() -> None:
    c = config("deepseek-v3")
    per_token = c["num_hidden_layers"] * (c["kv_lora_rank"] + c["qk_rope_head_dim"]) * 2
    assert named("deepseek-v3", "fixed_bytes", f"{131072 * per_token:,} B") == "mla-called-constant"


def test_block_quantized_cache_without_its_scales() -> None:
    c = config("llama-3.1-8b")
    head = c["hidden_size"] // c["num_attention_heads"]
    values = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * head
    run = Run(context_tokens=1, kv_dtype="q8_0", engine_layout="llama.cpp")
    assert named("llama-3.1-8b", "bytes_per_token", f"{values:,} B", run=run) == "quant-scales-ignored"


def test_explain_requires_the_written_precision_and_otherwise_gives_the_nearest() -> None:
    found = [
        Candidate("a", "first", Fraction(100)),
        Candidate("b", "second", Fraction(200)),
        Candidate("c", "third", Fraction(210)),
        Candidate("d", "same value as c", Fraction(210)),
    ]
    assert explain(parse_quantity("~200 B"), found).match == found[1]
    miss = explain(parse_quantity("205.5 B"), found)
    assert miss.match is None
    assert [c.name for c in miss.nearest] == ["c", "b", "a"]
    assert explain(parse_quantity("210 B"), found).match == found[2]
    assert [c.name for c in explain(parse_quantity("1 B"), found, count=1).nearest] == ["a"]


def test_a_candidate_equal_to_the_engine_value_explains_nothing() -> None:
    subject = side("llama-3.1-8b")
    exact = measure(subject.layout, subject.run, "bytes_per_token").value
    assert exact is not None
    situation = Situation("bytes_per_token", subject, None, parse_quantity(f"{int(exact):,} B"), 131072)
    assert all(c.value != exact for c in candidates(situation, exact))


@pytest.mark.parametrize("entry", [e.name for e in CATALOGUE if e.change is not None])
def test_no_change_applies_to_a_layout_without_its_mechanism(entry: str) -> None:
    """A mistake about MLA, windows or state yields nothing for a plain GQA model, or a distinct value."""
    subject = side("llama-3.1-8b")
    change = BY_NAME[entry].change
    assert change is not None
    wrong = change(subject)
    if entry.startswith(
        ("gqa-on-mla", "mla-", "window-", "hybrid-", "recurrent-", "state-", "indexer-", "fp8-")
    ):
        assert wrong is None


def test_two_mistakes_at_once_are_named_as_both() -> None:
    # LMCache/LMCache#694: "KV Cache size = 2 x L x S x d_c x B" for DeepSeek-V3, d_c = 512.
    c = config("deepseek-v3")
    lmcache = 2 * c["num_hidden_layers"] * c["kv_lora_rank"] * 2
    assert named("deepseek-v3", "bytes_per_token", f"{lmcache:,} B") == "mla-kv-doubled + mla-rope-omitted"


def test_a_pair_is_never_named_where_one_mistake_suffices() -> None:
    subject = side("deepseek-v3")
    exact = measure(subject.layout, subject.run, "bytes_per_token").value
    situation = Situation("bytes_per_token", subject, None, parse_quantity("1 B"), 131072)
    singles = candidates(situation, exact)
    pairs = pair_candidates(situation, singles, exact)
    assert pairs and all(len(p.parts) == 2 for p in pairs)
    assert not {p.value for p in pairs} & ({c.value for c in singles} | {exact})
    assert len({p.value for p in pairs}) == len(pairs)


def test_gguf_mla_read_as_one_gqa_head() -> None:
    # unslothai/unsloth#4757: 2 * n_kv_heads * (embed // n_heads) * n_layers * bpe, the GGUF stating
    # head_count_kv = 1 for an MLA model: 13,664 B per token for DeepSeek-V3.1's geometry (V3's).
    c = config("deepseek-v3")
    gguf = 2 * 1 * (c["hidden_size"] // c["num_attention_heads"]) * c["num_hidden_layers"] * 2
    assert gguf == 13_664
    assert named("deepseek-v3", "bytes_per_token", f"{gguf:,} B") == "gqa-on-mla-gguf-one-head"


@pytest.mark.parametrize("engine_layout", ["vllm", "sglang"])
def test_indexer_omitted_keeps_the_engines_fp8_record(engine_layout: str) -> None:
    # sgl-project/sglang#11309: the 656-byte fp8 latent record stays, only the indexer keys go.
    c = config("deepseek-v3.2")
    run = Run(context_tokens=131072, kv_dtype="fp8", engine_layout=engine_layout)
    without = c["num_hidden_layers"] * 656
    assert without == 40_016
    assert named("deepseek-v3.2", "bytes_per_token", f"{without:,} B", run=run) == "indexer-omitted"
    plain_latent = c["num_hidden_layers"] * (c["kv_lora_rank"] + c["qk_rope_head_dim"])
    assert named("deepseek-v3.2", "bytes_per_token", f"{plain_latent:,} B", run=run) != "indexer-omitted"


def test_the_rule_page_lists_every_catalogued_mistake_and_where_it_was_seen() -> None:
    text = render_rule(CLAIM_MISMATCH)
    page = render_code_page(CLAIM_MISMATCH)
    for entry in CATALOGUE:
        assert f"  {entry.name}: {entry.description}" in text
        assert f"<code>{entry.name}</code>" in page
        if entry.seen_in is not None:
            assert entry.seen_in.url in text and entry.seen_in.url in page
    for names, seen in SEEN_PAIRS:
        assert names[0] in BY_NAME and names[1] in BY_NAME
        assert [e.name for e in CATALOGUE].index(names[0]) < [e.name for e in CATALOGUE].index(names[1])
        assert f"  {' + '.join(names)}: " in text and seen.url in page
    assert any(entry.seen_in is not None for entry in CATALOGUE)
