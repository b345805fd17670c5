"""registry new"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from registry.cli._common import registry_root
from registry.terminal import terminal_lines

if TYPE_CHECKING:
    from registry.authoring.new import NewRecord

DESCRIPTION = """\
Write a new record, records/<collection>/<slug>.yaml, to start from: the modeline, every required field,
and a TODO comment on each field a person must fill. For a kv-efficiency or benchmark record with
--model, the run shape comes from the options and the formula engine fills in the claims it can compute
(bytes per token, bytes per sequence at the context, the fixed recurrent state if the model has one),
each stated exactly as '131,072 B', checked as 'registry check' checks it, with the derivation as a
comment above it. Fields left to fill are empty (null or []), never a placeholder, so 'registry check'
reports each one until it is filled. An existing file is never overwritten.

KIND is model, kv-efficiency, benchmark, engine or hardware (or its folder name: models, benchmarks, ...).
--context accepts 131072, 131,072, 128K (= 131,072) or 1M (= 1,048,576).
"""

EPILOG = """\
examples:
  registry new kv-efficiency/llama-3.1-8b-128k --model llama-3.1-8b
  registry new kv-efficiency/qwen3-8b-32k-fp8 --model qwen3-8b --context 32K --kv-dtype fp8 --layout sglang
  registry new hardware/example-gpu

exit codes: 0 written, 2 could not run (the file exists, an unknown model, a bad option).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="KIND/slug", help="e.g. kv-efficiency/llama-3.1-8b-128k")
    parser.add_argument(
        "--model", metavar="ID", help="the model record of a kv-efficiency or benchmark record"
    )
    parser.add_argument(
        "--context",
        metavar="N",
        help="context length (default 131072, or the model's max_context_tokens where that is shorter)",
    )
    parser.add_argument("--batch", type=int, default=1, metavar="N", help="sequences (default 1)")
    parser.add_argument("--kv-dtype", default="bf16", metavar="D", help="KV-cache format (default bf16)")
    parser.add_argument("--state-dtype", metavar="D", help="recurrent-state format (default: the engine's)")
    parser.add_argument(
        "--weights", metavar="D", help="weights format, e.g. bf16 or fp8 (default: not stated)"
    )
    parser.add_argument("--layout", default="vllm", metavar="L", help="engine layout (default vllm)")


def run(args: argparse.Namespace) -> int:
    from registry.authoring.new import NewOptions, parse_target, write_new  # lazy
    from registry.engine.units import QuantityError, parse_context  # lazy
    from registry.errors import RegistryError  # lazy

    kind, slug = parse_target(args.target)
    try:
        context = None if args.context is None else parse_context(args.context)
    except QuantityError as error:
        raise RegistryError(f"--context: {error}") from None
    options = NewOptions(
        kind,
        slug,
        args.model,
        context,
        args.batch,
        args.kv_dtype,
        args.state_dtype,
        args.weights,
        args.layout,
    )
    record = write_new(registry_root(args), options)
    sys.stdout.write(terminal_lines(describe(record, options)))
    return 0


def describe(record: NewRecord, options: object) -> str:
    """What was written: the computed claims, the figures left out and why, the fields left to fill."""
    from registry.authoring.computed import human_bytes  # lazy

    lines = [f"wrote records/{record.id}.yaml"]
    for claim in record.claims:
        lines.append(f"  {claim.quantity:<20} {human_bytes(claim.stated)}")
    if record.claims:
        lines.append("  each claim checked against the model's geometry, with its derivation above it")
    lines += [f"  {note}" for note in record.notes]
    if record.to_fill:
        lines.append(
            f"to fill in (marked TODO; 'registry check' reports the required ones until they are): "
            f"{', '.join(record.to_fill)}"
        )
    return "\n".join(lines) + "\n"
