"""The explicit tables that map an MLPerf Inference summary's spellings to the registry's records.

Nothing here is inferred from text: a spelling in no table makes its row unmappable, listed with the
reason, until a person adds the line (the model, hardware and engine records name the MLPerf spellings
they stand for in their notes). A table maps to an id; whether that record exists is checked against the
registry at import time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LLM_MODELS = {
    "deepseek-r1": "models/deepseek-r1",
    "gpt-oss-120b": "models/gpt-oss-120b",
    "llama2-70b-99.9": "models/llama-2-70b-chat",
    "llama3.1-8b": "models/llama-3.1-8b-instruct",
    "llama3_1-8b": "models/llama-3.1-8b-instruct",
    "llama3.1-8b-edge": "models/llama-3.1-8b-instruct",
    "qwen3-vl-235b-a22b": "models/qwen3-vl-235b-a22b-instruct",
    "qwen3.6-27b": "models/qwen3.6-27b",  # the "agentic edge" benchmark
}
"""The summary's ``Model`` values that are LLM benchmarks, and the model record each one runs (``None``:
the registry has no record of that checkpoint yet). Every other ``Model`` is not an LLM benchmark and is
skipped, counted in the import's summary."""

NO_MODEL_RECORD: dict[str, str] = {}
"""Why an LLM benchmark of :data:`LLM_MODELS` has no model record yet, said after the reason."""

OTHER_MODEL_RAN = {
    ("Lambda", "B200-SXM-180GBx8_SGLANG", "qwen3.6-27b"): (
        "moonshotai/Kimi-K2.6 (model_type kimi_k25), as the row's notes say of this open-division run"
    ),
}
"""Rows filed under one benchmark whose own notes say another model ran: (Organization, Platform, Model)
to the model that ran. Such a row is unmappable, since its figures are not the benchmark model's."""

HARDWARE = {
    "NVIDIA B300-SXM-270GB": "hardware/b300",
    "Nvidia B300-SXM-270GB": "hardware/b300",
    "NVIDIA GB300": "hardware/gb300",
    "NVIDIA GB200": "hardware/gb200",
    "NVIDIA B200-SXM-180GB": "hardware/b200",
    "NVIDIA H200-SXM-141GB": "hardware/h200",
    "NVIDIA Vera Rubin": "hardware/vr200",
    "NVIDIA VR200": "hardware/vr200",
    "NVIDIA GB10": "hardware/gb10",
    "NVIDIA Jetson AGX Thor 128G": "hardware/jetson-agx-thor",
    "NVIDIA RTX PRO 6000 Blackwell Server Edition": "hardware/rtx-pro-6000-blackwell-server",
    "NVIDIA RTX PRO 6000 Blackwell": "hardware/rtx-pro-6000-blackwell",
    "NVIDIA RTX PRO 4500 Blackwell": "hardware/rtx-pro-4500-blackwell",
    "NVIDIA RTX PRO 4500 Blackwell Server Edition": "hardware/rtx-pro-4500-blackwell",
    "NVIDIA RTX PRO 4500 Blackwell-PCIe-32GB": "hardware/rtx-pro-4500-blackwell",
    "AMD Instinct MI355X 288GB HBM3e": "hardware/mi355x",
    "AMD Instinct MI350X 288GB HBM3e": "hardware/mi350x",
    "AMD Instinct MI350P": "hardware/mi350p",
    "AMD Instinct MI300X 192GB HBM3": "hardware/mi300x",
    "AMD Radeon 8060S Graphics": "hardware/radeon-8060s",
    "Intel(R) Arc(TM) Pro B70": "hardware/arc-pro-b70",
}
"""``accelerator_model_name`` -> the hardware record of one accelerator."""

