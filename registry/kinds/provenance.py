"""Where an imported benchmark result was read: the source and its file at a commit, down to the row or
the run's folder, and for MLPerf results the round, division, result ID and how the table files it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from registry.kinds.fields import ResultSource, ShortText, Strict

MLPERF_ONLY = "'round', 'division' and 'availability' belong to MLPerf results (source: mlperf) only"


class AlsoFiled(Strict):
    """Another row of the same table that files the same measurement under another benchmark."""

    benchmark: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$")] = Field(
        description="The benchmark the other row files it under, e.g. llama2-70b-99."
    )
    row: Annotated[int, Field(ge=1, le=10**9)] = Field(description="That row, 1-based as 'row' is.")


class Provenance(Strict):
    """Where an imported result was read, down to the row or the run's folder."""

    model_config = ConfigDict(
        json_schema_extra={
            "if": {"not": {"properties": {"source": {"const": "mlperf"}}, "required": ["source"]}},
            "then": {
                "not": {
                    "anyOf": [
                        {"required": ["round"]},
                        {"required": ["division"]},
                        {"required": ["availability"]},
                    ]
                },
                "x-messages": {"not": MLPERF_ONLY},
            },
        }
    )

    source: ResultSource = Field(
        description="The tool or publication the result was read from; manual for a hand-written record."
    )
    repository: ShortText | None = Field(default=None, description="owner/name of the source repository.")
    file: ShortText | None = Field(default=None, description="The file inside it.")
    commit: Annotated[str, Field(pattern=r"^[0-9a-f]{7,40}$")] | None = None
    row: Annotated[int, Field(ge=1, le=10**9)] | None = Field(
        default=None, description="1-based data row of a table (the header not counted)."
    )
    run_path: ShortText | None = Field(default=None, description="The run's folder in the source.")
    benchmark: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,79}$")] | None = Field(
        default=None,
        description="The benchmark as the source names it, e.g. MLPerf's llama2-70b-99.9: a model's "
        "benchmarks with other accuracy targets are other benchmarks, ranked apart.",
    )
    round: Annotated[str, Field(pattern=r"^v[0-9]{1,2}\.[0-9]{1,2}$")] | None = None
    division: Literal["closed", "open"] | None = None
    availability: Literal["available", "preview", "rdi"] | None = None
    submitter: ShortText | None = None
    result_id: Annotated[str, Field(pattern=r"^v?[0-9]{1,2}\.[0-9]{1,2}-[0-9]{4}$")] | None = Field(
        default=None,
        description="MLPerf's result ID as the table writes it (v4.1-0049, 5.1-0001): MLCommons' "
        "guidelines ask that a cited result carry it.",
    )
    inferred: bool | None = Field(
        default=None,
        description="The table's inferred flag: the submission checker marks a result whose run LoadGen "
        "made in another scenario than the row's (an Interactive result from a run LoadGen made as Server, "
        "an Offline one computed from a single-stream run).",
    )
    also_filed_as: list[AlsoFiled] | None = Field(
        default=None,
        description="The same measurement filed under other benchmarks of the model (MLPerf's -99 beside "
        "its -99.9): one run that met every one of their accuracy targets, recorded once.",
    )
    valid: bool | None = Field(default=None, description="The run log's VALID (true) or INVALID (false).")

    @model_validator(mode="after")
    def _mlperf_fields(self) -> Provenance:
        if self.source != "mlperf" and (self.round or self.division or self.availability):
            raise PydanticCustomError("run", MLPERF_ONLY)
        return self
