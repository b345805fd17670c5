"""The counts behind the Guarantees page: ``python -m fuzz.report --minutes 10``.

Runs every case of the hostile corpus (``tests/hostile/``) through the check and compares it with its
expected findings, then runs a fuzz campaign (or, with ``--stats``, reads the one a longer
``python -m fuzz.run`` wrote), and prints a Markdown table: inputs, distinct diagnostic codes and
messages, crashes, broken promises and the slowest input, with the command and the date.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz.run import OUT, TARGETS, campaign, shape

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "hostile"


def corpus() -> dict[str, Any]:
    """Every hostile case through ``check``: findings as expected, crashes, the slowest case."""
    from registry.checker.pipeline import check

    codes: Counter[str] = Counter()
    shapes: set[str] = set()
    cases = files = findings = crashes = mismatched = 0
    slowest = 0.0
    for folder in sorted(p for p in HOSTILE.iterdir() if (p / "records").is_dir()):
        cases += 1
        files += sum(1 for p in (folder / "records").rglob("*") if not p.is_dir())
        lines = (folder / "expected.txt").read_text(encoding="utf-8").splitlines()[1:-1]
        started = time.perf_counter()
        try:
            result = check(folder)
        except Exception:
            crashes += 1
            continue
        slowest = max(slowest, time.perf_counter() - started)
        found = [f"{d.path}:{d.line}:{d.column}: {d.code}" for d in result.diagnostics]
        mismatched += found != lines
        findings += len(found)
        codes.update(d.code for d in result.diagnostics)
        shapes.update(shape(d.message) for d in result.diagnostics)
    return {
        "cases": cases,
        "files": files,
        "findings": findings,
        "codes": dict(sorted(codes.items())),
        "distinct_messages": len(shapes),
        "crashes": crashes,
        "mismatched": mismatched,
        "slowest_seconds": round(slowest, 3),
    }


def _filled(head: str, unit: Callable[[int], str], tail: str) -> str:
    """``head``, then ``unit(0)``, ``unit(1)``, ... as long as the file stays within the size limit,
    then ``tail``."""
    from registry.checker.limits import MAX_FILE_BYTES

    parts, size, index = [head], len(head) + len(tail), 0
    while size + len(unit(index)) <= MAX_FILE_BYTES:
        parts.append(unit(index))
        size += len(parts[-1])
        index += 1
    return "".join(parts) + tail


def worst_case() -> dict[str, float]:
    """Seconds ``check`` takes on files built to be slow: as large as allowed, dense with nodes, and
    with a finding (so that node positions are needed). The bound the Guarantees page states."""
    import tempfile

    from registry.checker.pipeline import check

    valid = (HOSTILE / "alias-small/records/hardware/gpu.yaml").read_text(encoding="utf-8")
    shapes = {
        "block mapping": _filled(valid + "deep:\n", lambda i: f"  k{i}: 1\n", "extra_field: 1\n"),
        "block sequence": _filled(valid + "deep:\n", lambda i: "- a\n", "extra_field: 1\n"),
        "flow sequence": _filled(valid + "deep: [", lambda i: "a, ", "a]\nextra_field: 1\n"),
    }
    seconds: dict[str, float] = {}
    for name, text in shapes.items():
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / "records/hardware").mkdir(parents=True)
            (root / "records/hardware/gpu.yaml").write_text(text, encoding="utf-8")
            started = time.perf_counter()
            result = check(root)
            seconds[name] = round(time.perf_counter() - started, 2)
            assert not result.ok
    return seconds


def _broken(findings: list[dict[str, str]], name: str) -> tuple[int, int]:
    """(crashes, broken promises) among a target's findings."""
    mine = [f for f in findings if f["target"] == name]
    broken = sum(1 for f in mine if f["error"].startswith("Broken"))
    return len(mine) - broken, broken


def _is_code(name: str) -> bool:
    """A diagnostic code (``Y001``), as opposed to an outcome name such as ``ExpressionError``."""
    return name[:1] in "YSRF" and name[1:].isdigit()


def markdown(hostile: dict[str, Any], fuzz: dict[str, Any], worst: dict[str, float], command: str) -> str:
    rows = [
        "| inputs | how many | distinct codes | distinct messages | crashes | broken promises | slowest |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| hostile corpus (`tests/hostile/`) | {hostile['cases']} cases, {hostile['files']} files, "
        f"{hostile['findings']} findings | {len(hostile['codes'])} | {hostile['distinct_messages']} | "
        f"{hostile['crashes']} | {hostile['mismatched']} | {hostile['slowest_seconds']:.2f} s |",
    ]
    for name, data in fuzz["targets"].items():
        crashes, broken = _broken(fuzz["findings"], name)
        diagnostic = [code for code in data["codes"] if _is_code(code)]
        rows.append(
            f"| fuzz `{name}` | {data['inputs']:,} | {len(diagnostic) or ''} | "
            f"{data['distinct_messages']:,} | {crashes} | {broken} | "
            f"{data['slowest_seconds']:.2f} s |"
        )
    total = sum(data["inputs"] for data in fuzz["targets"].values())
    codes = sorted({code for data in fuzz["targets"].values() for code in data["codes"] if _is_code(code)})
    minutes = fuzz["seconds"] / 60
    head = (
        f"Measured with `{command}` on {fuzz['finished']} (campaign of {minutes:.0f} minutes, "
        f"seed {fuzz['seed']}): {total:,} fuzz inputs, {len(fuzz['findings'])} findings. "
        f"Diagnostic codes the fuzzer reached: {', '.join(codes)}. "
        f"Codes the corpus reaches: {', '.join(hostile['codes'])}."
    )
    slowest = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in worst.items())
    tail = f"Files built to be slow (as large as allowed, dense with nodes, with a finding): {slowest}."
    return head + "\n\n" + "\n".join(rows) + "\n\n" + tail + "\n"


def _progress(line: str) -> None:
    """Progress goes to standard error, so that standard output is the table alone."""
    print(line, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fuzz.report",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--minutes", type=float, default=10.0, help="campaign length (default: 10)")
    parser.add_argument("--seed", type=int, default=0, help="the campaign's seed (default: 0)")
    parser.add_argument("--stats", type=Path, help="read a finished campaign's stats.json instead of fuzzing")
    args = parser.parse_args(argv)
    hostile = corpus()
    if args.stats:
        fuzz = json.loads(args.stats.read_text(encoding="utf-8"))
        command = fuzz["command"]
    else:
        command = f"python -m fuzz.report --minutes {args.minutes:g} --seed {args.seed}"
        fuzz = campaign(args.minutes, list(TARGETS), args.seed, _progress, command)
    sys.stdout.write(markdown(hostile, fuzz, worst_case(), command))
    print(f"\n(stats in {OUT / 'stats.json'})", file=sys.stderr)
    bad = hostile["crashes"] + hostile["mismatched"] + len(fuzz["findings"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
