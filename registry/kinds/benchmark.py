"""The parts of a ``benchmark`` record (schema version 2) beside the run shape: the scenario and the
point of a load sweep, the system, the precisions as the run used them, the workload, the typed metrics
with their latency constraints, accuracy against its target, and provenance down to the source's row.

A metric's ``stated`` quantity is checked by the dimension its ``metric`` measures in
(:data:`METRIC_DIMENSIONS`), as a claim's is by its quantity; the JSON Schema carries the same rule as
``if``/``then`` branches, so an editor sees it too.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from registry.engine.units import Dimension
from registry.kinds.fields import (
    ContextTokens,
    Dtype,
    RecordId,
    ShortText,
    Strict,
    check_quantity,
    needs_message,
    quantity_schema,
)
from registry.kinds.provenance import Provenance
from registry.kinds.run import MEASURED_NEEDS_RUN, Precision, RunShape, Workload

Scenario = Literal["offline", "server", "interactive", "single-stream", "multi-stream", "sweep-point"]

MetricName = Literal[
    "ttft",
    "tpot",
    "itl",
    "e2e_latency",
    "output_throughput",
    "input_throughput",
    "total_throughput",
    "goodput",
    "request_goodput",
    "request_throughput",
    "sample_throughput",
    "query_throughput",
    "accuracy",
    "power",
    "energy_per_token",
    "memory",
]

METRIC_DIMENSIONS: dict[str, tuple[Dimension, ...]] = {
    "ttft": (Dimension.SECONDS,),
    "tpot": (Dimension.SECONDS,),
    "itl": (Dimension.SECONDS,),
    "e2e_latency": (Dimension.SECONDS,),
    "output_throughput": (Dimension.TOKENS_PER_SECOND,),
    "input_throughput": (Dimension.TOKENS_PER_SECOND,),
    "total_throughput": (Dimension.TOKENS_PER_SECOND,),
    "goodput": (Dimension.TOKENS_PER_SECOND,),
    "request_goodput": (Dimension.REQUESTS_PER_SECOND,),
    "request_throughput": (Dimension.REQUESTS_PER_SECOND,),
    "sample_throughput": (Dimension.REQUESTS_PER_SECOND,),
    "query_throughput": (Dimension.REQUESTS_PER_SECOND,),
    "accuracy": (Dimension.RATIO, Dimension.COUNT),
    "power": (Dimension.WATTS,),
    "energy_per_token": (Dimension.JOULES_PER_TOKEN,),
    "memory": (Dimension.BYTES,),
}
"""The dimension each metric's quantity is measured in (accuracy: a ratio such as '99.1%', or a bare
score such as '44.43')."""

Statistic = Literal["mean", "median", "p90", "p95", "p99", "p99.9", "max", "min", "value"]
Per = Literal["system", "accelerator", "request"]
HEADLINE_STATISTICS = ("value", "mean", "median")
"""The statistics that may stand for a metric in a single-number column, in order of preference."""
Count = Annotated[int, Field(ge=1, le=1_000_000)]

SWEEP_ONLY_AT_A_POINT = "'sweep' belongs to scenario 'sweep-point' only, and a sweep point names its 'sweep'"
MIXED_PARTS_NO_HARDWARE = (
    "'system.accelerators' lists the parts of a mixed system: leave the top-level 'hardware' out"
)
METRICS_NEED_HARDWARE = "a measured figure names its hardware: add 'hardware' or 'system.accelerators'"
"""Rules across fields, in words: the validators raise them and the JSON Schema carries them
(``x-messages``) for the check to say when the schema finds the same fault."""


def _dimension_rules(key: str, field: str) -> list[dict[str, Any]]:
    """``if metric is M then field has M's dimension``, for every metric ``M``."""
    return [
        {
            "if": {"properties": {key: {"const": name}}, "required": [key]},
            "then": {"properties": {field: quantity_schema(*dimensions)}},
        }
        for name, dimensions in METRIC_DIMENSIONS.items()
    ]