MIXED_HARDWARE = {
    # Cisco's system name says "H200 x8 + MI350X x8", and the H200 and MI350X records name it.
    "NVIDIA H200-SXM-141GB + AMD Instinct MI350X 288GB HBM3e": (("hardware/h200", 8), ("hardware/mi350x", 8)),
    # The spelling gives each part's count: two nodes of eight of each.
    "AMD Instinct MI300X 192GB HBM3 (x2x8) and AMD Instinct MI355X 288GB HBM3e (x2x8)": (
        ("hardware/mi300x", 16),
        ("hardware/mi355x", 16),
    ),
}
"""``accelerator_model_name`` of a system that mixes parts -> each part's record and count."""

CPU_SYSTEMS = {
    ("Cisco", "X410M8_1_node_4S_GNR_86C"): "hardware/xeon-6788p-4s-cisco",
    ("Dell", "1-node-2S-GNR_86C"): "hardware/xeon-6787p-2s-dell",
    ("Intel", "1-node-2S-GNR_128C"): "hardware/xeon-6980p-2s-intel",
    ("Oracle", "1-node-1S-GNR_120C"): "hardware/xeon-6987p-c-1s-oracle",
    ("Quanta_Cloud_Technology", "1-node-2S-GNR_86C"): "hardware/xeon-6788p-2s-qct",
    ("RedHat_Intel", "1-node-2S-GNR_96C"): "hardware/xeon-6972p-2s-redhat-intel",
    ("Supermicro", "1-node-2S-GNR_128C"): "hardware/xeon-6980p-2s-supermicro",
    ("Supermicro", "1-node-2S-GNR_86C"): "hardware/xeon-6787p-2s-supermicro",
    ("Supermicro", "1-node-4S-GNR_86C"): "hardware/xeon-6788p-4s-supermicro",
}
"""(``Organization``, ``Platform``) of a CPU-only system (accelerator "N/A", 0 accelerators) -> its node
record: a CPU record is one node as its submitter described it, so the count is the number of nodes."""

CPU_ONLY = "N/A"

TRTLLM, VLLM, SGLANG, LLAMA_CPP = (
    "engines/tensorrt-llm",
    "engines/vllm",
    "engines/sglang",
    "engines/llama.cpp",
)
QWEN3_VL = "qwen3-vl-235b-a22b"


@dataclass(frozen=True)
class EngineFor:
    """The engine a framework string names: ``engine`` for every model, or per ``Model`` in ``by_model``
    where the string names several (a model in neither is unmappable)."""

    engine: str | None = None
    by_model: dict[str, str] = field(default_factory=dict)

    def for_model(self, model: str) -> tuple[bool, str | None]:
        """Whether the string says which engine ran ``model``, and that engine (``None``: no engine the
        registry has a record kind for, such as TensorRT alone, PyTorch or a proprietary stack)."""
        if self.by_model:
            return (model in self.by_model, self.by_model.get(model))
        return (True, self.engine)


NO_ENGINE = EngineFor()

# NVIDIA's submissions list one software stack for every benchmark of a system. Its vLLM entry is the
# CentML image tagged "mlperf-inf-mm-q3vl": the multimodal Qwen3-VL benchmark's, so that benchmark ran
# on vLLM and the LLM benchmarks on TensorRT-LLM.
_NVIDIA_STACK = EngineFor(by_model={m: TRTLLM for m in LLM_MODELS} | {QWEN3_VL: VLLM})

