"""The explicit table of the ``framework`` spellings of MLPerf Inference results tables and the engine
record each names (see :mod:`registry.authoring.importers.mlperf_maps`: nothing is inferred from text; a
spelling in no table makes its row unmappable, listed with the reason)."""

from __future__ import annotations

from dataclasses import dataclass, field

from registry.authoring.importers.mlperf_maps import LLM_MODELS

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
    # v4.1 to v6.0 spellings.
    (
        "TensorRT 10.14, CUDA 13.1, cuDNN 9.17, Driver 580.105.08, TensorRT-LLM feat/1.2-mlpinf, "
        "NVIDIA Dynamo mlperf-v6.0-dynamo-v0.8.0, vLLM CentML:mlperf-inf-mm-q3vl-v6.0"
    ): _NVIDIA_STACK,
    "SGLang v0.4.9": EngineFor(SGLANG),
    "vllm": EngineFor(VLLM),
    "PyTorch vLLM": EngineFor(VLLM),
    "vLLM v0.15.0-dev": EngineFor(VLLM),
    "vLLM v0.6.5": EngineFor(VLLM),
    "vLLM v0.9.1": EngineFor(VLLM),
    "vLLM v0.9.2": EngineFor(VLLM),
    "vLLM 0.5.2": EngineFor(VLLM),
    "vLLM 0.9.0, PyTorch 2.7.0": EngineFor(VLLM),
    "vLLM 0.10.0, RHEL 9.6": EngineFor(VLLM),
    "vLLM 0.14.0, RHEL 9.6": EngineFor(VLLM),
    "vLLM 0.4.3+rocm614, PyTorch 2.3.0, ROCm 6.1.0": EngineFor(VLLM),
    "vLLM 0.4.3+rocm614, PyTorch 2.3.0, ROCm 6.1.2": EngineFor(VLLM),
    "vLLM 0.6.5.dev964+mlperf50, Pytorch 2.7.0a0+git3a58512, ROCm 6.3.1": EngineFor(VLLM),
    "vLLM 0.9.0.2.dev108+g71faa1880.d20250730.rocm641, Pytorch 2.7.0+gitf717b2a, ROCm 6.4.1.60401-83~22.04": EngineFor(
        VLLM
    ),
    "vLLM 0.9.0.2.dev108+g71faa1880.d20250731.rocm641, Pytorch 2.7.0+gitf717b2a, ROCm 6.4.1.60401-83~22.04": EngineFor(
        VLLM
    ),
    "vLLM 0.9.0.2.dev108+g71faa1880.d20260213, Pytorch 2.7.0+gitf717b2a, ROCm 6.4.1": EngineFor(VLLM),
    "vLLM 0.9.1.dev2+g790cf6584.d20250519.rocm650, Pytorch 2.8.0a0+git37f92bb, ROCm 6.5.0.60500-crnm350d.40~22.04": EngineFor(
        VLLM
    ),
    "vLLM 0.14.0rc3.dev30+gb026cf14e.d20260212.rocm700, Pytorch 2.9.1+git8907517, ROCm 7.0.0.70000-38~22.04 ": EngineFor(
        VLLM
    ),
    "vLLM  + NVIDIA-dynamo + MLPerf Inference Qwen3-VL harness, RHEL 10.1": EngineFor(VLLM),
    "LLM-D v0.5.0 ,vLLM 0.14.1, RHEL 9.6": EngineFor(VLLM),
    (
        "Mango LLMBoost AI Enterprise Platform, vllm-0.9.0.2.dev108+g71faa1880.d20250717.rocm641, ROCm 6.12.12"
    ): EngineFor(VLLM),
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
    **dict.fromkeys(
        (
            "CUDA 12.2",
            "CUDA 12.4",
            "Jetpack 6.0, TensorRT 10.1, CUDA 12.2",
            "TensorRT 9.3.0, CUDA 12.2",
            "TensorRT 9.3.0, CUDA 12.3",
            "TensorRT 10.1.0, CUDA 12.7",
            "TensorRT 10.2, CUDA 12.4",
            "TensorRT 10.2.0, CUDA 12.4",
            "TensorRT 10.2.0, CUDA 12.5",
            "TensorRT 10.2.0.19, CUDA 12.4",
            "TensorRT 10.8, CUDA 12.8",
            "TensorRT 10.8, CUDA 12.9",
            "TensorRT 10.10, CUDA 12.9",
            "TensorRT 10.11, CUDA 12.8",
            "TensorRT 10.11, CUDA 12.9",
            "TensorRT 10.11, CUDA 13.0",
            "TensorRT 10.11.0.33, CUDA 12.9",
            "TensorRT 10.11.0.33, CUDA 13.0",
            "TensorRT 10.13, CUDA 13.0",
            "TensorRT 10.14, CUDA 13.0",
            "TensorRT 10.14.1.48, CUDA 13.0",
            "PyTorch 2.8.0a0+git74091a9, aiter 0.1.4.dev17+gd0384d4f.d20250718",
            "PyTorch 2.9.1+git8907517, ROCm 7.0.0",
            "PyTorch 2.9.1+git8907517, ROCm 7.0.0, PyTorch 2.9.0a0+git1c57644, ROCm 7.1.0",
            "PyTorch: Retinanet: 1.12.0a0+gitb278502, Whisper: 2.7.0+cpu, dlrmv2: 2.1.1+cpu, rgat: 2.7.0+cpu, "
            "llama3.1-8b: 2.8.0.dev20250627+cpu",
            "PyTorch: rgat: 2.7.0+cpu, whipser: 2.7.0+cpu, llama3.1-8b: 2.8.0.dev20250627+cpu",
            "Pytorch 2.9.1 , ROCm 7.0",
            "ROCm 6.10.5",
            "Mango LLMBoost AI Enterprise Platform, ROCm 6.12.12",
            "LLM-D v0.5.0 ,OpenShift 4.21, RHEL 9.6",
            "deepsparse v1.5.2",
            # The table states no framework (v6.0: an empty cell, or the placeholder TODO).
            "",
            "TODO",
        ),
        NO_ENGINE,
    ),
}
"""``framework`` as written -> the engine record it names."""

ENGINE_LAYOUTS = {TRTLLM: "trtllm", VLLM: "vllm", SGLANG: "sglang", LLAMA_CPP: "llama.cpp"}
"""The engine layout of each engine's cache, for the record's ``layout``."""
