"""What every record kind is made of: the field types and patterns, the strict base class, the
envelope of common fields (id, title, evidence, sources, notes, ...) and the quantity checks the kinds
share. YAML keys equal field names, so a validation error's location maps mechanically to a line."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
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
"""The record format's version of every kind but those in :data:`SCHEMA_VERSIONS`' exceptions."""

SCHEMA_VERSIONS: dict[str, int] = {
    "model": 1,
    "kv-efficiency": 1,
    "benchmark": 2,
    "engine": 1,
    "hardware": 1,
}
"""The current ``schema_version`` of each kind: the version is per kind, and a kind's version moves only
when its own fields change (``registry migrate`` rewrites a record of an older version)."""

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
REPOSITORY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$"
"""A repository as ``owner/name`` (Hugging Face and GitHub spell them alike), never a URL."""
COMMIT_PATTERN = r"^[0-9a-f]{7,64}$"
"""A commit: a git hash, full or abbreviated (SHA-1 or SHA-256); a branch or tag names no fixed content."""
ENGINE_LAYOUT_NAMES = ("ideal", "vllm", "sglang", "llama.cpp", "transformers", "trtllm")
"""The engine layouts a record may name, each optionally with a version (``transformers@4``)."""
LAYOUT_PATTERN = r"^(ideal|vllm|sglang|llama\.cpp|transformers|trtllm)(@[0-9][0-9A-Za-z.]{0,19})?$"
DTYPE_NAMES = (
    "fp32", "bf16", "fp16", "fp8", "fp8_e4m3", "fp8_e5m2", "int8", "int4", "fp4", "nvfp4", "mxfp4",
    "q8_0", "q4_0", "q4_k", "q5_k", "q6_k",
)  # fmt: skip
"""The dtypes a record may name: what a message lists when a dtype is not one of them."""
DTYPE_PATTERN = rf"^({'|'.join(DTYPE_NAMES)})$"

RecordId = Annotated[
    str,
    Field(
        pattern=ID_PATTERN, max_length=120, description="A record id: its path under records/ without .yaml."
    ),
]
ShortText = Annotated[str, Field(min_length=1, max_length=300)]
Reason = Annotated[str, Field(min_length=10, max_length=2000, pattern=r"\S")]
"""A reason a record gives for departing from a rule the check holds it to, in words: a flag would say
nothing to a reader."""
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
ResultSource = Literal[
    "mlperf",
    "vllm-bench",
    "sglang-bench",
    "guidellm",
    "genai-perf",
    "aiperf",
    "inference-perf",
    "llm-d",
    "inferencex",
    "manual",
]
"""Where a benchmark result was read: MLPerf's tables, a serving tool's file, or by hand (``manual``)."""
DateText = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="A date, YYYY-MM-DD.")]


class Strict(BaseModel):
    # defer_build: a class builds its validator on first use, so a check that reads a few records (of
    # what changed) does not build those of every kind
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)


def check_quantity(value: str, allowed: tuple[Dimension, ...], what: str) -> str:
    try:
        quantity = parse_quantity(value)
    except QuantityError as error:
        raise PydanticCustomError("quantity", str(error)) from None
    if quantity.dimension not in allowed:
        names = " or ".join(d.value for d in allowed)
        message = f"{what} is measured in {names}, but {value!r} is in {quantity.dimension.value}"
        raise PydanticCustomError("quantity", message)
    return value


def quantity_schema(*dimensions: Dimension) -> dict[str, Any]:
    """The JSON Schema side of a quantity field: the parser's grammar as a pattern."""
    return {"pattern": quantity_pattern(*dimensions), "x-dimensions": [d.value for d in dimensions]}


def check_context(value: int | str | None) -> int | str | None:
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


class Source(Strict):
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


class Erratum(Strict):
    """A correction kept beside the record instead of overwriting its history."""

    date: DateText
    field: ShortText = Field(description="What was corrected: a claim (claims[2].stated) or a field name.")
    old: ShortText
    new: ShortText
    reason: Annotated[str, Field(min_length=1, max_length=2000)]
    code: ShortText | None = Field(
        default=None, description="The diagnostic or misapplication that found it."
    )


class Envelope(Strict):
    schema_version: int = Field(description="The version of the record format (per kind).")
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


def measured_validator(dimensions: tuple[Dimension, ...], what: str) -> Any:
    """A validator for the optional quantity field ``what``, in one of ``dimensions``."""

    def check(value: str | None) -> str | None:
        return None if value is None else check_quantity(value, dimensions, what)

    return field_validator(what)(lambda cls, v: check(v))


def needs_message(template: str, name: str, missing: list[str]) -> str:
    """A rule's words for a field ``name`` given without the fields it needs (``missing``)."""
    return template.format(field=name, missing=", ".join(repr(m) for m in missing))


WIKI_LINK = re.compile(r"\[\[([^\[\]\n]{1,200})\]\]")
