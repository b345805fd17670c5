"""``registry explain ID``: a record's full derivation and the verdict on each of its claims.

For a kv-efficiency or benchmark record, each claim is recomputed as ``registry check`` does, and the
whole trace is printed with the verdict and, for a wrong number, the mistake that explains it. For a
model, its layout and the cache at the registry's standard point (128K, bf16, the ``vllm`` layout).
"""

from __future__ import annotations

from pathlib import Path

from registry.check.index import Entry, RegistryIndex
from registry.engine.units import format_bytes, format_int
from registry.errors import RegistryError
from registry.kinds.records import Benchmark, KvEfficiency, Model

STANDARD_CONTEXT = 131072
STANDARD_LAYOUT = "vllm"


def explain(root: Path, record_id: str) -> str:
    """The explanation of one record of the registry at ``root``, as text."""
    from registry.check.pipeline import check

    result = check(root, formulas=False)
    wanted = record_id.removeprefix("records/").removesuffix(".yaml")
    entry = result.index.get(wanted)
    if entry is None:
        broken = [d for d in result.diagnostics if d.path == f"records/{wanted}.yaml"]
        if broken:
            raise RegistryError(
                f"{wanted} does not load ({broken[0].code} {broken[0].message}); run 'registry check'"
            )
        raise RegistryError(f"no record {wanted!r} in {root}")
    if isinstance(entry.record, KvEfficiency | Benchmark):
        return _explain_run(result.index, entry)
    if isinstance(entry.record, Model):
        return _explain_model(entry)
    raise RegistryError(
        f"{wanted} is a {entry.record.kind} record: explain derives model, kv-efficiency and benchmark records"
    )


def _explain_run(index: RegistryIndex, entry: Entry) -> str:
    from registry.check.formulas import Models, findings, run_of, spec_of
    from registry.engine.claims import check_claim, show_value

    record = entry.record
    assert isinstance(record, KvEfficiency | Benchmark)
    lines = [
        f"{record.id}: {record.title}",
        f"model {record.model} · layout {record.layout} · "
        f"KV {record.precision.kv_cache} · context {format_int(record.context)} · batch {record.batch}",
        "",
    ]
    models = Models(index)
    geometry = models.get(record.model)
    if geometry is None:
        problems = "; ".join(d.message for d in models.diagnostics) or f"{record.model} is not a model record"
        return "\n".join([*lines, f"the model's geometry is not available: {problems}"]) + "\n"
    run = run_of(record)
    if not record.claims:
        lines.append("no claims to check")
    for position, claim in enumerate(record.claims):
        verdict = check_claim(spec_of(claim), geometry.layout, geometry.fields, run)
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


def _explain_model(entry: Entry) -> str:
    from registry.engine.compute import compute
    from registry.kinds.geometry import model_layout

    model = entry.record
    assert isinstance(model, Model)
    lines = [f"{model.id}: {model.title}"]
    if model.config_source is not None:
        source = model.config_source
        lines.append(f"config: {source.repository} {source.file} @ {source.revision}")
    try:
        layout = model_layout(model)
    except ValueError as error:
        return "\n".join([*lines, f"the cache layout cannot be derived: {error}"]) + "\n"
    lines.append("")
    lines.append("layer groups:")
    for group in layout.groups:
        lines.append(f"  {group.count} × {group.mechanism.kind}: {group.mechanism}")
    result = compute(layout, context_tokens=STANDARD_CONTEXT, engine=STANDARD_LAYOUT)
    lines += ["", *result.trace]
    if result.total_bytes is not None:
        lines.append(f"at the standard point: {format_bytes(result.total_bytes)} for one 128K sequence")
    return "\n".join(lines) + "\n"
