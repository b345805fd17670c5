"""What a model page's calculator needs to recompute ``registry calc`` in the reader's browser.

The page lets a reader pick a context, a batch, a KV format and an engine layout and see the cache,
without a server. The browser cannot run the engine, so this module hands it each layer group's *terms*
under every engine layout and KV format: what one entry of a component costs across the group's layers
(an exact fraction of a byte), which part of the cache it belongs to, and its *rule*, how many entries a
sequence keeps at a context, as one of a few closed forms the page's script evaluates:

=================  ============================================  ==========================================
rule               entries at context ``t``                      where it comes from
=================  ============================================  ==========================================
``t``              ``t``                                         a full cache without blocks
``min w``          ``min(t, w)``                                 a sliding window, exactly
``chunk c``        ``(t − 1) mod c + 1``                         the current chunk, exactly
``blocks b s``     ``s × ⌈t / b⌉``                               whole blocks or pages; ``⌈t / ratio⌉``
``window b w s``   ``s × (⌈t / b⌉ − ⌊max(0, t − w + 1) / b⌋)``   the blocks a paged window still holds
``chunk-blocks``   ``b × (⌈t / b⌉ − ⌊⌊(t − 1) / c⌋ × c / b⌋)``   the blocks of the current chunk
``pad p m``        ``pad(min(pad(t), m))`` (``m`` 0: no cap)     cells padded to a multiple of ``p``
``floor r``        ``⌊t / r⌋``                                   the windows of ``r`` tokens closed so far
``mod r``          ``t mod r``                                   the tokens of the window still open
``from r n``       ``n`` once ``t ≥ r``, else 0                  what is kept once a first window closed
=================  ============================================  ==========================================

An engine layout's rules are functions of the context, so each one is *matched*: a form is proposed from
the rule's own parameters (its window, chunk or ratio) and from what it keeps at a few contexts, and kept
only when it gives the rule's own count at every context of a dense and a wide probe (:func:`probe_contexts`).
A rule no form matches leaves its layout and format out of the calculator, with that reason; the page
says so and the static tables still give its figures. The totals follow
:mod:`registry.engine.groups` exactly: a group's growing, window and fixed bytes are each rounded up to a
whole byte for the whole batch, then added.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any

from registry.engine.dtypes import get_dtype
from registry.engine.engines import get_engine
from registry.engine.groups import group_growth, plan_group, refused_group
from registry.engine.layers import LayerGroups
from registry.engine.plan import Component, EngineRules, EntryRule, GroupPlan, MissingDimension, Settings
from registry.engine.trace import layer_span
from registry.engine.units import MAX_CONTEXT_TOKENS
from registry.results.figures import ENGINE_LAYOUTS, KV_DTYPES

Rule = tuple[str | int, ...]
"""A rule's form and its whole-number parameters, as the page's script reads it: ``("blocks", 16, 16)``."""

NOT_MIRRORED = (
    "this calculator does not reproduce the engine's rule for how many entries a sequence keeps here "
    "(registry calc gives the figure)"
)
"""Why a layout and format is left out of the calculator when a rule matches no form."""


@dataclass(frozen=True)
class Term:
    """One component of a layer group: its part, its rule, and what one entry costs across the group's
    layers for one sequence (a fixed state's ``rule`` is ``("one",)``)."""

    part: str
    rule: Rule
    entry_bytes: Fraction


@dataclass(frozen=True)
class GroupTerms:
    """A layer group as the calculator counts it: its name, its layer count, its terms, and what one
    more token adds across its layers once every window is full."""

    mechanism: str
    layers: int
    terms: tuple[Term, ...]
    growth: Fraction


@dataclass(frozen=True)
class Choice:
    """One engine layout and KV format for a model: its groups, or why the calculator has none."""

    engine_layout: str
    kv_dtype: str
    groups: tuple[GroupTerms, ...] = ()
    reason: str | None = None


def entries(rule: Rule, t: int) -> int:
    """The entries ``rule`` keeps at context ``t``: the Python twin of the page's script, which the
    tests hold to :func:`registry.engine.compute.compute` and the script to ``registry calc``."""
    kind, values = rule[0], [int(value) for value in rule[1:]]
    if kind == "t":
        return t
    if kind == "one":
        return 1
    if kind == "min":
        return min(t, values[0])
    if kind == "chunk":
        return (t - 1) % values[0] + 1
    if kind == "blocks":
        return values[1] * _ceil(t, values[0])
    if kind == "window":
        block, window, slots = values
        return slots * (_ceil(t, block) - max(0, t - window + 1) // block)
    if kind == "chunk-blocks":
        block, chunk = values
        return block * (_ceil(t, block) - (max(0, t - 1) // chunk * chunk) // block)
    if kind == "pad":
        pad, cap = values
        padded = _ceil(t, pad) * pad
        return _ceil(min(padded, cap), pad) * pad if cap else padded
    if kind == "floor":
        return t // values[0]
    if kind == "mod":
        return t % values[0]
    if kind == "from":
        return values[1] if t >= values[0] else 0
    raise ValueError(f"unknown rule {kind!r}")


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def probe_contexts(numbers: Iterable[int]) -> tuple[int, ...]:
    """Every context from 1 to 1,100, and around each of ``numbers`` and its first multiples, and a few
    long ones up to the longest a record may state: where any of the forms changes its slope or its
    step."""
    seen = set(range(1, 1101))
    for number in numbers:
        for multiple in range(1, 5):
            centre = number * multiple
            seen.update(range(max(1, centre - 3), centre + 4))
    seen.update((131_071, 131_072, 131_073, 1_000_003, 1 << 20, (1 << 24) + 5, MAX_CONTEXT_TOKENS))
    return tuple(sorted(t for t in seen if 1 <= t <= MAX_CONTEXT_TOKENS))


def _numbers(value: object, depth: int = 0) -> Iterator[int]:
    """The whole numbers a rule was built with: its bound arguments, and the dimensions of a
    mechanism among them (a window, a chunk, a ratio), looked for a few levels down."""
    if depth > 3:
        return
    if isinstance(value, partial):
        for bound in (*value.args, *value.keywords.values()):
            yield from _numbers(bound, depth + 1)
    elif isinstance(value, int) and not isinstance(value, bool) and value > 0:
        yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            yield from _numbers(getattr(value, field.name), depth + 1)
    elif isinstance(value, tuple):
        for item in value:
            yield from _numbers(item, depth + 1)


def _first_freed(rule: EntryRule, step: int, per_block: int) -> int | None:
    """The first context at which ``rule`` holds fewer than all ``⌈t / step⌉`` blocks of ``per_block``
    slots, or None when it never does: where a paged window starts freeing. What it holds short of all
    blocks only grows with the context, so a bisection finds it."""

    def short(t: int) -> bool:
        return rule(t)[0] < per_block * _ceil(t, step)

    low, high = 1, MAX_CONTEXT_TOKENS
    if not short(high):
        return None
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if short(middle) else (middle + 1, high)
    return low


def _candidates(rule: EntryRule) -> Iterator[Rule]:
    """Forms worth trying for ``rule``, their parameters read from the rule and from what it keeps."""
    first = rule(1)[0]
    last = rule(MAX_CONTEXT_TOKENS)[0]
    step = next((t - 1 for t in range(2, 4097) if rule(t)[0] != first), None)
    sizes = sorted(set(_numbers(rule)))
    yield ("t",)
    yield ("min", last)
    yield ("pad", first, 0)
    yield ("pad", first, last)
    for size in sizes:
        yield ("chunk", size)
        yield ("blocks", size, 1)
        yield ("chunk-blocks", first, size)
        yield ("floor", size)
        yield ("mod", size)
        yield ("from", size, last)
        if step is not None:
            yield ("window", step, size, first)
    if step is not None:
        yield ("blocks", step, first)
        freed = _first_freed(rule, step, first) if first else None
        if freed is not None:  # a window whose freeing starts a block after its edge: w − 1 + step
            yield ("window", step, freed - step + 1, first)


@lru_cache(maxsize=4096)
def describe(rule: EntryRule) -> Rule | None:
    """The form that gives ``rule``'s count at every probed context, or None when none does. (An
    engine's plans are memoised, so the same rule object comes back for every model sharing a mechanism,
    and the matching is done once for it.)"""
    for candidate in _candidates(rule):
        divisors = candidate[1:2] if candidate[0] == "pad" else candidate[1:]
        if 0 in divisors:
            continue
        contexts = probe_contexts(n for n in candidate[1:] if isinstance(n, int))
        if all(entries(candidate, t) == rule(t)[0] for t in contexts):
            return candidate
    return None


def _term(component: Component, layers: int) -> Term | None:
    cost = layers * Fraction(component.entry_bytes)
    if component.part == "fixed":
        return Term("fixed", ("one",), cost)
    rule = describe(component.entries)
    return None if rule is None else Term(component.part, rule, cost)


def _refusal(layout: LayerGroups, rules: EngineRules, settings: Settings) -> str | None:
    """Why the engine gives no figure under ``rules`` and ``settings`` (the reasons ``registry calc``
    gives: each mechanism the engine does not handle, then each unknown dimension), or None."""
    refused = [
        refused_group(group, rules, plan, False)
        for group in layout.groups
        if isinstance(plan := plan_group(group, rules, settings), MissingDimension) or not plan.supported
    ]
    unsupported = [
        f"{g.mechanism} layers {layer_span(g.layers)}: {g.reason}" for g in refused if not g.supported
    ]
    missing = [message for g in refused for message in g.not_computable]
    return "; ".join([*unsupported, *missing]) or None


def _choice(layout: LayerGroups, engine_layout: str, kv_dtype: str, model_dtype: str | None) -> Choice:
    """One engine layout and format: its groups' terms, or the reason it has none."""
    rules = get_engine(engine_layout)
    settings = Settings(get_dtype(kv_dtype), None, get_dtype(model_dtype) if model_dtype else None)
    reason = _refusal(layout, rules, settings)
    if reason is not None:
        return Choice(engine_layout, kv_dtype, reason=reason)
    groups: list[GroupTerms] = []
    for group in layout.groups:
        plan = plan_group(group, rules, settings)
        assert isinstance(plan, GroupPlan)  # no refusal: the engine has a plan for every group
        terms = [_term(component, group.count) for component in plan.components]
        if any(term is None for term in terms):
            return Choice(engine_layout, kv_dtype, reason=NOT_MIRRORED)
        variant = getattr(group.mechanism, "variant", None)
        groups.append(
            GroupTerms(
                group.mechanism.kind + (f" ({variant})" if variant else ""),
                group.count,
                tuple(term for term in terms if term is not None),
                Fraction(group_growth(group, plan)),
            )
        )
    return Choice(engine_layout, kv_dtype, tuple(groups))


@lru_cache(maxsize=1024)
def choices(layout: LayerGroups, model_dtype: str | None) -> tuple[Choice, ...]:
    """Every engine layout of the per-model figures under every KV format, for a model computing in
    ``model_dtype`` (what ``registry calc`` takes from the config when no ``--weights`` is given)."""
    return tuple(
        _choice(layout, engine_layout, kv_dtype, model_dtype)
        for engine_layout in ENGINE_LAYOUTS
        for kv_dtype in KV_DTYPES
    )


@dataclass(frozen=True)
class Totals:
    """The cache of one choice at a context and batch, as ``registry calc`` gives it: whole bytes by
    part, the total, each group's bytes, and what one more token of one sequence adds once every window
    is full (calc's ``steady_state_bytes_per_token``)."""

    total_bytes: int
    growing_bytes: int
    window_bytes: int
    fixed_bytes: int
    group_bytes: tuple[int, ...]
    steady_state_bytes_per_token: Fraction


def totals(choice: Choice, t: int, batch: int = 1) -> Totals:
    """The cache of ``choice`` at context ``t`` for ``batch`` sequences, counted as the page's script
    counts it: each group's parts summed exactly, each rounded up to a whole byte, then added."""
    if choice.reason is not None:
        raise ValueError(choice.reason)
    parts = {"growing": 0, "window": 0, "fixed": 0}
    group_bytes = []
    for group in choice.groups:
        exact = {"growing": Fraction(0), "window": Fraction(0), "fixed": Fraction(0)}
        for term in group.terms:
            exact[term.part] += entries(term.rule, t) * term.entry_bytes
        rounded = {
            part: _ceil((value * batch).numerator, (value * batch).denominator)
            for part, value in exact.items()
        }
        group_bytes.append(sum(rounded.values()))
        for part, value in rounded.items():
            parts[part] += value
    return Totals(
        sum(parts.values()),
        parts["growing"],
        parts["window"],
        parts["fixed"],
        tuple(group_bytes),
        sum((group.growth for group in choice.groups), start=Fraction(0)),
    )


def _fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def as_data(layout: LayerGroups, model_dtype: str | None) -> dict[str, Any]:
    """The calculator's data for a model, as plain values for JSON: each engine layout's title and, by
    KV format, its groups (bytes as ``"n"`` or ``"n/d"`` strings, exact at any size) or its reason."""
    layouts: dict[str, dict[str, Any]] = {}
    for choice in choices(layout, model_dtype):
        entry = layouts.setdefault(
            choice.engine_layout, {"title": get_engine(choice.engine_layout).title, "kv": {}}
        )
        entry["kv"][choice.kv_dtype] = choice.reason if choice.reason is not None else _groups(choice)
    return {"layouts": layouts, "max_context": MAX_CONTEXT_TOKENS}


def _groups(choice: Choice) -> list[dict[str, Any]]:
    return [
        {
            "mechanism": group.mechanism,
            "layers": group.layers,
            "growth": _fraction(group.growth),
            "terms": [[term.part, list(term.rule), _fraction(term.entry_bytes)] for term in group.terms],
        }
        for group in choice.groups
    ]


def offered(data: Mapping[str, Any]) -> list[str]:
    """The engine layouts the calculator offers: those with figures under at least one KV format."""
    return [
        key
        for key, entry in data["layouts"].items()
        if any(not isinstance(value, str) for value in entry["kv"].values())
    ]


__all__ = [
    "NOT_MIRRORED",
    "Choice",
    "GroupTerms",
    "Term",
    "Totals",
    "as_data",
    "choices",
    "describe",
    "entries",
    "offered",
    "probe_contexts",
    "totals",
]
