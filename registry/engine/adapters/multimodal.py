"""Speech, audio and vision language models whose causal LM caches only its text decoder's attention.

Semantics followed (transformers 5.24.0, ``models/<type>/``):

- ``moss_transcribe_diarize``: an audio encoder feeding a decoder built with ``AutoModel`` from
  ``text_config``, whose class default is a Qwen3 decoder; the cache is that decoder's, read by the
  Qwen 3 rules (:func:`.qwen.qwen2`). A ``text_config`` of another type is refused, not guessed.
- ``phi4_multimodal``: the decoder's fields sit at the top level beside ``vision_config`` and
  ``audio_config``; ``Phi4MultimodalAttention`` caches ``num_key_value_heads`` (class default 8) heads
  of ``head_dim`` (``hidden_size // heads`` when absent), and a ``sliding_window`` (class default
  null) slides every layer, as for Phi-3.
- ``moshi``: ``MoshiForCausalLM`` is the text-and-audio temporal transformer alone; ``MoshiConfig``
  defaults ``sliding_window`` to 3000, so a config without the key slides every layer (the cache
  gives every layer a window whenever the config has one); ``head_dim`` defaults to
  ``hidden_size // heads``, ``num_key_value_heads`` to MHA.
- ``mllama``: the layers listed in ``cross_attention_layers`` (class default
  ``[3, 8, 13, 18, 23, 28, 33, 38]``) attend to the image instead of the text and cache the vision
  encoder's K and V, whose size follows the images, not the context; without an image
  ``MllamaTextModel`` skips them and they hold nothing. They are laid out as keeping no per-token
  cache (with a note); every other layer is self-attention of ``num_key_value_heads`` (class default
  8) heads of ``hidden_size // num_attention_heads``.
- ``musicgen_melody``: the causal LM is the composite config's ``decoder`` (the text and audio
  encoders only condition it, by prefix, with no cross-attention); every layer caches one K and V per
  attention head of ``hidden_size // num_attention_heads`` (``MusicgenMelodyAttention``), one position
  per step whatever ``num_codebooks`` (the codebooks' embeddings are summed). transformers wraps that
  self-attention cache in an ``EncoderDecoderCache`` whose cross-attention half stays empty.
"""

from __future__ import annotations

from registry.engine.adapters import mistral, qwen
from registry.engine.adapters._common import build, num_layers
from registry.engine.adapters._config import ConfigFieldError, ConfigView
from registry.engine.adapters._defaults import class_defaults
from registry.engine.adapters.dense_classes import derived_head_attention
from registry.engine.layers import Attention, LayerGroups, Mechanism, NoCache


def _text_model_type(view: ConfigView, default: str) -> str:
    text = view.value("text_config")
    inner = text.get("model_type") if isinstance(text, dict) else None
    return default if inner is None else str(inner)


def moss_transcribe_diarize(view: ConfigView) -> LayerGroups:
    """The Qwen3 text decoder's cache (``MossTranscribeDiarizeConfig``'s default ``text_config``)."""
    inner = _text_model_type(view, "qwen3")
    if inner != "qwen3":
        raise ConfigFieldError(
            view.model_type, "text_config.model_type", f"is {inner!r}; this adapter reads the qwen3 decoder"
        )
    view.notes.append(f"{view.model_type} wraps a qwen3 decoder; the layout is read from its text_config")
    decoder = ConfigView("qwen3", view.fields)
    decoder.notes = view.notes
    return qwen.qwen2(decoder)


def phi4_multimodal(view: ConfigView) -> LayerGroups:
    """Phi-3's layout with ``Phi4MultimodalConfig``'s 8 KV heads by default."""
    return mistral.whole_model_window(class_defaults(view, "Phi4MultimodalConfig", num_key_value_heads=8))


def moshi(view: ConfigView) -> LayerGroups:
    """A window on every layer, 3000 tokens when the config does not say (``MoshiConfig``)."""
    return mistral.whole_model_window(class_defaults(view, "MoshiConfig", sliding_window=3000))


_MLLAMA_CROSS = (3, 8, 13, 18, 23, 28, 33, 38)


def mllama(view: ConfigView) -> LayerGroups:
    """Self-attention layers, and cross-attention layers that keep no per-token cache (module docstring)."""
    view = class_defaults(
        view, "MllamaTextConfig", num_key_value_heads=8, cross_attention_layers=list(_MLLAMA_CROSS)
    )
    count = num_layers(view)
    cross = set(view.int_list("cross_attention_layers") or [])
    hidden, heads = view.require_int("hidden_size"), view.require_int("num_attention_heads")
    if hidden % heads:
        raise ConfigFieldError(view.model_type, "hidden_size", f"{hidden} is not a multiple of {heads} heads")
    size = hidden // heads
    attention = Attention(
        num_kv_heads=view.require_int("num_key_value_heads"), head_dim=size, v_head_dim=size
    )
    if cross & set(range(count)):
        view.notes.append(
            "cross-attention layers cache the image's K and V, sized by the images, not the context: "
            "none is counted (a text-only sequence)"
        )
    layers: list[Mechanism] = [NoCache() if i in cross else attention for i in range(count)]
    return build(view, layers)


def musicgen_melody(view: ConfigView) -> LayerGroups:
    """MHA on every layer of the ``decoder`` (a decoder config's own fields when it is not composite)."""
    if view.has("decoder"):
        decoder = ConfigView(view.model_type, view.mapping("decoder"))
        decoder.notes = view.notes
        view.notes.append("the layout is read from the decoder config; the encoders keep no cache")
        view = decoder
    return derived_head_attention(view, None)
