"""The formula stage of ``registry check``: every stated number recomputed from its model's geometry.

For each kv-efficiency and benchmark record, each claim is checked by the pure engine
(:func:`registry.engine.claims.check_claim`) against the layout of the model it references, and the
verdict becomes findings located at the claim's ``stated`` (or ``formula``, ``variant``) node. A model's
layout is built once, however many records use it; a model whose config no adapter reads is reported
once, on the model's own file. A run that names its hardware is also checked for fitting in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from registry.check.index import Entry, RegistryIndex
from registry.codes import formula as rules
from registry.codes import schema as schema_rules
from registry.codes.rule import Rule
from registry.diagnostics import Diagnostic
from registry.engine.adapters import (
    ConfigFieldError,
    ConfigValueError,
    UnsupportedModelType,
    geometry_fields,
)
from registry.engine.claims import QUANTITY_WORDS, ClaimSpec, ClaimVerdict, check_claim, show_value
from registry.engine.dtypes import get_dtype, model_dtype_of
from registry.engine.expr import names_in, parse
from registry.engine.layout import (
    Layout,
    LayoutError,
)
from registry.engine.misapply import Candidate
from registry.engine.units import Dimension, Quantity, parse_context, parse_quantity
from registry.engine.variants import VARIANTS, Fields, Run, measure
from registry.kinds.geometry import model_fields, model_layout, model_layout_or_error
from registry.kinds.records import Benchmark, Claim, Hardware, KvEfficiency, Model

RunRecord = KvEfficiency | Benchmark
RUN_KINDS = ("kv-efficiency", "benchmark")


@dataclass(frozen=True)
class Geometry:
    """A model's cache layout and config fields, built once per model."""

    layout: Layout
    fields: Fields
    derived: frozenset[str] = frozenset()
    """Field names the config does not state but :func:`geometry_fields` derives (``head_dim``)."""


def _geometry(layout: Layout, config: dict[str, Any] | None) -> Geometry:
    stated = {**(config or {}), **((config or {}).get("text_config") or {})}
    fields = geometry_fields(config or {})
    return Geometry(layout, fields, frozenset(name for name in fields if name not in stated))


# ---------------------------------------------------------------- models, once each


_NOT_BUILT: Any = object()
"""A model whose geometry :class:`Models` has not built yet (``None`` is a model without one)."""


class Models:
    """Each referenced model's geometry, built on first use; problems reported once, on the model."""

    def __init__(self, index: RegistryIndex) -> None:
        self.index = index
        # By the model's number in the store, each equal geometry once: a geometry of its own for each
        # model, or a dict by id (which keeps the id of the first run naming the model), would hold
        # objects made among those of reading each record until the stage ends, and the memory they
        # are scattered through with them (measured: 6,000 geometries left a check of 30,000 records
        # 14 MiB larger).
        self.cache: list[Any] = [_NOT_BUILT] * len(index.store)
        self.equal: dict[tuple[Any, ...], Geometry] = {}
        self.diagnostics: list[Diagnostic] = []

    def get(self, model_id: str) -> Geometry | None:
        entry = self.index.get(model_id)
        if entry is None or entry.kind != "model":
            return None
        geometry: Geometry | None = self.cache[entry.number]
        if geometry is _NOT_BUILT:
            geometry = self.cache[entry.number] = self._equal(self._build(entry))
            # Made now, while the record is at hand: every run's page and rows ask for them.
            entry.derived(model_layout_or_error)
            entry.derived(model_fields)
        return geometry

    def _equal(self, geometry: Geometry | None) -> Geometry | None:
        if geometry is None:
            return None
        key = (geometry.layout, tuple(sorted(geometry.fields.items())), geometry.derived)
        return self.equal.setdefault(key, geometry)

    def _build(self, entry: Entry) -> Geometry | None:
        model = entry.record
        assert isinstance(model, Model)
        try:
            return _geometry(model_layout(model), model.config)
        except UnsupportedModelType as error:
            self._report(entry, rules.UNKNOWN_MODEL_TYPE, "/config/model_type", str(error))
        except ConfigValueError as error:  # a stated but impossible value is an error, not an unknown
            message = f"{error}; no number about this model can be checked"
            self._report(entry, schema_rules.INVALID_VALUE, f"/config/{error.field}", message)
        except ConfigFieldError as error:
            message = f"{error}; no number about this model can be checked"
            self._report(entry, rules.NOT_COMPUTABLE, f"/config/{error.field}", message)
        except LayoutError as error:
            self._report(
                entry, rules.NOT_COMPUTABLE, "/layout", f"{error}; no number about this model can be checked"
            )
        return None

    def _report(self, entry: Entry, rule: Rule, pointer: str, message: str) -> None:
        line, column = entry.document.locate(pointer)
        self.diagnostics.append(rule.diagnostic(entry.path, line, column, message, pointer=pointer))


