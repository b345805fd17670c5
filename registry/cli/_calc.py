"""registry calc"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from registry.cli._common import registry_root
from registry.terminal import terminal_lines

DESCRIPTION = """\
Compute the KV cache and recurrent-state memory of a model, exactly, with the derivation written
factor by factor. The model comes from a config.json file (--config) or a model record (--model).

--context accepts plain integers (131072, 131,072) and the way context lengths are written:
128K is 131,072 tokens and 1M is 1,048,576 (K = 1,024, M = 1,048,576).
--layout is the engine layout the numbers assume: ideal (the architectural minimum), vllm, sglang,
trtllm (TensorRT-LLM), llama.cpp, transformers (the current release), or a version such as
transformers@4.
--weights names the weights' format where a figure needs the model dtype (a conv state kept "as the model
computes"); without it the config's dtype / torch_dtype is used. --state-dtype left out means what the
engine keeps: under transformers, the dtype its reference (torch) path stores.
"""

EPILOG = """\
examples:
  registry calc --model deepseek-v3 --context 128K
  registry calc --config config.json --context 1M --kv-dtype fp8 --layout sglang
  registry calc --model qwen3-next-80b-a3b --context 4K --batch 8 --format json

JSON output: total_bytes (int: the whole cache for that context and batch), bytes_per_token (what one
more token adds at that context: a sliding window not yet full adds its entry),
steady_state_bytes_per_token (what it adds once every window is full), growing_bytes, window_bytes,
fixed_bytes, groups (mechanism, layers, bytes), trace (list of lines); a fraction of a byte is written
"a/b".

exit codes: 0 computed, 2 could not run (no such model, a config the engine cannot lay out, a bad
option such as an unknown --kv-dtype, which lists the names it accepts).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--config", metavar="FILE", help="a config.json file")
    source.add_argument(
        "--model",
        metavar="ID",
        help="a model record: models/deepseek-v3, records/models/deepseek-v3.yaml or deepseek-v3",
    )
    parser.add_argument(
        "--context", default="128K", metavar="N", help="context length in tokens (default 128K)"
    )
    parser.add_argument("--batch", type=int, default=1, metavar="N", help="sequences (default 1)")
    parser.add_argument(
        "--kv-dtype",
        default="bf16",
        metavar="D",
        help="KV-cache format (default bf16): fp32, bf16, fp16, fp8, int8, int4, q8_0, q4_0, ...",
    )
    parser.add_argument(
        "--state-dtype", default=None, metavar="D", help="recurrent-state format (default: the engine's)"
    )
    parser.add_argument(
        "--weights",
        default=None,
        metavar="D",
        help="the weights' format (default: the config's dtype / torch_dtype); unquantized (bf16, fp16, "
        "fp32), it is the model dtype engines keep some state in",
    )
    parser.add_argument("--layout", default="vllm", metavar="L", help="engine layout (default vllm)")
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: the derivation for a person (default); json: the figures for a script",
    )


def run(args: argparse.Namespace) -> int:
    from registry.config_file import located_error  # lazy
    from registry.engine.adapters import ConfigFieldError  # lazy
    from registry.engine.units import QuantityError, parse_context  # lazy
    from registry.errors import RegistryError  # lazy
    from registry.report.calc import as_json, as_text, calc_config, calc_model, read_config  # lazy

    try:
        context = parse_context(args.context)
    except QuantityError as error:
        raise RegistryError(f"--context: {error}") from None
    if args.batch < 1:
        raise RegistryError("--batch is at least 1")
    options = dict(
        context_tokens=context,
        batch=args.batch,
        kv_dtype=args.kv_dtype,
        state_dtype=args.state_dtype,
        engine_layout=args.layout,
        weights=args.weights,
    )
    try:
        if args.config:
            result = calc_config(read_config(Path(args.config)), **options)
        else:
            result = calc_model(registry_root(args), args.model, **options)
    except ConfigFieldError as error:  # a field of the file: at its line and column
        raise RegistryError(located_error(Path(args.config), error) if args.config else str(error)) from None
    except KeyError as error:  # its message is the key's repr
        raise RegistryError(str(error.args[0] if error.args else error)) from None
    except ValueError as error:
        raise RegistryError(str(error)) from None
    if args.format == "json":
        sys.stdout.write(json.dumps(as_json(result), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(terminal_lines(as_text(result)))
    return 0
