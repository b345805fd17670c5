"""The record model: one pydantic class per kind, and the parts they share.

The committed JSON Schemas in ``schemas/`` are generated from these classes (``registry schema``), so the
published contract and the code cannot drift apart. YAML keys equal field names, so a validation error's
location maps mechanically to a line in the file.

Quantities are kept as the text a person wrote ("70,272 B", "~8.6 GiB"); the validators only check that
they parse and have the right dimension, the exact value is read again where it is used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator
from pydantic_core import PydanticCustomError

from registry.engine.units import (
    CONTEXT_PATTERN,
    Dimension,
    QuantityError,
    parse_context,
    parse_quantity,
    quantity_pattern,
)

SCHEMA_VERSION = 1

MAX_LAYERS = 2_000
"""The most layers a model's explicit layout may have in all (the largest published stacks have a few
hundred); the config adapters use the same bound (``registry.engine.adapters._common.MAX_LAYERS``). The
engine works layer by layer for every claim and every catalogued mistake, so the bound is what keeps a
check of a hostile record to seconds."""

KINDS: dict[str, str] = {
    "model": "models",
    "kv-efficiency": "kv-efficiency",
    "benchmark": "benchmarks",
    "engine": "engines",
    "hardware": "hardware",
}
"""Each kind and the collection folder under ``records/`` that holds it."""

ID_PATTERN = r"^(models|kv-efficiency|benchmarks|engines|hardware)/[a-z0-9][a-z0-9._-]{0,99}$"
SLUG_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,99}$"
LAYOUT_PATTERN = r"^(ideal|vllm|sglang|llama\.cpp|transformers|trtllm)(@[0-9][0-9A-Za-z.]{0,19})?$"
DTYPE_PATTERN = r"^(fp32|bf16|fp16|fp8|fp8_e4m3|fp8_e5m2|int8|int4|fp4|nvfp4|mxfp4|q8_0|q4_0|q4_k|q5_k|q6_k)$"

RecordId = Annotated[
    str,
    Field(
        pattern=ID_PATTERN, max_length=120, description="A record id: its path under records/ without .yaml."
    ),
]
ShortText = Annotated[str, Field(min_length=1, max_length=300)]
Markdown = Annotated[
    str,
    Field(
        max_length=20_000,
        description="GitHub-Flavored Markdown (raw HTML is left out when shown); may contain [[id]] links.",
    ),
]
Url = Annotated[str, Field(pattern=r"""^https://[^\s<>"']{1,500}$""", description="An https URL.")]
Dtype = Annotated[
    str,
    Field(
        pattern=DTYPE_PATTERN,
        description="A numeric format: fp32, bf16, fp16, fp8 (e4m3/e5m2), int8, int4, fp4, or a llama.cpp block format such as q8_0.",
    ),
]
DateText = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="A date, YYYY-MM-DD.")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _quantity(value: str, allowed: tuple[Dimension, ...], what: str) -> str:
    try:
        quantity = parse_quantity(value)
    except QuantityError as error:
        raise PydanticCustomError("quantity", str(error)) from None
    if quantity.dimension not in allowed:
        names = " or ".join(d.value for d in allowed)
        message = f"{what} is measured in {names}, but {value!r} is in {quantity.dimension.value}"
        raise PydanticCustomError("quantity", message)
    return value


def _quantity_schema(*dimensions: Dimension) -> dict[str, Any]:
    """The JSON Schema side of a quantity field: the parser's grammar as a pattern."""
    return {"pattern": quantity_pattern(*dimensions), "x-dimensions": [d.value for d in dimensions]}


def _check_context(value: int | str | None) -> int | str | None:
    if value is not None:
        try:
            parse_context(value)
        except QuantityError as error:
            raise PydanticCustomError("quantity", str(error)) from None
    return value


ContextTokens = Annotated[
    Annotated[int, Field(ge=1, le=2**40)]
    | Annotated[str, Field(pattern=CONTEXT_PATTERN, max_length=40, json_schema_extra={"x-context": True})],
    Field(description="A context length: 131072, 131,072, 128K (= 131,072) or 1M (= 1,048,576)."),
]