def _all_dimensions() -> tuple[Dimension, ...]:
    return tuple(dict.fromkeys(d for dimensions in METRIC_DIMENSIONS.values() for d in dimensions))


class Sweep(Strict):
    """The load parameter of one point of a sweep and its value at this point."""

    parameter: Literal["request_rate", "concurrency"]
    value: Annotated[float, Field(gt=0, le=1e12)] | Annotated[int, Field(ge=1, le=10**12)] = Field(
        description="Requests per second for request_rate, sequences in flight for concurrency."
    )


class AcceleratorCount(Strict):
    hardware: RecordId
    count: Count


class Parallelism(Strict):
    """Degrees of parallelism as the run configured them; null where not stated."""

    tensor: Count | None = None
    pipeline: Count | None = None
    expert: Count | None = None
    data: Count | None = None


class Disaggregation(Strict):
    """Prefill and decode served by separate accelerators."""

    prefill_accelerators: Count | None = None
    decode_accelerators: Count | None = None


class Speculative(Strict):
    method: ShortText | None = Field(
        default=None, description="The method: eagle3, mtp, ngram, draft-model, ...; null when not stated."
    )
    draft_tokens: Count | None = Field(
        default=None,
        description="Tokens drafted per step beyond the one a step always yields, so a step yields at "
        "most 1 + draft_tokens (vLLM's num_speculative_tokens; SGLang's speculative_num_draft_tokens - 1).",
    )
    draft_model: ShortText | None = None
    acceptance_length: Annotated[float, Field(ge=1, le=1000)] | None = Field(
        default=None,
        description="Measured mean tokens a verification step yielded, the bonus token included "
        "(vLLM's spec_decode_acceptance_length, SGLang's accept_length).",
    )


class System(Strict):
    """The system the run used. ``accelerators`` only for a system that mixes parts."""

    name: ShortText | None = Field(default=None, description="The submitter's system name.")
    nodes: Count | None = None
    accelerators_per_node: Count | None = None
    accelerators: list[AcceleratorCount] | None = Field(default=None, min_length=1, max_length=20)
    host_processor: ShortText | None = None
    parallelism: Parallelism | None = None
    disaggregation: Disaggregation | None = None
    speculative: Speculative | None = None


class BenchmarkPrecision(Precision):
    """The formats as the run used them. ``weights`` is the main weight format, null when the source lists
    several (then ``weight_formats`` holds them as listed); ``kv_cache`` is null when the source does not
    say (a benchmark then has no KV figure to compute)."""

    weight_formats: list[Dtype] | None = Field(default=None, min_length=1, max_length=10)
    activations: Dtype | None = None
    kv_cache: Dtype | None = None  # type: ignore[assignment]


class BenchmarkWorkload(Workload):
    """The requests the run served. With ``lengths: mean`` the token counts are means and
    ``distribution`` says how lengths vary; with ``fixed`` every request has them; with ``max``
    they are caps."""

    lengths: Literal["fixed", "mean", "max"] | None = None
    max_output_tokens: int | None = Field(
        default=None,
        ge=1,
        le=2**40,
        description="The most output tokens the benchmark lets any request generate (its max_new_tokens), "
        "whatever ``lengths`` says of the other counts: a cap that bounds the mean output from above.",
    )
    distribution: ShortText | None = None
    request_rate: str | None = Field(
        default=None,
        description="The offered load, e.g. '8 req/s'.",
        json_schema_extra=quantity_schema(Dimension.REQUESTS_PER_SECOND),
    )

    @field_validator("request_rate")
    @classmethod
    def _rate(cls, value: str | None) -> str | None:
        if value is None:
            return None
        return check_quantity(value, (Dimension.REQUESTS_PER_SECOND,), "'request_rate'")


