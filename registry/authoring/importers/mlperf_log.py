"""Reading one run's ``mlperf_log_summary.txt``, the summary LoadGen writes beside a run's detailed log.

The file is a list of ``name : value`` lines under banner lines of ``=``: the verdict (``Result is :
VALID`` or ``INVALID``), the run's scenario, the latency statistics in nanoseconds (end-to-end, first
token and time per output token: min, max, mean and the 50th to 99.9th percentiles) and the test
parameters, among them the TTFT and TPOT targets (``ttft_latency (ns)``, ``tpot_latency (ns)``). A file
without the banner, without a verdict, with a verdict other than VALID or INVALID, or with a statistic
that is not a whole number of nanoseconds is refused with its ``file:line``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from registry.authoring.importers.mlperf_table import SourceError
from registry.reading import read_regular

FILE_NAME = "mlperf_log_summary.txt"
MAX_BYTES = 1024 * 1024
"""A summary is a few kilobytes; anything far larger is not one."""

BANNER = "MLPerf Results Summary"

_LINE = re.compile(r"^\s*([^:]*?)\s*:\s*(.*?)\s*$")
_STATISTIC = re.compile(
    r"^(?:(min|max|mean) (latency|first token latency|time per output token)"
    r"|([0-9]{2}\.[0-9]{2}) percentile (latency|first token latency|time to output token)) \(ns\)$",
    re.IGNORECASE,
)
_METRICS = {
    "latency": "e2e_latency",
    "first token latency": "ttft",
    "time per output token": "tpot",
    "time to output token": "tpot",
}
_PERCENTILES = {"50.00": "median", "90.00": "p90", "95.00": "p95", "99.00": "p99", "99.90": "p99.9"}
"""LoadGen's percentiles that the record's statistics name (the 97th has no name there and is left out)."""
TARGETS = {"ttft_latency (ns)": "ttft", "tpot_latency (ns)": "tpot"}


@dataclass
class RunLog:
    """What a run's summary states: its scenario, verdict, latency statistics and latency targets."""

    path: Path
    scenario: str = ""
    valid: bool | None = None
    statistics: dict[tuple[str, str], int] = field(default_factory=dict)
    """(metric, statistic) -> nanoseconds, in the order of the file."""
    targets: dict[str, int] = field(default_factory=dict)
    """metric -> the target in nanoseconds, as the test parameters state it."""
    rates: dict[str, list[str]] = field(default_factory=dict)
    """``Tokens/s`` or ``Samples/s`` -> the rates the summary states in that unit, as written
    (``Samples per second``, ``Completed tokens per second``, ...)."""

    def unit_of(self, result: str) -> str | None:
        """The unit of the log's rate that ``result`` (a table's figure, maybe rounded) is: None when no
        rate, or rates of both units, match it."""
        found = {unit for unit, rates in self.rates.items() if any(_same(result, rate) for rate in rates)}
        return found.pop() if len(found) == 1 else None


def _same(table: str, log: str) -> bool:
    """Whether a table's figure is the log's, rounded to the table's digits."""
    try:
        shown, exact = Decimal(table), Decimal(log)
    except ArithmeticError:
        return False
    if not (shown.is_finite() and exact.is_finite()):
        return False
    exponent = shown.as_tuple().exponent
    places = max(-exponent, 0) if isinstance(exponent, int) else 0
    return abs(shown - exact) <= Decimal(5) / Decimal(10) ** (places + 1)


_RATE = re.compile(r"^(?:completed |scheduled )?(samples|tokens) per second$", re.IGNORECASE)
_RATE_UNITS = {"samples": "Samples/s", "tokens": "Tokens/s"}


def milliseconds(nanoseconds: int) -> str:
    """A whole number of nanoseconds in milliseconds, exactly: the decimal point moved six places."""
    return f"{format((Decimal(nanoseconds) / 10**6).normalize(), 'f')} ms"


def read_log(path: Path) -> RunLog:
    """The run log summary at ``path``, or :class:`SourceError` naming its first bad line."""
    raw = read_regular(path, MAX_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = raw[: error.start].count(b"\n") + 1
        raise SourceError(f"{path}:{bad}: not UTF-8 text, so not an MLPerf log summary") from None
    lines = text.splitlines()
    if BANNER not in (line.strip() for line in lines[:5]):
        raise SourceError(f"{path}:1: not an MLPerf log summary (no {BANNER!r} banner in its first lines)")
    log = RunLog(path)
    for number, line in enumerate(lines, start=1):
        _read_line(log, f"{path}:{number}", line)
    if log.valid is None:
        raise SourceError(f"{path}:{len(lines)}: no 'Result is :' line, so the run's verdict is not known")
    return log


def _read_line(log: RunLog, where: str, line: str) -> None:
    match = _LINE.match(line)
    if match is None:
        return
    name, value = match.groups()
    if name == "Result is":
        if value not in ("VALID", "INVALID"):
            raise SourceError(f"{where}: Result is {value!r}, neither VALID nor INVALID")
        log.valid = value == "VALID"
    elif name == "Scenario":
        log.scenario = value
    elif name in TARGETS:
        log.targets[TARGETS[name]] = _nanoseconds(where, name, value)
    elif (rate := _RATE.match(name)) is not None:
        log.rates.setdefault(_RATE_UNITS[rate.group(1).lower()], []).append(value)
    elif (found := _STATISTIC.match(name)) is not None:
        central, quantity_a, percentile, quantity_b = found.groups()
        metric = _METRICS[(quantity_a or quantity_b).lower()]
        statistic = central.lower() if central else _PERCENTILES.get(percentile)
        if statistic is not None:
            log.statistics[(metric, statistic)] = _nanoseconds(where, name, value)


def _nanoseconds(where: str, name: str, value: str) -> int:
    if not value.isascii() or not value.isdigit() or len(value) > 18:
        raise SourceError(f"{where}: {name} {value!r} is not a whole number of nanoseconds")
    return int(value)


_ORDER = ("mean", "median", "p90", "p95", "p99", "p99.9", "min", "max")
SERVER_STYLE = ("server", "interactive")
"""Scenarios whose queries are single requests sent as they arrive: their end-to-end latencies are each
request's. An offline run sends one query of every sample, so its latencies are not a request's."""


def log_metrics(log: RunLog, scenario: str) -> list[dict[str, Any]]:
    """The log's latency statistics as metrics per request, in milliseconds: TTFT and TPOT where the run
    measured them, and the end-to-end latency of a server-style or single-stream run."""
    metrics = ("ttft", "tpot") if scenario == "offline" else ("ttft", "tpot", "e2e_latency")
    found = []
    for metric in metrics:
        for statistic in _ORDER:
            value = log.statistics.get((metric, statistic))
            if value is not None:
                stated = milliseconds(value)
                found.append({"metric": metric, "statistic": statistic, "per": "request", "stated": stated})
    return found


def runs_as(log_scenario: str, scenario: str) -> bool:
    """Whether a log's LoadGen scenario is the record's: MLPerf runs its Interactive scenario as LoadGen's
    Server, with the interactive benchmark's tighter targets."""
    written = log_scenario.lower().replace("stream", "-stream").replace("--", "-")
    return written == scenario or (written == "server" and scenario == "interactive")
