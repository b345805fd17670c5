"""The F family: a stated number that does not follow from the model's geometry, or that the physics
of its hardware rules out.

F005 is not used: a value in the wrong dimension for its quantity (a per-token figure where a total
belongs) is already refused by the schema stage, before any arithmetic.
"""

from __future__ import annotations

from dataclasses import replace

from registry.codes.rule import Listed, Rule, family
from registry.diagnostics import Severity
from registry.engine.misapply import CATALOGUE, SEEN_PAIRS

_rule = family("formula")


CLAIM_MISMATCH = _rule(
    "F001",
    "claim-mismatch",
    "A stated number disagrees with what the engine computes from the model's geometry.",
    "Published cache figures go wrong in a few recurring ways (the GQA formula on an MLA model, K and V "
    "counted once, GB written as GiB, a window ignored). The engine recomputes every number exactly; a "
    "stated value agrees when it rounds to the exact value at the precision it is written with. The "
    "message names the catalogued mistake that yields the stated number when one does, else two of them "
    "made together (the latent counted as K and V and its RoPE key dropped), else the nearest.",
    "state the figure the geometry gives (the hint shows it and its derivation), or correct the claim's "
    "quantity, variant, context or dtype if the number meant something else",
)


def _catalogue() -> tuple[Listed, ...]:
    """Every catalogued mistake, then every pair of them seen made together, each with where it was
    made in public when that is known."""
    singles = tuple(
        Listed(
            m.name,
            m.description,
            *((m.seen_in.title, m.seen_in.url, m.seen_in.wrote) if m.seen_in else ()),
        )
        for m in CATALOGUE
    )
    by_name = {m.name: m for m in CATALOGUE}
    pairs = tuple(
        Listed(
            " + ".join(names),
            ", and ".join(by_name[name].description for name in names),
            seen.title,
            seen.url,
            seen.wrote,
        )
        for names, seen in SEEN_PAIRS
    )
    return singles + pairs


CLAIM_MISMATCH = replace(
    CLAIM_MISMATCH,
    listed_title="The mistakes it names, and where they were made",
    listed=_catalogue(),
)
FORMULA_MISMATCH = _rule(
    "F002",
    "formula-mismatch",
    "The claim's own formula does not give the number stated beside it.",
    "A formula written next to a number is a promise that the number follows from it; when it does not, "
    "one of the two holds an arithmetic slip, and a reader cannot tell which.",
    "recompute the formula and state its value, or correct the formula",
)
NOT_COMPUTABLE = _rule(
    "F003",
    "not-computable",
    "A stated number cannot be checked because a dimension it depends on is unknown.",
    "Unknown dimensions are null in the model record and the engine never guesses them, so any number "
    "that depends on one stands unverified.",
    "give the missing dimension in the model record, with its source, or remove the claim",
    Severity.WARNING,
)
UNSUPPORTED_LAYOUT = _rule(
    "F004",
    "unsupported-layout",
    "The record's engine layout has no rule for a mechanism or dtype the claim needs.",
    "The same model costs different bytes in different engines; an engine layout whose handling of a "
    "mechanism was not read from the engine's source gives no number rather than an estimate.",
    "use the 'ideal' layout for architectural figures, or an engine layout that handles the mechanism",
    Severity.WARNING,
)
UNKNOWN_MODEL_TYPE = _rule(
    "F006",
    "unknown-model-type",
    "The model's config has a model_type no adapter reads, so its cache layout cannot be derived.",
    "The registry never assumes plain GQA for an unknown architecture: that is the mistake it exists to "
    "catch. Every number about the model stays unchecked until its layout is known.",
    "state an explicit 'layout' in the model record (layer groups with their mechanism and dimensions), "
    "or add a config adapter for the model_type",
)
FORMULA_ERROR = _rule(
    "F007",
    "formula-error",
    "The claim's formula cannot be evaluated.",
    "A formula is arithmetic over numbers and the config's geometry fields (plus bytes, context_tokens "
    "and batch); a name the config does not have, a call or a syntax error leaves it unchecked.",
    "write the formula with + - * / ( ), numbers and field names from the model's config",
)
EXCEEDS_HARDWARE_MEMORY = _rule(
    "F008",
    "exceeds-hardware-memory",
    "A run's weights and KV cache do not fit the memory of its hardware.",
    "Weights plus the cache at the run's context and batch are a lower bound on the memory a run needs; "
    "a run that claims hardware smaller than that cannot have happened as described. The weights are "
    "counted in the run's own format (a benchmark listing several: the narrowest, fp4 or fp8 where it "
    "says so, never bf16 by default), once per data-parallel replica when the stated degrees partition "
    "the accelerators into whole copies of the model. The hint names weights declared wider than they "
    "were stored when a narrower format makes the run fit.",
    "correct the hardware, the hardware count, the batch, the context or the precision",
)
UNKNOWN_VARIANT = _rule(
    "F009",
    "unknown-variant",
    "A claim names a variant the engine does not define.",
    "A variant is a precisely defined counterfactual (mha-equivalent, naive-gqa, ...); a number about an "
    "undefined one cannot be checked.",
    "use one of the defined variants, listed in the message",
)

