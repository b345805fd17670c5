"""How often a sparse figure filed as dense is caught (F017), measured on the registry's own hardware.

For each hardware record and each format it gives a dense peak for, a copy of the registry has that
figure doubled, as a datasheet's "with sparsity" figure copied into the dense field would be, and
`registry check` of the copy says whether F017 flags it. It prints, per record, which plants were
caught, then the share caught. A plant goes uncaught when nothing in the record or the registry ties
the figure to another (no sibling format at the same rate, no sparse figure stated for it).

    .venv/bin/python benchmarks/sparse_as_dense.py [--root .]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from fractions import Fraction
from pathlib import Path

from ruamel.yaml import YAML

from registry.checker.pipeline import check
from registry.engine.units import parse_quantity

REPO = Path(__file__).resolve().parent.parent


def doubled(text: str) -> str:
    """The figure twice over, in the unit it is written in."""
    quantity = parse_quantity(text)
    number = quantity.in_unit(2 * quantity.value)
    shown = f"{float(number):.6g}" if number.denominator != 1 else f"{int(number)}"
    return f"{shown} {quantity.unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=REPO, help="the registry to read (default: this one)")
    args = parser.parse_args()
    yaml = YAML()
    caught = planted = 0
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "registry"
        shutil.copytree(args.root / "records", copy / "records")
        shutil.copytree(args.root / "schemas", copy / "schemas")
        for path in sorted((copy / "records" / "hardware").glob("*.yaml")):
            original = path.read_text(encoding="utf-8")
            peaks = yaml.load(original).get("peak_dense_flops_per_device") or {}
            results = []
            for dtype, figure in peaks.items():
                record = yaml.load(original)
                record["peak_dense_flops_per_device"][dtype] = doubled(str(figure))
                with path.open("w", encoding="utf-8") as handle:
                    yaml.dump(record, handle)
                found = any(
                    d.code == "F017" and d.path == f"records/hardware/{path.name}"
                    for d in check(copy).diagnostics
                )
                results.append(f"{dtype} {'caught' if found else 'missed'}")
                caught += found
                planted += 1
            path.write_text(original, encoding="utf-8")
            if results:
                print(f"{path.stem}: {', '.join(results)}")
    share = Fraction(caught, planted) if planted else Fraction(0)
    print(f"caught {caught} of {planted} planted sparse-as-dense figures ({float(share):.0%})")


if __name__ == "__main__":
    main()
