"""Schema stage: a loaded document becomes a typed record, or located S-family diagnostics.

The committed JSON Schema runs first (it is the published contract), then the pydantic model (the code).
They are built to agree; a test holds them to it on every fixture.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError as PydanticError

from registry.checker.hints import context_finding, limit_finding, pattern_hint, quantity_finding, type_hint
from registry.checker.load import Document
from registry.checker.pointers import escape_pointer_part, pointer_of
from registry.checker.single_line import line_breaks
from registry.codes import schema as rules
from registry.codes.rule import Rule
from registry.diagnostics import Diagnostic
from registry.kinds.fields import SCHEMA_VERSIONS, needs_message
from registry.kinds.records import KINDS, MODEL_CLASSES, Record
from registry.kinds.schema import fast_validator_for, validator_for

if TYPE_CHECKING:
    from jsonschema import ValidationError

MAX_FINDINGS = 100
"""The most schema findings listed for one file; past it, one S007 says that more remain."""


def validate(document: Document, root: Path) -> tuple[Record | None, list[Diagnostic]]:
    """Validate against the committed schema, then the model, then hold single-line fields to one
    line (S008); stop at the first stage that fails."""
    record, problems = _validate(document, root)
    if record is None:
        return record, problems
    breaks = line_breaks(document)
    return (None, breaks) if breaks else (record, problems)


def _validate(document: Document, root: Path) -> tuple[Record | None, list[Diagnostic]]:
    data = document.data
    kind = data.get("kind")
    if kind is None:
        line, column = document.locate("")
        return None, [
            rules.MISSING_FIELD.diagnostic(
                document.path,
                line,
                column,
                f"the record has no 'kind'; it is one of {', '.join(KINDS)}",
                pointer="/kind",
            )
        ]
    if not isinstance(kind, str) or kind not in KINDS:
        line, column = document.locate("/kind")
        close = difflib.get_close_matches(str(kind), list(KINDS), n=1)
        hint = f"did you mean {close[0]!r}?" if close else ""
        return None, [
            rules.INVALID_VALUE.diagnostic(
                document.path,
                line,
                column,
                f"kind {kind!r} is not one of {', '.join(KINDS)}",
                hint=hint,
                pointer="/kind",
            )
        ]
    outdated = _outdated(document, kind)
    if outdated is not None:
        return None, [outdated]
    fast = fast_validator_for(root, kind)
    if fast is not None and fast.is_valid(data):
        try:
            return MODEL_CLASSES[kind].model_validate(data), []  # type: ignore[return-value]
        except PydanticError:
            pass  # the two disagree (a float where an integer belongs): the full path says why
    # at most MAX_FINDINGS, then S007: a hostile file can break the schema 150,000 times, each one mapped
    found = islice(validator_for(root, kind).iter_errors(data), MAX_FINDINGS + 1)
    errors = sorted(
        found, key=lambda e: [(str(p), 0) if isinstance(p, str) else ("", p) for p in e.absolute_path]
    )
    mapped = (d for error in errors for d in _from_jsonschema(document, error, kind))
    diagnostics = _narrowest(list(islice(mapped, MAX_FINDINGS + 1)))
    if len(diagnostics) > MAX_FINDINGS:
        message = f"more than {MAX_FINDINGS} findings in this file; the first {MAX_FINDINGS} found are listed"
        more = rules.TOO_MANY_FINDINGS.diagnostic(document.path, 1, 1, message)
        diagnostics = [*diagnostics[:MAX_FINDINGS], more]
    if diagnostics:
        return None, diagnostics
    try:
        return MODEL_CLASSES[kind].model_validate(data), []  # type: ignore[return-value]
    except PydanticError as error:
        return None, _from_pydantic(document, error)


def _narrowest(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One S005 per quantity: a claim's ``stated`` is refused by the pattern of every quantity and by
    the narrower one of its claim's quantity, whose finding names fewer dimensions (a shorter message)."""
    best: dict[str, Diagnostic] = {}
    quantity = rules.INVALID_QUANTITY.code
    for d in diagnostics:
        if d.code == quantity and (d.pointer not in best or len(d.message) < len(best[d.pointer].message)):
            best[d.pointer] = d
    return [d for d in diagnostics if d.code != quantity or best[d.pointer] is d]


