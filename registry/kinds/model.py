"""The ``model`` kind: a model's identity and geometry, its published config verbatim or an explicit
layout of layer groups when no config is public."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from registry.kinds.fields import (
    COMMIT_PATTERN,
    REPOSITORY_PATTERN,
    DateText,
    Envelope,
    Reason,
    ShortText,
    Strict,
    Url,
)

GEOMETRY_MISSING = "a model states its geometry: a verbatim 'config' with 'config_source', or a 'layout'"
CONFIG_NEEDS_SOURCE = "'config' needs 'config_source' (repository, file, revision) saying where it was read"
"""The model's rules across fields, in words: the pydantic validators raise them, and the JSON Schema
carries them (``x-messages``) for the check to say when the schema finds the same fault."""

_COMMIT = re.compile(COMMIT_PATTERN)


def revision_problem(revision: str) -> str | None:
    """Why a config's ``revision`` is not a commit (a branch such as ``main`` or a tag moves), or None for
    a git hash: the words ``registry check`` (R010) and ``registry import-config`` both use."""
    if _COMMIT.fullmatch(revision):
        return None
    return (
        f"revision {revision!r} is not a commit: a branch or tag can move, so the config it names may change"
    )


MAX_LAYERS = 2_000
"""The most layers a model's explicit layout may have in all (the largest published stacks have a few
hundred); the config adapters use the same bound (``registry.engine.adapters._common.MAX_LAYERS``). The
engine works layer by layer for every claim and every catalogued mistake, so the bound is what keeps a
check of a hostile record short."""


class ConfigSource(Strict):
    """Where the verbatim ``config`` was read: a repository, a file in it, and the revision."""

    repository: Annotated[str, Field(pattern=REPOSITORY_PATTERN)] = Field(
        description="owner/name of the repository that publishes the config (meta-llama/Llama-3.1-8B), "
        "not a URL."
    )
    file: ShortText = Field(default="config.json")
    revision: Annotated[str, Field(min_length=4, max_length=80)] = Field(
        description="The commit the config was read at (a git hash); a branch or tag draws a warning, "
        "since it names no fixed content."
    )
    url: Url | None = None


Mechanism = Literal[
    "attention", "sliding-window", "chunked", "mla", "recurrent", "compressed", "shared", "no-cache"
]


class LayerGroupSpec(Strict):
    """A group of layers that share one cache mechanism, stated when no config is public.

    Unknown dimensions are null: the engine then says what it cannot compute instead of guessing.
    """

    layers: int = Field(ge=1, le=10_000, description="How many layers the group has.")
    mechanism: Mechanism = Field(
        description="How the group's layers cache: attention (full, any number of KV heads), "
        "sliding-window, chunked, mla (a latent plus a decoupled RoPE key), recurrent (a fixed state per "
        "sequence: KDA, gated DeltaNet, Mamba), compressed (a sequence-compressed cache), shared (reuses "
        "another layer's cache) or no-cache."
    )
    variant: ShortText | None = Field(
        default=None, description="e.g. kda, gated-deltanet, mamba2, gated-mla, csa, hca."
    )
    num_kv_heads: int | None = Field(
        default=None, ge=1, le=100_000, description="Key and value heads cached per layer (attention kinds)."
    )
    head_dim: int | None = Field(
        default=None, ge=1, le=100_000, description="Key head size (attention kinds)."
    )
    v_head_dim: int | None = Field(
        default=None, ge=1, le=100_000, description="Value head size, when it differs from head_dim."
    )
    window: int | None = Field(
        default=None,
        ge=1,
        le=2**40,
        description="Tokens a sliding-window layer keeps (sliding-window); for a compressed "
        "group, the uncompressed local window each of its layers also keeps.",
    )
    chunk: int | None = Field(
        default=None, ge=1, le=2**40, description="Tokens of a chunked-attention layer's chunk (chunked)."
    )
    kv_lora_rank: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="The MLA latent's size, cached per token (mla); on a sliding-window group whose key "
        "is also its value, that vector's part without RoPE, for the layouts that store it once "
        "(DeepSeek-V4's sliding-only layers under ideal, sglang and vllm).",
    )
    qk_rope_head_dim: int | None = Field(
        default=None,
        ge=0,
        le=100_000,
        description="The decoupled RoPE key's size, cached beside the latent (mla; and a sliding-window "
        "group's, with kv_lora_rank).",
    )
    compress_ratio: int | None = Field(
        default=None,
        ge=1,
        le=1_000_000,
        description="Tokens folded into one cache entry (compressed); each entry is shaped "
        "like an mla latent when kv_lora_rank is given, else like attention's K and V.",
    )
    index_head_dim: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="Key size of a sparse-attention indexer, one key per cache entry (mla, compressed).",
    )
    state_heads: int | None = Field(
        default=None, ge=1, le=100_000, description="Heads of the recurrent state (recurrent)."
    )
    state_k_dim: int | None = Field(
        default=None, ge=1, le=100_000, description="Key size of each state head (recurrent)."
    )
    state_v_dim: int | None = Field(
        default=None, ge=1, le=100_000, description="Value size of each state head (recurrent)."
    )
    conv_kernel: int | None = Field(
        default=None,
        ge=1,
        le=1_000,
        description="Width of the short convolution before the recurrence; its state keeps kernel - 1 "
        "positions (recurrent).",
    )
    conv_channels: int | None = Field(
        default=None,
        ge=1,
        le=10_000_000,
        description="Channels the short convolution runs over; null when the source does not say, which "
        "leaves the convolution state not computable (recurrent).",
    )
    layer_indices: list[Annotated[int, Field(ge=0, lt=MAX_LAYERS)]] | None = Field(
        default=None,
        max_length=MAX_LAYERS,
        description=(
            "Which layers of the stack the group's layers are (0-based), when groups interleave; "
            "every group then says so, and together they name each layer once. Left out, groups "
            "follow one another in the order given."
        ),
    )


def _interleaving_problem(layout: list[LayerGroupSpec]) -> str:
    """Why the groups' ``layer_indices`` do not place each layer of the stack once ("" when they do, or
    when no group gives them)."""
    stated = [group.layer_indices for group in layout]
    if all(indices is None for indices in stated):
        return ""
    if any(indices is None for indices in stated):
        return "layer_indices is given for some groups and not others; give it for every group or none"
    for number, group in enumerate(layout):
        assert group.layer_indices is not None
        if len(group.layer_indices) != group.layers:
            listed = len(group.layer_indices)
            return f"group {number} has {group.layers} layers but lists {listed} layer_indices"
    placed = sorted(i for group in layout for i in group.layer_indices or [])
    if placed != list(range(len(placed))):
        return f"layer_indices must name each of the {len(placed)} layers 0 to {len(placed) - 1} once"
    return ""


class Model(Envelope):
    """A model's identity and geometry: its published config verbatim, or an explicit layout."""

    schema_version: Literal[1] = Field(description="The version of the record format.")
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
    max_context_tokens: int | None = Field(
        default=None,
        ge=1,
        le=2**40,
        description="The longest context a serving engine accepts from the model's config, as registry "
        "import-config reads it (model_max_length, else the smallest position field, YaRN's original "
        "length times its factor); a model card's shorter, quality-tested length belongs in notes.",
    )
    max_context_not_from_config: Reason | None = Field(
        default=None,
        description="Why max_context_tokens is not the length the record's config states as registry "
        "import-config reads it (the config names its length in a field no serving engine reads, or "
        "the copy cited may not be the one the publisher serves); without it the two agree.",
    )
    hub_repositories: list[Annotated[str, Field(pattern=REPOSITORY_PATTERN)]] | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="The model's repositories on the Hugging Face Hub (owner/name), as serving tools name "
        "the model they ran (vLLM's model_id, SGLang's model_path): registry import matches a result "
        "file's model to them and to config_source.repository. Each is cited by the record's sources.",
    )
    config_source: ConfigSource | None = None
    config: dict[str, Any] | None = Field(
        default=None,
        description="The published config.json fields, verbatim; a number JSON cannot write (Infinity, "
        'NaN) as transformers 5 writes it, {"__float__": "Infinity"}.',
    )
    layout: list[LayerGroupSpec] | None = Field(default=None, min_length=1, max_length=1000)

    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [{"required": ["config"]}, {"required": ["layout"]}],
            "dependentRequired": {"config": ["config_source"]},
            "x-messages": {"anyOf": GEOMETRY_MISSING, "dependentRequired": CONFIG_NEEDS_SOURCE},
        }
    )

    def exceeds_max_context(self, context_tokens: int | None) -> bool:
        """Whether ``context_tokens`` is longer than the model's stated maximum: what R012
        beyond-max-context warns of and the site marks. A model that states none is exceeded by nothing."""
        limit = self.max_context_tokens
        return context_tokens is not None and limit is not None and context_tokens > limit

    @field_validator("layout")
    @classmethod
    def _layers_are_bounded(cls, layout: list[LayerGroupSpec] | None) -> list[LayerGroupSpec] | None:
        """At most :data:`MAX_LAYERS` in all: 1,000 groups of 10,000 layers each, a 70 KB file, would keep
        one check busy far too long."""
        total = sum(group.layers for group in layout or [])
        if total > MAX_LAYERS:
            message = f"the layout has {total:,} layers in all; a model has at most {MAX_LAYERS:,}"
            raise PydanticCustomError("too_many_layers", message)
        problem = _interleaving_problem(layout or [])
        if problem:
            raise PydanticCustomError("layer_indices", problem)
        return layout

    @model_validator(mode="after")
    def _geometry_is_given(self) -> Model:
        if self.config is None and self.layout is None:
            raise PydanticCustomError("geometry", GEOMETRY_MISSING)
        if self.config is not None and self.config_source is None:
            raise PydanticCustomError("geometry", CONFIG_NEEDS_SOURCE)
        return self
