"""The formula stage of ``registry check``: the engine's results for the registry as findings.

The engine's results are worked out once (:func:`registry.results.compute_results`): each claim of each
kv-efficiency and benchmark record checked against the layout of the model it references, and each run
that names its hardware weighed against its memory. Here each verdict becomes findings located at the
claim's ``stated`` (or ``formula``, ``variant``) node; a model whose config no adapter reads is reported
once, on the model's own file.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from registry.checker.index import Entry, RegistryIndex
from registry.codes import formula as rules
from registry.codes import schema as schema_rules
from registry.codes.rule import Rule
from registry.diagnostics import Diagnostic
from registry.engine.claims import QUANTITY_WORDS, ClaimVerdict, show_value
from registry.engine.dtypes import get_dtype
from registry.engine.expr import names_in, parse
from registry.engine.misapply import Candidate
from registry.engine.units import Dimension, Quantity, parse_quantity
from registry.engine.variants import VARIANTS
from registry.kinds.records import Hardware, Model
from registry.results import LayoutProblem, MemoryFit, ModelGeometry, Results, RunRecord, RunResult

NO_NUMBER = "no number about this model can be checked"


def formula_findings(index: RegistryIndex, results: Results) -> list[Diagnostic]:
    """Every claim of every kv-efficiency and benchmark record, every run's fit in its hardware, and
    every model whose geometry cannot be read, as findings. Read from the results alone: a record itself
    is read only for a finding about its hardware."""
    diagnostics: list[Diagnostic] = []
    for run_id, run in results.runs.items():
        entry = index.get(run_id)
        if run.layout is None or entry is None:
            continue
        diagnostics.extend(_record_findings(entry, run))
        if isinstance(run.fit, MemoryFit) and run.fit.exceeds:
            diagnostics.append(_hardware_finding(index, entry, run, run.fit))
    for model_id, geometry in results.models.items():
        model = index.get(model_id)
        if geometry.problem is not None and model is not None:
            diagnostics.extend(model_findings(model, geometry))
        if geometry.layout_differences and model is not None:
            diagnostics.extend(
                _at(model, rules.LAYOUT_CONFIG_MISMATCH, "/layout", difference)
                for difference in geometry.layout_differences
            )
    return diagnostics


def model_findings(entry: Entry, geometry: ModelGeometry | None) -> list[Diagnostic]:
    """Why the model of ``entry`` has no geometry, located in its file; nothing when it has one."""
    problem = None if geometry is None else geometry.problem
    if problem is None:
        return []
    rule, pointer, message = problem_finding(problem)
    nested = pointer.replace("/config/", "/config/text_config/", 1)
    if pointer not in entry.document.positions and nested in entry.document.positions:
        pointer = nested  # a decoder's field read from a multimodal wrapper's text_config
    return [_at(entry, rule, pointer, message)]


def problem_finding(problem: LayoutProblem) -> tuple[Rule, str, str]:
    """The rule, the pointer and the message of the finding a model's layout problem gives: the one
    mapping ``registry check`` and ``registry import-config`` share, so they agree on code and severity."""
    if problem.kind == "unsupported-model-type":
        return rules.UNKNOWN_MODEL_TYPE, "/config/model_type", problem.message
    if problem.kind == "invalid-value":  # a stated but impossible value is an error, not an unknown
        return schema_rules.INVALID_VALUE, f"/config/{problem.field}", f"{problem.message}; {NO_NUMBER}"
    if problem.kind == "missing-field":
        return rules.NOT_COMPUTABLE, f"/config/{problem.field}", f"{problem.message}; {NO_NUMBER}"
    return rules.NOT_COMPUTABLE, "/layout", f"{problem.message}; {NO_NUMBER}"


def _record_findings(entry: Entry, run: RunResult) -> Iterator[Diagnostic]:
    unsupported: set[str] = set()
    assert run.geometry is not None
    for claim in run.claims:
        verdict = claim.verdict
        assert verdict is not None
        if verdict.unsupported:
            if verdict.unsupported not in unsupported:
                unsupported.add(verdict.unsupported)
                yield _at(entry, rules.UNSUPPORTED_LAYOUT, "/layout", _unsupported_message(verdict))
            continue
        yield from findings(entry, f"/claims/{claim.position}", verdict, run.geometry.derived)


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
    decimals = like.decimals
    if like.unit == "B" and (value / like.scale).denominator == 1:
        decimals = 0  # a whole number of bytes, however the stated figure was written
    units = round(value / like.scale * 10**decimals)
    whole, rest = divmod(units, 10**decimals)
    number = f"{whole:,}" + (f".{rest:0{decimals}d}" if decimals else "")
    prefix = "~" if like.approximate else ""
    if like.dimension is Dimension.RATIO:
        return f"{prefix}{number}{like.unit}"
    suffix = "/token" if like.dimension is Dimension.BYTES_PER_TOKEN else ""
    return f"{prefix}{number} {like.unit or 'B'}{suffix}"


def _gives(verdict: ClaimVerdict) -> str:
    layout = verdict.run.engine_layout
    return "the geometry gives" if layout == "ideal" else f"the geometry under the {layout!r} layout gives"


_UNIT_SWAPS = {"decimal-as-binary": ("decimal", "binary"), "binary-as-decimal": ("binary", "decimal")}


def _what_gives(candidate: Candidate, stated: Quantity) -> str:
    """``v-head-at-k-size gives (the V heads counted at the K head size)``; for two mistakes made
    together, ``a and b give together (...)``; a unit swap is described in the stated figure's own
    units (KB and KiB for a figure in KB)."""
    where = f" in {candidate.applied_to}" if candidate.applied_to else ""
    if candidate.parts:
        return f"{' and '.join(candidate.parts)} give together{where} ({candidate.description})"
    description = candidate.description
    if candidate.name in _UNIT_SWAPS and stated.unit:
        prefix = stated.unit[0].upper()
        units = {"decimal": stated.unit if stated.is_decimal else f"{prefix}B", "binary": f"{prefix}iB"}
        computed, written_in = _UNIT_SWAPS[candidate.name]
        description = (
            f"a figure computed in {computed} units ({units[computed]}) "
            f"written with {written_in} ones ({units[written_in]})"
        )
    return f"{candidate.name} gives{where} ({description})"


def _mismatch_message(verdict: ClaimVerdict) -> str:
    stated, exact = verdict.stated, verdict.engine_value
    assert stated is not None and exact is not None
    text = f"{_subject(verdict)} stated as {stated.text}, but {_gives(verdict)} {show_value(exact, stated)}"
    if verdict.misapplication is not None:
        return f"{text}; {stated.text} is what {_what_gives(verdict.misapplication, stated)}"
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
    hint = f"state {written(exact, stated)}" + (f": {derivation}" if derivation else "")
    if stated.decimals == 3 and stated.value * 1000 == exact:
        hint += f"; in {stated.text} the '.' is a decimal point: thousands are separated by commas"
    return hint


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
    return f"the {verdict.run.engine_layout!r} engine layout cannot compute this record's claims: {verdict.unsupported}"


# ---------------------------------------------------------------- does the run fit its hardware?


def _hardware_finding(index: RegistryIndex, entry: Entry, run: RunResult, fit: MemoryFit) -> Diagnostic:
    record = entry.record
    assert isinstance(record, RunRecord)
    hardware, model = index.get(record.hardware or ""), index.get(record.model)
    assert hardware is not None and model is not None
    assert isinstance(hardware.record, Hardware) and isinstance(model.record, Model)
    message = _fit_message(record, model.record, hardware.record, fit, run)
    pointer = "/hardware_count" if record.hardware_count else "/hardware"
    return _at(entry, rules.EXCEEDS_HARDWARE_MEMORY, pointer, message, _fit_hint(fit, hardware.record))


NARROWER_WEIGHTS = ("fp8", "nvfp4", "mxfp4", "fp4")
"""The weight formats a run more often uses than declares: the memory fit's hint tries each."""


