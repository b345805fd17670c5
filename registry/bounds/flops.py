"""The least arithmetic a token costs: ``2 x active parameters`` (one multiply and one add per weight),
plus attention's score and value products over the tokens it attends to.

Every count here is a *lower* bound on the work, so a roof made from it is an upper bound on a rate:
an input embedding table stated untied from the output head is left out (a token looks up one row of
it), a mechanism whose attention cannot be sized from the geometry adds nothing, and multi-head latent
attention is counted in its cheaper, expanded form (per head ``qk_nope + qk_rope`` for the scores and
``v_head_dim`` for the values), whichever form the engine runs.

Attention per query token and attended key, per layer: ``2 x heads x (key head size + value head
size)`` FLOPs (Kaplan et al. 2020, "Scaling Laws for Neural Language Models", Table 1: the attention
term ``2 n_layer n_ctx d_attn`` per token, here with the key and value sizes kept apart). Causal
prefill of ``L`` tokens attends ``L (L + 1) / 2`` query-key pairs in full attention, fewer under a
window (a sliding-window layer's, or an MLA layer's over its latent) or within chunks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from registry.bounds.facts import ModelFacts
from registry.bounds.written import count, si
from registry.engine.layers import MLA, Attention, Chunked, Mechanism, SlidingWindow


@dataclass(frozen=True, slots=True)
class Work:
    """FLOPs and the lines that derive them."""

    flops: Fraction
    lines: tuple[str, ...]
    inputs: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class _Term:
    """One layer group's attention: layers, FLOPs per query-key pair, and its reach (window or chunk)."""

    name: str
    layers: int
    pair_flops: int
    factors: str
    window: int | None = None
    chunk: int | None = None


def weight_flops(model: ModelFacts) -> tuple[Fraction, str, tuple[tuple[str, str], ...]]:
    """``2 x (active parameters - untied input embedding)`` per token, its line and inputs; the caller
    has checked ``params_active``."""
    active = model.params_active
    assert active is not None
    inputs = [("active parameters", count(active))]
    if model.untied_embedding:
        matmul = active - model.untied_embedding
        inputs.append(("untied input embedding", count(model.untied_embedding)))
        line = f"weights: 2 × ({count(active)} − {count(model.untied_embedding)}) = {si(2 * matmul, 'FLOP')}"
    else:
        matmul = active
        line = f"weights: 2 × {count(active)} = {si(2 * matmul, 'FLOP')}"
    counted = " (parameters counted from the config: a lower bound)" if model.params_counted else ""
    return 2 * matmul, line + " per token" + counted, tuple(inputs)


def _query_heads(model: ModelFacts, kv_heads: int) -> int:
    heads = model.fields.get("num_attention_heads")
    return heads if isinstance(heads, int) and heads >= kv_heads else kv_heads


def _terms(model: ModelFacts) -> tuple[list[_Term], list[str]]:
    """Each layer group's attention term, and the mechanisms left out (they add no work to the bound)."""
    terms: list[_Term] = []
    left_out: list[str] = []
    layout = model.layout
    for group in layout.groups if layout is not None else ():
        mech = group.mechanism
        if isinstance(mech, Attention | SlidingWindow | Chunked) and None not in (
            mech.num_kv_heads,
            mech.head_dim,
            mech.v_head_dim,
        ):
            assert mech.num_kv_heads is not None and mech.head_dim is not None and mech.v_head_dim is not None
            heads = _query_heads(model, mech.num_kv_heads)
            factors = f"2 × {heads} × ({mech.head_dim} + {mech.v_head_dim})"
            pair = 2 * heads * (mech.head_dim + mech.v_head_dim)
            window, chunk = _reach(mech)
            if (isinstance(mech, SlidingWindow) and window is None) or (
                isinstance(mech, Chunked) and chunk is None
            ):
                left_out.append(f"{group.count} {mech.kind} layers (reach unknown)")
                continue
            terms.append(_Term(mech.kind, group.count, pair, factors, window, chunk))
        elif isinstance(mech, MLA) and None not in (
            mech.num_heads,
            mech.qk_nope_head_dim,
            mech.qk_rope_head_dim,
            mech.v_head_dim,
        ):
            assert mech.num_heads and mech.qk_nope_head_dim is not None and mech.qk_rope_head_dim is not None
            assert mech.v_head_dim is not None
            factors = f"2 × {mech.num_heads} × ({mech.qk_nope_head_dim} + {mech.qk_rope_head_dim} + {mech.v_head_dim})"
            pair = 2 * mech.num_heads * (mech.qk_nope_head_dim + mech.qk_rope_head_dim + mech.v_head_dim)
            terms.append(_Term("mla", group.count, pair, factors, *_reach(mech)))
        else:
            left_out.append(f"{group.count} {mech.kind} layers")
    return terms, left_out


