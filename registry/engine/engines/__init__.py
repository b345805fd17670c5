"""Engine layouts: what each engine actually allocates for each cache mechanism.

The same model costs different bytes in different engines: a serving engine caches the MLA latent, a
reference implementation may cache the expanded per-head K and V; one engine rounds a sequence up to
whole 16-token blocks, another pads the context to 256 cells. The engine layout is therefore an explicit
input to :func:`registry.engine.compute.compute`, never an assumption.

Keys: ``ideal`` (the architectural minimum), ``vllm``, ``sglang``, ``trtllm``, ``llama.cpp``, ``transformers``
(the current release), ``transformers@4``, ``transformers@5`` and ``transformers@MAJOR.MINOR[.PATCH]``.
Each rule's docstring names the file and function of the engine release it was read from:

- vLLM 0.33.0 (``vllm-project/vllm``),
- SGLang 0.5.23 (``sgl-project/sglang``),
- TensorRT-LLM 1.2.0rc2 (``NVIDIA/TensorRT-LLM`` at commit ``b35ac1b6``: its PyTorch backend's KV cache
  manager),
- llama.cpp as vendored by llama-cpp-python 0.3.36 (``ggml-org/llama.cpp``),
- transformers 4.57.6, 5.0.0, 5.14.1, 5.15.0 and 5.24.0 (``huggingface/transformers``).

A mechanism whose layout in an engine was not read from its source is reported as *not supported* with
that reason, never estimated.

One module per engine: :mod:`~registry.engine.engines.ideal` (the minimum every engine's rules start
from), :mod:`~registry.engine.engines.vllm`, :mod:`~registry.engine.engines.sglang`,
:mod:`~registry.engine.engines.trtllm`,
:mod:`~registry.engine.engines.llama_cpp` and :mod:`~registry.engine.engines.transformers`, with
:mod:`~registry.engine.engines.fp8_mla`, :mod:`~registry.engine.engines.deepseek_v4` and
:mod:`~registry.engine.engines.deepseek_v4_sglang` for the DeepSeek records vLLM and SGLang lay out in their
own way; this module finds the rules for a key.
"""

from __future__ import annotations

import re
from functools import lru_cache

from registry.engine.engines.ideal import Ideal
from registry.engine.engines.llama_cpp import LlamaCpp
from registry.engine.engines.sglang import SGLang
from registry.engine.engines.transformers import TRANSFORMERS_4, TRANSFORMERS_CURRENT, Transformers
from registry.engine.engines.trtllm import TensorRTLLM
from registry.engine.engines.vllm import VLLM
from registry.engine.plan import EngineRules

__all__ = ["ENGINE_KEYS", "UnknownEngineError", "get_engine"]


class UnknownEngineError(ValueError):
    """An engine layout key the engine does not know; the message lists the known ones."""


ENGINE_KEYS = (
    "ideal",
    "vllm",
    "sglang",
    "trtllm",
    "llama.cpp",
    "transformers",
    "transformers@4",
    "transformers@5",
)
"""The engine layout keys; ``transformers@MAJOR.MINOR[.PATCH]`` (4.57 or later) is accepted too."""

_FIXED: dict[str, EngineRules] = {
    "ideal": Ideal(),
    "vllm": VLLM(),
    "sglang": SGLang(),
    "trtllm": TensorRTLLM(),
    "llama.cpp": LlamaCpp(),
    "transformers": Transformers("transformers", TRANSFORMERS_CURRENT),
    "transformers@4": Transformers("transformers@4", TRANSFORMERS_4),
    "transformers@5": Transformers("transformers@5", TRANSFORMERS_CURRENT),
}
_VERSION = re.compile(r"^transformers@(\d+)\.(\d+)(?:\.(\d+))?$")


@lru_cache(maxsize=256)
def get_engine(key: str) -> EngineRules:
    """The engine layout called ``key``; an unknown key raises :class:`UnknownEngineError`. One object
    per key, so that what is memoised for an engine (its plans) is found again for a version pin too."""
    if key in _FIXED:
        return _FIXED[key]
    match = _VERSION.match(key)
    if match:
        version = (int(match[1]), int(match[2]), int(match[3] or 0))
        if (4, 57, 0) <= version < (6, 0, 0):
            return Transformers(key, version)
        raise UnknownEngineError(f"{key!r}: the transformers rules were read for 4.57 to 5.x, not {version}")
    known = ", ".join(ENGINE_KEYS)
    raise UnknownEngineError(
        f"unknown engine layout {key!r}; known: {known}, transformers@MAJOR.MINOR[.PATCH]"
    )