BEATS_COMPUTE_ROOF = _rule(
    "F010",
    "beats-compute-roof",
    "A throughput is above what the hardware's peak compute allows for the model it served.",
    "Every token passes through the model's active parameters: at least 2 FLOPs per parameter (a "
    "multiply and an add), and an output token carries its request's whole work: the prompt's prefill "
    "and attention over the prompt and the output, from the workload's token counts (an MLPerf "
    "submission's mean output length from its accuracy report's tokens_per_sample; mean lengths bound "
    "attention through Jensen's inequality, caps bound nothing). The "
    "system's vendor dense peak (never the sparse figure) at the run's compute format (its activation "
    "format, else its weight formats; for an MLPerf row stating a 16-bit or wider format, which may be "
    "the checkpoint it quantized, its fastest dense peak) over that work is a roof no run can pass. The "
    "work counted is a "
    "lower bound (an untied input embedding is a lookup, attention the geometry cannot size adds "
    "nothing), so the roof is generous: a small-active-parameter mixture of experts at fp4 has a roof "
    "far above any real result, and this catches gross slips only (a figure x1,000, a system's figure "
    "written per accelerator). A total throughput is not bounded with a prefix cache on: cached input "
    "tokens are served, not computed. A figure is flagged past 5% over the roof: records round "
    "parameter counts, vendors their peaks.",
    "undo the slip the hint names (a 'k' or thousands separator misread, a per-system figure written "
    "per accelerator), or correct the accelerator count or the precision",
)
BEATS_BANDWIDTH_ROOF = _rule(
    "F011",
    "beats-bandwidth-roof",
    "A TPOT or ITL is below, or a decode rate above, what the memory bandwidth allows.",
    "Each decode step reads every active weight once and each sequence's KV cache at its context: one "
    "step takes at least (weight bytes + sequences x cache bytes) / memory bandwidth of all the run's "
    "accelerators, and yields one token per sequence (1 + draft tokens with speculative decoding). "
    "Weights are counted in the run's narrowest stated format, the cache at the input length under the "
    "ideal layout (the least any engine keeps). This is the tight bound at low concurrency: a "
    "single-stream TPOT below it, or a per-sequence rate above it, did not happen as described. A "
    "system's throughput is bounded only when the run states its concurrency. A minimum TPOT or ITL is "
    "not bounded: one request's extreme, which its timing distorts (MLPerf's Min TPOT is far below any "
    "step). It reads the "
    "datasheet's memory bandwidth, no FLOP/s peak. A figure is flagged past 5% beyond the bound: records round parameter "
    "counts, vendors their bandwidths.",
    "undo the slip the hint names (a latency in s written as ms, a figure x1,000, a system's figure "
    "per accelerator), or state the speculative decoding the run used",
)
BEATS_PREFILL_FLOOR = _rule(
    "F012",
    "beats-prefill-floor",
    "A time to first token is below the least time the prompt's prefill takes at peak compute.",
    "The first token waits for the prefill: 2 FLOPs per active parameter per input token plus "
    "attention's causal score and value products, at the system's vendor dense peak. With a known input "
    "length this is the tight bound on TTFT; it needs the prompts' length (not a cap; a mean bounds the "
    "mean TTFT only) and no prefix cache (one may serve part of a prompt without computing it). Peak "
    "figures are the vendor's dense ones (never sparse). A TTFT is flagged more than 5% below the "
    "floor: records round parameter counts, vendors their peaks.",
    "undo the slip the hint names (a TTFT in s written as ms), or correct the input length, the "
    "accelerator count or the precision",
)
INCONSISTENT_FIGURES = _rule(
    "F013",
    "inconsistent-figures",
    "Two figures of one run contradict each other.",
    "Figures of one run are tied: a per-accelerator figure is the system's over its accelerators (not "
    "for a disaggregated run, whose sources may divide by one pool), output "
    "throughput is at most request throughput x output length, request throughput x mean latency is at "
    "most the concurrency (Little's law), and total throughput counts the input tokens beside the "
    "output. Tools measure figures over slightly different windows and sources round each on its own, "
    "so a relation holds within 10%.",
    "correct the figure the hint names, its 'per', or the workload's lengths or concurrency",
)

LAYOUT_CONFIG_MISMATCH = _rule(
    "F014",
    "layout-config-mismatch",
    "A model record's stated layout disagrees with its own config: layer count, mechanism, heads or sizes.",
    "A model may state its layer groups beside its config.json, and the stated layout then wins: every "
    "figure about the model follows it. A layout that contradicts the config it sits beside (47 + 16 "
    "layers for a 64-layer config, 4 KV heads where the config has 8) changes every number silently. A "
    "dimension the layout leaves null is not compared.",
    "correct the layout from the config (or drop it and let the config's adapter lay the model out), or "
    "correct the config if the layout is the one the source gives",
)