class Constraint(Strict):
    """A latency target the benchmark imposed on the figure (MLPerf's TTFT and TPOT per scenario)."""

    model_config = ConfigDict(
        json_schema_extra=lambda schema: schema.update(allOf=_dimension_rules("metric", "limit"))
    )

    metric: MetricName
    statistic: Statistic
    limit: Annotated[str, Field(min_length=1, max_length=80)] = Field(
        description="The target as written, e.g. '2 s' or '80 ms'.",
        json_schema_extra=quantity_schema(*_all_dimensions()),
    )

    @model_validator(mode="after")
    def _limit_in_metric_dimension(self) -> Constraint:
        check_quantity(self.limit, METRIC_DIMENSIONS[self.metric], f"a '{self.metric}' limit")
        return self


class Metric(Strict):
    """One measured figure: which metric, which statistic, per what, and the quantity as written."""

    model_config = ConfigDict(
        json_schema_extra=lambda schema: schema.update(allOf=_dimension_rules("metric", "stated"))
    )

    metric: MetricName
    statistic: Statistic = Field(
        description="mean, median, a percentile, max, min, or value (a single figure)."
    )
    per: Per = Field(description="Whose figure it is: the whole system, one accelerator, or one request.")
    stated: Annotated[str, Field(min_length=1, max_length=80)] = Field(
        description="The value as written: '36,384.0838 tok/s', '2 s', '8 req/s'.",
        json_schema_extra=quantity_schema(*_all_dimensions()),
    )
    constraints: list[Constraint] = Field(default_factory=list, max_length=20)

    @model_validator(mode="after")
    def _stated_in_metric_dimension(self) -> Metric:
        check_quantity(self.stated, METRIC_DIMENSIONS[self.metric], f"'{self.metric}'")
        return self


class Accuracy(Strict):
    """An accuracy score and the target it had to meet."""

    metric: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_.@-]{0,40}$")] = Field(
        description="rouge1, rougeL, exact_match, gsm8k, ... (lower case)."
    )
    value: float | int
    target: ShortText | None = Field(
        default=None, description="As the source states it: '99.9% of reference'."
    )
    target_value: float | int | None = None
    passed: bool | None = None


METRICS_NEED_RUN_FIELDS = ["engine", "engine_version", "workload", "prefix_cache"]
"""What a measured figure is meaningless without, besides its hardware (the top-level ``hardware`` or
the parts of a mixed system): a number with no model, engine, hardware, precision, workload and
prefix-cache state is not a reproducible benchmark."""

MEASURED_NEEDS_METRICS = "a measured benchmark states at least one figure in 'metrics'"
CLAIMS_NEED_KV = "claims are computed at the run's KV-cache precision: state 'precision.kv_cache'"
CLAIMS_NEED_CONTEXT = (
    "claims are computed at the run's context: state 'context_tokens', or each claim's own 'context_tokens'"
)


def _benchmark_schema(schema: dict[str, Any]) -> None:
    schema["dependentRequired"] = {"metrics": list(METRICS_NEED_RUN_FIELDS)}
    schema["x-messages"] = {"dependentRequired": MEASURED_NEEDS_RUN}
    has_parts = {"required": ["system"], "properties": {"system": {"required": ["accelerators"]}}}
    schema["allOf"] = [
        {
            "if": {"properties": {"scenario": {"const": "sweep-point"}}, "required": ["scenario"]},
            "then": {"required": ["sweep"]},
            "else": {"not": {"required": ["sweep"]}, "x-messages": {"not": SWEEP_ONLY_AT_A_POINT}},
        },
        {
            "if": has_parts,
            "then": {"not": {"required": ["hardware"]}, "x-messages": {"not": MIXED_PARTS_NO_HARDWARE}},
        },
        {
            "if": {"required": ["metrics"]},
            "then": {
                "anyOf": [{"required": ["hardware"]}, has_parts],
                "x-messages": {"anyOf": METRICS_NEED_HARDWARE},
            },
        },
        {
            "if": {
                "properties": {
                    "precision": {
                        "anyOf": [
                            {"not": {"required": ["kv_cache"]}},
                            {"properties": {"kv_cache": {"type": "null"}}},
                        ]
                    }
                }
            },
            "then": {
                "properties": {
                    "claims": {
                        "items": {"required": ["kv_cache"], "properties": {"kv_cache": {"type": "string"}}}
                    }
                }
            },
        },
        {
            "if": {
                "anyOf": [
                    {"not": {"required": ["context_tokens"]}},
                    {"properties": {"context_tokens": {"type": "null"}}},
                ]
            },
            "then": {
                "properties": {
                    "claims": {
                        "items": {
                            "required": ["context_tokens"],
                            "properties": {"context_tokens": {"not": {"type": "null"}}},
                        }
                    }
                }
            },
        },
        {
            "if": {"properties": {"evidence": {"const": "measured"}}, "required": ["evidence"]},
            "then": {"required": ["metrics"], "properties": {"metrics": {"minItems": 1}}},
        },
    ]


