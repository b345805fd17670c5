"""The page of a kv-efficiency or benchmark record: the run, every claim checked, the derivation.

A claim's row shows the value as the record states it, the engine's exact value written in the same
unit, a verdict badge, and, for a disagreement, the misapplication that explains the stated number (or
the nearest candidates). Below, each claim's own working and the engine's trace, factor by factor.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from registry.checker.index import Entry
from registry.engine.claims import QUANTITY_WORDS, show_value
from registry.engine.compute import CacheResult
from registry.engine.trace import byte_count
from registry.engine.units import QuantityError, format_bytes, parse_context, parse_quantity
from registry.kinds.records import Benchmark, Claim, KvEfficiency
from registry.site import _bounds, _leaderboards, _parts, _paths, _run_figures
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, escape, join, link, table
from registry.site._results import ClaimRow, claim_rows

Run = KvEfficiency | Benchmark

VERDICT_BADGES = {
    "agrees": "agrees",
    "disagrees": "disagrees",
    "unreadable": "problem",
    "wrong-dimension": "problem",
    "unknown-variant": "problem",
    "unsupported": "neutral",
    "not-computable": "neutral",
}
"""The badge colour of each verdict word."""


def render(context: SiteContext, entry: Entry) -> str:
    """The whole Markdown page of one run record."""
    return render_with_verdicts(context, entry)[0]


def render_with_verdicts(context: SiteContext, entry: Entry) -> tuple[str, list[str]]:
    """The page, and the verdict word of each claim (for the collection's index)."""
    run = entry.record
    assert isinstance(run, KvEfficiency | Benchmark)
    page = _paths.record_page(entry.id)
    rows = claim_rows(context.results, run)
    result = context.results.runs[run.id].result
    shared = () if isinstance(result, str) else result.trace
    figure = headline(result, run) if isinstance(run, KvEfficiency) else None
    parts = [
        _parts.header(context, entry, page, headline=figure),
        _headline_block(figure, rows),
        "## Run\n" + block(_run_facts(context, run, page)),
        _run_figures.section(run, _leaderboards.entry_of(run)) if isinstance(run, Benchmark) else "",
        _provenance(context, run, page) if isinstance(run, Benchmark) else "",
        _bounds.section(context.results.runs[run.id].bounds),
        _claims(context, run, rows) + _derivation(result) + _claim_details(context, run, rows, shared),
        _parts.findings(context, entry),
        _parts.prose(context, entry, page),
        _parts.sources(entry),
        _parts.errata(entry),
        _parts.links(context, entry, page),
    ]
    return "".join(parts), [row.verdict for row in rows]


def headline(result: CacheResult | str, run: KvEfficiency) -> str | None:
    """A kv-efficiency record's headline result in a line: the cache of its own setting as the engine
    computes it (``8.6 GiB for one sequence of 131,072 tokens, bf16 KV, vllm``); None without a total."""
    if isinstance(result, str) or result.total_bytes is None:
        return None
    batch = "one sequence" if result.batch == 1 else f"{result.batch:,} sequences"
    return (
        f"{format_bytes(result.total_bytes)} for {batch} of {result.context_tokens:,} tokens, "
        f"{result.kv_dtype} KV, {result.engine_layout} layout"
    )


def _headline_block(figure: str | None, rows: list[ClaimRow]) -> str:
    """The headline under the title: the engine's figure and the claims' verdicts in a word each."""
    if figure is None:
        return ""
    counts = Counter(row.verdict for row in rows)
    verdicts = ", ".join(f"{n} {word}" for word, n in sorted(counts.items())) or "no claims"
    text = join(
        [element("strong", "Headline: "), f"{figure}, as the engine computes it. Claims: {verdicts}."]
    )
    return block(element("p", text, class_="headline"))


def _run_facts(context: SiteContext, run: Run, page: str) -> Html:
    precision = run.precision
    workload = run.workload
    hardware = context.record_link(page, run.hardware) if run.hardware else None
    if hardware is not None and run.hardware_count:
        hardware = join([hardware, f" × {run.hardware_count}"])
    engine = _engine(context, run, page)
    benchmark = isinstance(run, Benchmark)
    stated = run.model_fields_set
    # A benchmark's batch, prefix-cache state and engine layout are shown where the record states
    # them: the schema's defaults (batch 1, layout "ideal" for an engine nobody named) are no fact.
    layout_known = not benchmark or bool(run.claims) or run.layout != "ideal"
    return _parts.fact_table(
        [
            ("Model", context.record_link(page, run.model)),
            ("Engine", engine),
            ("Engine layout", element("code", run.layout) if layout_known else None),
            ("Hardware", hardware),
            ("Weights", precision.weights),
            *(_benchmark_precision(run) if isinstance(run, Benchmark) else []),
            ("KV cache", precision.kv_cache or ("not stated" if isinstance(run, Benchmark) else None)),
            ("Recurrent state", precision.recurrent_state),
            ("Context", _context_fact(context, run)),
            ("Beyond the maximum, because", run.beyond_max_context),
            ("Batch", f"{run.batch:,}" if not benchmark or "batch" in stated else None),
            ("Prefix cache", run.prefix_cache if not benchmark or "prefix_cache" in stated else None),
            ("Workload", workload.description if workload else None),
            ("Input tokens", _count(workload.input_tokens) if workload else None),
            ("Output tokens", _count(workload.output_tokens) if workload else None),
            ("Requests", _count(workload.requests) if workload else None),
            ("Concurrency", _count(workload.concurrency) if workload else None),
            ("Dataset", workload.dataset if workload else None),
            *(_benchmark_facts(run) if isinstance(run, Benchmark) else _measured(run)),
        ]
    )


def _engine(context: SiteContext, run: Run, page: str) -> Html | str | None:
    """The engine's name and the version the run used, as the record writes it (never the version the
    engine's own record was read at); the version alone where the record names no engine record."""
    entry = context.index.get(run.engine) if run.engine else None
    name = getattr(entry.record, "name", None) if entry else None
    if run.engine is None:
        return run.engine_version
    named = context.record_link(page, run.engine, name if isinstance(name, str) else None)
    return join([named, f" {run.engine_version}"]) if run.engine_version else named


def _provenance(context: SiteContext, run: Benchmark, page: str) -> str:
    """Where the figures were read (repository, file, commit, row or run folder; an MLPerf result's
    round, division and availability), the records the run names, and the leaderboard it is ranked on."""
    source = run.provenance
    parts = run.system.accelerators if run.system else None
    hardware = [(part.hardware, part.count) for part in parts] if parts else []
    if run.hardware:
        hardware.append((run.hardware, run.hardware_count or 0))
    on = join(
        [
            join(
                [
                    context.record_link(page, h),
                    f" × {n}" if n else "",
                    " (",
                    link(_paths.href(page, _leaderboards.hardware_page(h)), "its results"),
                    ")",
                ]
            )
            for h, n in hardware
        ],
        "; ",
    )
    board = _leaderboards.page_of(_leaderboards.board_of(run))
    valid = None if source is None or source.valid is None else ("VALID" if source.valid else "INVALID")
    facts = _parts.fact_table(
        [
            ("Source", source.source if source else "not stated (hand-written record: see its sources)"),
            ("Repository", element("code", source.repository) if source and source.repository else None),
            ("File", element("code", source.file) if source and source.file else None),
            ("Commit", element("code", source.commit) if source and source.commit else None),
            ("Row", f"data row {source.row:,}" if source and source.row else None),
            ("Run path", element("code", source.run_path) if source and source.run_path else None),
            ("Benchmark", source.benchmark if source else None),
            ("Round", source.round if source else None),
            ("Division", source.division if source else None),
            ("Availability", source.availability if source else None),
            ("Submitter", source.submitter if source else None),
            ("Result ID", source.result_id if source else None),
            ("Inferred", "yes: the table marks this result inferred" if source and source.inferred else None),
            (
                "Also filed as",
                ", ".join(f"{a.benchmark} (data row {a.row:,})" for a in source.also_filed_as)
                if source and source.also_filed_as
                else None,
            ),
            ("Run log verdict", valid),
            ("Model", context.record_link(page, run.model)),
            ("Hardware", on or None),
            ("Engine", _engine(context, run, page) or "not stated"),
            (
                "Leaderboard",
                link(
                    _paths.href(page, board),
                    f"{_leaderboards.model_name(context, run.model)}, "
                    f"{_leaderboards.board_words(_leaderboards.board_of(run))}",
                ),
            ),
        ]
    )
    return "## Provenance\n" + block(facts)


def _benchmark_precision(run: Benchmark) -> list[tuple[str, object]]:
    formats = run.precision.weight_formats
    return [
        ("Weight formats", ", ".join(formats) if formats else None),
        ("Activations", run.precision.activations),
    ]


def _benchmark_facts(run: Benchmark) -> list[tuple[str, object]]:
    """Scenario, sweep point and the system (the figures have a section of their own)."""
    system, sweep = run.system, run.sweep
    parallelism = system.parallelism if system else None
    degrees = (
        ", ".join(f"{name} {degree}" for name, degree in parallelism.model_dump(exclude_none=True).items())
        if parallelism
        else None
    )
    rows: list[tuple[str, object]] = [
        ("Scenario", run.scenario or "not stated"),
        ("Sweep point", f"{sweep.parameter} = {sweep.value:g}" if sweep else None),
        ("System", system.name if system else None),
        ("Parallelism", degrees or None),
        ("Speculative decoding", system.speculative.method if system and system.speculative else None),
    ]
    return rows


MEASURED = {
    "measured_ttft": "TTFT",
    "measured_tpot": "TPOT",
    "measured_throughput": "throughput",
    "measured_memory": "memory",
}


def _measured(run: KvEfficiency) -> list[tuple[str, object]]:
    """The measured figures given, then one row naming those left null (a fact, not a measurement)."""
    rows: list[tuple[str, object]] = []
    missing = []
    for name, words in MEASURED.items():
        value = getattr(run, name)
        if value:
            rows.append((f"Measured {words}", value))
        else:
            missing.append(words)
    if missing:
        rows.append(("Not measured (null)", ", ".join(missing)))
    return rows


def _count(value: int | None) -> str | None:
    return None if value is None else f"{value:,}"


def _context_fact(context: SiteContext, run: Run) -> str:
    """The run's context as written, and in words when it is beyond its model's maximum."""
    if run.context_tokens is None:
        return "not stated"
    beyond = context.beyond_max_context(run.model, run.context)
    return _context(run.context_tokens) + (f" ({beyond})" if beyond else "")


def _context(written: int | str) -> str:
    tokens = parse_context(written)
    as_written = str(written)
    return (
        f"{tokens:,} tokens"
        if as_written.replace(",", "") == str(tokens)
        else f"{as_written} = {tokens:,} tokens"
    )


def _claim_words(context: SiteContext, run: Run, claim: Claim) -> str:
    words = f"{QUANTITY_WORDS.get(claim.quantity, claim.quantity)} ({claim.variant}"
    words += f" vs {claim.versus})" if claim.versus else ")"
    overrides = []
    if claim.context_tokens is not None:
        tokens = parse_context(claim.context_tokens)
        beyond = context.beyond_max_context(run.model, tokens)
        overrides.append(f"at {tokens:,} tokens" + (f" ({beyond})" if beyond else ""))
    if claim.kv_cache:
        overrides.append(f"KV {claim.kv_cache}")
    return words + (", " + ", ".join(overrides) if overrides else "")


def _engine_text(claim: Claim, value: Fraction | None) -> str:
    if value is None:
        return "—"
    try:
        like = parse_quantity(claim.stated)
    except QuantityError:
        like = None
    return show_value(value, like)


def _explanation(row: ClaimRow) -> Html:
    if row.verdict == "agrees":
        return escape("")
    if row.misapplication:
        return join(
            [element("code", row.misapplication, class_="misapplication"), ": ", row.misapplication_text]
        )
    return escape(row.message)


def verdict_badge(word: str) -> Html:
    return _parts.badge(word, VERDICT_BADGES.get(word, "neutral"))


def _claims(context: SiteContext, run: Run, rows: list[ClaimRow]) -> str:
    if not run.claims:
        return "## Claims\n" + block(element("p", "This record states no figure for the engine to check."))
    body = table(
        ["#", "Claim", "Stated", "Engine", "Verdict", "Explanation"],
        (
            [
                Cell(row.position + 1, sort=row.position + 1),
                _claim_words(context, run, claim),
                Cell(claim.stated, class_="stated"),
                Cell(_engine_text(claim, row.engine_value), class_="engine-value"),
                Cell(verdict_badge(row.verdict), sort=row.verdict),
                _explanation(row),
            ]
            for claim, row in zip(run.claims, rows, strict=True)
        ),
    )
    return "## Claims\n" + block(body, class_="claims")


def _derivation(result: CacheResult | str) -> str:
    """The engine's computation of the run's own setting: the total by part, then the whole trace
    (left out of the search index: numbers, not words anyone searches for)."""
    heading = element("p", element("strong", "The engine's derivation of the run"))
    if isinstance(result, str):
        return block(heading, element("p", f"Not computed: {result}.", class_="not-computable"))
    trace = element("pre", "\n".join(result.trace), class_="trace", data_search_exclude=True)
    return block(heading, element("p", _totals(result)), trace)


def _totals(result: CacheResult) -> str:
    if result.total_bytes is None:
        return "No total: " + "; ".join([*result.unsupported, *result.not_computable]) + "."
    parts = [
        f"{words} {byte_count(value)}"
        for words, value in (
            ("growing with the context", result.growing_bytes),
            ("bounded by windows", result.window_bytes),
            ("fixed state", result.fixed_bytes),
        )
        if value
    ]
    total = f"At {result.context_tokens:,} tokens, batch {result.batch:,}: {byte_count(result.total_bytes)}"
    return total + (f" ({'; '.join(parts)})." if len(parts) > 1 else ".")


def _claim_details(
    context: SiteContext, run: Run, rows: list[ClaimRow], shared_trace: tuple[str, ...]
) -> str:
    """Each claim's working as one collapsible block of text: the author's formula with the model's
    values, their working, the misapplication or nearest candidates, and the engine's trace."""
    if not run.claims:
        return ""
    items = [
        _claim_detail(context, run, claim, row, shared_trace)
        for claim, row in zip(run.claims, rows, strict=True)
    ]
    body = element("div", join(items), class_="claim-details", data_search_exclude=True)
    return block(element("p", element("strong", "Each claim worked out")), body)


def _claim_detail(
    context: SiteContext, run: Run, claim: Claim, row: ClaimRow, shared_trace: tuple[str, ...]
) -> Html:
    number = row.position + 1
    lines = [f"stated: {claim.stated}", f"engine: {_engine_text(claim, row.engine_value)}"]
    if claim.formula:
        lines.append(f"author's formula: {claim.formula}")
    formula = _formula_line(row)
    if formula:
        lines.append(f"  with the model's values: {formula}")
    if claim.basis:
        lines.append(f"author's working: {claim.basis}")
    if row.misapplication:
        lines.append(f"misapplication: {row.misapplication}: {row.misapplication_text}")
    elif row.nearest:
        lines.append("no catalogued mistake gives the stated value; the nearest:")
        lines += [f"  {name}: {_engine_text(claim, value)} ({text})" for name, text, value in row.nearest]
    if row.verdict not in ("agrees", "disagrees"):
        lines.append(f"no verdict: {row.message}")
    if row.trace and row.trace != shared_trace:
        lines += ["", *row.trace]
    elif row.trace:
        lines += ["", "the engine's trace is the derivation above"]
    summary = element(
        "summary", join([f"Claim {number}: {_claim_words(context, run, claim)} ", verdict_badge(row.verdict)])
    )
    return element(
        "details", join([summary, element("pre", "\n".join(lines), class_="trace")]), id=f"claim-{number}"
    )


def _formula_line(row: ClaimRow) -> str | None:
    if row.formula_error:
        return f"cannot be evaluated: {row.formula_error}"
    if not row.formula_rendered or row.formula_value is None:
        return None
    verdict = (
        ""
        if row.formula_matches is None
        else (" (the stated value)" if row.formula_matches else " (not the stated value)")
    )
    value = row.formula_value
    shown = f"{value.numerator:,}" if value.denominator == 1 else f"{float(value):,.6g}"
    return f"{row.formula_rendered} = {shown}{verdict}"
