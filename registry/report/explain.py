"""``registry explain ID``: a record's full derivation and the verdict on each of its claims.

For a kv-efficiency or benchmark record, each claim is shown as ``registry check`` found it, and the
whole trace is printed with the verdict and, for a wrong number, the mistake that explains it. For a
model, its layout and the cache at the registry's standard point (128K, bf16, the ``vllm`` layout).
"""

from __future__ import annotations

from pathlib import Path

from registry.bounds import Bound, percent
from registry.bounds.written import si
from registry.checker.bounds import RULE_OF, hint, message, written_limit
from registry.checker.formulas import findings, model_findings
from registry.checker.index import Entry, RegistryIndex
from registry.checker.pipeline import check
from registry.engine.claims import show_value
from registry.engine.trace import group_line
from registry.engine.units import format_bytes, format_int
from registry.errors import RegistryError
from registry.ids import existing_record_id
from registry.kinds.records import Benchmark, KvEfficiency, Model
from registry.results import MemoryFit, Results


def explain(root: Path, record_id: str) -> str:
    """The explanation of one record of the registry at ``root``, as text. ``record_id`` takes every form
    an id takes (:func:`registry.ids.existing_record_id`): ``deepseek-v3`` is ``models/deepseek-v3``."""
    wanted = existing_record_id(root, record_id)
    result = check(root)
    results = result.results
    assert results is not None  # a check with formulas has them
    entry = result.index.get(wanted)
    if entry is None:
        broken = [d for d in result.diagnostics if d.path == f"records/{wanted}.yaml"]
        if broken:
            raise RegistryError(
                f"{wanted} does not load ({broken[0].code} {broken[0].message}); run 'registry check'"
            )
        raise RegistryError(f"no record {wanted!r} in {root}")
    if isinstance(entry.record, KvEfficiency | Benchmark):
        return _explain_run(result.index, results, entry)
    if isinstance(entry.record, Model):
        return _explain_model(results, entry)
    raise RegistryError(
        f"{wanted} is a {entry.record.kind} record: explain derives model, kv-efficiency and benchmark records"
    )


def _explain_run(index: RegistryIndex, results: Results, entry: Entry) -> str:
    record = entry.record
    assert isinstance(record, KvEfficiency | Benchmark)
    lines = [
        f"{record.id}: {record.title}",
        f"model {record.model} · layout {record.layout} · "
        f"KV {record.precision.kv_cache or 'not stated'} · context {_context(record.context)} · batch {record.batch}",
        "",
    ]
    run = results.runs[record.id]
    lines.extend(bound_lines(run.bounds))
    geometry, model = run.geometry, index.get(record.model)
    if geometry is None or geometry.layout is None or model is None:
        found = [] if model is None else model_findings(model, geometry)
        problems = "; ".join(d.message for d in found) or f"{record.model} is not a model record"
        return "\n".join([*lines, f"the model's geometry is not available: {problems}"]) + "\n"
    if isinstance(run.fit, str):
        lines.append(f"memory fit on {record.hardware}: not computable: {run.fit}")
    elif run.fit is not None:
        lines.append(f"memory fit on {record.hardware}: {fit_line(run.fit)}")
    if not record.claims:
        lines.append("no claims to check")
    for position, (claim, checked) in enumerate(zip(record.claims, run.claims, strict=True)):
        verdict = checked.verdict
        assert verdict is not None  # the model has a geometry
        label = claim.quantity + ("" if claim.variant == "actual" else f" [{claim.variant}]")
        if claim.versus:
            label += f" versus [{claim.versus}]"
        lines.append(f"claim {position + 1}: {label}, stated {claim.stated}")
        lines.extend(f"  {line}" for line in verdict.trace)
        if verdict.formula is not None and verdict.formula.rendered:
            lines.append(f"  the claim's formula: {verdict.formula.rendered}")
        found = list(findings(entry, f"/claims/{position}", verdict, geometry.derived))
        if verdict.engine_value is not None:
            lines.append(f"  engine: {show_value(verdict.engine_value, verdict.stated)}")
        if not found:
            lines.append("  verdict: agrees")
        for diagnostic in found:
            lines.append(f"  verdict: {diagnostic.code} {diagnostic.name}: {diagnostic.message}")
            if diagnostic.hint:
                lines.append(f"    hint: {diagnostic.hint}")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


BOUND_WORDS = {
    "compute-roof": "compute roof",
    "bandwidth-roof": "memory-bandwidth bound",
    "prefill-floor": "prefill floor",
    "consistency": "consistency",
    "decode-roof": "decode roof (what the memory holds)",
}


def bound_lines(bounds: tuple[Bound, ...]) -> list[str]:
    """Each bound on a benchmark's figures: its derivation, the fraction of it reached and the verdict,
    or the reason it cannot be computed."""
    lines: list[str] = []
    for bound in bounds:
        lines.append(f"bound: {BOUND_WORDS[bound.kind]} on {bound.subject}, stated {bound.stated}")
        if not bound.computable:
            lines += [f"  not computable: {bound.reason}", ""]
            continue
        lines.extend(f"  {line}" for line in bound.trace)
        reached = bound.reached
        if reached is not None:
            lines.append(f"  reached: {percent(reached)} of the bound ({written_limit(bound)})")
        if bound.exceeded:
            lines.append(
                f"  verdict: {RULE_OF[bound.kind].code} {RULE_OF[bound.kind].name}: {message(bound)}"
            )
            lines.append(f"    hint: {hint(bound)}")
        else:
            lines.append("  verdict: within the bound")
        lines.append("")
    return lines


def fit_line(fit: MemoryFit) -> str:
    """``weights 377 GB (nvfp4) x 1 + cache 9.2 GB = 386 GB of 540 GB (71.5%)``."""
    replicas = f" x {fit.replicas} replicas" if fit.replicas > 1 else ""
    cache = si(fit.cache, "B") if fit.cache_not_counted is None else f"not counted ({fit.cache_not_counted})"
    return (
        f"weights {si(fit.weights, 'B')} ({fit.counted_as}){replicas} + cache {cache} "
        f"= {si(fit.needed, 'B')} of {si(fit.memory, 'B')} ({percent(fit.needed / fit.memory)})"
    )


def _explain_model(results: Results, entry: Entry) -> str:
    model = entry.record
    assert isinstance(model, Model)
    lines = [f"{model.id}: {model.title}"]
    if model.config_source is not None:
        source = model.config_source
        lines.append(f"config: {source.repository} {source.file} @ {source.revision}")
    geometry = results.models[entry.id]
    layout = geometry.layout
    if layout is None:
        assert geometry.problem is not None
        return "\n".join([*lines, f"the cache layout cannot be derived: {geometry.problem.message}"]) + "\n"
    lines.append("")
    lines.append("layer groups:")
    lines.extend(f"  {group_line(group)}" for group in layout.groups)
    result = results.figures.standard_point(layout)
    lines += ["", *result.trace]
    if result.total_bytes is not None:
        lines.append(f"at the standard point: {format_bytes(result.total_bytes)} for one 128K sequence")
    return "\n".join(lines) + "\n"


def _context(tokens: int | None) -> str:
    return "not stated" if tokens is None else format_int(tokens)