# ---------------------------------------------------------------- runs and claims


def run_of(record: RunRecord) -> Run:
    """The engine's run from a record's run shape; unquantized weights give the model (activation) dtype."""
    return Run(
        context_tokens=parse_context(record.context_tokens),
        batch=record.batch,
        engine=record.layout,
        kv_dtype=record.precision.kv_cache,
        state_dtype=record.precision.recurrent_state,
        model_dtype=model_dtype_of(record.precision.weights),
    )


def spec_of(claim: Claim) -> ClaimSpec:
    """A claim's fields as the pure engine takes them."""
    context = None if claim.context_tokens is None else parse_context(claim.context_tokens)
    return ClaimSpec(
        quantity=claim.quantity,
        stated=claim.stated,
        variant=claim.variant,
        versus=claim.versus,
        formula=claim.formula,
        context_tokens=context,
        kv_dtype=claim.kv_cache,
    )


def check_formulas(index: RegistryIndex) -> list[Diagnostic]:
    """Every claim of every kv-efficiency and benchmark record, and every run's fit in its hardware."""
    models = Models(index)
    diagnostics: list[Diagnostic] = []
    for entry in index:
        if entry.kind == "model":
            models.get(entry.id)  # every model's geometry must be readable, referenced or not
        if entry.kind not in RUN_KINDS:
            continue
        record = entry.record
        assert isinstance(record, KvEfficiency | Benchmark)
        geometry = models.get(record.model)
        if geometry is None:
            continue
        run = run_of(record)
        diagnostics.extend(_record_findings(entry, record, geometry, run))
        diagnostics.extend(_hardware_findings(index, entry, record, geometry, run))
    return diagnostics + models.diagnostics


def _record_findings(entry: Entry, record: RunRecord, geometry: Geometry, run: Run) -> Iterator[Diagnostic]:
    unsupported: set[str] = set()
    for position, claim in enumerate(record.claims):
        verdict = check_claim(spec_of(claim), geometry.layout, geometry.fields, run)
        if verdict.unsupported:
            if verdict.unsupported not in unsupported:
                unsupported.add(verdict.unsupported)
                yield _at(entry, rules.UNSUPPORTED_LAYOUT, "/layout", _unsupported_message(verdict))
            continue
        yield from findings(entry, f"/claims/{position}", verdict, geometry.derived)


def _at(entry: Entry, rule: Rule, pointer: str, message: str, hint: str = "") -> Diagnostic:
    line, column = entry.document.locate(pointer)
    return rule.diagnostic(entry.path, line, column, message, hint=hint, pointer=pointer)


# ---------------------------------------------------------------- a verdict as findings


def findings(
    entry: Entry, claim_pointer: str, verdict: ClaimVerdict, derived: frozenset[str] = frozenset()
) -> Iterator[Diagnostic]:
    """The diagnostics one claim's verdict gives, located at its nodes."""
    stated = f"{claim_pointer}/stated"
    claim = verdict.claim
    if verdict.stated_error or verdict.wrong_dimension:
        yield _at(entry, rules.CLAIM_MISMATCH, stated, verdict.stated_error or verdict.wrong_dimension)
        return
    if verdict.unknown_variant:
        field = "variant" if claim.variant not in VARIANTS else "versus"
        yield _at(entry, rules.UNKNOWN_VARIANT, f"{claim_pointer}/{field}", verdict.unknown_variant)
        return
    formula = verdict.formula
    if formula is not None and formula.error is not None:
        message = f"the formula cannot be evaluated: column {formula.error.column}: {formula.error.message}"
        yield _at(entry, rules.FORMULA_ERROR, f"{claim_pointer}/formula", message)
    elif formula is not None and formula.matches is False:
        message = _formula_message(verdict, derived)
        yield _at(entry, rules.FORMULA_MISMATCH, stated, message, _formula_hint(verdict))
    if verdict.not_computable:
        message = f"{_subject(verdict)} cannot be checked: {verdict.not_computable}"
        yield _at(entry, rules.NOT_COMPUTABLE, stated, message)
    elif verdict.agrees is False and not _is_slip(verdict):
        yield _at(entry, rules.CLAIM_MISMATCH, stated, _mismatch_message(verdict), _mismatch_hint(verdict))