def _fit_hint(fit: MemoryFit, hardware: Hardware) -> str:
    """The likeliest slip: weights declared wider than they were stored, when a narrower format fits."""
    declared = get_dtype(fit.weight_format).bytes_per_element if fit.weight_format else None
    like = parse_quantity(hardware.memory_per_device)
    for name in NARROWER_WEIGHTS:
        narrower = get_dtype(name).bytes_per_element
        if declared is None or narrower >= declared:
            continue
        weights = fit.weights * narrower / declared
        if weights * fit.replicas + fit.cache <= fit.memory:
            shown = show_value(weights, like, exact_bytes=False)
            return (
                f"likeliest slip: the weights declared {fit.weight_format} but stored narrower: in {name} they "
                f"take {shown} and the run fits; else {rules.EXCEEDS_HARDWARE_MEMORY.fix}"
            )
    return rules.EXCEEDS_HARDWARE_MEMORY.fix


def _fit_message(record: RunRecord, model: Model, hardware: Hardware, fit: MemoryFit, run: RunResult) -> str:
    """``weights 1,342 GB (671B parameters x bf16) + KV cache 9.21 GB at ... exceed the 80 GB of ...``."""
    like = parse_quantity(hardware.memory_per_device)
    weights, cache, memory = (
        show_value(size, like, exact_bytes=False) for size in (fit.weights, fit.cache, fit.memory)
    )
    plural = "device" if hardware.devices == 1 else "devices"
    replicas = f"{fit.replicas} data-parallel replicas x " if fit.replicas > 1 else ""
    counted = f"{model.params_total_b:g}B" if model.params_total_b is not None else "at least the config's"
    parts = (
        f"{replicas}weights {weights} ({counted} parameters x {fit.counted_as})",
        f"KV cache {cache} at {run.run.context_tokens:,} tokens x batch {run.run.batch:,}"
        if run.run is not None and fit.cache_not_counted is None
        else "no KV cache (not counted: " + (fit.cache_not_counted or "no context") + ")",
    )
    each = f"{hardware.devices} {plural} of {hardware.memory_per_device}"
    units = f"{record.hardware_count or 1} x {record.hardware} ({each})"
    return f"{parts[0]} + {parts[1]} exceed the {memory} of {units}"