def _outdated(document: Document, kind: str) -> Diagnostic | None:
    """An S009 for a record of an earlier version of its kind's format, which ``registry migrate``
    rewrites: one finding, not one per field that moved."""
    version, current = document.data.get("schema_version"), SCHEMA_VERSIONS[kind]
    if type(version) is not int or not 1 <= version < current:
        return None
    line, column = document.locate("/schema_version")
    message = f"a {kind} record of schema_version {version}; {kind} records are at version {current}"
    hint = f"run 'registry migrate {document.path}': it rewrites the record in version {current}, keeping every value and comment"
    return rules.OUTDATED_SCHEMA_VERSION.diagnostic(
        document.path, line, column, message, hint=hint, pointer="/schema_version"
    )


# ------------------------------------------------------------------ jsonschema errors


@dataclass(frozen=True)
class _Failure:
    """One jsonschema error, with what every keyword's handler reads of it."""

    document: Document
    error: ValidationError
    kind: str

    @property
    def path(self) -> list[Any]:
        return list(self.error.absolute_path)

    @property
    def pointer(self) -> str:
        return pointer_of(self.error.absolute_path)

    @property
    def where(self) -> str:
        return _field_name(self.path)

    @property
    def schema(self) -> Any:
        return self.error.schema

    @property
    def bound(self) -> Any:
        """The keyword's value in the schema: the required names, the pattern, the minimum, ..."""
        return self.error.validator_value

    @property
    def value(self) -> Any:
        return self.error.instance

    def declared_message(self) -> str | None:
        """The words the schema gives for a failure of this keyword (``x-messages``), if any: the
        record model's own message for a rule across fields."""
        messages = self.schema.get("x-messages", {}) if isinstance(self.schema, dict) else {}
        message = messages.get(self.error.validator)
        return message if isinstance(message, str) else None

    def at(self, rule: Rule, pointer: str, message: str, **options: Any) -> Diagnostic:
        return _at(self.document, rule, pointer, message, **options)


Handler = Callable[[_Failure], list[Diagnostic]]


def _from_jsonschema(document: Document, error: ValidationError, kind: str) -> list[Diagnostic]:
    """The diagnostics of one jsonschema error, from the handler of its keyword."""
    return _HANDLERS.get(str(error.validator), _limit)(_Failure(document, error, kind))


