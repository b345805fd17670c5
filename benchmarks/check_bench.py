"""Speed at scale, measured side by side: `registry check` against check-jsonschema on the same files.

For each N it generates N synthetic records (benchmarks/generate.py), then times, as separate
processes, the median of --repeat runs of:

- `registry check --no-cache` (cold), `registry check` with nothing changed (answered from the cache),
  and `registry check` after one file changed (a model record, whose runs are re-checked with it, and
  a run record), answered from the cache and the files the change reaches;
- `check-jsonschema` with the committed schemas on the same files (one call per kind);
- `registry db` into a scratch file; `registry --help`.

It prints a table of medians with the ratios the targets are stated in, and with --write-page it
writes the table as the first part of site/performance.md, keeping the page's sections after it (their
prose quotes figures: read them again). Run it on a quiet machine:

    .venv/bin/python benchmarks/check_bench.py --sizes 1000 10000 --repeat 3 --write-page

The package's bytecode is compiled first, as an installed tool's is: with PYTHONDONTWRITEBYTECODE set
every run would compile the modules it imports, which is not what a user's check pays.

Files are generated, then left to age 2 s: the cache trusts a file's stat only when it is older than
that (as git does), so a benchmark that checks within the same second measures digesting instead.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(REPO))

from benchmarks.generate import generate  # noqa: E402


@dataclass
class Timing:
    seconds: float
    peak_kib: int
    low: float = 0.0
    """The fastest and the slowest run: on a shared machine the spread says how far to trust the median."""
    high: float = 0.0


def run(command: list[str], cwd: Path) -> Timing:
    """Wall time and peak resident memory of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}")
    return Timing(elapsed, usage.ru_maxrss)


def median(command: list[str], cwd: Path, repeat: int, before: object = None) -> Timing:
    timings = []
    for _ in range(repeat):
        if callable(before):
            before()
        timings.append(run(command, cwd))
    return _summary(timings)


def _summary(timings: list[Timing]) -> Timing:
    seconds = [t.seconds for t in timings]
    return Timing(statistics.median(seconds), max(t.peak_kib for t in timings), min(seconds), max(seconds))


def check_jsonschema(root: Path, repeat: int) -> Timing:
    """check-jsonschema over every record, one call per kind (it takes one schema a call)."""
    collections = {
        "models": "model",
        "kv-efficiency": "kv-efficiency",
        "benchmarks": "benchmark",
        "engines": "engine",
        "hardware": "hardware",
    }
    timings = []
    for _ in range(repeat):
        total, peak = 0.0, 0
        for folder, kind in collections.items():
            files = sorted(str(p) for p in (root / "records" / folder).glob("*.yaml"))
            timing = run(
                [
                    str(BIN / "check-jsonschema"),
                    "--schemafile",
                    str(root / "schemas" / f"{kind}.schema.json"),
                    *files,
                ],
                root,
            )
            total, peak = total + timing.seconds, max(peak, timing.peak_kib)
        timings.append(Timing(total, peak))
    return _summary(timings)


def measure(size: int, repeat: int, scratch: Path) -> dict[str, Timing]:
    root = scratch / f"registry-{size}"
    generate(root, size)
    time.sleep(2.1)
    registry = str(BIN / "registry")
    results: dict[str, Timing] = {}
    results["check cold"] = median([registry, "check", "--no-cache"], root, repeat)
    run([registry, "check"], root)  # fills the cache
    results["check unchanged"] = median([registry, "check"], root, repeat)
    changed = root / "records" / "models" / "synthetic-00000.yaml"

    def touch_one() -> None:
        with changed.open("a", encoding="utf-8") as handle:
            handle.write("# edited\n")

    results["check one changed"] = median([registry, "check"], root, repeat, before=touch_one)
    named = [registry, "check", str(changed.relative_to(root))]
    results["check one changed, named"] = median(named, root, repeat, before=touch_one)
    run_record = root / "records" / "kv-efficiency" / "run-00000.yaml"

    def edit_run() -> None:
        with run_record.open("a", encoding="utf-8") as handle:
            handle.write("# edited\n")

    results["check one run changed"] = median([registry, "check"], root, repeat, before=edit_run)
    results["check-jsonschema"] = check_jsonschema(root, repeat)
    db_out = scratch / f"registry-{size}.duckdb"
    results["db"] = median([registry, "db", "--out", str(db_out)], root, repeat)
    results["--help"] = median([registry, "--help"], root, max(repeat, 5))
    shutil.rmtree(root)
    return results