def _is_slip(verdict: ClaimVerdict) -> bool:
    """An arithmetic slip in a correct formula is the formula finding's to report, not a second one."""
    return verdict.misapplication is not None and verdict.misapplication.name == "arithmetic-slip"


def _subject(verdict: ClaimVerdict) -> str:
    """``mha-equivalent bytes per token``, ``ratio mha-equivalent / actual``, ``bytes per sequence at
    131,072 tokens (fp8 KV)``."""
    claim, run = verdict.claim, verdict.run
    if claim.quantity == "ratio":
        text = f"ratio {claim.variant} / {claim.versus}"
    else:
        text = QUANTITY_WORDS[claim.quantity]
        if claim.variant != "actual":
            text = f"{claim.variant} {text}"
        if claim.quantity in ("bytes_per_sequence", "bytes_total"):
            text += f" at {run.context_tokens:,} tokens"
        if claim.quantity == "bytes_total":
            text += f" x batch {run.batch:,}"
    if claim.kv_dtype:
        text += f" ({claim.kv_dtype} KV)"
    return text


def written(value: Fraction, like: Quantity) -> str:
    """``value`` written the way ``like`` was (same unit and decimals, ``~`` kept): the figure to state."""
    units = round(value / like.scale * 10**like.decimals)
    whole, rest = divmod(units, 10**like.decimals)
    number = f"{whole:,}" + (f".{rest:0{like.decimals}d}" if like.decimals else "")
    prefix = "~" if like.approximate else ""
    if like.dimension is Dimension.RATIO:
        return f"{prefix}{number}{like.unit}"
    suffix = "/token" if like.dimension is Dimension.BYTES_PER_TOKEN else ""
    return f"{prefix}{number} {like.unit or 'B'}{suffix}"


def _gives(verdict: ClaimVerdict) -> str:
    layout = verdict.run.engine
    return "the geometry gives" if layout == "ideal" else f"the geometry under the {layout!r} layout gives"


def _what_gives(candidate: Candidate) -> str:
    """``v-head-at-k-size gives (the V heads counted at the K head size)``."""
    where = f" in {candidate.applied_to}" if candidate.applied_to else ""
    return f"{candidate.name} gives{where} ({candidate.description})"


def _mismatch_message(verdict: ClaimVerdict) -> str:
    stated, exact = verdict.stated, verdict.engine_value
    assert stated is not None and exact is not None
    text = f"{_subject(verdict)} stated as {stated.text}, but {_gives(verdict)} {show_value(exact, stated)}"
    if verdict.misapplication is not None:
        return f"{text}; {stated.text} is what {_what_gives(verdict.misapplication)}"
    if verdict.formula is not None and verdict.formula.matches:
        formula = verdict.formula
        named = f", which is {formula.explained_by.name}" if formula.explained_by else ""
        return f"{text}; {stated.text} follows from the claim's formula{named}, not from the model's geometry"
    if not verdict.nearest:
        return f"{text}; no catalogued mistake gives {stated.text}"
    near = ", ".join(f"{c.name} {show_value(c.value, stated, exact_bytes=False)}" for c in verdict.nearest)
    return f"{text}; no catalogued mistake gives {stated.text} (nearest: {near})"


def _derivation(verdict: ClaimVerdict) -> str:
    """The trace lines a reader checks by hand: the per-token product, or the line at the context; for a
    ratio, each side's per-token product named by its variant."""
    claim = verdict.claim
    if claim.quantity == "ratio":
        sides: list[str] = []
        variant = ""
        for line in verdict.trace:
            if line.endswith(":") and line[:-1] in (claim.variant, claim.versus):
                variant = line[:-1]
            elif line.startswith("per token"):
                sides.append(f"{variant} {line}")
        return "; ".join(sides)
    wanted = "per token" if claim.quantity == "bytes_per_token" else "t = "
    totals = [line for line in verdict.trace if line.startswith("total")]
    if totals and wanted == "t = ":
        return totals[-1]
    lines = [line for line in verdict.trace if line.startswith(wanted)]
    return lines[-1] if lines else ""


def _mismatch_hint(verdict: ClaimVerdict) -> str:
    stated, exact = verdict.stated, verdict.engine_value
    assert stated is not None and exact is not None
    derivation = _derivation(verdict)
    return f"state {written(exact, stated)}" + (f": {derivation}" if derivation else "")


