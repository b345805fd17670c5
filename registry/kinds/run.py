"""The run shape shared by ``kv-efficiency`` and ``benchmark`` records (model, engine, hardware,
precision, workload, context, prefix-cache state), so that one query filters both, the claims a run
states, and the ``kv-efficiency`` kind (with its ``measured_*`` figures). The benchmark kind, which
states typed ``metrics`` instead, is :mod:`registry.kinds.benchmark`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from registry.engine.units import Dimension, parse_context
from registry.engine.variants import ClaimQuantity
from registry.kinds.fields import (
    LAYOUT_PATTERN,
    ContextTokens,
    Dtype,
    Envelope,
    Reason,
    RecordId,
    ShortText,
    Strict,
    check_context,
    check_quantity,
    measured_validator,
    quantity_schema,
)

VERSUS_ONLY_FOR_RATIO = "'versus' belongs to 'ratio' claims only"
MEASURED_NEEDS_RUN = "'{field}' is a measured figure and needs the run around it: add {missing}"
"""The run's rules across fields, in words: the pydantic validators raise them, and the JSON Schema
carries them (``x-messages``; ``{field}`` and ``{missing}`` are filled in) for the check to say when the
schema finds the same fault."""

_CLAIM_DIMENSIONS: dict[str, tuple[Dimension, ...]] = {
    "bytes_per_token": (Dimension.BYTES, Dimension.BYTES_PER_TOKEN),
    "bytes_per_sequence": (Dimension.BYTES,),
    "bytes_total": (Dimension.BYTES,),
    "fixed_bytes": (Dimension.BYTES,),
    "ratio": (Dimension.RATIO,),
}
"""Which dimensions a stated value may carry for each claimed quantity."""


class Precision(Strict):
    """Weights, KV cache and recurrent state are separate controls, so they are separate fields."""

    weights: Dtype | None = None
    kv_cache: Dtype
    recurrent_state: Dtype | None = None


class Workload(Strict):
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
                "then": {"properties": {"stated": quantity_schema(*dimensions)}},
            }
        )
    rules.append(
        {
            "if": {"properties": {"quantity": {"const": "ratio"}}, "required": ["quantity"]},
            "then": {"required": ["versus"]},
            "else": {"not": {"required": ["versus"]}, "x-messages": {"not": VERSUS_ONLY_FOR_RATIO}},
        }
    )
    schema["allOf"] = rules


class Claim(Strict):
    """A number a person stated, with what it is a number of.

    ``quantity`` with ``variant`` says what is claimed (``actual`` is the model as served under the
    record's layout; other variants are counterfactuals defined in the docs). A ``ratio`` compares
    ``variant`` to ``versus``. ``formula`` is the author's own arithmetic over named geometry fields.
    """

    model_config = ConfigDict(json_schema_extra=_claim_schema)

    quantity: ClaimQuantity = Field(
        description="What the number is of, at the claim's context: bytes_per_token is what one more "
        "token adds to one sequence's cache there (a sliding window not yet full at that context adds "
        "its entry; once every window is full, only what keeps growing), bytes_per_sequence one "
        "sequence's whole cache, bytes_total the whole batch's, fixed_bytes the part no context changes "
        "(recurrent state), ratio the bytes_per_token of variant over that of versus."
    )
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
        json_schema_extra=quantity_schema(Dimension.BYTES, Dimension.BYTES_PER_TOKEN, Dimension.RATIO),
    )
    formula: Annotated[str, Field(min_length=1, max_length=500)] | None = None
    basis: Annotated[str, Field(max_length=2000)] | None = None

    _context = field_validator("context_tokens")(classmethod(lambda cls, v: check_context(v)))

    @model_validator(mode="after")
    def _stated_matches_quantity(self) -> Claim:
        check_quantity(self.stated, _CLAIM_DIMENSIONS[self.quantity], f"'{self.quantity}'")
        if self.quantity == "ratio" and self.versus is None:
            raise PydanticCustomError(
                "claim", "a 'ratio' claim names the variant it is compared with in 'versus'"
            )
        if self.quantity != "ratio" and self.versus is not None:
            raise PydanticCustomError("claim", VERSUS_ONLY_FOR_RATIO)
        return self


class RunShape(Envelope):
    """The run shape shared by kv-efficiency and benchmark records, so one query filters both."""

    model: RecordId = Field(description="The model record, e.g. models/deepseek-v3.")
    engine: RecordId | None = Field(default=None, description="The engine record, e.g. engines/vllm.")
    engine_version: ShortText | None = None
    layout: Annotated[str, Field(pattern=LAYOUT_PATTERN)] = Field(
        description="The engine layout the numbers assume: ideal, vllm, sglang, trtllm, llama.cpp, transformers[@VERSION]."
    )
    hardware: RecordId | None = Field(
        default=None, description="The hardware record, e.g. hardware/h100-sxm."
    )
    hardware_count: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description=(
            "Units of the hardware record the run used: accelerators for a record of one device, racks"
            " for a rack record (its `devices` each). A run on part of a rack names the per-device record."
        ),
    )
    precision: Precision
    context_tokens: ContextTokens | None
    beyond_max_context: Reason | None = Field(
        default=None,
        description=(
            "Why a context the record states, or its workload's input and output tokens together, is"
            " longer than its model's max_context_tokens (a paper's extrapolation past the trained length,"
            " say): the reason silences R012 beyond-max-context and the site shows it beside the figure."
        ),
    )
    batch: int = Field(default=1, ge=1, le=1_000_000)
    prefix_cache: Literal["none", "cold", "warm"] = "none"
    workload: Workload | None = None
    claims: list[Claim] = Field(default_factory=list, max_length=500)

    _context = field_validator("context_tokens")(classmethod(lambda cls, v: check_context(v)))

    @property
    def context(self) -> int | None:
        """The context in tokens; None for a benchmark whose source states none."""
        return None if self.context_tokens is None else parse_context(self.context_tokens)


class KvEfficiency(RunShape):
    """An architectural or measured fact about KV-cache and state memory."""

    schema_version: Literal[1] = Field(description="The version of the record format.")
    kind: Literal["kv-efficiency"]
    context_tokens: ContextTokens
    measured_ttft: str | None = Field(
        default=None,
        description="Time to first token, e.g. '8.6 s'.",
        json_schema_extra=quantity_schema(Dimension.SECONDS),
    )
    measured_tpot: str | None = Field(
        default=None,
        description="Time per output token, e.g. '35 ms'.",
        json_schema_extra=quantity_schema(Dimension.SECONDS),
    )
    measured_throughput: str | None = Field(
        default=None,
        description="Output throughput, e.g. '1,234 tok/s'.",
        json_schema_extra=quantity_schema(Dimension.TOKENS_PER_SECOND),
    )
    measured_memory: str | None = Field(
        default=None,
        description="Observed cache memory, e.g. '8.6 GiB'.",
        json_schema_extra=quantity_schema(Dimension.BYTES),
    )

    _ttft = measured_validator((Dimension.SECONDS,), "measured_ttft")
    _tpot = measured_validator((Dimension.SECONDS,), "measured_tpot")
    _throughput = measured_validator((Dimension.TOKENS_PER_SECOND,), "measured_throughput")
    _memory = measured_validator((Dimension.BYTES,), "measured_memory")


MEASURED_FIELDS = ("measured_ttft", "measured_tpot", "measured_throughput", "measured_memory")
"""The figures a kv-efficiency record may state beside its claims; a benchmark states ``metrics``."""
