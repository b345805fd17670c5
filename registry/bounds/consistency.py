"""Relations between the figures of one run, where the record states enough to apply them.

- a per-accelerator figure is the system's figure over the accelerators (same metric and statistic;
  not for a disaggregated run, whose per-accelerator figure may count one pool);
- output throughput ≤ request throughput x output length (a request may stop before its length);
- Little's law: request throughput x mean end-to-end latency ≤ the concurrency (sequences in flight);
- total throughput counts the input tokens too: ≥ the output throughput, and with fixed lengths equal
  to it x (input + output) / output;
- the system's output rate ≤ the concurrency x a sequence's output rate: at most ``concurrency``
  sequences decode at once, each at its own rate. With each request's rate its tokens over its time,
  the system's tokens are Σ rate_i x time_i ≤ max rate x concurrency x duration, so the maximum rate
  bounds it always; with fixed output lengths the times are ``output / rate_i`` and the bound is the
  concurrency x the harmonic mean of the rates, at most their arithmetic mean, so a mean (or single)
  rate bounds it too. A mean TPOT does the same, ``output / (output - 1)`` allowing the first token;
- order: a figure's minimum ≤ its median, mean and percentiles ≤ its maximum, and its percentiles rise
  (median ≤ p90 ≤ p95 ≤ p99 ≤ p99.9).

Each relation bounds one figure by the others; rates are compared at the statistics that stand for a
single figure (``value``, ``mean``).
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from registry.bounds.bound import CONSISTENCY_TOLERANCE, Bound, Side, Slip
from registry.bounds.facts import Figure, RunFacts
from registry.bounds.roofs import THOUSAND, subject_of
from registry.bounds.written import count, rate, seconds

_SINGLE = ("value", "mean")

UNITS = {
    "output_throughput": "tok/s",
    "input_throughput": "tok/s",
    "total_throughput": "tok/s",
    "goodput": "tok/s",
    "request_goodput": "req/s",
    "power": "W",
    "memory": "B",
}
"""The SI unit a metric's figure is compared in (requests per second and seconds otherwise)."""


EXTENSIVE = (*UNITS, "request_throughput", "sample_throughput", "query_throughput", "memory")
"""Metrics a system is the sum of its accelerators in (a rate, a power), not a ratio of two sums."""


def unit_of(metric: str) -> str:
    if metric in UNITS:
        return UNITS[metric]
    if metric.endswith("_throughput"):
        return "req/s"
    return "s" if metric in ("ttft", "tpot", "itl", "e2e_latency") else ""


def _find(run: RunFacts, metric: str, per: str, statistics: tuple[str, ...] = _SINGLE) -> Figure | None:
    for statistic in statistics:
        for figure in run.figures:
            if (figure.metric, figure.per, figure.statistic) == (metric, per, statistic):
                return figure
    return None


def _bound(
    figure: Figure,
    side: Side,
    unit: str,
    limit: Fraction,
    what: str,
    lines: list[str],
    slips: tuple[Slip, ...],
    inputs: tuple[tuple[str, str], ...],
) -> Bound:
    return Bound(
        "consistency",
        figure.position,
        subject_of(figure),
        side,
        unit,
        figure.text,
        figure.value,
        limit,
        CONSISTENCY_TOLERANCE,
        what,
        inputs=inputs,
        trace=tuple(lines),
        slips=slips,
    )


def consistency(run: RunFacts) -> Iterator[Bound]:
    """Every relation the record's figures allow, each as a bound on one of its figures."""
    yield from _per_accelerator(run)
    yield from _output_by_requests(run)
    yield from _littles_law(run)
    yield from _total_vs_output(run)
    yield from _per_user(run)
    yield from _order(run)


TENFOLD = Slip("a tenfold slip: a digit too many or a decimal point misplaced", Fraction(10))

_RISING = ("min", "median", "p90", "p95", "p99", "p99.9", "max")
"""Statistics in the order their values rise; the mean sits between the minimum and the maximum."""


def _per_user(run: RunFacts) -> Iterator[Bound]:
    """The system's output rate against the concurrency times one sequence's rate (or 1 / its TPOT)."""
    total = _find(run, "output_throughput", "system")
    concurrency = run.concurrency
    if total is None or concurrency is None:
        return
    fixed = run.lengths in (None, "fixed")
    statistics = ("max", "value", "mean") if fixed else ("max",)
    rate_figure = _find(run, "output_throughput", "request", statistics)
    if rate_figure is not None:
        limit = concurrency * rate_figure.value
        words = "the maximum" if rate_figure.statistic == "max" else "a fixed-length run's mean"
        lines = [f"{concurrency} in flight × {rate_figure.text} per sequence ({words}) = {rate(limit)}"]
        what = f"concurrency {concurrency} x the per-sequence rate {rate_figure.text}"
        inputs = (("concurrency", str(concurrency)), (subject_of(rate_figure), rate_figure.text))
        yield _bound(total, "ceiling", "tok/s", limit, what, lines, (TENFOLD, THOUSAND), inputs)
        return
    tpot = _find(run, "tpot", "request", ("mean",))
    if tpot is None or not fixed or not run.output_tokens or run.output_tokens < 2 or tpot.value == 0:
        return
    out = run.output_tokens
    limit = concurrency / tpot.value * Fraction(out, out - 1)
    lines = [f"{concurrency} in flight / {seconds(tpot.value)} mean TPOT × {out} / {out - 1} = {rate(limit)}"]
    what = f"concurrency {concurrency} over the mean TPOT {tpot.text}"
    inputs = (("concurrency", str(concurrency)), (subject_of(tpot), tpot.text))
    yield _bound(total, "ceiling", "tok/s", limit, what, lines, (TENFOLD, THOUSAND), inputs)