class Benchmark(RunShape):
    """A serving measurement (schema version 2): the run shape, then what was measured and how."""

    model_config = ConfigDict(json_schema_extra=_benchmark_schema)

    schema_version: Literal[2] = Field(description="The version of the record format: 2 for benchmarks.")
    kind: Literal["benchmark"]
    precision: BenchmarkPrecision
    context_tokens: ContextTokens | None = Field(
        default=None,
        description="The context the run's cache figures are computed at; left out when the source states "
        "none (the workload's lengths say what is known), and then no cache or memory-fit figure is made.",
    )
    workload: BenchmarkWorkload | None = None
    scenario: Scenario | None = Field(
        default=None, description="How load was offered; null when the source does not say."
    )
    sweep: Sweep | None = None
    system: System | None = None
    metrics: list[Metric] = Field(default_factory=list, max_length=200)
    accuracy: list[Accuracy] = Field(default_factory=list, max_length=50)
    provenance: Provenance | None = Field(
        default=None, description="Required for imported records, optional for hand-written ones."
    )

    @model_validator(mode="after")
    def _fields_agree(self) -> Benchmark:
        for problem in _disagreements(self):
            raise PydanticCustomError("run", problem)
        return self

    def headline(self, metric: str, per: str) -> Metric | None:
        """The figure a single-number column shows for ``metric`` (the runs table's ``measured_*``):
        the first of the record's metrics of that name and ``per`` whose statistic is ``value``, else
        ``mean``, else ``median``; a percentile, a maximum or a minimum is never taken for it."""
        for statistic in HEADLINE_STATISTICS:
            for entry in self.metrics:
                if (entry.metric, entry.per, entry.statistic) == (metric, per, statistic):
                    return entry
        return None

    @property
    def accelerator_count(self) -> int | None:
        """The accelerators the run used: ``hardware_count``, else the sum over a mixed system's parts."""
        if self.hardware_count is not None:
            return self.hardware_count
        parts = self.system.accelerators if self.system else None
        return sum(part.count for part in parts) if parts else None


def _disagreements(record: Benchmark) -> list[str]:
    """The rules across the benchmark's fields that the record breaks, in words."""
    given = record.model_fields_set
    problems: list[str] = []
    if "metrics" in given:
        missing = [name for name in METRICS_NEED_RUN_FIELDS if name not in given]
        if missing:
            problems.append(needs_message(MEASURED_NEEDS_RUN, "metrics", missing))
    system = record.system
    parts = system.accelerators if system else None
    if parts and "hardware" in given:
        problems.append(MIXED_PARTS_NO_HARDWARE)
    if "metrics" in given and "hardware" not in given and not parts:
        problems.append(METRICS_NEED_HARDWARE)
    if record.evidence == "measured" and not record.metrics:
        problems.append(MEASURED_NEEDS_METRICS)
    if (record.scenario == "sweep-point") != (record.sweep is not None):
        problems.append(SWEEP_ONLY_AT_A_POINT)
    if record.precision.kv_cache is None and any(claim.kv_cache is None for claim in record.claims):
        problems.append(CLAIMS_NEED_KV)
    if record.context_tokens is None and any(claim.context_tokens is None for claim in record.claims):
        problems.append(CLAIMS_NEED_CONTEXT)
    return problems
