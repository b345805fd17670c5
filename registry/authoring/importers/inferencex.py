"""``registry import inferencex``: SemiAnalysis' InferenceX (formerly InferenceMAX) aggregated result
rows, an ``agg_<name>.json`` of one row or the collected ``agg_<exp>.json`` array of them, one record a
row.

The writer read, SemiAnalysisAI/InferenceX ``utils/process_result.py`` at
254b173e7 (2025-08-25: ``hw``, ``tp``, ``conc``, ``model``, ``tput_per_gpu``), 7a3e88e6c (``framework``,
``precision``, ``mtp``) and 843c6254ff69b567f772f6a5fd97675af3d04431 (``image``,
``infmax_model_prefix``, ``spec_decoding``, ``disagg``, ``isl``, ``osl``, ``is_multinode``, ``pp``,
``dcp_size``, ``pcp_size``, ``ep``, ``dp_attention``, the prefill and decode pools of a multinode run,
``output_tput_per_gpu``, ``input_tput_per_gpu`` and the power fields of ``utils/aggregate_power.py``),
and ``utils/collect_results.py`` (the array). Each row is one run of InferenceX's copy of vLLM's
``benchmark_serving.py`` (``benchmarks/benchmark_lib.sh``: ``--request-rate inf --max-concurrency
conc --ignore-eos`` on the random dataset at ``--random-range-ratio`` 0.8 of the workflows), with every
key of that file ending in ``ms`` written in seconds without its ``_ms`` (``mean_ttft``, ``p99_e2el``)
and every TPOT statistic's reciprocal as ``*_intvty`` (tokens per second per user, derived: not stated).

A run at fixed concurrency is a point of a concurrency sweep. ``isl`` and ``osl`` are caps: each
request's lengths are drawn between 0.8 of them and them (``utils/bench_serving/benchmark_serving.py``,
``sample_uniform``). ``tput_per_gpu`` is the total throughput over every GPU, stated per accelerator;
a single-node row's output and input throughputs per GPU are too, but a multinode row's divide by the
decode and the prefill GPUs alone, so they are named and not stated.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from registry.authoring.importers.bench_json import read_value
from registry.authoring.importers.hardware_names import INFERENCEX_SKUS, inferencex_sku
from registry.authoring.importers.imported import RunDraft
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import FileModel, plain
from registry.authoring.importers.nodes import STATISTICS, Node
from registry.authoring.importers.sniff import identify, other_tool

LATENCY = re.compile(r"(mean|median|std|p[0-9]+(?:\.[0-9]+)?)_(ttft|tpot|itl|e2el)")
LATENCIES = {"ttft": "ttft", "tpot": "tpot", "itl": "itl", "e2el": "e2e_latency"}
INTERACTIVITY = re.compile(r"(mean|median|std|p[0-9]+(?:\.[0-9]+)?)_intvty")
PRECISIONS = {"fp8": "fp8", "bf16": "bf16", "fp16": "fp16"}
SETUP = {
    "hw", "conc", "image", "model", "infmax_model_prefix", "framework", "precision", "spec_decoding",
    "disagg", "recipe_fingerprint", "isl", "osl", "router", "kv_p2p_transfer", "is_multinode", "tp", "pp",
    "dcp_size", "pcp_size", "ep", "dp_attention", "mtp", "num_prefill_gpu", "num_decode_gpu", "prefill_hw",
    "decode_hw", "tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu",
}  # fmt: skip
RANGE = "InferenceX's workflows run --random-range-ratio 0.8"
POOL = re.compile(r"(prefill|decode)_(tp|pp|dcp_size|pcp_size|ep|dp_attention|num_workers)")
POWER = re.compile(r"(avg_|total_|joules_|prefill_|decode_|power_).*")


def _engine(out: RunDraft, framework: str | None) -> None:
    if not framework:
        return
    name = framework.lower()
    for token, engine in (
        ("sglang", "engines/sglang"),
        ("vllm", "engines/vllm"),
        ("trt", "engines/tensorrt-llm"),
    ):
        if token in name:
            out.engine, out.engine_why = engine, f"framework {plain(framework)!r}"
            return
    out.read.append(f"Engine not read: framework {plain(framework)!r} names no engine record.")


def _gpus(row: Node, multinode: bool) -> int | None:
    if multinode:
        prefill, decode = row.get("num_prefill_gpu").count(), row.get("num_decode_gpu").count()
        return prefill + decode if prefill and decode else None
    tp = row.get("tp").count()
    return tp * (row.get("pp").count() or 1) * (row.get("pcp_size").count() or 1) if tp else None


def _system(out: RunDraft, row: Node, multinode: bool) -> None:
    hw = row.get("hw").text() or ""
    sku = inferencex_sku(hw)
    if sku in INFERENCEX_SKUS and not row.get("prefill_hw").value:
        out.hardware, out.hardware_why = INFERENCEX_SKUS[sku], f"hw {plain(hw)!r}"
    else:
        out.read.append(f"Hardware not mapped: hw {plain(hw)!r} names no one part here (give --hardware).")
    out.count = _gpus(row, multinode)
    if multinode:
        out.disaggregation = {
            "prefill_accelerators": row.get("num_prefill_gpu").count() or 1,
            "decode_accelerators": row.get("num_decode_gpu").count() or 1,
        }
    else:
        for key, part in (("tp", "tensor"), ("pp", "pipeline"), ("ep", "expert")):
            value = row.get(key).count()
            if value:
                out.parallelism[part] = value
    precision = (row.get("precision").text() or "").lower()
    if precision in PRECISIONS:
        out.precision["weights"] = PRECISIONS[precision]
    elif precision:
        out.read.append(
            f"Weights' format not read: precision {plain(precision)!r} (fp4 is NVFP4 or MXFP4 by model and part; give --weights)."
        )
    spec = row.get("spec_decoding").value or row.get("mtp").value
    if isinstance(spec, str) and spec.lower() not in ("", "none", "false", "off"):
        out.speculative = {"method": plain(spec, 40).lower()}


def _figures(out: RunDraft, row: Node, multinode: bool) -> None:
    pairs = [("tput_per_gpu", "total_throughput")]
    pairs += (
        []
        if multinode
        else [("output_tput_per_gpu", "output_throughput"), ("input_tput_per_gpu", "input_throughput")]
    )
    for key, metric in pairs:
        value = row.get(key).number()
        if value is not None and value >= 0:
            out.add_metric(metric, "value", "accelerator", value, "tok/s")
    if multinode:
        out.not_stated.append(
            "output_tput_per_gpu, input_tput_per_gpu (over the decode or the prefill GPUs alone)"
        )
    for key in row.names():
        match = LATENCY.fullmatch(key)
        statistic = STATISTICS.get(match.group(1)) if match else None
        value = row.get(key).number() if match else None
        if match and statistic and value is not None and value >= 0:
            out.add_metric(LATENCIES[match.group(2)], statistic, "request", value, "s")
        elif match:
            out.not_stated.append(f"{key} (no such statistic)")
        elif INTERACTIVITY.fullmatch(key):
            out.not_stated.append(f"{key} (1 / the TPOT statistic: derived)")
        elif POWER.fullmatch(key) and not POOL.fullmatch(key):
            out.not_stated.append(f"{key} (GPU telemetry; the record's power figures are a system's)")
        elif key not in SETUP and not POOL.fullmatch(key):
            out.unknown.append(plain(key, 80))


def _row(path: Path, row: Node, index: int | None, source: str) -> RunDraft:
    out = RunDraft(
        source=source, command="InferenceX", path=path, where=row.where if index is not None else str(path),
        text=json.dumps(row.value, sort_keys=True, default=str), row=None if index is None else index + 1,
        place=row.pointer,
    )  # fmt: skip
    model = row.get("model").text()
    out.model = FileModel(model, f"{row.pointer}/model") if model else None
    _engine(out, row.get("framework").text())
    image = row.get("image").text()
    out.engine_version = f"container image {plain(image, 60)}" if image else None
    multinode = bool(row.get("is_multinode").value) or row.get("num_decode_gpu").value is not None
    _system(out, row, multinode)
    conc = row.get("conc").count()
    if conc:
        out.scenario, out.sweep, out.load = (
            "sweep-point",
            {"parameter": "concurrency", "value": conc},
            f"fixed concurrency {conc}",
        )
    isl, osl = row.get("isl").count(), row.get("osl").count()
    name = row.get("infmax_model_prefix").text() or model or ""
    out.workload = {
        "input_tokens": isl,
        "output_tokens": osl,
        "lengths": "max" if isl or osl else None,
        "distribution": f"each request's lengths drawn between 0.8 x and 1 x isl and osl ({RANGE})"
        if isl
        else None,
        "dataset": "random",
        "concurrency": conc,
        "description": (
            f"InferenceX row: {plain(name)} on {plain(row.get('hw').text() or '')}, framework "
            f"{plain(row.get('framework').text() or 'not stated')}, precision "
            f"{plain(row.get('precision').text() or 'not stated')}, conc {conc}, isl {isl}, osl {osl}"
            f"{', multinode disaggregated' if multinode else ''}; latencies in seconds."
        ),
    }
    _figures(out, row, multinode)
    return out


def drafts(source: str, paths: list[Path]) -> list[RunDraft]:
    runs = []
    for path in paths:
        _, value = read_value(path)
        if identify(value) != "inferencex":
            message = (
                other_tool(value, source)
                or "not an InferenceX aggregated result: a row holds hw, conc and tput_per_gpu"
            )
            raise SourceError(f"{path}: {message}")
        root = Node(path, "", value)
        rows = root.items() if isinstance(value, list) else [root]
        for index, row in enumerate(rows):
            if not isinstance(row.value, dict) or not {"hw", "conc", "tput_per_gpu"} <= row.value.keys():
                raise row.fail("an InferenceX row (an object with hw, conc and tput_per_gpu)")
            runs.append(_row(path, row, index if isinstance(value, list) else None, source))
    return runs
