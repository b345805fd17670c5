"""The formula evaluator: authors' arithmetic read exactly, hostile text refused with a column."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from registry.engine.expr import (
    MAX_DEPTH,
    MAX_LENGTH,
    ExpressionError,
    evaluate,
    names_in,
    parse,
    render,
)

DSV3 = {"num_hidden_layers": 61, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "bytes": 2}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes", 70_272),
        ("61 * 2 * 128 * (128+64) * 2", 5_996_544),
        ("61 x 576 x 2", 70_272),
        ("61x576x2", 70_272),
        ("61 \N{MULTIPLICATION SIGN} 576 \N{MULTIPLICATION SIGN} 2", 70_272),
        ("131,072 x 70,272", 9_210_691_584),
        ("2 ** 10", 1024),
        ("2^10", 1024),
        ("-(3 - 5)", 2),
        ("10 \N{MINUS SIGN} 4 \N{DIVISION SIGN} 2", 8),
        ("1 - 2 - 3", -4),
        ("2 * 3 + 4 * 5", 26),
        ("2 ** 3 ** 2", 512),
    ],
)
def test_evaluates_written_arithmetic_exactly(text: str, expected: int) -> None:
    assert evaluate(text, DSV3) == expected


def test_results_are_exact_fractions_not_floats() -> None:
    assert evaluate("1/3 * 3") == 1
    assert evaluate("0.1 + 0.2") == Fraction(3, 10)
    assert evaluate("4.5 * 2") == 9
    assert evaluate("2 ** -2") == Fraction(1, 4)


def test_x_is_a_name_where_it_cannot_be_a_sign() -> None:
    assert evaluate("x * 2", {"x": 5}) == 10
    assert evaluate("x1 x x1", {"x1": 3}) == 9


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("__import__('os')", 11, "function calls are not allowed"),
        ("a.b", 2, "attribute access"),
        ("f(x)", 2, "function calls are not allowed"),
        ("9**9**9", 2, "exponent"),
        ("1/0", 2, "division by zero"),
        ("2 / (3 - 3 * 1)", 3, "division by zero"),
        ("1 +", 4, "ends where a number or name was expected"),
        ("(1 + 2", 7, "expected ')'"),
        ("1 + 2)", 6, "unexpected ')'"),
        ("1 2", 3, "missing operator"),
        ("1,2", 2, "thousands separator"),
        ("lambda: 1", 7, "unexpected character ':'"),
        ("[1]", 1, "unexpected character '['"),
        ("0 ** -1", 3, "negative power"),
        ("2 ** 0.5", 3, "whole number"),
        ("99999999999999999999 ** 64", 22, "bits"),
        ("1" * 41, 1, "more than 40 digits"),
        ("", 1, "empty"),
    ],
)
def test_hostile_or_broken_text_is_refused_with_its_column(text: str, column: int, words: str) -> None:
    with pytest.raises(ExpressionError) as caught:
        evaluate(text, {"a": 1, "x": 1})
    assert words in caught.value.message
    assert caught.value.column == column
    assert str(caught.value).startswith(f"column {column}: ")


def test_ten_thousand_nested_parentheses_are_refused_without_recursion_error() -> None:
    text = "(" * 10_000 + "1" + ")" * 10_000
    with pytest.raises(ExpressionError, match="limit is 500"):
        evaluate(text)


def test_nesting_is_bounded_within_the_length_limit() -> None:
    depth = MAX_DEPTH + 1
    with pytest.raises(ExpressionError, match="nests deeper") as caught:
        evaluate("(" * depth + "1" + ")" * depth)
    assert caught.value.column == depth
    with pytest.raises(ExpressionError, match="nests deeper"):
        evaluate("-" * 100 + "1")
    assert evaluate("(" * MAX_DEPTH + "7" + ")" * MAX_DEPTH) == 7


def test_length_limit() -> None:
    text = "+".join(["1"] * 260)
    assert len(text) > MAX_LENGTH
    with pytest.raises(ExpressionError, match="characters long"):
        evaluate(text)


def test_repeated_products_cannot_grow_without_bound() -> None:
    big = "9" * 40
    text = " * ".join([big] * 11)
    assert len(text) <= MAX_LENGTH
    assert evaluate(text) == int(big) ** 11
    with pytest.raises(ExpressionError, match="bits"):
        evaluate(f"({text}) ** 3")


def test_unknown_name_suggests_close_known_names() -> None:
    with pytest.raises(ExpressionError) as caught:
        evaluate("num_layers * kv_lora_rank", DSV3)
    assert caught.value.column == 1
    assert "'num_layers'" in caught.value.message
    assert "num_hidden_layers" in caught.value.message


def test_unknown_name_with_nothing_close_lists_the_known_names() -> None:
    with pytest.raises(ExpressionError) as caught:
        evaluate("2 * zzz", DSV3)
    assert caught.value.column == 5
    assert "known names: bytes, kv_lora_rank" in caught.value.message


def test_names_in_lists_names_in_first_use_order() -> None:
    node = parse("num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes * num_hidden_layers")
    assert names_in(node) == ("num_hidden_layers", "kv_lora_rank", "qk_rope_head_dim", "bytes")


def test_render_substitutes_values_factor_by_factor() -> None:
    node = parse("num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes")
    times = "\N{MULTIPLICATION SIGN}"
    assert render(node, DSV3) == f"61 {times} (512 + 64) {times} 2"
    assert render(node) == f"num_hidden_layers {times} (kv_lora_rank + qk_rope_head_dim) {times} bytes"
    assert render(parse("131072 / 3")) == "131,072 / 3"


_LEAF = st.integers(min_value=0, max_value=10**6).map(lambda n: (str(n), Fraction(n)))


def _combine(children: st.SearchStrategy[tuple[str, Fraction]]) -> st.SearchStrategy[tuple[str, Fraction]]:
    def build(op: str, left: tuple[str, Fraction], right: tuple[str, Fraction]) -> tuple[str, Fraction]:
        value = {"+": left[1] + right[1], "-": left[1] - right[1], "*": left[1] * right[1]}[op]
        return f"({left[0]} {op} {right[0]})", value

    return st.builds(build, st.sampled_from("+-*"), children, children)


@given(st.recursive(_LEAF, _combine, max_leaves=12))
def test_agrees_with_exact_arithmetic_on_generated_expressions(case: tuple[str, Fraction]) -> None:
    text, expected = case
    if len(text) <= MAX_LENGTH:
        assert evaluate(text) == expected
