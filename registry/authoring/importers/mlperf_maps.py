"""The explicit tables that map an MLPerf Inference summary's spellings to the registry's records.

Nothing here is inferred from text: a spelling in no table makes its row unmappable, listed with the
reason, until a person adds the line (the model, hardware and engine records name the MLPerf spellings
they stand for in their notes). A table maps to an id; whether that record exists is checked against the
registry at import time.
"""

from __future__ import annotations

from dataclasses import dataclass

LLM_MODELS: dict[str, str | None] = {
    "gptj-99": "models/gpt-j-6b",
    "gptj-99.9": "models/gpt-j-6b",
    "gpt-j-99": "models/gpt-j-6b",
    "gpt-j-99.9": "models/gpt-j-6b",
    "llama2-70b-99": "models/llama-2-70b-chat",
    "llama3.1-405b": "models/llama-3.1-405b",
    "mixtral-8x7b": "models/mixtral-8x7b",
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

STAND_IN_COMMIT = "b66003e10e2db4b8c36a448b0545ec90fcc6e9e9"
STAND_INS = {
    "mixtral-8x7b": ("mistralai/Mixtral-8x7B-Instruct-v0.1", "language/mixtral-8x7b/README.md"),
    "llama3.1-405b": ("meta-llama/Llama-3.1-405B-Instruct", "language/llama3.1-405b/README.md"),
    **dict.fromkeys(
        ("gptj-99", "gptj-99.9", "gpt-j-99", "gpt-j-99.9"),
        ("MLCommons' GPT-J 6B fine-tuned on CNN/DailyMail", "language/gpt-j/README.md"),
    ),
}
"""Benchmarks whose model record is not the checkpoint the benchmark runs: the checkpoint MLPerf's
reference implementation names (mlcommons/inference at :data:`STAND_IN_COMMIT`, the file given), whose
config.json was not read here, so the base model's record stands in; each record says so in a comment
on ``model``."""

USED_MODELS = {
    "llama3_1-8b": "llama3.1-8b",
    "llama3_1-8b-edge": "llama3.1-8b-edge",
    "llama3_1-405b": "llama3.1-405b",
}
"""A round table's ``UsedModel`` (the folder of what ran) that is not its benchmark's name but runs the
benchmark's own checkpoint -> that benchmark (the checker's ``model_mapping``). Any other ``UsedModel``
that differs from its benchmark ran another checkpoint (open division) and is listed, not mapped."""

COUNT_IN_NAME = {
    "AMD Instinct MI355X 288GB HBM3e (x87)": 87,
    "AMD Instinct MI355X 288GB HBM3e (x94)": 94,
}
"""Accelerator names that state the system's count, where that count contradicts number_of_nodes x
accelerators_per_node (v6.0's AMD 87xMI355X_22xEPYC_9575F: 11 x 8 = 88; 94xMI355X_24xEPYC_9575F:
12 x 8 = 96). The name's count is taken (the platform's name says it too)."""

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
    # v4.1 to v6.0 spellings; each hardware record names the spellings it stands for.
    "NVIDIA H100-SXM-80GB": "hardware/h100-sxm",
    "NVIDIA H100-NVL-94GB": "hardware/h100-nvl",
    "NVIDIA H100-PCIe-80GB": "hardware/h100-pcie",
    "NVIDIA H200-SXM-141GB-CTS": "hardware/h200",
    "Virtualized NVIDIA H200-SXM-141GB": "hardware/h200",
    "NVIDIA H200-NVL-141GB": "hardware/h200-nvl",
    "NVIDIA GH200 Grace Hopper Superchip 96GB": "hardware/gh200-96gb",
    "NVIDIA GH200 Grace Hopper Superchip 144GB": "hardware/gh200-144gb",
    "NVIDIA L40S": "hardware/l40s",
    "NVIDIA GeForce RTX 4090": "hardware/geforce-rtx-4090",
    "NVIDIA Jetson AGX Orin 64G": "hardware/jetson-agx-orin-64gb",
    "AMD Instinct MI300X-NPS1-SPX-192GB-750W": "hardware/mi300x",
    # The same part without "Instinct" (v4.1 README: "one part can appear under several names").
    "AMD MI300X-NPS1-SPX-192GB-750W": "hardware/mi300x",
    "AMD Instinct MI325X 256GB HBM3e": "hardware/mi325x",
    "AMD Instinct MI350X": "hardware/mi350x",
    # A power cap lowers what the part reaches, never raises it: its peaks stay upper bounds.
    "AMD Instinct MI355X 288GB HBM3e (Power Cap 1000 W)": "hardware/mi355x",
    "AMD Instinct MI355X 288GB HBM3e (x87)": "hardware/mi355x",
    "AMD Instinct MI355X 288GB HBM3e (x94)": "hardware/mi355x",
    "[MAXSUN] MS-Intel Arc Pro B60 Dual 48G Turbo": "hardware/maxsun-arc-pro-b60-dual",
    "MS-Intel Arc Pro B60 Dual 48G Turbo": "hardware/maxsun-arc-pro-b60-dual",
    "Intel(R) Arc Pro(R) B50": "hardware/arc-pro-b50",
    "Intel(R) Arc Pro(R) B60": "hardware/arc-pro-b60",
    "Intel(R) Arc Pro(R) B70": "hardware/arc-pro-b70",
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
    # v5.1 and v6.0 MangoBoost clusters: each part's count as the spelling gives it.
    "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)": (
        ("hardware/mi300x", 32),
        ("hardware/mi325x", 16),
    ),
    "AMD Instinct MI325X 256GB HBM3E (x16), AMD Instinct MI300X 192GB HBM3 (x8)": (
        ("hardware/mi325x", 16),
        ("hardware/mi300x", 8),
    ),
    (
        "AMD Instinct MI300X 192GB HBM3 (x8) and AMD Instinct MI325X 256GB HBM3e (x8) and "
        "AMD Instinct MI355X 288GB HBM3e (x8)"
    ): (("hardware/mi300x", 8), ("hardware/mi325x", 8), ("hardware/mi355x", 8)),
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

ROUND_CPU_SYSTEMS = {
    ("v4.1", "Cisco", "C240M7-1-node-2S-EMR-PyTorch"): "hardware/xeon-8592plus-2s-cisco-c240m7",
    ("v4.1", "Cisco", "X210M7-1-node-2S-EMR-PyTorch"): "hardware/xeon-8592plus-2s-cisco-x210m7",
    ("v4.1", "Dell", "1-node-2S-EMR-PyTorch"): "hardware/xeon-8592plus-2s-dell",
    ("v4.1", "HPE", "1-node-2S-EMR-PyTorch"): "hardware/xeon-8592plus-2s-hpe",
    ("v4.1", "Intel", "1-node-2S-EMR-PyTorch"): "hardware/xeon-8592plus-2s-intel",
    ("v4.1", "Intel", "1-node-2S-GNR-PyTorch"): "hardware/xeon-6980p-2s-intel-2304gb",
    ("v4.1", "Quanta_Cloud_Technology", "1-node-2S-EMR-PyTorch"): "hardware/xeon-8592plus-2s-qct",
    ("v5.1", "Cisco", "X210M8-1-node-2S-GNR_86C"): "hardware/xeon-6787p-2s-cisco-x210m8",
    ("v5.1", "Intel", "1-node-2S-GNR_128C"): "hardware/xeon-6980p-2s-intel-2304gb",
    ("v5.1", "Intel_VMware", "1-node-2S-GNR_86C_BareMetal"): "hardware/xeon-6787p-2s-intel-vmware",
    ("v5.1", "Intel_VMware", "1-node-2S-GNR_86C_ESXi_172VCPU-VM"): "hardware/xeon-6787p-2s-intel-vmware",
    ("v5.1", "Lenovo", "ThinkSystem_SR650_V4_GNR_86C"): "hardware/xeon-6787p-2s-lenovo",
    ("v5.1", "Supermicro", "1-node-2S-GNR_128C"): "hardware/xeon-6980p-2s-supermicro",
    ("v6.0", "Dell", "1-node-2S-GNR_86C"): "hardware/xeon-6787p-2s-dell",
    ("v6.0", "Supermicro", "1-node-2S-GNR_128C"): "hardware/xeon-6980p-2s-supermicro",
    ("v6.0", "Cisco", "C240M8_1_node_2S_GNR_86C"): "hardware/xeon-6787p-2s-cisco-c240m8",
    ("v6.0", "Intel", "1-node-2S-GNR_128C"): "hardware/xeon-6980p-2s-intel-2304gb",
    ("v6.0", "Lenovo", "1-node-2S-GNR_86C"): "hardware/xeon-6787p-2s-lenovo",
    ("v6.0", "Quanta_Cloud_Technology", "1-node-2S-GNR_86C"): "hardware/xeon-6787p-2s-qct",
}
"""(``version``, ``Organization``, ``Platform``) of a CPU-only system of an earlier round -> its node
record, as the record's own citation of that round's system description names it. A platform name is
reused across rounds for other processors, so these rounds do not fall back to :data:`CPU_SYSTEMS`."""

CPU_ONLY = "N/A"


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
    "INT4": Formats(("int4",)),
    # Unsigned 4-bit integers (v5.1 Intel Arc rows): the registry's int4 is the 4-bit integer format,
    # whose 4 bits a weight are all a figure here depends on; the sign convention is not recorded.
    "UINT4": Formats(("int4",)),
    "fp16": Formats(("fp16",)),
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
