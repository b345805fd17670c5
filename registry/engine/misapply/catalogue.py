"""The catalogue: every known wrong formula with its permanent name, its description and its function,
in the order candidates are tried."""

from __future__ import annotations

from registry.engine.layers import MLA, Recurrent
from registry.engine.misapply.layout_changes import (
    gqa_on_mla,
    head_dim_from_hidden,
    heads_as_kv_heads,
    hybrid_kv_everywhere,
    indexer_omitted,
    kv_factor_missing,
    mla_kv_doubled,
    mla_rope_omitted,
    qk_head,
    state_ignored,
    v_at_k_size,
    window_ignored,
    window_layers_dropped,
)
from registry.engine.misapply.readings import (
    batch_ignored,
    called_constant,
    per_token_as_total,
    total_as_per_token,
    unit_swap,
)
from registry.engine.misapply.run_changes import (
    at_kv_dtype,
    at_state_dtype,
    context_k_as_thousand,
    engine_ignored,
    fp8_mla_one_byte,
    scales_ignored,
)
from registry.engine.misapply.situation import Misapplication, Occurrence
from registry.engine.variants import hidden_head_dim

CATALOGUE: tuple[Misapplication, ...] = (
    Misapplication(
        "gqa-on-mla-hidden-head",
        "the GQA formula on an MLA model, num_key_value_heads K and V heads of hidden_size / attention heads",
        change=gqa_on_mla(lambda m, fields: hidden_head_dim(fields)),
    ),
    Misapplication(
        "gqa-on-mla-qk-head",
        "the GQA formula on an MLA model, num_key_value_heads K and V heads of qk_nope + qk_rope head dims",
        change=gqa_on_mla(qk_head),
    ),
    Misapplication(
        "gqa-on-mla-v-head",
        "the GQA formula on an MLA model, num_key_value_heads K and V heads of v_head_dim",
        change=gqa_on_mla(lambda m, fields: m.v_head_dim),
    ),
    Misapplication(
        "gqa-on-mla-gguf-one-head",
        "the GQA formula on an MLA model read off its GGUF, one K and one V head of embedding_length / "
        "head_count",
        change=gqa_on_mla(lambda m, fields: hidden_head_dim(fields), kv_heads=1),
        seen_in=Occurrence(
            "unslothai/unsloth#4757, the estimator it replaced",
            "https://github.com/unslothai/unsloth/pull/4757",
            "2 * n_kv_heads * (embed // n_heads) * n_layers * n_ctx * bpe: 2.08 GB for DeepSeek-V3.1 "
            "against 10.72 GB (-81%)",
        ),
    ),
    Misapplication(
        "mla-kv-doubled",
        "the MLA latent and RoPE key counted twice, as if they were a K and a V",
        change=mla_kv_doubled,
    ),
    Misapplication(
        "mla-rope-omitted",
        "MLA counted as the latent alone, without the decoupled RoPE key",
        change=mla_rope_omitted,
    ),
    Misapplication("v-head-at-k-size", "the V heads counted at the K head size", change=v_at_k_size),
    Misapplication(
        "attention-heads-as-kv-heads",
        "num_attention_heads used where the cache holds num_key_value_heads",
        change=heads_as_kv_heads,
    ),
    Misapplication(
        "kv-factor-missing", "K counted but not V: the factor 2 is missing", change=kv_factor_missing
    ),
    Misapplication(
        "head-dim-from-hidden",
        "the head size derived as hidden_size / num_attention_heads where the config gives head_dim",
        change=head_dim_from_hidden,
        seen_in=Occurrence(
            "LMCache/LMCache#688, LMCache's KV cache calculator",
            "https://github.com/LMCache/LMCache/issues/688",
            "2 * num_hidden_layers * tokens * num_key_value_heads * head_size, head_size = hidden_size / "
            "num_attention_heads, for Qwen3-4B",
        ),
    ),
    Misapplication(
        "window-ignored", "sliding-window and chunked layers charged the full context", change=window_ignored
    ),
    Misapplication(
        "window-layers-dropped", "sliding-window and chunked layers left out", change=window_layers_dropped
    ),
    Misapplication(
        "hybrid-kv-everywhere",
        "a hybrid charged attention KV on every layer, recurrent ones too",
        change=hybrid_kv_everywhere,
    ),
    Misapplication("recurrent-state-ignored", "a hybrid's recurrent state left out", change=state_ignored),
    Misapplication(
        "indexer-omitted",
        "the sparse-attention indexer's key cache left out",
        change=indexer_omitted,
        seen_in=Occurrence(
            "sgl-project/sglang#11309, SGLang's KV cache size before the fix",
            "https://github.com/sgl-project/sglang/pull/11309",
            "KV size: 54.52 GB for DeepSeek-V3.2-Exp, 65.49 GB with the indexer's keys",
        ),
    ),
    Misapplication(
        "fp8-mla-at-one-byte",
        "an fp8 MLA cache counted at 1 byte per value, where the engine keeps scales and the RoPE key wider",
        change=fp8_mla_one_byte,
    ),
    Misapplication(
        "engine-layout-ignored",
        "the architectural minimum where the engine allocates more",
        change=engine_ignored,
    ),
    Misapplication(
        "quant-scales-ignored", "a block-quantized cache counted without its scales", change=scales_ignored
    ),
    Misapplication(
        "decimal-as-binary",
        "a figure computed in decimal units (GB) written with binary ones (GiB)",
        reading=unit_swap(computed_decimal=True),
    ),
    Misapplication(
        "binary-as-decimal",
        "a figure computed in binary units (GiB) written with decimal ones (GB)",
        reading=unit_swap(computed_decimal=False),
    ),
    Misapplication(
        "per-token-as-total",
        "the per-token figure stated where a whole-sequence total belongs",
        reading=per_token_as_total,
    ),
    Misapplication(
        "total-as-per-token",
        "a whole-sequence total stated where a per-token figure belongs",
        reading=total_as_per_token,
    ),
    Misapplication(
        "batch-ignored", "one sequence's cache stated as the whole batch's", reading=batch_ignored
    ),
    Misapplication(
        "mla-called-constant", "MLA's growing cache treated as constant memory", reading=called_constant(MLA)
    ),
    Misapplication(
        "hybrid-called-constant",
        "a hybrid treated as constant memory, its attention cache ignored",
        reading=called_constant(Recurrent),
    ),
    *(
        Misapplication(
            f"kv-dtype-{name}",
            f"the KV cache counted at {label} per value ({name})",
            change=at_kv_dtype(name),
        )
        for name, label in (
            ("fp32", "4 bytes"),
            ("bf16", "2 bytes"),
            ("fp8", "1 byte"),
            ("int4", "half a byte"),
        )
    ),
    *(
        Misapplication(
            f"state-dtype-{name}", f"the recurrent state counted in {name}", change=at_state_dtype(name)
        )
        for name in ("fp32", "bf16")
    ),
    Misapplication(
        "context-k-as-thousand",
        "a context of nK tokens counted as n x 1,000 instead of n x 1,024",
        change=context_k_as_thousand,
    ),
    Misapplication("arithmetic-slip", "the claim's own formula does not give the number stated beside it"),
)
"""Every known wrong formula, in the order candidates are tried: when two mistakes yield the same
number (bf16 at batch 4 is int4 at batch 1), the first, more common one is named."""

BY_NAME: dict[str, Misapplication] = {entry.name: entry for entry in CATALOGUE}

SEEN_PAIRS: tuple[tuple[tuple[str, str], Occurrence], ...] = (
    (
        ("mla-kv-doubled", "mla-rope-omitted"),
        Occurrence(
            "LMCache/LMCache#694, LMCache's KV cache calculator for DeepSeek-V3",
            "https://github.com/LMCache/LMCache/pull/694",
            "KV Cache size = 2 x L x S x d_c x B, d_c = 512",
        ),
    ),
)
"""Pairs of mistakes made together in public (:mod:`~registry.engine.misapply.pairs`), each by the two
entries' names in catalogue order."""
