"""The engine's figures for a model: one context at a time, against a ladder of contexts at once.

A model page's grid and the database's ``kv_at_context`` table ask for the same figures: every engine
layout, KV format and standard context (6 × 4 × 4 = 96 for each cache geometry). This times them both
ways over every distinct geometry of a registry, with the memoised results cleared before each run:

- one at a time: :func:`registry.engine.compute.compute` without the trace, for each figure;
- as ladders: :func:`registry.engine.compute.compute_ladder` for each layout and format, which plans
  each layer group once for the four contexts (what :class:`registry.results.Figures` asks for).

By default it generates a synthetic registry of 10,000 records whose models have geometries of their
own (``benchmarks/generate.py --distinct-geometries``); ``--registry`` times a registry on disk instead.

    .venv/bin/python benchmarks/engine_bench.py --repeat 5
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.generate import generate  # noqa: E402
from registry.checker.pipeline import load_file  # noqa: E402
from registry.db._rows_models import LADDER, LADDER_LAYOUTS  # noqa: E402
from registry.engine.compute import compute, compute_ladder  # noqa: E402
from registry.engine.layers import LayerGroups  # noqa: E402
from registry.kinds.geometry import model_layer_groups_or_error  # noqa: E402
from registry.kinds.records import Model  # noqa: E402
from registry.results import STANDARD_CONTEXTS  # noqa: E402

compute_module = importlib.import_module("registry.engine.compute")
groups_module = importlib.import_module("registry.engine.groups")


def distinct_layouts(root: Path) -> list[LayerGroups]:
    """Every distinct cache layout among the model records of the registry at ``root``, in file order."""
    found: dict[LayerGroups, None] = {}
    for path in sorted((root / "records" / "models").glob("*.yaml")):
        loaded = load_file(root, path.relative_to(root).as_posix())
        if isinstance(loaded, tuple) and isinstance(loaded[0], Model):
            layout, _ = model_layer_groups_or_error(loaded[0])
            if layout is not None:
                found.setdefault(layout)
    return list(found)


def one_at_a_time(layouts: list[LayerGroups]) -> None:
    for layout in layouts:
        for engine, kv_dtype, _, tokens in LADDER:
            with contextlib.suppress(ValueError):  # a format the engine layout cannot store
                compute(layout, context_tokens=tokens, engine_layout=engine, kv_dtype=kv_dtype, traced=False)


def as_ladders(layouts: list[LayerGroups]) -> None:
    for layout in layouts:
        for engine, kv_dtype in LADDER_LAYOUTS:
            with contextlib.suppress(ValueError):
                compute_ladder(layout, STANDARD_CONTEXTS, engine_layout=engine, kv_dtype=kv_dtype)


def best_of(repeat: int, work: Callable[[list[LayerGroups]], None], layouts: list[LayerGroups]) -> float:
    """The fastest of ``repeat`` runs, each with every memoised result forgotten first."""
    times = []
    for _ in range(repeat):
        compute_module._compute.cache_clear()
        groups_module._plan.cache_clear()
        started = time.perf_counter()
        work(layouts)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--registry", type=Path, help="a registry on disk (default: a synthetic one)")
    parser.add_argument(
        "--records", type=int, default=10000, help="the synthetic registry's size (default 10,000)"
    )
    parser.add_argument("--repeat", type=int, default=5, help="runs each way, the best reported (default 5)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="engine-bench-"))
    try:
        root = args.registry
        if root is None:
            root = work / "registry"
            generate(root, args.records, distinct_geometries=True)
        layouts = distinct_layouts(root)
        figures = len(layouts) * len(LADDER)
        print(f"{len(layouts):,} distinct cache layouts, {len(LADDER)} figures each ({figures:,} in all)")
        for name, run in (("one at a time", one_at_a_time), ("as ladders", as_ladders)):
            seconds = best_of(args.repeat, run, layouts)
            print(
                f"{name:>14}: {seconds:6.3f} s, {seconds / len(layouts) * 1e3:5.2f} ms a layout, "
                f"{seconds / figures * 1e6:5.1f} µs a figure (best of {args.repeat})"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