FRAMEWORKS: dict[str, EngineFor] = {
    (
        "TensorRT 10.14, CUDA 13.1, cuDNN 9.17, TensorRT-LLM feat/1.2-mlpinf, "
        "NVIDIA Dynamo mlperf-v6.0-dynamo-v0.8.0, vLLM CentML:mlperf-inf-mm-q3vl-v6.0"
    ): _NVIDIA_STACK,
    (
        "TensorRT 10.14, CUDA 13.1, cuDNN 9.17, TensorRT-LLM feat/1.2-mlpinf, "
        "NVIDIA Dynamo mlperf-v6.0-dynamo-v0.8.0, vLLM CentML:mlperf-inf-mm-q3vl-v6.1"
    ): _NVIDIA_STACK,
    (
        "TensorRT 10.14, CUDA 13.1, cuDNN 9.17, TensorRT-LLM feat/1.2-mlpinf, "
        "Dell Dynamo mlperf-v6.0-dynamo-v0.8.0, vLLM CentML:mlperf-inf-mm-q3vl-v6.0"
    ): _NVIDIA_STACK,
    "TensorRT-LLM feat/1.2-mlpinf, NVIDIA Dynamo mlperf-v6.0-dynamo-v0.8.0, vLLM CentML:mlperf-inf-mm-q3vl-v6.0": _NVIDIA_STACK,
    "TRTLLM-rubin, vLLM-CentML:mlperf-inf-mm-q3vl-v6.1, Dynamo": _NVIDIA_STACK,
    (
        "TensorRT-LLM 1.3.0rc14 (GPT-OSS-120B); "
        "vLLM (CentML) 0.20.2rc1.dev2091+g2e1040b7e + NVIDIA Dynamo (Qwen3-VL-235B); CUDA 13.0"
    ): EngineFor(by_model={"gpt-oss-120b": TRTLLM, QWEN3_VL: VLLM}),
    "TensorRT-LLM (GPT-OSS-120B); vLLM + NVIDIA Dynamo (Qwen3-VL-235B); CUDA 13.0": EngineFor(
        by_model={"gpt-oss-120b": TRTLLM, QWEN3_VL: VLLM}
    ),
    "TensorRT-LLM feat/1.2-mlpinf, NVIDIA Dynamo mlperf-v6.0-dynamo-v0.8.0": EngineFor(TRTLLM),
    "TensorRT 10.14, CUDA 13.1, cuDNN 9.17, TensorRT-LLM feat/1.2-mlpinf": EngineFor(TRTLLM),
    "TensorRT 10.14.1.48; TensorRT-LLM 1.3.0rc0": EngineFor(TRTLLM),
    "TensorRT 10.14, CUDA 13.1, TensorRT-LLM 1.3.0rc0": EngineFor(TRTLLM),
    "PyTorch 2.10.0a0+b4e4ee81d3.nv25.12, TensorRT 10.14.1.48, CUDA Toolkit 13.1, cuDNN 9.17.0, TensorRT-LLM 1.3.0rc0": EngineFor(
        TRTLLM
    ),
    (
        "TensorRT-LLM 1.0.0 (FP8 W8A8 engine built with trtllm-build, served by trtllm-serve); "
        "MLCommons endpoints (LoadGen++) client; CUDA 12.9"
    ): EngineFor(TRTLLM),
    "TensorRT-LLM 1.3.0rc20": EngineFor(TRTLLM),
    "TensorRT-LLM 1.3.0rc0, CUDA 13.1": EngineFor(TRTLLM),
    "vLLM": EngineFor(VLLM),
    "vLLM 0.22.0, PyTorch 2.10.0, ROCm 7.2.2": EngineFor(VLLM),
    "vLLM 0.22.0, PyTorch 2.10.0+git8514f05, ROCm 7.2.53211": EngineFor(VLLM),
    "vLLM 0.22.0, PyTorch 2.10.0, ROCm 7.2.4": EngineFor(VLLM),
    "vLLM 0.22.1.dev0, PyTorch 2.10.0, ROCm 7.2.2": EngineFor(VLLM),
    "vLLM 0.22.1 (ROCm 7.2.2), PyTorch 2.10": EngineFor(VLLM),
    "vLLM 0.24.0 (stock vllm/vllm-openai-rocm:v0.24.0), ROCm 7.2.1": EngineFor(VLLM),
    "vLLM 0.24.0, Red Hat OpenShift 4.21": EngineFor(VLLM),
    "vLLM v0.20.2rc1.dev2091, CUDA 13.0.1, NVIDIA Dynamo, PyTorch 2.11.0+cu130": EngineFor(VLLM),
    "NVIDIA Dynamo mlperf-v6.0-dynamo-v0.8.0, vLLM CentML:mlperf-inf-mm-q3vl-v6.0": EngineFor(VLLM),
    "vLLM CentML:mlperf-inf-mm-q3vl-v6.0, NVIDIA Dynamo mlperf-v6.0-dynamo-v0.8.0": EngineFor(VLLM),
    "SGLang 0.5.15.post1 (ROCm 7.2.0), PyTorch 2.x": EngineFor(SGLANG),
    "SGLang 0.5.15.post1, CUDA 13.0": EngineFor(SGLANG),
    "llama.cpp": EngineFor(LLAMA_CPP),
    # TensorRT alone, PyTorch, ROCm or a proprietary stack: no serving engine the registry records.
    "TensorRT 10.14, CUDA 13.1": NO_ENGINE,
    "TensorRT 10.14, CUDA 13.2": NO_ENGINE,
    "TensorRT 10.14, CUDA 13.3": NO_ENGINE,
    "TensorRT 10.14.1.48, CUDA 13.1": NO_ENGINE,
    "TensorRT 10.15.1.29, CUDA 13.2": NO_ENGINE,
    "TensorRT 10.16, CUDA 13.2": NO_ENGINE,
    "TensorRT 10.16, CUDA 13.2, cuDNN 9.21": NO_ENGINE,
    "TensorRT 10.16.1.11, CUDA 13.2": NO_ENGINE,
    "PyTorch": NO_ENGINE,
    "Pytorch 2.10, ROCm 7.2.2": NO_ENGINE,
    "PyTorch 2.10.0+git8514f05, ROCm 7.2.2": NO_ENGINE,
    "ROCm": NO_ENGINE,
    "ROCm 7.2.0": NO_ENGINE,
    "Krai/Gentic": NO_ENGINE,
    "Atlas (spark), CUDA NVFP4": NO_ENGINE,
    "Atlas (spark), native-HIP NVFP4": NO_ENGINE,
}
"""``framework`` as written -> the engine record it names."""

