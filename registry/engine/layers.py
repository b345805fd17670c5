"""The normalized cache layout: which mechanism each layer uses, with its dimensions.

A config adapter (one per ``model_type``) or a model record's explicit ``layout`` produces a
:class:`LayerGroups`; the formula engine (:mod:`registry.engine.compute`) turns it into bytes. Every dimension
is ``int | None``: ``None`` means *unknown*, and every result that depends on it is reported as
"not computable" instead of guessed.

Mechanisms, one frozen dataclass each:

- :class:`Attention`: full attention, MHA / GQA / MQA; K and V head sizes may differ; optionally with
  a sparse-attention indexer's keys beside K and V.
- :class:`SlidingWindow`: attention over the last ``window`` tokens.
- :class:`Chunked`: attention within fixed chunks of ``chunk`` tokens (Llama 4 local layers).
- :class:`MLA`: multi-head latent attention; one latent plus a decoupled RoPE key per token.
- :class:`Recurrent`: fixed-size per-sequence state (Mamba, gated DeltaNet, KDA, lightning attention).
- :class:`Compressed`: one cache entry per ``ratio`` tokens (DeepSeek-V4 CSA / HCA).
- :class:`Shared`: reuses another layer's cache (cross-layer KV sharing).
- :class:`NoCache`: keeps nothing per token or per sequence.
- :class:`Parallel`: two of the above side by side in one layer (Falcon-H1: attention and Mamba-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal


class LayerGroupsError(ValueError):
    """A layout that cannot describe a model: a negative size, a layer listed twice, an empty group."""


def _check_dims(owner: object, names: Iterable[str]) -> None:
    """Reject sizes that are not whole non-negative numbers; ``None`` (unknown) is allowed."""
    for name in names:
        value = getattr(owner, name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            kind = type(owner).__name__
            raise LayerGroupsError(
                f"{kind}.{name} must be a whole number >= 0 or None (unknown), not {value!r}"
            )


@dataclass(frozen=True)
class Attention:
    """Full causal attention: every past token keeps one K and one V per KV head.

    ``num_kv_heads`` equal to the attention heads is MHA, fewer is GQA, one is MQA. ``head_dim`` is the
    key head size and ``v_head_dim`` the value head size (they differ in e.g. MLA-expanded layouts).
    """

    kind: ClassVar[str] = "attention"
    num_kv_heads: int | None
    head_dim: int | None
    v_head_dim: int | None
    broadcast_heads: int | None = None
    """Heads K and V are repeated to *before* an implementation caches them, when it does so
    (transformers' Falcon new decoder architecture); ``None`` for the usual case, where the cache holds
    ``num_kv_heads``. Only layouts that follow such an implementation read it."""
    index_head_dim: int | None = None
    """The key size of a sparse-attention indexer that caches one key per token beside K and V
    (MiniMax-M3's sparse layers, ``MiniMaxM3VLSparseCacheLayer.idx_keys``); ``None`` means no indexer."""
    prefix_tokens: int | None = None
    """Tokens the model puts ahead of every sequence and caches with it, whatever the context (CPM-Ant's
    ``prompt_length`` prompt tokens): their K and V are a fixed part of each layer. ``None`` when there
    are none, the usual case."""
    cached_position_ids: int | None = None
    """Position ids an implementation caches with this layer, that many int64 values per token, when it
    does so (transformers keeps Qwen4-Exp's three multimodal RoPE positions of every token on the first
    indexed layer, for all its indexers); ``None`` for the usual case. A token's position is its index,
    so only layouts that follow such an implementation read it."""
    hidden_state: int | None = None
    """Values of the layer's input hidden state kept per token *in place of* K and V, which are computed
    from it again at every step (XLNet's ``mems``); ``None`` for the usual case, a K and V cache."""
    buckets: int | None = None
    """Hash bucket ids kept per token beside the cache (Reformer's LSH layers: heads × hashes, int64)."""
    buckets_from: int | None = None
    """The context from which :attr:`buckets` are kept (Reformer hashes from one LSH chunk on)."""

    def __post_init__(self) -> None:
        _check_dims(
            self,
            (
                "num_kv_heads",
                "head_dim",
                "v_head_dim",
                "broadcast_heads",
                "index_head_dim",
                "prefix_tokens",
                "cached_position_ids",
                "hidden_state",
                "buckets",
                "buckets_from",
            ),
        )


@dataclass(frozen=True)
class SlidingWindow:
    """Attention over the most recent ``window`` tokens only (Mistral, Gemma local layers, gpt-oss)."""

    kind: ClassVar[str] = "sliding-window"
    num_kv_heads: int | None
    head_dim: int | None
    v_head_dim: int | None
    window: int | None
    cached_whole: bool | None = None
    """True where an implementation applies the window as an attention mask only and caches every
    token (transformers' GPT-Neo local layers); ``None`` for the usual case. Only layouts that follow
    such an implementation read it."""
    variant: str | None = None
    """The family, where only some engines run it (``blt``: BLT's local encoder and decoder layers, which
    the serving engines have no model for); ``None`` for the usual case."""
    latent: MLA | None = None
    """The same vector as a latent and its RoPE part, where the key is also the value (DeepSeek-V4's
    sliding-only layers: one vector of 448 + 64 values, its last 64 rotated); ``None`` for the usual
    case. Layouts that keep such a layer as one latent record read it (the architectural minimum,
    SGLang's DeepSeek-V4 pool, vLLM's DeepSeek-V4 SWA cache); the others cache K and V as the fields
    above say."""
    hidden_state: int | None = None
    """As :attr:`Attention.hidden_state`, over the window (XLNet's ``mems`` cut to ``mem_len``)."""

    def __post_init__(self) -> None:
        _check_dims(self, ("num_kv_heads", "head_dim", "v_head_dim", "window", "hidden_state"))


@dataclass(frozen=True)
class Chunked:
    """Attention restricted to the current chunk of ``chunk`` tokens (Llama 4 ``attention_chunk_size``)."""

    kind: ClassVar[str] = "chunked"
    num_kv_heads: int | None
    head_dim: int | None
    v_head_dim: int | None
    chunk: int | None

    def __post_init__(self) -> None:
        _check_dims(self, ("num_kv_heads", "head_dim", "v_head_dim", "chunk"))


@dataclass(frozen=True)
class MLA:
    """Multi-head latent attention (DeepSeek-V2 / V3): a latent of ``kv_lora_rank`` values plus a
    decoupled RoPE key of ``qk_rope_head_dim`` values per token, shared by all heads; no separate V.

    ``num_heads``, ``qk_nope_head_dim`` and ``v_head_dim`` describe the per-head K and V the latent
    expands to; only a layout that caches the expanded heads (transformers 4.x) needs them.
    ``index_head_dim`` is the key size of the DeepSeek-V3.2 sparse-attention indexer, which keeps its
    own per-token key cache; ``None`` there means the model has no indexer.
    """

    kind: ClassVar[str] = "mla"
    kv_lora_rank: int | None
    qk_rope_head_dim: int | None
    num_heads: int | None = None
    qk_nope_head_dim: int | None = None
    v_head_dim: int | None = None
    index_head_dim: int | None = None
    index_n_heads: int | None = None
    window: int | None = None
    """The last ``window`` tokens only, for a layer whose attention slides over the latent (Dots 3 Note's
    sliding layers); ``None`` for a layer that keeps every token."""
    variant: str | None = None
    """The family, where an implementation stores its cache differently from DeepSeek's (``dots3``:
    transformers keeps its indexer keys in float32); ``None`` for DeepSeek's own."""

    def __post_init__(self) -> None:
        _check_dims(
            self,
            (
                "kv_lora_rank",
                "qk_rope_head_dim",
                "num_heads",
                "qk_nope_head_dim",
                "v_head_dim",
                "index_head_dim",
                "index_n_heads",
                "window",
            ),
        )


StateRole = Literal["state", "conv", "shift", "tokens"]
STATE_ROLES: tuple[StateRole, ...] = ("state", "conv", "shift", "tokens")


@dataclass(frozen=True)
class StateTensor:
    """One fixed-size tensor of a recurrent layer's per-sequence state.

    ``role`` separates the recurrent (SSM / delta-rule) state from the short convolution's rolling
    window, because engines store them in different dtypes. A ``conv`` tensor is shaped
    ``(positions, channels)``: its *first* dimension is the number of past inputs the convolution needs,
    ``conv_kernel - 1`` (vLLM's default ``(state_len, dim)`` layout, and what llama.cpp keeps); an engine
    that keeps the whole kernel window adds one there. A ``shift`` tensor is a token shift (RWKV's time
    and channel mixes): the previous token's input, one vector, kept, as a conv window is, in the
    activations' dtype.

    A ``conv`` tensor with a ``dilation`` above 1 is a dilated convolution's window: its taps lie
    ``dilation`` inputs apart, so it needs the last ``(kernel − 1) × dilation`` inputs, its first size
    (Qwen4-Exp's per-layer-embedding convolution). A ``tokens`` tensor holds token ids, not activations:
    int64 values, whatever the KV or state dtype, in every engine layout (Qwen4-Exp's last
    ``ngram_size − 1`` tokens, from which each step hashes its n-grams).
    """

    name: str
    shape: tuple[int | None, ...]
    role: StateRole = "state"
    dilation: int = 1

    def __post_init__(self) -> None:
        if not self.shape:
            raise LayerGroupsError(f"state tensor {self.name!r} needs at least one dimension")
        for size in self.shape:
            if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
                raise LayerGroupsError(f"state tensor {self.name!r} has a bad size {size!r}")
        if self.role not in STATE_ROLES:
            raise LayerGroupsError(
                f"state tensor {self.name!r}: role is 'state', 'conv' or 'shift' (activations) or 'tokens' "
                f"(token ids), not {self.role!r}"
            )
        if isinstance(self.dilation, bool) or not isinstance(self.dilation, int) or self.dilation < 1:
            raise LayerGroupsError(f"state tensor {self.name!r}: dilation {self.dilation!r} is not >= 1")
        if self.dilation > 1 and self.role != "conv":
            raise LayerGroupsError(f"state tensor {self.name!r}: only a conv window has a dilation")

    @property
    def dilated(self) -> bool:
        """True for a dilated convolution's window (taps more than one input apart)."""
        return self.dilation > 1


@dataclass(frozen=True)
class Recurrent:
    """A recurrent or linear-attention layer: state of fixed size per sequence, whatever the context.

    ``variant`` names the family (``mamba``, ``mamba2``, ``gated-deltanet``, ``kda``, ``lightning``).
    """

    kind: ClassVar[str] = "recurrent"
    variant: str
    tensors: tuple[StateTensor, ...]

    def __post_init__(self) -> None:
        if not self.tensors:
            raise LayerGroupsError(f"recurrent layer {self.variant!r} needs at least one state tensor")


@dataclass(frozen=True)
class Compressed:
    """Sequence-compressed attention (DeepSeek-V4 CSA / HCA): one cache entry per ``ratio`` tokens.

    ``inner`` is what one entry holds (an :class:`MLA` latent or an :class:`Attention` K/V pair).
    ``window`` is the uncompressed local branch each such layer also keeps (DeepSeek-V4's sliding window
    of ``sliding_window`` tokens, entries shaped like ``inner``); ``index_head_dim`` the key size of a
    sparse indexer that keeps one key per compressed entry (V4's CSA). ``None`` there means the layer
    has no such branch.
    """

    kind: ClassVar[str] = "compressed"
    variant: str
    ratio: int | None
    inner: MLA | Attention
    window: int | None = None
    index_head_dim: int | None = None

    def __post_init__(self) -> None:
        _check_dims(self, ("ratio", "window", "index_head_dim"))
        if self.ratio == 0:
            raise LayerGroupsError("Compressed.ratio must be at least 1")


@dataclass(frozen=True)
class Shared:
    """A layer that reads another layer's cache (cross-layer KV sharing) and stores nothing itself."""

    kind: ClassVar[str] = "shared"
    source_layer: int | None

    def __post_init__(self) -> None:
        _check_dims(self, ("source_layer",))


@dataclass(frozen=True)
class NoCache:
    """A layer that keeps no per-token or per-sequence cache."""

    kind: ClassVar[str] = "no-cache"


ParallelPart = Attention | SlidingWindow | Chunked | MLA | Recurrent
"""A mechanism that can run beside another in one layer (:class:`Parallel`)."""

PART_TYPES: tuple[type, ...] = (Attention, SlidingWindow, Chunked, MLA, Recurrent)


@dataclass(frozen=True)
class Parallel:
    """Mechanisms side by side in one layer, each keeping its own cache; the layer holds their sum.

    Falcon-H1 runs attention *and* a Mamba-2 mixer on the same input in every decoder layer
    (``FalconH1DecoderLayer`` in transformers' ``modeling_falcon_h1.py``), so one layer keeps K and V per
    token and a fixed state per sequence. Counting it as two layers would double the stack; counting one
    mechanism would drop the other's cache.
    """

    kind: ClassVar[str] = "parallel"
    parts: tuple[ParallelPart, ...]

    def __post_init__(self) -> None:
        if len(self.parts) < 2:
            raise LayerGroupsError("a parallel layer has at least two mechanisms")
        for part in self.parts:
            if not isinstance(part, PART_TYPES):
                raise LayerGroupsError(f"not a mechanism a parallel layer can hold: {part!r}")


Mechanism = Attention | SlidingWindow | Chunked | MLA | Recurrent | Compressed | Shared | NoCache | Parallel
"""Any one layer's cache mechanism."""

MECHANISM_TYPES: tuple[type, ...] = (
    Attention,
    SlidingWindow,
    Chunked,
    MLA,
    Recurrent,
    Compressed,
    Shared,
    NoCache,
    Parallel,
)


def parts_of(mechanism: Mechanism) -> tuple[Mechanism, ...]:
    """The mechanisms a layer runs: a :class:`Parallel` layer's parts, else the mechanism itself."""
    return mechanism.parts if isinstance(mechanism, Parallel) else (mechanism,)


@dataclass(frozen=True)
class LayerGroup:
    """Layers (0-based indices) that share one mechanism with identical dimensions."""

    mechanism: Mechanism
    layers: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.mechanism, MECHANISM_TYPES):
            raise LayerGroupsError(f"not a cache mechanism: {self.mechanism!r}")
        if not self.layers:
            raise LayerGroupsError(f"a layer group needs at least one layer ({self.mechanism.kind})")
        # set(map(type, ...)) and min() run in C: variants rebuild groups of up to 10,000 layers per claim
        if set(map(type, self.layers)) != {int} or min(self.layers) < 0:
            raise LayerGroupsError(f"layer indices are whole numbers >= 0: {self.layers!r}")
        if len(set(self.layers)) != len(self.layers):
            raise LayerGroupsError(f"a layer is listed twice in one group: {self.layers!r}")

    @property
    def count(self) -> int:
        """How many layers the group has."""
        return len(self.layers)


@dataclass(frozen=True)
class LayerGroups:
    """A model's cache layout: its layer groups, any multi-token-prediction layers, and notes.

    ``mtp_groups`` are the extra multi-token-prediction layers (DeepSeek-V3 ``num_nextn_predict_layers``)
    that some engines give a cache when speculative decoding uses them; the ideal layout leaves them out.
    ``notes`` carry what the adapter wants the reader to know (an assumption, an ignored field).
    """

    model_type: str
    groups: tuple[LayerGroup, ...]
    mtp_groups: tuple[LayerGroup, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for group in (*self.groups, *self.mtp_groups):
            clash = seen.intersection(group.layers)
            if clash:
                raise LayerGroupsError(f"layer {min(clash)} appears in more than one group")
            seen.update(group.layers)

    def __hash__(self) -> int:
        """The fields' hash, worked out once: layouts key every memoised computation, and hashing one
        walks every layer index of every group."""
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.model_type, self.groups, self.mtp_groups, self.notes))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the remembered hash: another process hashes strings differently."""
        return {name: value for name, value in self.__dict__.items() if name != "_hash"}

    @property
    def num_layers(self) -> int:
        """Layers in the main stack (multi-token-prediction layers not counted)."""
        return sum(group.count for group in self.groups)

    def mechanisms(self) -> tuple[Mechanism, ...]:
        """The mechanism of each main-stack layer, by layer index (indices assumed 0..n-1)."""
        by_index = {i: g.mechanism for g in self.groups for i in g.layers}
        return tuple(by_index[i] for i in sorted(by_index))


def group_layers(mechanisms: Sequence[Mechanism], first_index: int = 0) -> tuple[LayerGroup, ...]:
    """Group a per-layer list of mechanisms into layer groups, in first-seen order.

    Layer ``k`` of the list gets index ``first_index + k``; equal mechanisms (same type and dimensions)
    share a group, so ``[SW, Full, SW, Full]`` becomes ``(SW: 0, 2), (Full: 1, 3)``.
    """
    order: list[Mechanism] = []
    members: dict[Mechanism, list[int]] = {}
    for offset, mechanism in enumerate(mechanisms):
        if mechanism not in members:
            order.append(mechanism)
            members[mechanism] = []
        members[mechanism].append(first_index + offset)
    return tuple(LayerGroup(m, tuple(members[m])) for m in order)


def layer_groups_from_layers(
    model_type: str,
    mechanisms: Sequence[Mechanism],
    *,
    mtp: Sequence[Mechanism] = (),
    notes: Sequence[str] = (),
) -> LayerGroups:
    """Build a :class:`LayerGroups` from one mechanism per layer; MTP layers are numbered after the stack."""
    return LayerGroups(
        model_type=model_type,
        groups=group_layers(mechanisms),
        mtp_groups=group_layers(mtp, first_index=len(mechanisms)),
        notes=tuple(notes),
    )


def uniform_layer_groups(model_type: str, mechanism: Mechanism, num_layers: int) -> LayerGroups:
    """A layout whose ``num_layers`` layers all use one mechanism."""
    if num_layers < 1:
        raise LayerGroupsError(f"a model has at least one layer, not {num_layers}")
    return LayerGroups(model_type=model_type, groups=(LayerGroup(mechanism, tuple(range(num_layers))),))
