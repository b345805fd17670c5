"""How long the site takes to build, and what the generator adds to a bare MkDocs build.

For each size N it generates a synthetic registry of N records (``benchmarks/generate.py``), then times,
each in its own process so that time and peak memory are the process's own:

1. ``registry site`` without MkDocs: the check, the page generation, the download files;
2. ``mkdocs build --strict`` of the generated site (record pages out of the navigation);
3. a bare ``mkdocs build`` of N plain Markdown pages with the same theme, none in the navigation: the
   floor any site of N pages pays.

The generation is timed twice: as ``make run`` runs it, after ``registry db`` has built the database
the Downloads page offers (the pages, the index and reference pages, the download files), and from
nothing, when ``registry site`` builds the database too, alongside the pages. The generator's share is
the first over bare: building the database is ``registry db``'s work, timed by its own benchmark. The
targets, which the report ends with: a whole site of 10,000 records in under 90 s, the generator adding
at most 20 % of bare, and memory flat in the number of records (the growth of each peak per record from
one size to the next is printed). The whole site is timed from nothing: check, database, pages, MkDocs.

``--with-nav N`` also builds N plain pages *all listed in the navigation*, the layout the site avoids,
to show the quadratic cost.

The work folder is in memory (``/dev/shm``) where the system has one, so that every command is timed
for its own work, not for the disk's: on a disk mounted with ``discard``, just after an earlier
benchmark had deleted its files, one generation of 10,000 records took 13.4 s, 10.4 s of it system
time, against 6.1 s (0.8 s) in memory. ``--workdir`` puts it elsewhere, on a disk to time that too.

    .venv/bin/python benchmarks/site_bench.py --sizes 1000 10000
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.generate import generate  # noqa: E402

PLAIN_PAGE = (
    "# Plain page {i}\n\n"
    + "A paragraph of plain words about cache memory, context length and serving engines. " * 12
    + "\n\n"
    + "| a | b |\n| --- | --- |\n| 1 | 2 |\n\n"
    + "Another paragraph, with *emphasis* and `code`, to give the page some body. " * 8
    + "\n"
)

BARE_CONFIG = """\
site_name: Bare
docs_dir: docs
site_dir: out
use_directory_urls: false
theme:
  name: material
  font: false
plugins:
  - search
{nav}
"""


@dataclass
class Measured:
    seconds: float
    cpu_seconds: float
    peak_rss_mib: float
    output: str


def measure(command: list[str], cwd: Path) -> Measured:
    """Run ``command`` to completion; its wall time and the peak resident memory of the process.

    The disk is synced first: the files the benchmark has just generated are still being written back,
    and that writing would otherwise slow the measured command's own writes (by seconds, measured)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    os.sync()
    started = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{output[-3000:]}")
    return Measured(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, output)


RUN_AROUND_MEASUREMENT = """\
engine: "engines/engine-00000"
engine_version: "1.0"
hardware: "hardware/gpu-00000"
hardware_count: 4
workload:
  description: "synthetic"
"""
"""A measured figure needs its run (rule S006); the shared generator's benchmark records predate the
rule, so the run is added here, naming the first generated engine and hardware records."""


def site_registry(work: Path, size: int, distinct_geometries: bool = False) -> Path:
    root = work / f"registry-{size}"
    generate(root, size, distinct_geometries=distinct_geometries)
    for path in (root / "records" / "benchmarks").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        if "measured_ttft" in text and "\nengine:" not in text:
            path.write_text(text + RUN_AROUND_MEASUREMENT, encoding="utf-8")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site", root / "site", ignore=shutil.ignore_patterns("generated"))
    return root


def bare_site(work: Path, size: int, in_nav: bool, name: str = "") -> Path:
    root = work / f"bare-{size}{'-nav' if in_nav else ''}{name}"
    docs = root / "docs"
    (docs / "pages").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    for i in range(size):
        (docs / "pages" / f"page-{i:05d}.md").write_text(PLAIN_PAGE.format(i=i), encoding="utf-8")
    pages = "".join(f"  - pages/page-{i:05d}.md\n" for i in range(size)) if in_nav else ""
    nav = "nav:\n  - index.md\n" + pages if in_nav else "nav:\n  - index.md\nnot_in_nav: |\n  /pages/**"
    (root / "mkdocs.yml").write_text(BARE_CONFIG.format(nav=nav), encoding="utf-8")
    return root


GENERATOR = """
import json, resource, sys, time
from pathlib import Path
from registry.site._build import check_clean
from registry.site._generate import generate

root = Path(sys.argv[1])
steps = {}

def cpu():  # this process and the page workers it has waited for
    return sum(getattr(resource.getrusage(who), f) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for f in ("ru_utime", "ru_stime"))

def step(name, work):
    wall, used = time.perf_counter(), cpu()
    value = work()
    steps[name] = (time.perf_counter() - wall, cpu() - used)
    return value

result = step("check", lambda: check_clean(root))
if len(sys.argv) > 2:  # as `make run` runs it: `registry db` has built the database already
    from registry.site._downloads import prepare_database
    prepare_database(root, result)
generated = step("generate", lambda: generate(root, result))
print(json.dumps({**steps, "split": generated.seconds}))
"""