SPARSE_PEAK_AS_DENSE = _rule(
    "F017",
    "sparse-peak-as-dense",
    "A hardware record's dense peak looks like a figure with sparsity: twice a sibling format's, or "
    "equal to a sparse figure.",
    "Datasheets print tensor-core peaks 'with sparsity' (2:4 structured sparsity, which doubles the "
    "rate for weights pruned two in four), often with the footnote alone saying so: H100 SXM's 3,958 "
    "TFLOP/s of fp8 is 1,979 dense. A sparse figure filed as dense doubles the compute roof and the "
    "prefill floor's speed, so a result twice too good passes. Three signs give it away: a dense figure "
    "twice that of a sibling format the vendor runs at the same rate (bf16 and fp16; fp8 and int8; fp4, "
    "nvfp4 and mxfp4), one equal to (or above) the sparse figure the record itself states for that "
    "format, and, where the record states no sparse figure of its own for the format, one equal to a "
    "sparse figure another hardware record of the registry states for it (a system record copying its "
    "GPU's datasheet; a record that states its own has set the two apart, and a half-size part's sparse "
    "figure often equals a full part's dense one). Figures are compared at the precision they are written "
    "with, and never more loosely than 1%. A part that truly runs a format at twice its sibling's rate "
    "(GeForce cards run fp16 with fp16 accumulate at twice bf16) says why in 'peak_dense_confirmed', "
    "which silences the warning for that format; a reason for a figure nothing questions is reported "
    "too.",
    "if the source prints the figure 'with sparsity' (or a footnote says specifications are one-half "
    "lower without it), move it to peak_sparse_flops_per_device and write half of it as the dense "
    "figure, quoting the footnote; if the vendor gives it as dense, say so in peak_dense_confirmed",
    Severity.WARNING,
)

BEATS_DECODE_ROOF = _rule(
    "F015",
    "beats-decode-roof",
    "An output throughput is above what the memory can hold and the bandwidth can read.",
    "A server decodes at most as many sequences as its memory holds beside the weights: (memory - "
    "weights held) / the cache of one sequence at its prompt, which the engine computes exactly for the "
    "run's KV format and engine layout. Each decode step reads at least one token's active weights and "
    "every sequence's cache, so a step takes at least (bytes read) / bandwidth and yields one token per "
    "sequence (1 + draft tokens with speculative decoding). This bounds a throughput with no stated "
    "concurrency, and ties a result to the cache figures of its model: a long-prompt run on a large "
    "model cannot hold many sequences. It needs the KV format, each prompt's length (fixed, not a mean "
    "or a cap) and no prefix cache (shared prefixes let more sequences in). Weights are held in full "
    "(every expert) at the run's narrowest format; activations and workspace are not counted, so the "
    "bound only errs high. A figure is flagged past 5% over the roof.",
    "undo the slip the hint names (a per-system figure written per accelerator, a 'k' misread, "
    "speculative decoding left unstated), or correct the KV format, the prompt length or the hardware",
)
NO_COMPUTABLE_BOUND = _rule(
    "F016",
    "no-computable-bound",
    "A benchmark record's figures have no bound that can be computed; the finding names what is missing.",
    "Every result the registry holds should be bounded by physics: a figure no bound reaches can be ten "
    "or a thousand times wrong and pass. A bound needs the model's parameter counts, the hardware's "
    "dense peaks, bandwidth and memory, the run's formats and its workload's lengths or concurrency; "
    "the finding lists, for each bound, the input it lacked, so the record (or the model or hardware "
    "record it names) can be completed from its source. It is information, not an error: a record "
    "whose source states too little is still worth keeping.",
    "add the missing input the message names to the record, its model or its hardware record, from a "
    "cited source",
    Severity.INFO,
)
UNIT_CONTRADICTS = _rule(
    "F018",
    "unit-contradicts",
    "A figure's unit contradicts its benchmark's known unit or the record's own run log.",
    "A results table's unit column is sometimes wrong: an MLPerf LLM benchmark whose figure is tokens/s "
    "with a row labelled samples/s or queries/s, or a figure copied from the log's samples line. Where "
    "the benchmark's own unit is known (MLPerf's LLM benchmarks measure tokens/s in Offline, Server and "
    "Interactive), a headline figure in samples or queries contradicts it; where the record states both "
    "a tokens/s and a samples/s figure and its accuracy report states the mean output tokens per sample, "
    "the two must differ by that factor within 10%.",
    "restate the figure in the benchmark's unit (tokens/s = samples/s x tokens per sample), or correct "
    "the metric the figure was filed under",
)

RULES: tuple[Rule, ...] = (
    CLAIM_MISMATCH,
    FORMULA_MISMATCH,
    NOT_COMPUTABLE,
    UNSUPPORTED_LAYOUT,
    UNKNOWN_MODEL_TYPE,
    FORMULA_ERROR,
    EXCEEDS_HARDWARE_MEMORY,
    UNKNOWN_VARIANT,
    BEATS_COMPUTE_ROOF,
    BEATS_BANDWIDTH_ROOF,
    BEATS_PREFILL_FLOOR,
    INCONSISTENT_FIGURES,
    LAYOUT_CONFIG_MISMATCH,
    BEATS_DECODE_ROOF,
    NO_COMPUTABLE_BOUND,
    SPARSE_PEAK_AS_DENSE,
    UNIT_CONTRADICTS,
)
