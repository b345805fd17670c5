"""The reference page of the formula engine: mechanisms and their formulas, engine layouts, dtypes,
claim variants and the catalogue of misapplications, all printed from the code that computes them.

The worked examples take their geometry from the source documents the project started from (the
long-context memory article, the course lesson on KV cache, recurrent state, MLA and low rank, and the
DeepSeek-V3 record); the figures and traces under them are the engine's own output at build time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from registry.engine import lowrank
from registry.engine.compute import compute
from registry.engine.dtypes import DTYPES
from registry.engine.engines import ENGINE_KEYS, get_engine
from registry.engine.formulas import (
    attention_entry_bytes,
    chunk_tokens,
    compressed_entries,
    indexer_entry_bytes,
    mla_entry_bytes,
    mla_expanded_entry_bytes,
    state_bytes,
    state_tensor_elements,
    window_tokens,
)
from registry.engine.layers import (
    MECHANISM_TYPES,
    MLA,
    Attention,
    LayerGroups,
    Recurrent,
    StateTensor,
    uniform_layer_groups,
)
from registry.engine.misapply import CATALOGUE
from registry.engine.trace import number
from registry.engine.variants import VARIANTS
from registry.site._docstrings import doc_html, first_line
from registry.site._html import Html, block, element, table
from registry.site._parts import front_matter

FORMULAS: dict[str, tuple[Callable[..., object], ...]] = {
    "attention": (attention_entry_bytes,),
    "sliding-window": (window_tokens, attention_entry_bytes),
    "chunked": (chunk_tokens, attention_entry_bytes),
    "mla": (mla_entry_bytes, mla_expanded_entry_bytes, indexer_entry_bytes),
    "recurrent": (state_bytes, state_tensor_elements),
    "compressed": (compressed_entries,),
    "shared": (),
    "no-cache": (),
    "parallel": (),
}
"""The formula functions behind each mechanism, in the order a reader needs them."""

COURSE = "the course lesson “KV cache, recurrent memory, MLA, and low rank” (Applied AI, session 18)"
ARTICLE = (
    "the article “Kimi KDA, DeepSeek MLA and V4 CSA/HCA: Long-Context Cache and GPU Memory” (blog.llmgo.top)"
)
RECORD = (
    "the registry record kv-efficiency/deepseek-v3-mla-vs-mha-128k (DeepSeek-V3 technical report, §2.1.1)"
)


@dataclass(frozen=True)
class WorkedExample:
    """A geometry from a source document, and the contexts its figures are quoted at."""

    title: str
    source: str
    layout: LayerGroups
    kv_dtype: str
    contexts: tuple[int, ...]
    note: str = ""


def worked_examples() -> tuple[WorkedExample, ...]:
    """The source documents' geometries; the engine computes every figure shown for them."""
    return (
        WorkedExample(
            "Standard KV cache: 32 layers, 8 KV heads, head size 128, BF16",
            COURSE,
            uniform_layer_groups("course-example", Attention(8, 128, 128), 32),
            "bf16",
            (4096, 131072),
        ),
        WorkedExample(
            "MLA: a latent of 512 values per token and layer, 32 layers, BF16",
            COURSE,
            uniform_layer_groups("course-example", MLA(512, 0), 32),
            "bf16",
            (131072, 524288),
            "The lesson's latent has no decoupled RoPE key, so qk_rope_head_dim is 0 here.",
        ),
        WorkedExample(
            "Fixed recurrent state: 32 layers of a 128 × 128 state, BF16",
            COURSE,
            uniform_layer_groups(
                "course-example", Recurrent("course-state", (StateTensor("S", (128, 128)),)), 32
            ),
            "bf16",
            (4096, 524288),
        ),
        WorkedExample(
            "The article's generic formula: 80 layers, a KV hidden dimension of 2048, FP16",
            ARTICLE,
            uniform_layer_groups("article-example", Attention(1, 2048, 2048), 80),
            "fp16",
            (4000,),
            "The article gives only the product kv_heads × head_dim = 2048; here it is one head of 2048.",
        ),
        WorkedExample(
            "DeepSeek-V3's MLA: 61 layers, latent 512 plus a 64-value RoPE key, BF16",
            RECORD,
            uniform_layer_groups("deepseek-example", MLA(512, 64), 61),
            "bf16",
            (131072,),
        ),
    )


