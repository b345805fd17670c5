"""The F family: a stated number that does not follow from the model's geometry.

F005 is not used: a value in the wrong dimension for its quantity (a per-token figure where a total
belongs) is already refused by the schema stage, before any arithmetic.
"""

from __future__ import annotations

from registry.codes.rule import Rule, family
from registry.diagnostics import Severity

_rule = family("formula")


CLAIM_MISMATCH = _rule(
    "F001",
    "claim-mismatch",
    "A stated number disagrees with what the engine computes from the model's geometry.",
    "Published cache figures go wrong in a few recurring ways (the GQA formula on an MLA model, K and V "
    "counted once, GB written as GiB, a window ignored). The engine recomputes every number exactly; a "
    "stated value agrees when it rounds to the exact value at the precision it is written with. The "
    "message names the catalogued mistake that yields the stated number when one does, else the nearest.",
    "state the figure the geometry gives (the hint shows it and its derivation), or correct the claim's "
    "quantity, variant, context or dtype if the number meant something else",
)
FORMULA_MISMATCH = _rule(
    "F002",
    "formula-mismatch",
    "The claim's own formula does not give the number stated beside it.",
    "A formula written next to a number is a promise that the number follows from it; when it does not, "
    "one of the two holds an arithmetic slip, and a reader cannot tell which.",
    "recompute the formula and state its value, or correct the formula",
)
NOT_COMPUTABLE = _rule(
    "F003",
    "not-computable",
    "A stated number cannot be checked because a dimension it depends on is unknown.",
    "Unknown dimensions are null in the model record and the engine never guesses them, so any number "
    "that depends on one stands unverified.",
    "give the missing dimension in the model record, with its source, or remove the claim",
    Severity.WARNING,
)
UNSUPPORTED_LAYOUT = _rule(
    "F004",
    "unsupported-layout",
    "The record's engine layout has no rule for a mechanism or dtype the claim needs.",
    "The same model costs different bytes in different engines; an engine layout whose handling of a "
    "mechanism was not read from the engine's source gives no number rather than an estimate.",
    "use the 'ideal' layout for architectural figures, or an engine layout that handles the mechanism",
    Severity.WARNING,
)
UNKNOWN_MODEL_TYPE = _rule(
    "F006",
    "unknown-model-type",
    "The model's config has a model_type no adapter reads, so its cache layout cannot be derived.",
    "The registry never assumes plain GQA for an unknown architecture: that is the mistake it exists to "
    "catch. Every number about the model stays unchecked until its layout is known.",
    "state an explicit 'layout' in the model record (layer groups with their mechanism and dimensions), "
    "or add a config adapter for the model_type",
)
FORMULA_ERROR = _rule(
    "F007",
    "formula-error",
    "The claim's formula cannot be evaluated.",
    "A formula is arithmetic over numbers and the config's geometry fields (plus bytes, context_tokens "
    "and batch); a name the config does not have, a call or a syntax error leaves it unchecked.",
    "write the formula with + - * / ( ), numbers and field names from the model's config",
)
EXCEEDS_HARDWARE_MEMORY = _rule(
    "F008",
    "exceeds-hardware-memory",
    "A run's weights and KV cache do not fit the memory of its hardware.",
    "Weights plus the cache at the run's context and batch are a lower bound on the memory a run needs; "
    "a run that claims hardware smaller than that cannot have happened as described.",
    "correct the hardware, the hardware count, the batch, the context or the precision",
)
UNKNOWN_VARIANT = _rule(
    "F009",
    "unknown-variant",
    "A claim names a variant the engine does not define.",
    "A variant is a precisely defined counterfactual (mha-equivalent, naive-gqa, ...); a number about an "
    "undefined one cannot be checked.",
    "use one of the defined variants, listed in the message",
)

RULES: tuple[Rule, ...] = (
    CLAIM_MISMATCH,
    FORMULA_MISMATCH,
    NOT_COMPUTABLE,
    UNSUPPORTED_LAYOUT,
    UNKNOWN_MODEL_TYPE,
    FORMULA_ERROR,
    EXCEEDS_HARDWARE_MEMORY,
    UNKNOWN_VARIANT,
)