ENGINE_LAYOUTS = {TRTLLM: "trtllm", VLLM: "vllm", SGLANG: "sglang", LLAMA_CPP: "llama.cpp"}
"""The engine layout of each engine's cache, for the record's ``layout``."""


@dataclass(frozen=True)
class Formats:
    """The formats a ``weight_data_types`` spelling states: weights as listed, and activations and KV
    cache where it names them."""

    weights: tuple[str, ...]
    activations: str | None = None
    kv_cache: str | None = None


PRECISIONS = {
    "fp4": Formats(("fp4",)),
    "fp8": Formats(("fp8",)),
    "fp8 (static per-tensor PTQ, NVIDIA ModelOpt)": Formats(("fp8",)),
    "INT8": Formats(("int8",)),
    "int4": Formats(("int4",)),
    "bf16": Formats(("bf16",)),
    "fp32": Formats(("fp32",)),
    "mxfp4": Formats(("mxfp4",)),
    "MXFP4": Formats(("mxfp4",)),
    "nvfp4": Formats(("nvfp4",)),
    "nvfp4 (E2M1 4-bit + FP8 block scales)": Formats(("nvfp4",)),
    "nvfp4 (E2M1 4-bit + FP8 block scales), GDN included": Formats(("nvfp4",)),
    "fp8,fp4": Formats(("fp8", "fp4")),
    "fp4 weights, fp8 KV cache": Formats(("fp4",), kv_cache="fp8"),
    "nvfp4, fp8-kv": Formats(("nvfp4",), kv_cache="fp8"),
    "nvfp4, fp8 KV cache": Formats(("nvfp4",), kv_cache="fp8"),
    "NVFP4, FP8 (KV cache)": Formats(("nvfp4",), kv_cache="fp8"),
    "NVFP4 weights with FP8 KV cache": Formats(("nvfp4",), kv_cache="fp8"),
    "NVFP4 weights and activations; FP8 KV cache": Formats(("nvfp4",), activations="nvfp4", kv_cache="fp8"),
}
"""``weight_data_types`` as written -> the registry's dtypes."""

