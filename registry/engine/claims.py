"""Checking one stated number: the engine's exact value, the author's formula, and the mistake, if any.

:func:`check_claim` is pure: a claim's fields, the model's layout and config fields, and the record's run
in; a :class:`ClaimVerdict` out. The steps, in order:

1. the stated value is read as a :class:`~registry.engine.units.Quantity` and its *dimension* checked
   against the claimed quantity before any arithmetic, so a per-token figure ("70,272 B/token") where a
   whole-sequence total belongs is caught as such;
2. the claimed variant (and, for a ratio, the one it is compared with) is built and the engine computes
   its exact value under the run (the claim may override the context and the KV dtype);
3. the author's formula, if any, is evaluated exactly over the config's geometry fields plus ``bytes``
   (bytes per KV value), ``context_tokens`` and ``batch``;
4. the stated value *agrees* when it admits the engine's exact value: its written precision is the
   tolerance, so "~8.6 GiB" holds for 8.578 GiB and "70,272 B" only for exactly 70,272 bytes;
5. when it disagrees, the catalogue of misapplications (:mod:`registry.engine.misapply`) names the mistake
   that yields the stated number, or gives the nearest candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from registry.engine.dtypes import get_dtype
from registry.engine.expr import ExpressionError, evaluate_node, parse, render
from registry.engine.layers import LayerGroups
from registry.engine.misapply import BY_NAME, Candidate, Side, Situation, explain_situation
from registry.engine.units import Dimension, Quantity, QuantityError, parse_quantity
from registry.engine.variants import (
    ByteQuantity,
    ClaimQuantity,
    Fields,
    Run,
    UnknownVariant,
    measure,
    variant_layer_groups,
)

DIMENSIONS: dict[str, tuple[Dimension, ...]] = {
    "bytes_per_token": (Dimension.BYTES_PER_TOKEN, Dimension.BYTES),
    "bytes_per_sequence": (Dimension.BYTES,),
    "bytes_total": (Dimension.BYTES,),
    "fixed_bytes": (Dimension.BYTES,),
    "ratio": (Dimension.RATIO,),
}
"""The dimensions a stated value may have for each claimed quantity."""

QUANTITY_WORDS: dict[str, str] = {
    "bytes_per_token": "bytes per token",
    "bytes_per_sequence": "bytes per sequence",
    "bytes_total": "total bytes",
    "fixed_bytes": "fixed bytes",
    "ratio": "ratio",
}


@dataclass(frozen=True)
class ClaimSpec:
    """A claim's fields, free of the record model: what is stated, about what, and how it was worked out.

    ``context_tokens`` and ``kv_dtype`` override the run's for this claim only.
    """

    quantity: ClaimQuantity
    stated: str
    variant: str = "actual"
    versus: str | None = None
    formula: str | None = None
    context_tokens: int | None = None
    kv_dtype: str | None = None


@dataclass(frozen=True)
class FormulaCheck:
    """The author's formula: its exact value (or why it has none) and whether the stated value admits it.

    ``rendered`` is the formula with the names replaced by their values (``61 x (512 + 64) x 2``);
    ``explained_by`` names the catalogued mistake the formula itself embodies, if its value is one.
    """

    text: str
    value: Fraction | None = None
    rendered: str = ""
    matches: bool | None = None
    error: ExpressionError | None = None
    explained_by: Candidate | None = None


@dataclass(frozen=True)
class ClaimVerdict:
    """Everything the check found about one claim; the diagnostics stage turns it into findings.

    Exactly one of the problem fields explains a missing ``engine_value``: ``stated_error`` (the stated
    value cannot be read), ``wrong_dimension``, ``unknown_variant``, ``unsupported`` (the engine layout
    does not handle a mechanism or a dtype) or ``not_computable`` (a dimension is unknown).
    """

    claim: ClaimSpec
    run: Run
    stated: Quantity | None
    engine_value: Fraction | None = None
    agrees: bool | None = None
    formula: FormulaCheck | None = None
    misapplication: Candidate | None = None
    nearest: tuple[Candidate, ...] = ()
    trace: tuple[str, ...] = ()
    stated_error: str = ""
    wrong_dimension: str = ""
    unknown_variant: str = ""
    unsupported: str = ""
    not_computable: str = ""
    notes: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------- formatting values for messages


def _decimal(value: Fraction, digits: int) -> str:
    if value.denominator == 1:
        return f"{value.numerator:,}"
    text = f"{float(value):,.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"


def show_value(value: Fraction, like: Quantity | None = None, *, exact_bytes: bool = True) -> str:
    """``value`` (base unit) written in the unit of ``like``, with two more decimals than it was written
    with, and (``exact_bytes``) the bytes beside a scaled byte figure: ``4,880 KiB (4,997,120 B)``,
    ``71.11x``."""
    if like is None or like.dimension is Dimension.RATIO:
        return _decimal(value, (like.decimals if like else 0) + 2) + (like.unit if like else "x")
    written = value / like.scale
    unit = like.unit or "B"
    text = f"{_decimal(written, like.decimals + 2)} {unit}"
    if exact_bytes and like.scale != 1:
        text += f" ({_decimal(value, 2)} B)"
    return text


# ---------------------------------------------------------------- the steps


def _names(fields: Fields, layout: LayerGroups, run: Run) -> dict[str, Fraction | int]:
    """What a formula may name: the config's geometry fields and the run's ``bytes``, context and batch."""
    names: dict[str, Fraction | int] = {k: Fraction(v) for k, v in fields.items()}
    names.setdefault("num_hidden_layers", layout.num_layers)
    names["bytes"] = get_dtype(run.kv_dtype).bytes_per_element
    names["context_tokens"] = run.context_tokens
    names["batch"] = run.batch
    return names


def _formula(text: str, names: dict[str, Fraction | int], stated: Quantity | None) -> FormulaCheck:
    try:
        node = parse(text)
        value = evaluate_node(node, names)
    except ExpressionError as error:
        return FormulaCheck(text, error=error)
    matches = None if stated is None else stated.admits(value)
    return FormulaCheck(text, value, render(node, names), matches)


def _side(variant: str, layout: LayerGroups, fields: Fields, run: Run) -> Side:
    return Side(variant, variant_layer_groups(variant, layout, fields), layout, fields, run)


@dataclass(frozen=True)
class _Outcome:
    value: Fraction | None
    trace: tuple[str, ...]
    unsupported: str = ""
    not_computable: str = ""


def _bytes_outcome(side: Side, quantity: ByteQuantity) -> _Outcome:
    measured = measure(side.layout, side.run, quantity)
    unsupported = "; ".join(measured.result.unsupported)
    missing = "" if measured.value is not None or unsupported else measured.reason
    return _Outcome(measured.value, measured.result.trace, unsupported, missing)


def _ratio_outcome(subject: Side, versus: Side) -> _Outcome:
    """``bytes_per_token`` of the subject over that of ``versus``; the trace shows both."""
    top, bottom = _bytes_outcome(subject, "bytes_per_token"), _bytes_outcome(versus, "bytes_per_token")
    trace = (f"{subject.variant}:", *top.trace, f"{versus.variant}:", *bottom.trace)
    unsupported = "; ".join(o.unsupported for o in (top, bottom) if o.unsupported)
    missing = "; ".join(o.not_computable for o in (top, bottom) if o.not_computable)
    if top.value is None or bottom.value is None:
        return _Outcome(None, trace, unsupported, missing)
    if bottom.value == 0:
        return _Outcome(
            None, trace, "", f"the {versus.variant} variant keeps no per-token cache to divide by"
        )
    return _Outcome(top.value / bottom.value, trace)


def _outcome(quantity: ClaimQuantity, subject: Side, versus: Side | None) -> _Outcome:
    if quantity != "ratio":
        return _bytes_outcome(subject, quantity)
    if versus is None:
        return _Outcome(None, (), "", "a ratio names the variant it is compared with in 'versus'")
    return _ratio_outcome(subject, versus)


def _effective_run(claim: ClaimSpec, run: Run) -> Run:
    return replace(
        run,
        context_tokens=claim.context_tokens or run.context_tokens,
        kv_dtype=claim.kv_dtype or run.kv_dtype,
    )


def _stated(claim: ClaimSpec) -> tuple[Quantity | None, str, str]:
    """The stated quantity, or why it cannot be read, or why its dimension is wrong."""
    try:
        stated = parse_quantity(claim.stated)
    except QuantityError as error:
        return None, str(error), ""
    allowed = DIMENSIONS.get(claim.quantity, ())
    if stated.dimension in allowed:
        return stated, "", ""
    wanted = " or ".join(d.value for d in allowed)
    words = QUANTITY_WORDS.get(claim.quantity, claim.quantity)
    return (
        stated,
        "",
        f"{claim.stated!r} is in {stated.dimension.value}, but {words} are measured in {wanted}",
    )


def check_claim(claim: ClaimSpec, layout: LayerGroups, fields: Fields, run: Run) -> ClaimVerdict:
    """Check one claim against the model's geometry; never raises for a bad claim, only reports it.

    ``layout`` is the model's cache layout, ``fields`` its config's geometry fields (empty for a model
    stated by an explicit layout), ``run`` the record's engine layout, dtypes, context and batch.

    Memoised: the verdict is a pure function of its (immutable) inputs, and one build asks for it
    several times (the check, the database's claims table, the record page), so it is worked out once.
    """
    return _check_claim(claim, layout, tuple(sorted(fields.items())), run)


@lru_cache(maxsize=1 << 16)
def _check_claim(
    claim: ClaimSpec, layout: LayerGroups, field_items: tuple[tuple[str, int | float], ...], run: Run
) -> ClaimVerdict:
    fields = dict(field_items)
    base_context = run.context_tokens
    run = _effective_run(claim, run)
    stated, stated_error, wrong_dimension = _stated(claim)
    names = _names(fields, layout, run)
    formula = None if claim.formula is None else _formula(claim.formula, names, stated)
    verdict = ClaimVerdict(claim, run, stated, formula=formula)
    if stated_error or wrong_dimension:
        return replace(verdict, stated_error=stated_error, wrong_dimension=wrong_dimension)
    assert stated is not None
    try:
        subject = _side(claim.variant, layout, fields, run)
        versus = None if claim.versus is None else _side(claim.versus, layout, fields, run)
        outcome = _outcome(claim.quantity, subject, versus)
    except UnknownVariant as error:
        return replace(verdict, unknown_variant=str(error))
    except ValueError as error:  # an engine layout or dtype the engine does not know
        return replace(verdict, unsupported=str(error))
    verdict = replace(
        verdict,
        engine_value=outcome.value,
        trace=outcome.trace,
        unsupported=outcome.unsupported,
        not_computable=outcome.not_computable,
    )
    if outcome.value is None:
        return verdict
    agrees = stated.admits(outcome.value)
    verdict = replace(verdict, agrees=agrees)
    if agrees:
        return verdict
    situation = Situation(claim.quantity, subject, versus, stated, base_context)
    return _explained(verdict, situation, outcome.value)


def _explained(verdict: ClaimVerdict, situation: Situation, exact: Fraction) -> ClaimVerdict:
    """Name the mistake behind a disagreeing value: a catalogued misapplication the stated value admits,
    else two of them made together, else an arithmetic slip when the author's own formula gives the engine's value; and the mistake the
    formula itself embodies, when its value is a catalogued one."""
    found, explanation = explain_situation(situation, exact)
    formula = verdict.formula
    if formula is not None and formula.value is not None and formula.value != exact:
        embodied = next((c for c in found if c.value == formula.value), None)
        formula = replace(formula, explained_by=embodied)
    match = explanation.match
    if match is None and formula is not None and formula.value == exact and not formula.matches:
        slip = BY_NAME["arithmetic-slip"]
        match = Candidate(slip.name, slip.description, exact)
    return replace(verdict, formula=formula, misapplication=match, nearest=explanation.nearest)