def _formula_message(verdict: ClaimVerdict, derived: frozenset[str]) -> str:
    formula, stated = verdict.formula, verdict.stated
    assert formula is not None and formula.value is not None and stated is not None
    value = show_value(formula.value, stated)
    text = f"the claim's formula gives {formula.rendered} = {value}, not the stated {stated.text}"
    used = [name for name in names_in(parse(formula.text)) if name in derived]
    if used:
        # geometry_fields derives head_dim only, as hidden_size / num_attention_heads
        text += f" ({', '.join(used)}: not in the config, taken as hidden_size / num_attention_heads)"
    return text


def _formula_hint(verdict: ClaimVerdict) -> str:
    formula, stated, exact = verdict.formula, verdict.stated, verdict.engine_value
    assert formula is not None and formula.value is not None and stated is not None
    if exact is None or formula.value == exact:
        confirmed = "" if exact is None else ", which the model's geometry confirms"
        hint = f"state {written(formula.value, stated)}, the formula's value{confirmed}"
        close = [c for c in verdict.nearest if abs(c.value - stated.value) <= stated.value / 100]
        if close:
            near = f"{close[0].name} ({show_value(close[0].value, stated)})"
            hint += f"; {stated.text} is close to {near}, but not equal"
        return hint
    return f"correct the formula or the figure: {_gives(verdict)} {written(exact, stated)}"


def _unsupported_message(verdict: ClaimVerdict) -> str:
    return (
        f"the {verdict.run.engine!r} engine layout cannot compute this record's claims: {verdict.unsupported}"
    )


# ---------------------------------------------------------------- does the run fit its hardware?


def _memory(hardware: Hardware, count: int) -> Fraction:
    return parse_quantity(hardware.memory_per_device).value * hardware.devices * count


def _weights(model: Model, dtype: str | None) -> Fraction | None:
    """``params_total_b x 10^9 x bytes per weight``; None when either is not stated."""
    if model.params_total_b is None or dtype is None:
        return None
    return Fraction(str(model.params_total_b)) * 10**9 * get_dtype(dtype).bytes_per_element


def _least_cache(layout: Layout, run: Run) -> Fraction | None:
    """The batch's cache under the run's engine layout, else under the ideal one: the architectural
    minimum is a lower bound whatever the engine, so the fit check holds either way."""
    for engine in dict.fromkeys((run.engine, "ideal")):
        try:
            value = measure(layout, replace(run, engine=engine), "bytes_total").value
        except ValueError:
            continue
        if value is not None:
            return value
    return None


def _hardware_findings(
    index: RegistryIndex, entry: Entry, record: RunRecord, geometry: Geometry, run: Run
) -> Iterator[Diagnostic]:
    hardware = index.get(record.hardware) if record.hardware else None
    model = index.get(record.model)
    if hardware is None or model is None or not isinstance(hardware.record, Hardware):
        return
    assert isinstance(model.record, Model)
    weights = _weights(model.record, record.precision.weights)
    cache = _least_cache(geometry.layout, run)
    if weights is None or cache is None:
        return
    count = record.hardware_count or 1
    memory = _memory(hardware.record, count)
    if weights + cache > memory:
        message = _fit_message(record, model.record, hardware.record, (weights, cache, memory), run)
        pointer = "/hardware_count" if record.hardware_count else "/hardware"
        yield _at(entry, rules.EXCEEDS_HARDWARE_MEMORY, pointer, message)


def _fit_message(
    record: RunRecord, model: Model, hardware: Hardware, sizes: tuple[Fraction, Fraction, Fraction], run: Run
) -> str:
    """``weights 1,342 GB (671B parameters x bf16) + KV cache 9.21 GB at ... exceed the 80 GB of ...``."""
    like = parse_quantity(hardware.memory_per_device)
    weights, cache, memory = (show_value(size, like, exact_bytes=False) for size in sizes)
    plural = "device" if hardware.devices == 1 else "devices"
    parts = (
        f"weights {weights} ({model.params_total_b:g}B parameters x {record.precision.weights})",
        f"KV cache {cache} at {run.context_tokens:,} tokens x batch {run.batch:,}",
    )
    each = f"{hardware.devices} {plural} of {hardware.memory_per_device}"
    units = f"{record.hardware_count or 1} x {record.hardware} ({each})"
    return f"{parts[0]} + {parts[1]} exceed the {memory} of {units}"