def _leaf(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf, the branch error that best says what is wrong."""
    from jsonschema.exceptions import best_match  # lazy

    while error.validator in ("anyOf", "oneOf") and error.context:
        branches = [e for e in error.context if e.validator != "type"] or list(error.context)
        deeper = best_match(branches)
        if deeper is None or deeper is error:
            break
        error = deeper
    return error


def _optional_value_given(error: ValidationError) -> bool:
    """An ``anyOf`` of one schema and ``null`` (an optional field), failed by a value that is not null."""
    branches = error.validator_value if error.validator == "anyOf" else []
    return (
        isinstance(branches, list)
        and len(branches) == 2
        and {"type": "null"} in branches
        and error.instance is not None
        and bool(error.context)
    )


def _branches(failure: _Failure) -> list[Diagnostic]:
    """``anyOf`` / ``oneOf``: the schema's own words when it gives them (a rule across fields, such as
    a model's geometry); every fault of an optional field's value; else the branch that best says what is
    wrong, by its own keyword's handler."""
    declared = failure.declared_message()
    if declared is not None:
        return [failure.at(rules.INCONSISTENT_FIELDS, failure.pointer, declared)]
    if _optional_value_given(failure.error):
        # anyOf [X, null] with a non-null value: every fault inside X is a finding, not only the best one
        inner = [e for e in failure.error.context or [] if e.validator_value != "null"]
        return [d for e in inner for d in _from_jsonschema(failure.document, e, failure.kind)]
    leaf = _leaf(failure.error)
    if leaf is failure.error:
        return _limit(failure)
    return _HANDLERS.get(str(leaf.validator), _limit)(_Failure(failure.document, leaf, failure.kind))


def _required(failure: _Failure) -> list[Diagnostic]:
    pointer = failure.pointer
    missing = [name for name in failure.bound if name not in failure.value]
    return [
        failure.at(
            rules.MISSING_FIELD,
            pointer,
            f"{_owner(failure.path, failure.kind)} lacks the required field {name!r}",
            target=f"{pointer}/{escape_pointer_part(name)}",
        )
        for name in missing
    ]


def _additional_properties(failure: _Failure) -> list[Diagnostic]:
    known = list(failure.schema.get("properties", {}))
    extras = [name for name in failure.value if name not in known]
    owner = _owner(failure.path, failure.kind)
    out = []
    for name in extras[: MAX_FINDINGS + 1]:  # the rest would be cut
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"did you mean {close[0]!r}?" if close else f"known fields: {', '.join(known)}"
        key_pointer = f"{failure.pointer}/{escape_pointer_part(name)}"
        message = f"{owner} has no field {name!r}"
        out.append(failure.at(rules.UNKNOWN_FIELD, key_pointer, message, hint=hint, key=True))
    return out


def _dependent_required(failure: _Failure) -> list[Diagnostic]:
    """A field given without the fields it needs, in the schema's words (``{field}`` and ``{missing}``
    filled in) or in plain ones."""
    template = failure.declared_message() or "'{field}' needs {missing} beside it"
    value, bound = failure.value, failure.bound
    present = [
        name for name, needed in bound.items() if name in value and any(n not in value for n in needed)
    ]
    out = []
    for name in present:
        missing = [n for n in bound[name] if n not in value]
        key_pointer = f"{failure.pointer}/{escape_pointer_part(name)}"
        message = needs_message(template, name, missing)
        out.append(failure.at(rules.INCONSISTENT_FIELDS, key_pointer, message, key=True))
    return out


def _not(failure: _Failure) -> list[Diagnostic]:
    """``not: {required: [...]}``: a field given where it does not belong, found at that field."""
    negated = failure.bound.get("required") if isinstance(failure.bound, dict) else None
    if not isinstance(failure.value, dict) or not negated:
        return _limit(failure)
    out = []
    for name in (n for n in negated if n in failure.value):
        field_pointer = f"{failure.pointer}/{escape_pointer_part(name)}"
        message = failure.declared_message() or f"'{name}' does not belong here"
        out.append(failure.at(rules.INCONSISTENT_FIELDS, field_pointer, message))
    return out


def _type(failure: _Failure) -> list[Diagnostic]:
    expected = failure.bound
    names = " or ".join(expected) if isinstance(expected, list) else expected
    message = f"{failure.where} must be {_article(names)}, not {_describe(failure.value)}"
    hint = type_hint(expected, failure.value)
    return [failure.at(rules.WRONG_TYPE, failure.pointer, message, hint=hint)]


def _pattern(failure: _Failure) -> list[Diagnostic]:
    """A text of the wrong form: a quantity (``x-dimensions``) or a context length (``x-context``) says
    what is wrong with it, any other field quotes the schema's description of the form; each hint names
    the fix for the value written (:mod:`registry.checker.hints`)."""
    schema, value, where = failure.schema, failure.value, failure.where
    if not isinstance(value, str):
        return _limit(failure)
    if "x-dimensions" in schema:
        message, hint = quantity_finding(where, value, schema["x-dimensions"])
        return [failure.at(rules.INVALID_QUANTITY, failure.pointer, message, hint=hint)]
    if schema.get("x-context"):
        message, hint = context_finding(where, value)
        return [failure.at(rules.INVALID_QUANTITY, failure.pointer, message, hint=hint)]
    description = schema.get("description", "")
    form = f": {description}" if description else f" ({failure.bound})"
    message = f"{where} {value!r} is not of the expected form{form}"
    hint = pattern_hint(failure.path, value, str(failure.bound), failure.document.path)
    return [failure.at(rules.INVALID_VALUE, failure.pointer, message, hint=hint)]


def _allowed(failure: _Failure, allowed: list[Any]) -> list[Diagnostic]:
    close = difflib.get_close_matches(str(failure.value), [str(a) for a in allowed], n=1)
    hint = f"did you mean {close[0]!r}?" if close else "use one of the values the message lists"
    message = f"{failure.where} is {failure.value!r}; allowed: {', '.join(map(repr, allowed))}"
    return [failure.at(rules.INVALID_VALUE, failure.pointer, message, hint=hint)]


def _limit(failure: _Failure) -> list[Diagnostic]:
    """Any other keyword: a bound broken (minimum, maxLength, ...), in words, or jsonschema's own."""
    message, hint = limit_finding(failure.error)
    return [failure.at(rules.INVALID_VALUE, failure.pointer, f"{failure.where}: {message}", hint=hint)]


_HANDLERS: dict[str, Handler] = {
    "anyOf": _branches,
    "oneOf": _branches,
    "required": _required,
    "additionalProperties": _additional_properties,
    "dependentRequired": _dependent_required,
    "not": _not,
    "type": _type,
    "pattern": _pattern,
    "enum": lambda failure: _allowed(failure, failure.bound),
    "const": lambda failure: _allowed(failure, [failure.bound]),
}
"""The handler of each jsonschema keyword; :func:`_limit` answers for the others."""


# ------------------------------------------------------------------ pydantic errors

_PYDANTIC_RULES: dict[str, Rule] = {
    "missing": rules.MISSING_FIELD,
    "extra_forbidden": rules.UNKNOWN_FIELD,
    "quantity": rules.INVALID_QUANTITY,
    "geometry": rules.INCONSISTENT_FIELDS,
    "claim": rules.INCONSISTENT_FIELDS,
    "run": rules.INCONSISTENT_FIELDS,
}


def _from_pydantic(document: Document, error: PydanticError) -> list[Diagnostic]:
    out = []
    for item in error.errors(include_url=False):
        path = [p for p in item["loc"] if not (isinstance(p, str) and ("[" in p or p in ("str", "int")))]
        rule = _PYDANTIC_RULES.get(item["type"])
        if rule is None:
            rule = rules.WRONG_TYPE if item["type"].endswith("_type") else rules.INVALID_VALUE
        out.append(
            _at(
                document,
                rule,
                pointer_of(path),
                f"{_field_name(path)}: {item['msg']}",
                key=rule is rules.UNKNOWN_FIELD,
            )
        )
    return out


# ------------------------------------------------------------------ helpers


def _at(
    document: Document,
    rule: Rule,
    pointer: str,
    message: str,
    hint: str = "",
    target: str | None = None,
    key: bool = False,
) -> Diagnostic:
    line, column = document.locate(pointer, key=key)
    return rule.diagnostic(document.path, line, column, message, hint=hint, pointer=target or pointer)


def _field_name(path: list[Any]) -> str:
    if not path:
        return "the record"
    text = str(path[0])
    for part in path[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return f"'{text}'"


def _owner(path: list[Any], kind: str) -> str:
    return f"a {kind} record" if not path else _field_name(path)


def _article(name: str) -> str:
    return {
        "integer": "a whole number",
        "number": "a number",
        "string": "text",
        "boolean": "true or false",
        "array": "a list",
        "object": "a mapping",
        "null": "null",
    }.get(name, name)


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "null" if value is None else type(value).__name__
