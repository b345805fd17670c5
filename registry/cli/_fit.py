"""registry fit"""

from __future__ import annotations

import argparse
import json
import sys

from registry.cli._common import registry_root
from registry.terminal import terminal_lines

DESCRIPTION = """\
Does a model fit on hardware? Weights (the model's parameters at the weights' format) plus the KV cache
and recurrent state of a batch at a context, against the memory of --count units of a hardware record.
Answers the largest batch at the context and the longest context at the batch, with the derivation; a
context beyond the model's maximum (its max_context_tokens) is said to be beyond it.

--context accepts 131072, 131,072, 128K or 1M (K = 1,024 tokens, M = 1,048,576). --weights is the
weights' format (default: the one the model's config publishes them in, from its quantization_config or
dtype / torch_dtype, else bf16; name fp8, nvfp4, int4, ... for another checkpoint). --layout is the
engine layout (default vllm; ideal is the architectural minimum). Activations and the engine's own
reserve are not subtracted, so every answer is an upper bound. The model pages' "128K sequences per
hardware" table is the same computation at batch 1, the published weights and the vllm layout.
"""

EPILOG = """\
examples:
  registry fit --model deepseek-v3 --hardware h200 --count 8
  registry fit --model llama-3.1-8b --hardware h100-sxm --context 32K --batch 64 --kv-dtype fp8
  registry fit --model qwen3-next-80b-a3b --hardware b200 --format json

exit codes: 0 the batch fits at the context, 1 it does not (or the cache is not computable),
2 could not run (an unknown record, format or layout).

JSON output: model, hardware, count, weights_dtype, weights_source (where that format was read),
kv_dtype, state_dtype, layout, context_tokens, batch, memory_bytes, weight_bytes (null: no parameter
count, not subtracted), room_bytes, cache_bytes, fits, largest_batch, longest_context, context_limit
(what else bounds it: the model's maximum context, a cache that stops growing), problem (why the cache
is not computable), trace (list of lines).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", required=True, metavar="ID", help="a model record: deepseek-v3")
    parser.add_argument("--hardware", required=True, metavar="ID", help="a hardware record: h200")
    parser.add_argument("--count", type=int, default=1, metavar="N", help="units of the hardware (default 1)")
    parser.add_argument(
        "--context", default="128K", metavar="N", help="context length in tokens (default 128K)"
    )
    parser.add_argument("--batch", type=int, default=1, metavar="N", help="sequences (default 1)")
    parser.add_argument(
        "--weights",
        default=None,
        metavar="D",
        help="the weights' format (default: the one the model's config publishes, else bf16)",
    )
    parser.add_argument("--kv-dtype", default="bf16", metavar="D", help="KV-cache format (default bf16)")
    parser.add_argument(
        "--state-dtype", default=None, metavar="D", help="recurrent-state format (default: the engine's)"
    )
    parser.add_argument("--layout", default="vllm", metavar="L", help="engine layout (default vllm)")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json for scripts"
    )


def run(args: argparse.Namespace) -> int:
    from registry.engine.units import QuantityError, parse_context  # lazy
    from registry.errors import RegistryError  # lazy
    from registry.report.fit import FitQuestion, as_json, as_text, fit_model  # lazy

    try:
        context = parse_context(args.context)
    except QuantityError as error:
        raise RegistryError(f"--context: {error}") from None
    if args.batch < 1 or args.count < 1:
        raise RegistryError("--batch and --count are at least 1")
    question = FitQuestion(
        model=args.model,
        hardware=args.hardware,
        count=args.count,
        context_tokens=context,
        batch=args.batch,
        weights=args.weights,
        kv_dtype=args.kv_dtype,
        state_dtype=args.state_dtype,
        engine_layout=args.layout,
    )
    try:
        report = fit_model(registry_root(args), question)
    except KeyError as error:  # its message is the key's repr
        raise RegistryError(str(error.args[0] if error.args else error)) from None
    except ValueError as error:
        raise RegistryError(str(error)) from None
    if args.format == "json":
        sys.stdout.write(json.dumps(as_json(report), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(terminal_lines(as_text(report)))
    return 0 if report.fit.fits else 1
