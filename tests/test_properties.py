"""Property-based tests: on any input, a located diagnostic or a clean result, never an exception."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.checker.load import load_canonical
from registry.engine.units import QuantityError, parse_context, parse_quantity

_YAML_ALPHABET = st.sampled_from(
    [*list("abc:-[]{},&*!|>'\"#%@`?~ \n\t0123456789.eE+xyz\\/"), "\r\n", "\ufeff", "é", "\x00"]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_loader_never_raises_on_bytes(raw: bytes) -> None:
    result = load_canonical("r.yaml", raw)
    assert (result.document is None) == bool(result.diagnostics)
    for diagnostic in result.diagnostics:
        assert diagnostic.line >= 1 and diagnostic.column >= 1
        assert diagnostic.code.startswith("Y")


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_YAML_ALPHABET, max_size=200).map("".join))
def test_loader_never_raises_on_yaml_like_text(text: str) -> None:
    result = load_canonical("r.yaml", text.encode("utf-8"))
    if result.document is not None:
        assert isinstance(result.document.data, dict)
        for pointer in result.document.positions:
            line, column = result.document.locate(pointer)
            assert line >= 1 and column >= 1
    else:
        assert [d.code[0] for d in result.diagnostics] == ["Y"]


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=40))
def test_quantity_parser_raises_only_its_own_error(text: str) -> None:
    try:
        quantity = parse_quantity(text)
    except QuantityError:
        return
    assert quantity.value >= 0 and quantity.tolerance > 0


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=10**15), st.integers(min_value=0, max_value=4))
def test_written_value_admits_itself(number: int, decimals: int) -> None:
    digits = str(number).rjust(decimals + 1, "0")
    text = f"{digits[:-decimals]}.{digits[-decimals:]}" if decimals else digits
    quantity = parse_quantity(f"{text} GiB")
    assert quantity.admits(quantity.value)
    assert quantity.admits(quantity.value + quantity.tolerance)
    assert not quantity.admits(quantity.value + 2 * quantity.tolerance + 1)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=12), st.integers()))
def test_context_parser_raises_only_its_own_error(value: str | int) -> None:
    with contextlib.suppress(QuantityError):
        assert parse_context(value) >= 1


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=2**50))
def test_a_context_is_bounded_the_same_however_it_is_written(tokens: int) -> None:
    """131072, '131,072' and '128K' are one context; past 2^40 tokens each way of writing it is refused."""
    from registry.engine.units import MAX_CONTEXT_TOKENS

    kilo = (tokens + 1023) // 1024
    for written in (tokens, f"{tokens:,}", f"{kilo}K"):
        expected = tokens if written != f"{kilo}K" else kilo * 1024
        try:
            read = parse_context(written)
        except QuantityError:
            assert expected > MAX_CONTEXT_TOKENS
        else:
            assert read == expected <= MAX_CONTEXT_TOKENS