def _generation(root: Path, *mode: str) -> tuple[Measured, dict[str, Any]]:
    run = measure([sys.executable, "-c", GENERATOR, str(root), *mode], REPO)
    return run, json.loads(run.output.strip().splitlines()[-1])


def mkdocs_build(root: Path) -> list[str]:
    """The command that builds the MkDocs site at ``root``, strictly."""
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml")]


def _median_run(runs: list[tuple[Measured, dict[str, Any]]]) -> tuple[Measured, dict[str, Any]]:
    """The run whose generation took the median wall time."""
    ordered = sorted(runs, key=lambda run: run[1]["generate"][0])
    return ordered[len(ordered) // 2]


def bench(work: Path, size: int, repeat: int, distinct_geometries: bool = False) -> dict[str, float]:
    """One size: the generation ``repeat`` times each way on fresh copies, and as many bare builds, one
    after each pair (the medians are reported: single runs on this machine vary by a fifth, and its
    speed drifts over minutes, which the interleaving spreads over both); then MkDocs on the last cold
    copy.

    Every copy is made before the first measurement and nothing is deleted until the last: on a disk
    mounted with ``discard`` (this one), deleting thousands of files slows the file creation that
    follows by several times (measured: 12,000 new files cost 1.8 s of system time just after deleting
    as many, 0.3 s otherwise), which would be charged to whichever command ran next."""
    root = site_registry(work, size, distinct_geometries)
    cold_roots = [work / f"registry-{size}-cold-{attempt}" for attempt in range(repeat - 1)] + [root]
    after_roots = [work / f"registry-{size}-db-first-{attempt}" for attempt in range(repeat)]
    bare_roots = [bare_site(work, size, in_nav=False, name=f"-{attempt}") for attempt in range(repeat)]
    for copy in [*cold_roots[:-1], *after_roots]:
        shutil.copytree(root, copy)
    cold, after, bares = [], [], []
    for cold_root, after_root, bare_root in zip(cold_roots, after_roots, bare_roots, strict=True):
        cold.append(_generation(cold_root))
        after.append(_generation(after_root, "db-first"))
        bares.append(measure(mkdocs_build(bare_root), bare_root))
    generator, steps = _median_run(cold)
    _, after_db_steps = _median_run(after)
    bare = sorted(bares, key=lambda run: run.seconds)[len(bares) // 2]
    site = measure(mkdocs_build(root), root)
    return {
        "records": size,
        "check_s": steps["check"][0],
        "database_s": steps["split"].get("database (alongside the pages)", 0.0),
        "pages_s": steps["split"]["pages"],
        "generate_s": steps["generate"][0],
        "mkdocs_s": site.seconds,
        "total_s": generator.seconds + site.seconds,
        "bare_mkdocs_s": bare.seconds,
        "check_cpu": steps["check"][1],
        "generate_cpu": steps["generate"][1],
        "mkdocs_cpu": site.cpu_seconds,
        "total_cpu": generator.cpu_seconds + site.cpu_seconds,
        "bare_cpu": bare.cpu_seconds,
        "generate_after_db_s": after_db_steps["generate"][0],
        "generate_after_db_cpu": after_db_steps["generate"][1],
        "generator_rss_mib": max(run.peak_rss_mib for run, _ in cold),
        "mkdocs_rss_mib": site.peak_rss_mib,
        "bare_rss_mib": bare.peak_rss_mib,
    }


def report(rows: list[dict[str, float]]) -> str:
    """Wall seconds, then CPU seconds (what the numbers are on a machine shared with other work), and
    the shares of a bare build: the generation step's wall and CPU time (the pages, with the database
    and with the download files alongside, as ``registry site`` runs them), the whole generator's
    CPU (check included); and the generation as ``make run`` runs it, after ``registry db``."""
    lines = [
        "records | wall: check pages (database alongside) mkdocs total bare "
        "| cpu: check generate mkdocs total bare "
        "| generate/bare: wall cpu | generator/bare site/bare (cpu) "
        "| after registry db: generate (wall cpu, wall/bare) | peak RSS: generator mkdocs bare",
    ]
    for r in rows:
        generator_cpu = r["check_cpu"] + r["generate_cpu"]
        lines.append(
            f"{r['records']:>7,.0f} | {r['check_s']:>5.1f} {r['pages_s']:>5.1f} ({r['database_s']:>4.1f}) "
            f"{r['mkdocs_s']:>6.1f} {r['total_s']:>6.1f} {r['bare_mkdocs_s']:>5.1f} | "
            f"{r['check_cpu']:>5.1f} {r['generate_cpu']:>5.1f} "
            f"{r['mkdocs_cpu']:>6.1f} "
            f"{r['total_cpu']:>6.1f} {r['bare_cpu']:>5.1f} | {r['generate_s'] / r['bare_mkdocs_s']:>4.0%} "
            f"{r['generate_cpu'] / r['bare_cpu']:>5.0%} | "
            f"{generator_cpu / r['bare_cpu']:>5.0%} {r['total_cpu'] / r['bare_cpu']:>5.0%} | "
            f"{r['generate_after_db_s']:>5.1f} {r['generate_after_db_cpu']:>5.1f} "
            f"{r['generate_after_db_s'] / r['bare_mkdocs_s']:>4.0%} | "
            f"{r['generator_rss_mib']:>5.0f}M {r['mkdocs_rss_mib']:>5.0f}M {r['bare_rss_mib']:>5.0f}M"
        )
    return "\n".join(lines)


TARGET_SECONDS, TARGET_RECORDS, TARGET_SHARE = 90.0, 10_000, 0.20
"""The site's targets: 10,000 records built in under 90 s, the generator adding at most 20% of a bare
build of as many plain pages, and memory flat in the number of records."""


def against_targets(rows: list[dict[str, float]]) -> str:
    """Each target and where the rows stand against it.

    The generator's share is its generation step as ``make run`` runs it, after ``registry db`` has
    built the database: the pages, the index and reference pages and the download files. From nothing,
    ``registry site`` also builds the database alongside the pages, which is ``registry db``'s work
    (the database's own benchmark times it); that share is shown beside it. Memory is the growth of each
    process's peak per record from one size to the next: MkDocs 1.x keeps every page until its build
    ends, so its peak grows with any site, a bare one included."""
    lines = ["against the targets:"]
    for r in rows:
        if r["records"] == TARGET_RECORDS:
            whole = f"{'under' if r['total_s'] < TARGET_SECONDS else 'over'} {TARGET_SECONDS:.0f} s"
        else:
            whole = f"the {TARGET_SECONDS:.0f} s target is for {TARGET_RECORDS:,} records"
        share, cold = r["generate_after_db_s"] / r["bare_mkdocs_s"], r["generate_s"] / r["bare_mkdocs_s"]
        lines.append(
            f"  {r['records']:>7,.0f} records: the whole site {r['total_s']:.1f} s ({whole}); "
            f"the generator {share:.1%} of a bare build "
            f"({'met' if share <= TARGET_SHARE else 'not met'}: at most {TARGET_SHARE:.0%}), "
            f"{cold:.1%} with the database built alongside"
        )
    for smaller, larger in itertools.pairwise(rows):
        added = larger["records"] - smaller["records"]
        growth = {
            name: (larger[key] - smaller[key]) * 1024 / added
            for name, key in (("generator", "generator_rss_mib"), ("MkDocs", "mkdocs_rss_mib"))
        }
        bare = (larger["bare_rss_mib"] - smaller["bare_rss_mib"]) * 1024 / added
        lines.append(
            f"  peak memory from {smaller['records']:,.0f} to {larger['records']:,.0f} records, a record: "
            + ", ".join(f"{name} {kb:+.1f} KB" for name, kb in growth.items())
            + f"; a bare MkDocs build {bare:+.1f} KB a plain page"
        )
    return "\n".join(lines)


def _in_memory() -> str | None:
    """A folder in memory for the work (``/dev/shm``), or None for the system's temporary folder."""
    folder = Path("/dev/shm")
    return str(folder) if folder.is_dir() and os.access(folder, os.W_OK) else None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[1000, 10000], help="registry sizes (records)"
    )
    parser.add_argument(
        "--with-nav", type=int, metavar="N", help="also build N plain pages all in the navigation"
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        help="keep the generated registries here (default: a temporary folder in memory, if any)",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="generation runs each way, the median reported (default 3)"
    )
    parser.add_argument(
        "--distinct-geometries",
        action="store_true",
        help="give each synthetic model a geometry of its own where it can (see benchmarks/generate.py)",
    )
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = parser.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="site-bench-", dir=_in_memory()))
    work.mkdir(parents=True, exist_ok=True)
    try:
        rows = []
        for size in args.sizes:
            rows.append(bench(work, size, args.repeat, args.distinct_geometries))
            print(report(rows[-1:]), flush=True)
        print("\n" + report(rows))
        print("\n" + against_targets(rows))
        if args.with_nav:
            nav_root = bare_site(work, args.with_nav, in_nav=True)
            listed = measure(mkdocs_build(nav_root), nav_root)
            print(
                f"\n{args.with_nav:,} plain pages, every one in the navigation: {listed.seconds:.1f} s, "
                f"peak {listed.peak_rss_mib:.0f} MiB"
            )
        if args.json:
            print(json.dumps(rows, indent=1))
    finally:
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
