"""Accelerator names as serving tools write them -> the hardware record each names, only where the
name admits one part: a name that two parts share (an H100 or H200 sold as SXM and as PCIe/NVL) maps to
none, and the run's hardware is then the ``--hardware`` option's."""

from __future__ import annotations

PRODUCT_LABELS = {
    "NVIDIA-H100-80GB-HBM3": "hardware/h100-sxm",
    "NVIDIA-H200": "hardware/h200",
    "NVIDIA-B200": "hardware/b200",
    "NVIDIA-GB200": "hardware/gb200",
    "NVIDIA-GB300": "hardware/gb300",
    "NVIDIA-B300": "hardware/b300",
}
"""NVIDIA's GPU feature discovery ``nvidia.com/gpu.product`` label (the llm-d Benchmark Report's
``accelerator.model``): ``NVIDIA-H100-80GB-HBM3`` is the HBM3 part, the SXM board (the PCIe part is
``NVIDIA-H100-PCIe``, HBM2e)."""

INFERENCEX_SKUS = {
    "b200": "hardware/b200",
    "b300": "hardware/b300",
    "gb200": "hardware/gb200",
    "gb300": "hardware/gb300",
    "mi300x": "hardware/mi300x",
    "mi355x": "hardware/mi355x",
}
"""InferenceX's GPU SKUs (the ``hw`` runner type before its first ``-``): the parts sold in one form.
``h100`` and ``h200`` are SXM or PCIe/NVL parts the row does not tell apart, and ``mi325x`` has no
record here, so their rows need ``--hardware``."""


def inferencex_sku(hw: str) -> str:
    return hw.split("-", 1)[0].lower()
