"""Property-based tests of the formula-expression evaluator: on any text, an exact value or an
ExpressionError with a column inside the text, quickly; and on any arithmetic it accepts, the value that
exact arithmetic gives."""

from __future__ import annotations

import time
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.strategies import expression_text
from registry.engine.expr import MAX_BITS, MAX_LENGTH, ExpressionError, evaluate, parse, render

NAMES: dict[str, Fraction | int] = {
    "num_hidden_layers": 61,
    "kv_lora_rank": 512,
    "qk_rope_head_dim": 64,
    "bytes": 2,
}


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression_text)
def test_any_text_gives_a_value_or_a_located_refusal(text: str) -> None:
    started = time.process_time()  # CPU time: a busy machine stretches wall time, not this
    try:
        value = evaluate(text, NAMES)
    except ExpressionError as error:
        assert 1 <= error.column <= max(len(text), MAX_LENGTH) + 1
        assert error.message
    else:
        assert isinstance(value, Fraction)
        assert max(value.numerator.bit_length(), value.denominator.bit_length()) <= MAX_BITS
    assert time.process_time() - started < 1.0


# A tree of + - * / over small integers and names, written out with parentheses, and its exact value.
_LEAF = st.one_of(
    st.integers(0, 10**6).map(lambda n: (str(n), Fraction(n))),
    st.sampled_from(sorted(NAMES)).map(lambda name: (name, Fraction(NAMES[name]))),
)


def _combine(children: st.SearchStrategy[tuple[str, Fraction]]) -> st.SearchStrategy[tuple[str, Fraction]]:
    def apply(op: str, left: tuple[str, Fraction], right: tuple[str, Fraction]) -> tuple[str, Fraction]:
        if op == "/" and right[1] == 0:
            return left
        value = {"+": left[1] + right[1], "-": left[1] - right[1], "*": left[1] * right[1]}.get(op)
        return f"({left[0]} {op} {right[0]})", left[1] / right[1] if value is None else value

    return st.builds(apply, st.sampled_from("+-*/"), children, children)


ARITHMETIC = st.recursive(_LEAF, _combine, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(ARITHMETIC)
def test_accepted_arithmetic_has_its_exact_value(tree: tuple[str, Fraction]) -> None:
    text, exact = tree
    if len(text) > MAX_LENGTH:
        return
    assert evaluate(text, NAMES) == exact


@settings(max_examples=300, deadline=None)
@given(ARITHMETIC)
def test_rendering_keeps_the_value(tree: tuple[str, Fraction]) -> None:
    """The trace shows a formula rendered with its names' values; read back, it is the same number."""
    text, exact = tree
    if len(text) > MAX_LENGTH:
        return
    shown = render(parse(text), NAMES)
    if len(shown) <= MAX_LENGTH:
        assert evaluate(shown) == exact