class Source(_Strict):
    """Where a fact comes from, precisely enough to find it again."""

    title: ShortText
    url: Url
    publisher: ShortText | None = None
    section: ShortText | None = Field(default=None, description="Section, heading or page of the source.")
    table: ShortText | None = Field(default=None, description="Table or figure in the source.")
    file: ShortText | None = Field(default=None, description="File inside a repository.")
    revision: ShortText | None = Field(
        default=None, description="Commit, tag or version the file is read at."
    )
    accessed: DateText | None = None
    quote: Annotated[str, Field(max_length=2000)] | None = Field(
        default=None, description="The words that state the fact."
    )


class Erratum(_Strict):
    """A correction kept beside the record instead of overwriting its history."""

    date: DateText
    field: ShortText = Field(description="What was corrected: a claim (claims[2].stated) or a field name.")
    old: ShortText
    new: ShortText
    reason: Annotated[str, Field(min_length=1, max_length=2000)]
    code: ShortText | None = Field(
        default=None, description="The diagnostic or misapplication that found it."
    )


class _Envelope(_Strict):
    schema_version: Literal[1] = Field(description="The version of the record format.")
    id: RecordId
    title: ShortText
    evidence: Literal["architectural", "measured", "source-reported", "derived"] = Field(
        description="architectural: follows from the published geometry; measured: observed in a run; "
        "source-reported: stated by a source without the means to verify; derived: computed by the engine."
    )
    sources: list[Source] = Field(min_length=1, max_length=50)
    notes: Markdown | None = None
    methodology: Markdown | None = None
    related: list[RecordId] = Field(default_factory=list, max_length=200)
    tags: list[Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,40}$")]] = Field(
        default_factory=list, max_length=50
    )
    errata: list[Erratum] = Field(default_factory=list, max_length=100)


# ---------------------------------------------------------------- models


class ConfigSource(_Strict):
    """Where the verbatim ``config`` was read: a repository, a file in it, and the revision."""

    repository: ShortText = Field(description="owner/name of the repository that publishes the config.")
    file: ShortText = Field(default="config.json")
    revision: Annotated[str, Field(min_length=4, max_length=80)] = Field(description="Commit or tag.")
    url: Url | None = None


Mechanism = Literal[
    "attention", "sliding-window", "chunked", "mla", "recurrent", "compressed", "shared", "no-cache"
]


class LayerGroupSpec(_Strict):
    """A group of layers that share one cache mechanism, stated when no config is public.

    Unknown dimensions are null: the engine then says what it cannot compute instead of guessing.
    """

    layers: int = Field(ge=1, le=10_000, description="How many layers the group has.")
    mechanism: Mechanism
    variant: ShortText | None = Field(
        default=None, description="e.g. kda, gated-deltanet, mamba2, gated-mla, csa, hca."
    )
    num_kv_heads: int | None = Field(default=None, ge=1, le=100_000)
    head_dim: int | None = Field(default=None, ge=1, le=100_000, description="Key head size.")
    v_head_dim: int | None = Field(
        default=None, ge=1, le=100_000, description="Value head size, when it differs."
    )
    window: int | None = Field(default=None, ge=1, le=2**40)
    chunk: int | None = Field(default=None, ge=1, le=2**40)
    kv_lora_rank: int | None = Field(default=None, ge=1, le=100_000)
    qk_rope_head_dim: int | None = Field(default=None, ge=0, le=100_000)
    compress_ratio: int | None = Field(default=None, ge=1, le=1_000_000)
    index_head_dim: int | None = Field(
        default=None, ge=1, le=100_000, description="Sparse-attention indexer key size."
    )
    state_heads: int | None = Field(default=None, ge=1, le=100_000)
    state_k_dim: int | None = Field(default=None, ge=1, le=100_000)
    state_v_dim: int | None = Field(default=None, ge=1, le=100_000)
    conv_kernel: int | None = Field(default=None, ge=1, le=1_000)
    conv_channels: int | None = Field(default=None, ge=1, le=10_000_000)