def table(all_results: dict[int, dict[str, Timing]]) -> str:
    sizes = sorted(all_results)
    lines = [
        "| measurement | " + " | ".join(f"N = {n:,}" for n in sizes) + " |",
        "| --- | " + " | ".join("---" for _ in sizes) + " |",
    ]
    for name in next(iter(all_results.values())):
        cells = [_cell(all_results[n][name]) for n in sizes]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    ratios = {
        "cold / check-jsonschema (target ≤ 0.2)": lambda r: (
            r["check cold"].seconds / r["check-jsonschema"].seconds
        ),
        "unchanged / cold (target ≤ 0.05)": lambda r: r["check unchanged"].seconds / r["check cold"].seconds,
        "one changed / cold (target ≤ 0.1)": lambda r: (
            r["check one changed"].seconds / r["check cold"].seconds
        ),
    }
    for name, ratio in ratios.items():
        lines.append(f"| {name} | " + " | ".join(f"{ratio(all_results[n]):.3f}" for n in sizes) + " |")
    lines.append(
        "| check cold, peak memory | "
        + " | ".join(f"{all_results[n]['check cold'].peak_kib / 1024:.0f} MiB" for n in sizes)
        + " |"
    )
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        growth = all_results[large]["check cold"].seconds / all_results[small]["check cold"].seconds
        lines.append(
            f"| cold time growth {small:,} → {large:,} (linear: {large / small:.0f}×) | "
            + " | ".join("" for _ in sizes[:-1])
            + f" | {growth:.1f}× |"
        )
    return "\n".join(lines)


def _cell(timing: Timing) -> str:
    """The median, and the range of the runs when they differ."""
    if timing.high - timing.low < 0.0005:
        return f"{timing.seconds:.3f} s"
    return f"{timing.seconds:.3f} s ({timing.low:.2f}–{timing.high:.2f})"


PAGE = """# Performance

`registry check` runs on every pull request, so it has to stay fast as the registry grows. These
figures come from `benchmarks/check_bench.py`, which generates synthetic registries of realistic
records (about 3 KB each, with comments and nested claims whose values the engine computes) and times
each command as a separate process, the median of {repeat} runs (in brackets, the fastest and the
slowest), side by side with `check-jsonschema` validating the same files against the same committed
schemas.

Measured {date} on {machine}:

{table}

What each row means:

- **check cold**: `registry check --no-cache`: parse, validate against the schema and the record model,
  resolve every reference and link, recompute every claim.
- **check unchanged**: `registry check` again with nothing changed, answered from `.registry-cache/`.
- **check one changed**: one model record edited since the last run: it and the records that name it
  are checked again, every other file's findings come from the cache.
- **check one changed, named**: the same, as `registry check records/models/<file>.yaml`: the file's
  findings are cut from the whole answer, so naming it costs no more.
- **check one run changed**: one kv-efficiency record edited: it and the records it names are loaded.
- **check-jsonschema**: schema validation only, no references, no arithmetic, no line numbers.
- **db**: `registry db`, the DuckDB file with the engine's results.

To reproduce: `.venv/bin/python benchmarks/check_bench.py --sizes 1000 10000 --repeat 3 --write-page`.
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--write-page", action="store_true", help="write the table to site/performance.md")
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "registry")], check=True)
    results: dict[int, dict[str, Timing]] = {}
    with tempfile.TemporaryDirectory(prefix="registry-bench-") as scratch:
        for size in args.sizes:
            print(f"measuring N = {size:,} ...", file=sys.stderr, flush=True)
            results[size] = measure(size, args.repeat, Path(scratch))
    rendered = table(results)
    print(rendered)
    if args.write_page:
        machine = f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.machine()}"
        page = PAGE.format(
            repeat=args.repeat, date=time.strftime("%Y-%m-%d"), machine=machine, table=rendered
        )
        target = REPO / "site" / "performance.md"
        if target.is_file():  # the page's later sections (the reading of the targets, the site) stay
            existing = target.read_text(encoding="utf-8")
            later = existing.find("\n## ")
            if later != -1:
                page = page.rstrip("\n") + "\n" + existing[later:]
        target.write_text(page, encoding="utf-8")
        print("wrote the check's table to site/performance.md", file=sys.stderr)


if __name__ == "__main__":
    main()