def _example(example: WorkedExample) -> str:
    lines: list[str] = []
    for tokens in example.contexts:
        result = compute(
            example.layout, context_tokens=tokens, kv_dtype=example.kv_dtype, engine_layout="ideal"
        )
        lines.extend(result.trace)
        lines.append("")
    parts: list[object] = [element("p", f"Geometry from {example.source}.")]
    if example.note:
        parts.append(element("p", example.note))
    parts.append(element("pre", "\n".join(lines).rstrip(), class_="trace"))
    return f"### {example.title}\n" + block(*parts)


def _low_rank() -> str:
    d = m = 4096
    rows = [
        [
            f"{r:,}",
            f"{lowrank.factored_params(d, m, r):,}",
            f"{number(lowrank.reduction_factor(d, m, r))}×",
            "yes" if lowrank.saves_parameters(d, m, r) else "no",
        ]
        for r in (512, 1024, 2048)
    ]
    body = table(["Rank r", "Parameters r·(d + m)", "Smaller by", "Saves?"], rows, numeric=(0, 1, 2))
    threshold = element(
        "p",
        f"W is {d:,} × {m:,} = {lowrank.dense_params(d, m):,} parameters; the break-even rank is "
        f"r* = d·m / (d + m) = {number(lowrank.break_even_rank(d, m))} (from {COURSE}). "
        f"For {d:,} × 1,024 it is {number(lowrank.break_even_rank(d, 1024))}: it depends on both sides.",
    )
    return "### Low-rank factorization: when W ≈ A·B saves anything\n" + block(
        doc_html(lowrank), threshold, body
    )


def _mechanisms() -> Iterator[str]:
    for mechanism_type in MECHANISM_TYPES:
        kind = getattr(mechanism_type, "kind", mechanism_type.__name__)
        parts: list[object] = [doc_html(mechanism_type)]
        for function in FORMULAS.get(kind, ()):
            parts.append(element("h4", element("code", f"{function.__name__}()")))
            parts.append(doc_html(function))
        yield f"### {kind}\n" + block(*parts, class_="mechanism")


def _engine_layouts() -> Html:
    rows = []
    for key in ENGINE_KEYS:
        rules = get_engine(key)
        rows.append([element("code", key), rules.title, doc_html(type(rules))])
    return table(["Key", "What it is", "How it lays the cache out"], rows)


def _dtypes() -> Html:
    rows = [
        [
            element("code", d.name),
            number(d.bytes_per_element),
            f"{d.block_values} values in {number(d.block_bytes)} B",
            d.source,
        ]
        for d in DTYPES.values()
    ]
    return table(["Format", "Bytes per value", "Block", "Defined by"], rows, numeric=(1,))


def render_mechanisms_page() -> str:
    """The whole reference page of the formula engine."""
    variants = table(
        ["Variant", "Definition"], ([element("code", v.name), doc_html(v.build)] for v in VARIANTS.values())
    )
    catalogue = table(["Name", "The mistake"], ([element("code", m.name), m.description] for m in CATALOGUE))
    return "".join(
        [
            front_matter("Mechanisms and formulas"),
            "# Mechanisms and formulas\n\n",
            "Every cache mechanism the engine models, the formula it uses (the docstring of the function "
            "that computes it, with its source), the engine layouts, the numeric formats, the variants a "
            "claim may name, and the catalogue of known wrong formulas.\n\n",
            "## Mechanisms\n",
            *_mechanisms(),
            "## Worked examples from the source documents\n\n",
            "Each figure below is computed by the engine when the site is built, from the geometry the "
            "source document gives.\n",
            *(_example(e) for e in worked_examples()),
            _low_rank(),
            "## Engine layouts\n" + block(_engine_layouts()),
            "## Numeric formats\n" + block(_dtypes()),
            "## Claim variants\n" + block(variants),
            "## Misapplications\n\n"
            f"{first_line(CATALOGUE[0].__class__)} The engine tries each of these on a claim that disagrees "
            "and names the one that yields the stated number.\n" + block(catalogue),
        ]
    )


__all__ = ["WorkedExample", "render_mechanisms_page", "worked_examples"]