class Model(_Envelope):
    """A model's identity and geometry: its published config verbatim, or an explicit layout."""

    kind: Literal["model"]
    name: ShortText
    org: ShortText
    family: ShortText | None = None
    params_total_b: float | None = Field(
        default=None, gt=0, le=1e6, description="Total parameters, billions."
    )
    params_active_b: float | None = Field(
        default=None, gt=0, le=1e6, description="Parameters active per token, billions."
    )
    release_date: DateText | None = None
    license: ShortText | None = None
    max_context_tokens: int | None = Field(default=None, ge=1, le=2**40)
    config_source: ConfigSource | None = None
    config: dict[str, Any] | None = Field(
        default=None, description="The published config.json fields, verbatim."
    )
    layout: list[LayerGroupSpec] | None = Field(default=None, min_length=1, max_length=1000)

    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [{"required": ["config"]}, {"required": ["layout"]}],
            "dependentRequired": {"config": ["config_source"]},
        }
    )

    @field_validator("layout")
    @classmethod
    def _layers_are_bounded(cls, layout: list[LayerGroupSpec] | None) -> list[LayerGroupSpec] | None:
        """At most :data:`MAX_LAYERS` in all: 1,000 groups of 10,000 layers each, a 70 KB file, would keep
        one check busy for minutes."""
        total = sum(group.layers for group in layout or [])
        if total > MAX_LAYERS:
            message = f"the layout has {total:,} layers in all; a model has at most {MAX_LAYERS:,}"
            raise PydanticCustomError("too_many_layers", message)
        return layout

    @model_validator(mode="after")
    def _geometry_is_given(self) -> Model:
        if self.config is None and self.layout is None:
            raise PydanticCustomError(
                "geometry",
                "a model states its geometry: a verbatim 'config' with 'config_source', or a 'layout'",
            )
        if self.config is not None and self.config_source is None:
            raise PydanticCustomError(
                "geometry",
                "'config' needs 'config_source' (repository, file, revision) saying where it was read",
            )
        return self


# ---------------------------------------------------------------- runs

ClaimQuantity = Literal["bytes_per_token", "bytes_per_sequence", "bytes_total", "fixed_bytes", "ratio"]

_CLAIM_DIMENSIONS: dict[str, tuple[Dimension, ...]] = {
    "bytes_per_token": (Dimension.BYTES, Dimension.BYTES_PER_TOKEN),
    "bytes_per_sequence": (Dimension.BYTES,),
    "bytes_total": (Dimension.BYTES,),
    "fixed_bytes": (Dimension.BYTES,),
    "ratio": (Dimension.RATIO,),
}
"""Which dimensions a stated value may carry for each claimed quantity."""


class Precision(_Strict):
    """Weights, KV cache and recurrent state are separate controls, so they are separate fields."""

    weights: Dtype | None = None
    kv_cache: Dtype
    recurrent_state: Dtype | None = None


class Workload(_Strict):
    description: Annotated[str, Field(max_length=2000)] | None = None
    input_tokens: int | None = Field(default=None, ge=0, le=2**40)
    output_tokens: int | None = Field(default=None, ge=0, le=2**40)
    requests: int | None = Field(default=None, ge=1, le=2**40)
    concurrency: int | None = Field(default=None, ge=1, le=2**30)
    dataset: ShortText | None = None


def _claim_schema(schema: dict[str, Any]) -> None:
    rules: list[dict[str, Any]] = []
    for quantity, dimensions in _CLAIM_DIMENSIONS.items():
        rules.append(
            {
                "if": {"properties": {"quantity": {"const": quantity}}, "required": ["quantity"]},
                "then": {"properties": {"stated": _quantity_schema(*dimensions)}},
            }
        )
    rules.append(
        {
            "if": {"properties": {"quantity": {"const": "ratio"}}, "required": ["quantity"]},
            "then": {"required": ["versus"]},
            "else": {"not": {"required": ["versus"]}},
        }
    )
    schema["allOf"] = rules