def _order(run: RunFacts) -> Iterator[Bound]:
    """Each figure against the statistics of the same metric it must not fall below."""
    for figure in run.figures:
        for lower in _below(run, figure):
            lines = [f"{figure.statistic} ≥ {lower.statistic}: {lower.text}"]
            what = f"its own {lower.statistic} {lower.text}"
            inputs = ((subject_of(lower), lower.text),)
            unit = unit_of(figure.metric)
            yield _bound(figure, "floor", unit, lower.value, what, lines, (TENFOLD, THOUSAND), inputs)


def _below(run: RunFacts, figure: Figure) -> Iterator[Figure]:
    """The figures of the same metric and per whose statistic is below ``figure``'s, nearest first."""
    if figure.statistic not in (*_RISING, "mean"):
        return
    same = [f for f in run.figures if (f.metric, f.per) == (figure.metric, figure.per) and f is not figure]
    if figure.statistic == "mean":
        yield from (f for f in same if f.statistic == "min")
        return
    rank = _RISING.index(figure.statistic)
    candidates = [f for f in same if f.statistic in _RISING and _RISING.index(f.statistic) < rank]
    nearest = max(candidates, key=lambda f: _RISING.index(f.statistic), default=None)
    if nearest is not None:
        yield nearest
    if figure.statistic == "max":
        yield from (f for f in same if f.statistic == "mean")


def _per_accelerator(run: RunFacts) -> Iterator[Bound]:
    """A per-accelerator figure against the system's over every accelerator; not for a disaggregated
    run, whose sources often divide by the decode accelerators only."""
    n = run.accelerators
    if n < 1 or run.disaggregated:
        return
    for figure in run.figures:
        if figure.per != "accelerator" or figure.metric not in EXTENSIVE:
            continue
        system = _find(run, figure.metric, "system", (figure.statistic,))
        if system is None:
            continue
        limit = system.value / n
        lines = [
            f"{subject_of(system)} {system.text} / {n} accelerators = {rate(limit, unit_of(figure.metric))}"
        ]
        slips = (
            Slip("the per-accelerator figure is the system's", Fraction(n)),
            Slip("the system figure is one accelerator's", Fraction(1, n)),
        )
        what = f"the system figure {system.text} over {n} accelerators"
        yield _bound(
            figure,
            "equal",
            unit_of(figure.metric),
            limit,
            what,
            lines,
            slips,
            ((subject_of(system), system.text), ("accelerators", str(n))),
        )


def _output_by_requests(run: RunFacts) -> Iterator[Bound]:
    if not run.output_tokens:
        return
    for per in ("system", "accelerator"):
        output = _find(run, "output_throughput", per)
        requests = _find(run, "request_throughput", per)
        if output is None or requests is None:
            continue
        limit = requests.value * run.output_tokens
        lines = [f"{requests.text} × {count(run.output_tokens)} output tokens = {rate(limit)}"]
        what = f"request throughput {requests.text} x {count(run.output_tokens)} output tokens"
        inputs = ((subject_of(requests), requests.text), ("output tokens", count(run.output_tokens)))
        yield _bound(output, "ceiling", "tok/s", limit, what, lines, (THOUSAND,), inputs)


def _littles_law(run: RunFacts) -> Iterator[Bound]:
    requests = _find(run, "request_throughput", "system")
    latency = _find(run, "e2e_latency", "request", ("mean",))
    if run.concurrency is None or requests is None or latency is None or latency.value == 0:
        return
    limit = run.concurrency / latency.value
    lines = [
        f"Little's law: {run.concurrency} in flight / {seconds(latency.value)} mean latency = {rate(limit, 'req/s')}"
    ]
    what = f"Little's law at concurrency {run.concurrency} and mean latency {latency.text}"
    slip = Slip(
        "a thousands separator or a ms / s slip in the throughput or the latency (x1,000)", Fraction(1000)
    )
    inputs = (("concurrency", str(run.concurrency)), (subject_of(latency), latency.text))
    yield _bound(requests, "ceiling", "req/s", limit, what, lines, (slip,), inputs)


def _total_vs_output(run: RunFacts) -> Iterator[Bound]:
    for per in ("system", "accelerator", "request"):
        total = _find(run, "total_throughput", per)
        output = _find(run, "output_throughput", per)
        if total is None or output is None:
            continue
        fixed = run.lengths == "fixed" and run.input_tokens is not None and run.output_tokens
        if fixed:
            assert run.input_tokens is not None and run.output_tokens
            ratio = Fraction(run.input_tokens + run.output_tokens, run.output_tokens)
            limit = output.value * ratio
            lengths = f"({count(run.input_tokens)} + {count(run.output_tokens)}) / {count(run.output_tokens)}"
            lines = [f"{output.text} × {lengths} = {rate(limit)}"]
            what = f"output throughput {output.text} with fixed lengths"
            inputs = (
                (subject_of(output), output.text),
                ("input tokens", count(run.input_tokens)),
                ("output tokens", count(run.output_tokens)),
            )
            yield _bound(total, "equal", "tok/s", limit, what, lines, (THOUSAND,), inputs)
        else:
            lines = [f"total ≥ output: {output.text}"]
            what = f"the output throughput {output.text} it includes"
            yield _bound(
                total, "floor", "tok/s", output.value, what, lines, (), ((subject_of(output), output.text),)
            )
