"""Conformance against transformers runs offline, on one CPU thread.

``HF_HUB_OFFLINE`` is set here, before any test module imports ``huggingface_hub`` (which reads it once,
at import time), so no code path can reach for a hub: models are built from configs, never downloaded.
The models are tiny, so a second thread only adds synchronisation; on a busy two-core machine it made
the decode loops an order of magnitude slower.
"""

import os

os.environ["HF_HUB_OFFLINE"] = "1"

import torch

torch.set_num_threads(1)