class Claim(_Strict):
    """A number a person stated, with what it is a number of.

    ``quantity`` with ``variant`` says what is claimed (``actual`` is the model as served under the
    record's layout; other variants are counterfactuals defined in the docs). A ``ratio`` compares
    ``variant`` to ``versus``. ``formula`` is the author's own arithmetic over named geometry fields.
    """

    model_config = ConfigDict(json_schema_extra=_claim_schema)

    quantity: ClaimQuantity
    variant: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,40}$")] = "actual"
    versus: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,40}$")] | None = None
    context_tokens: ContextTokens | None = Field(
        default=None, description="Overrides the run's context for this claim."
    )
    kv_cache: Dtype | None = Field(
        default=None, description="Overrides the run's KV-cache precision for this claim."
    )
    stated: Annotated[str, Field(min_length=1, max_length=80)] = Field(
        description="The value as written: '70,272 B', '~8.6 GiB', '85.3x'.",
        json_schema_extra=_quantity_schema(Dimension.BYTES, Dimension.BYTES_PER_TOKEN, Dimension.RATIO),
    )
    formula: Annotated[str, Field(min_length=1, max_length=500)] | None = None
    basis: Annotated[str, Field(max_length=2000)] | None = None

    _context = field_validator("context_tokens")(classmethod(lambda cls, v: _check_context(v)))

    @model_validator(mode="after")
    def _stated_matches_quantity(self) -> Claim:
        _quantity(self.stated, _CLAIM_DIMENSIONS[self.quantity], f"'{self.quantity}'")
        if self.quantity == "ratio" and self.versus is None:
            raise PydanticCustomError(
                "claim", "a 'ratio' claim names the variant it is compared with in 'versus'"
            )
        if self.quantity != "ratio" and self.versus is not None:
            raise PydanticCustomError("claim", "'versus' belongs to 'ratio' claims only")
        return self


def _measured(dimensions: tuple[Dimension, ...], what: str) -> Any:
    def check(value: str | None) -> str | None:
        return None if value is None else _quantity(value, dimensions, what)

    return field_validator(what)(lambda cls, v: check(v))


class _Run(_Envelope):
    """The run shape shared by kv-efficiency and benchmark records, so one query filters both."""

    model: RecordId = Field(description="The model record, e.g. models/deepseek-v3.")
    engine: RecordId | None = Field(default=None, description="The engine record, e.g. engines/vllm.")
    engine_version: ShortText | None = None
    layout: Annotated[str, Field(pattern=LAYOUT_PATTERN)] = Field(
        description="The engine layout the numbers assume: ideal, vllm, sglang, llama.cpp, transformers[@VERSION]."
    )
    hardware: RecordId | None = Field(
        default=None, description="The hardware record, e.g. hardware/h100-sxm."
    )
    hardware_count: int | None = Field(default=None, ge=1, le=1_000_000)
    precision: Precision
    context_tokens: ContextTokens
    batch: int = Field(default=1, ge=1, le=1_000_000)
    prefix_cache: Literal["none", "cold", "warm"] = "none"
    workload: Workload | None = None
    claims: list[Claim] = Field(default_factory=list, max_length=500)
    measured_ttft: str | None = Field(
        default=None,
        description="Time to first token, e.g. '8.6 s'.",
        json_schema_extra=_quantity_schema(Dimension.SECONDS),
    )
    measured_tpot: str | None = Field(
        default=None,
        description="Time per output token, e.g. '35 ms'.",
        json_schema_extra=_quantity_schema(Dimension.SECONDS),
    )
    measured_throughput: str | None = Field(
        default=None,
        description="Output throughput, e.g. '1,234 tok/s'.",
        json_schema_extra=_quantity_schema(Dimension.TOKENS_PER_SECOND),
    )
    measured_memory: str | None = Field(
        default=None,
        description="Observed cache memory, e.g. '8.6 GiB'.",
        json_schema_extra=_quantity_schema(Dimension.BYTES),
    )

    _ttft = _measured((Dimension.SECONDS,), "measured_ttft")
    _tpot = _measured((Dimension.SECONDS,), "measured_tpot")
    _throughput = _measured((Dimension.TOKENS_PER_SECOND,), "measured_throughput")
    _memory = _measured((Dimension.BYTES,), "measured_memory")

    _context = field_validator("context_tokens")(classmethod(lambda cls, v: _check_context(v)))

    @property
    def context(self) -> int:
        return parse_context(self.context_tokens)


class KvEfficiency(_Run):
    """An architectural or measured fact about KV-cache and state memory."""

    kind: Literal["kv-efficiency"]