def _reach(mechanism: Mechanism) -> tuple[int | None, int | None]:
    """The window and the chunk a layer's attention is confined to, wherever its layer type states one (a
    sliding-window layer's window, an MLA layer's window over its latent, a chunked layer's chunk);
    ``None`` where it attends to the whole context."""
    match mechanism:
        case SlidingWindow() | MLA():
            return mechanism.window, None
        case Chunked():
            return None, mechanism.chunk
    return None, None


def _keys_at(term: _Term, context: int) -> int:
    """Keys one new token attends at ``context`` tokens of history."""
    if term.window is not None:
        return min(context, term.window)
    if term.chunk is not None:
        return context % term.chunk
    return context


def _causal_pairs(term: _Term, tokens: int) -> int:
    """Query-key pairs of a causal prefill of ``tokens`` tokens."""
    if term.window is not None and tokens > term.window:
        w = term.window
        return w * (w + 1) // 2 + (tokens - w) * w
    if term.chunk is not None:
        whole, rest = divmod(tokens, term.chunk)
        return whole * term.chunk * (term.chunk + 1) // 2 + rest * (rest + 1) // 2
    return tokens * (tokens + 1) // 2


def _convex_pairs(term: _Term, tokens: Fraction) -> Fraction:
    """A convex lower bound on the query-key pairs of one request of ``tokens`` tokens, so that the
    pairs of requests whose *mean* length is ``tokens`` are at least this many per request (Jensen's
    inequality): full attention's ``L (L + 1) / 2`` is convex itself; a window's pairs are bounded below
    by the convex ``max(0, w L - w (w + 1) / 2)``; chunked attention's sawtooth has no such bound, and
    counts nothing."""
    if term.chunk is not None:
        return Fraction(0)
    if term.window is not None:
        w = term.window
        return max(Fraction(0), w * tokens - Fraction(w * (w + 1), 2))
    return tokens * (tokens + 1) / 2


def request_attention(model: ModelFacts, tokens: Fraction, exact: bool) -> Work:
    """Attention FLOPs of one whole request of ``tokens`` tokens (its prompt and its output), each token
    attending to every token before it: exact for a fixed length (``exact``), else a lower bound on the
    mean request's share when ``tokens`` is a mean length (:func:`_convex_pairs`)."""
    if exact and tokens.denominator == 1:
        total, lines = _attention(model, lambda term: _causal_pairs(term, int(tokens)), "causal pairs")
    else:
        total, lines = _attention(
            model, lambda term: _convex_pairs(term, tokens), "causal pairs (mean length)"
        )
    return Work(total, lines, (("request length for attention", f"{count(tokens)} tokens"),))


def decode_attention(model: ModelFacts, context: int) -> Work:
    """Attention FLOPs of one generated token with ``context`` tokens before it."""
    total, lines = _attention(model, lambda term: _keys_at(term, context), "keys")
    return Work(total, lines, (("context for attention", f"{count(context)} tokens"),))


def prefill_attention(model: ModelFacts, tokens: int) -> Work:
    """Attention FLOPs of a causal prefill of ``tokens`` tokens."""
    total, lines = _attention(model, lambda term: _causal_pairs(term, tokens), "causal pairs")
    return Work(total, lines, ())


def _attention(
    model: ModelFacts, pairs_of: Callable[[_Term], int | Fraction], noun: str
) -> tuple[Fraction, tuple[str, ...]]:
    """The attention FLOPs over every term, ``pairs_of`` each term's query-key pairs, with its lines."""
    terms, left_out = _terms(model)
    total = Fraction(0)
    lines: list[str] = []
    for term in terms:
        pairs = pairs_of(term)
        flops = term.layers * term.pair_flops * pairs
        total += flops
        lines.append(
            f"attention ({term.name}): {term.layers} layers × {term.factors} × {count(pairs)} {noun} = {si(flops, 'FLOP')}"
        )
    lines.extend(f"attention of {what}: not counted (the bound stays a bound)" for what in left_out)
    return total, tuple(lines)