SUBMITTER_FILES = ("intel-ai-tce/inference_results_v6.1", "5174fca85775b97127da8e3ff07f1bb776880fc4")
"""The repository and commit the submitters' own files below were read at: a public fork of
mlcommons/inference_results_v6.1 that holds each submission's code, configs and run logs."""

_Q3VL_NVFP4 = (
    "nvidia/Qwen3-VL-235B-A22B-Instruct-NVFP4-MLPerf-Inference-Closed-V6.1-FP8-KV",
    Formats(("nvfp4",), kv_cache="fp8"),
)


@dataclass(frozen=True)
class SubmitterPrecision:
    """A run whose ``weight_data_types`` lists checkpoint storage types (``BF16/F8_E4M3/U8``) rather than
    formats, and the submitter's config for that run, which names the checkpoint it served: the formats
    are the ones that checkpoint's name states."""

    file: str
    checkpoint: str
    formats: Formats


SUBMITTER_PRECISIONS = {
    (org, platform, "qwen3-vl-235b-a22b", scenario): SubmitterPrecision(
        f"closed/{org}/configs/qwen3_vl_235b_a22b/{folder}/VLLM/{scenario}/qwen3vl_config.yaml", *_Q3VL_NVFP4
    )
    for org, platform, folder in (
        ("Nebius", "B300-SXM-270GBx8_TRT", "B300-SXM-270GBx8"),
        ("Supermicro", "SYS-822GS-NB3RT", "SYS-822GS-NB3RT"),
    )
    for scenario in ("Offline", "Server")
}
"""(``Organization``, ``Platform``, ``Model``, ``Scenario``) -> the submitter's config of that run. Each
file's ``MODEL_REPO_ID`` is the checkpoint named here; read in the fork at :data:`SUBMITTER_FILES`."""

REFUSED_PRECISIONS = {
    "BF16/F32/F8_E4M3/U8": "lists checkpoint storage types, not formats (U8 is no format), and no submitter "
    "config of this run in SUBMITTER_PRECISIONS names its checkpoint",
    "BF16/F8_E4M3/U8": "lists checkpoint storage types, not formats (U8 is no format), and no submitter "
    "config of this run in SUBMITTER_PRECISIONS names its checkpoint",
}
"""Spellings left out of :data:`PRECISIONS` on purpose, with the reason their rows are not imported."""

SCENARIOS = {
    "offline": "offline",
    "server": "server",
    "interactive": "interactive",
    "singlestream": "single-stream",
    "multistream": "multi-stream",
}
"""``Scenario`` in lower case (the summary does not normalise its case) -> the record's scenario."""

THROUGHPUT_UNITS = {
    "Tokens/s": ("output_throughput", "tok/s"),
    "Samples/s": ("sample_throughput", "samples/s"),
    "Queries/s": ("query_throughput", "queries/s"),
}
"""``Units`` of a throughput result -> the metric and the unit it is stated in, per system."""

LATENCY_UNITS = {"Latency (ms)": "ms"}
LATENCY_STATISTICS = {"single-stream": "p90", "multi-stream": "p99"}
"""The statistic a latency result is, by scenario. MLPerf Inference rules (mlcommons/inference_policies,
inference_rules.adoc at 848b9ab3478d02898549fe1baa2ec49421fa99ba, section "LoadGen Operation"): "Single
Stream: LoadGen measures the 90th percentile early-stopping latency estimate"; "Multistream: LoadGen
measures the 99th percentile early-stopping latency estimate". A latency is one query's, from LoadGen
passing it to the system to the reply: an end-to-end latency per request."""
