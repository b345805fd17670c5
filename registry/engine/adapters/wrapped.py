"""Vision-language models whose causal LM caches only its text decoder, a type another adapter reads.

Semantics followed (transformers 5.24.0, ``models/<type>/``):

- ``got_ocr2``: ``GotOcr2ForConditionalGeneration`` runs a Qwen2 decoder built from ``text_config``
  (``GotOcr2Config``'s default sub-config type ``qwen2``); the cache is that decoder's, read by the
  Qwen 2 rules (:func:`.qwen.qwen2`).
- ``fuyu``: ``FuyuForCausalLM`` feeds image patches straight into a Persimmon decoder built from
  ``text_config`` (default type ``persimmon``; ``FuyuConfig`` also gathers the decoder's fields from the
  top level), read by the Persimmon rules (:func:`.dense_classes.persimmon`).

A ``text_config`` naming another decoder type is refused, not guessed.
"""

from __future__ import annotations

from collections.abc import Callable

from registry.engine.adapters import dense_classes, qwen
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.layers import LayerGroups


def _decoder(view: ConfigView, expected: str, read: Callable[[ConfigView], LayerGroups]) -> LayerGroups:
    text = view.value("text_config")
    inner = text.get("model_type", expected) if isinstance(text, dict) else expected
    if inner != expected:
        raise ConfigFieldError(
            view.model_type,
            "text_config.model_type",
            f"is {inner!r}; this adapter reads the {expected} decoder",
        )
    view.notes.append(
        f"{view.model_type} wraps a {expected} decoder; the layout is read from its text_config"
    )
    decoder = ConfigView(expected, view.fields)
    decoder.notes = view.notes
    return read(decoder)


def got_ocr2(view: ConfigView) -> LayerGroups:
    """The Qwen2 text decoder's cache."""
    return _decoder(view, "qwen2", qwen.qwen2)


def fuyu(view: ConfigView) -> LayerGroups:
    """The Persimmon text decoder's cache."""
    return _decoder(view, "persimmon", dense_classes.persimmon)