MEASURED_FIELDS = ("measured_ttft", "measured_tpot", "measured_throughput", "measured_memory")
RUN_CONTEXT_FIELDS = ["engine", "engine_version", "hardware", "workload", "prefix_cache"]
"""What a measured figure is meaningless without: a number with no model, engine, hardware, precision,
workload and prefix-cache state is not a reproducible benchmark."""


class BenchmarkPrecision(Precision):
    """A measured run names its weight precision too: it changes both memory and speed."""

    weights: Dtype


class Benchmark(_Run):
    """A serving measurement; every measured figure needs the run around it."""

    model_config = ConfigDict(
        json_schema_extra={
            "dependentRequired": {name: list[JsonValue](RUN_CONTEXT_FIELDS) for name in MEASURED_FIELDS}
        }
    )

    kind: Literal["benchmark"]
    precision: BenchmarkPrecision

    @model_validator(mode="after")
    def _measured_figures_have_their_run(self) -> Benchmark:
        for name in MEASURED_FIELDS:
            if name in self.model_fields_set:
                missing = [field for field in RUN_CONTEXT_FIELDS if field not in self.model_fields_set]
                if missing:
                    raise PydanticCustomError("run", _needs(name, missing))
        return self


def _needs(name: str, missing: list[str]) -> str:
    return f"'{name}' is a measured figure and needs the run around it: add {', '.join(repr(m) for m in missing)}"


# ---------------------------------------------------------------- engines and hardware


class Capability(_Strict):
    supported: bool | None = Field(description="null when no source says either way.")
    since: ShortText | None = Field(default=None, description="The version that introduced it.")
    detail: Annotated[str, Field(max_length=2000)] | None = None
    source: Url | None = None


class Engine(_Envelope):
    """A serving engine or library, and which cache mechanisms it handles natively."""

    kind: Literal["engine"]
    name: ShortText
    repository: ShortText
    version: ShortText = Field(description="The release the capabilities were read at.")
    layout: Annotated[str, Field(pattern=LAYOUT_PATTERN)] | None = Field(
        default=None, description="The engine layout key the formula engine uses for it, if any."
    )
    capabilities: dict[
        Literal[
            "mla_decode",
            "fp8_kv",
            "sliding_window",
            "hybrid_state",
            "prefix_caching",
            "paged_kv",
            "quantized_kv",
        ],
        Capability,
    ] = Field(default_factory=dict)


class Hardware(_Envelope):
    """An accelerator or a system of them, with its memory from the vendor's datasheet."""

    kind: Literal["hardware"]
    name: ShortText
    vendor: ShortText
    devices: int = Field(
        default=1, ge=1, le=1_000_000, description="Accelerators in one unit of this record."
    )
    memory_per_device: str = Field(
        description="As the datasheet writes it, e.g. '80 GB' or '192 GB'.",
        json_schema_extra=_quantity_schema(Dimension.BYTES),
    )
    bandwidth_per_device: str | None = Field(
        default=None,
        description="e.g. '3.35 TB/s'.",
        json_schema_extra=_quantity_schema(Dimension.BYTES_PER_SECOND),
    )

    _memory = _measured((Dimension.BYTES,), "memory_per_device")
    _bandwidth = _measured((Dimension.BYTES_PER_SECOND,), "bandwidth_per_device")


Record = Model | KvEfficiency | Benchmark | Engine | Hardware

MODEL_CLASSES: dict[str, type[_Envelope]] = {
    "model": Model,
    "kv-efficiency": KvEfficiency,
    "benchmark": Benchmark,
    "engine": Engine,
    "hardware": Hardware,
}

WIKI_LINK = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")


def record_json(value: BaseModel | Sequence[BaseModel]) -> str:
    """A record, or a list of a record's parts (its sources), as compact JSON in the shape of its JSON
    Schema: fields left unset are omitted, Unicode kept as is. Encoded by pydantic's own serializer,
    about three times faster than dumping to Python values and encoding those (0.07 s against 0.18 s
    for 10,000 records); the values are the same, only a float may be spelled differently (``0.00001``
    for ``1e-05``)."""
    if isinstance(value, BaseModel):
        return value.model_dump_json(exclude_none=True)
    return "[" + ",".join(item.model_dump_json(exclude_none=True) for item in value) + "]"
