"""A safe evaluator for the arithmetic authors write beside their numbers.

A claim may carry the formula its author used, such as
``num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes`` or ``61 x 2 x 128 x (128+64) x 2``.
Records arrive by pull request, so the formula is untrusted text: it is read by a small tokenizer and a
recursive-descent parser written here, never by ``eval`` or Python's own compiler. The grammar is::

    expression := term (("+" | "-") term)*
    term       := unary (("*" | "x" | U+00D7 | U+00B7 | "/" | U+00F7) unary)*
    unary      := ("-" | "+") unary | power
    power      := atom (("**" | "^") unary)?
    atom       := NUMBER | NAME | "(" expression ")"

The multiplication sign, the middle dot, the division sign and the minus sign (U+2212) are accepted
as their ASCII counterparts, and so is ``x`` between two operands. Numbers are integers or decimals
(``131,072`` with thousands separators is one number); names are looked up in a mapping the caller
gives. Results are exact :class:`~fractions.Fraction` values. Everything is bounded (text length,
nesting depth, digits per number, exponent size, size of any intermediate value), and every refusal is
an :class:`ExpressionError` that carries the 1-based column where it happened.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

MAX_LENGTH = 500
"""Longest expression accepted, in characters (a claim's ``formula`` field has the same limit)."""
MAX_DEPTH = 32
"""Deepest nesting of parentheses and unary signs."""
MAX_DIGITS = 40
"""Most digits in one number literal."""
MAX_EXPONENT = 64
"""Largest exponent magnitude ``**`` accepts."""
MAX_BITS = 4096
"""Largest numerator or denominator, in bits, of any value met while evaluating."""

_TIMES = "\N{MULTIPLICATION SIGN}"
_MULTIPLY = frozenset({"*", "x", _TIMES, "\N{MIDDLE DOT}", "\N{DOT OPERATOR}"})
_DIVIDE = frozenset({"/", "\N{DIVISION SIGN}"})
_POWER = frozenset({"**", "^"})
_MINUS = frozenset({"-", "\N{MINUS SIGN}"})
_SYMBOL_OPS = ("**", *_MULTIPLY - {"x"}, *_DIVIDE, "+", *_MINUS, "^", "(", ")")


class ExpressionError(ValueError):
    """An expression that cannot be evaluated; ``column`` is the 1-based place of the fault."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"column {column}: {message}")
        self.message = message
        self.column = column


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is ``number``, ``name``, ``op`` or ``end``; ``column`` is 1-based."""

    kind: str
    text: str
    column: int


@dataclass(frozen=True)
class Number:
    value: Fraction
    text: str
    column: int


@dataclass(frozen=True)
class Name:
    name: str
    column: int


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Node
    column: int


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node
    column: int


@dataclass(frozen=True)
class Group:
    """A parenthesised sub-expression, kept so that rendering shows the author's parentheses."""

    inner: Node
    column: int


Node = Number | Name | Unary | Binary | Group
"""A parsed expression."""

_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?![\d,])(?:\.\d+)?|\d+(?:\.\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPACE = re.compile(r"\s+")


def _number_value(text: str, column: int) -> Fraction:
    whole, _, frac = text.replace(",", "").partition(".")
    if len(whole) + len(frac) > MAX_DIGITS:
        raise ExpressionError(f"number {text!r} has more than {MAX_DIGITS} digits", column)
    return Fraction(int(whole + frac), 10 ** len(frac))


def _ends_operand(previous: Token | None) -> bool:
    return previous is not None and (previous.kind in ("number", "name") or previous.text == ")")


def _is_times_sign(text: str, index: int, previous: Token | None) -> bool:
    """``x`` right after an operand, before a digit, a space or '(' multiplies (``61 x 576``, ``61x576``).

    No operand may follow another, so reading such an ``x`` as a sign never hides a name.
    """
    if text[index] not in "xX" or not _ends_operand(previous):
        return False
    following = text[index + 1 : index + 2]
    return following == "" or following.isdigit() or following.isspace() or following == "("


def _refuse_character(text: str, index: int, previous: Token | None) -> ExpressionError:
    char = text[index]
    column = index + 1
    if char == "." and previous is not None and previous.kind == "name":
        return ExpressionError("attribute access ('.') is not allowed; write a plain field name", column)
    if char == ",":
        return ExpressionError(
            "',' is only allowed as a thousands separator inside a number (131,072)", column
        )
    if char in "'\"":
        return ExpressionError(
            "strings are not allowed; an expression is numbers, names and + - * / ( )", column
        )
    return ExpressionError(f"unexpected character {char!r}; use numbers, names and + - * / ( )", column)


def _next_token(text: str, index: int, previous: Token | None) -> Token:
    """The token starting at ``index`` (which is not whitespace)."""
    number = _NUMBER.match(text, index)
    if number:
        return Token("number", number.group(), index + 1)
    if _is_times_sign(text, index, previous):
        return Token("op", "x", index + 1)
    name = _NAME.match(text, index)
    if name:
        return Token("name", name.group(), index + 1)
    op = next((s for s in _SYMBOL_OPS if text.startswith(s, index)), None)
    if op is None:
        raise _refuse_character(text, index, previous)
    return Token("op", op, index + 1)


def iter_tokens(text: str) -> Iterator[Token]:
    """Tokens of ``text``, ending with an ``end`` token.

    Lazy, so that the parser reports the first fault in reading order: in ``f('x')`` the call, not the
    quote after it.
    """
    if len(text) > MAX_LENGTH:
        message = f"expression is {len(text)} characters long; the limit is {MAX_LENGTH}"
        raise ExpressionError(message, MAX_LENGTH + 1)
    index = 0
    previous: Token | None = None
    while True:
        space = _SPACE.match(text, index)
        if space:
            index = space.end()
        if index >= len(text):
            yield Token("end", "", len(text) + 1)
            return
        previous = _next_token(text, index, previous)
        index += len(previous.text)
        yield previous


def tokenize(text: str) -> list[Token]:
    """All tokens of ``text``; raises :class:`ExpressionError` on anything outside the grammar."""
    return list(iter_tokens(text))


class _Parser:
    """Recursive descent over the token list; ``depth`` bounds recursion before Python's own limit."""

    def __init__(self, tokens: Iterator[Token]) -> None:
        self.tokens = tokens
        self.current = next(tokens)
        self.depth = 0

    def peek(self) -> Token:
        return self.current

    def take(self) -> Token:
        token = self.current
        if token.kind != "end":
            self.current = next(self.tokens)
        return token

    def enter(self, column: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExpressionError(f"expression nests deeper than {MAX_DEPTH} levels", column)

    def expression(self) -> Node:
        node = self.term()
        while self.peek().text in ("+", *_MINUS) and self.peek().kind == "op":
            op = self.take()
            node = Binary("-" if op.text in _MINUS else "+", node, self.term(), op.column)
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.peek().kind == "op" and (self.peek().text in _MULTIPLY or self.peek().text in _DIVIDE):
            op = self.take()
            node = Binary("*" if op.text in _MULTIPLY else "/", node, self.unary(), op.column)
        return node

    def unary(self) -> Node:
        token = self.peek()
        if token.kind == "op" and token.text in ("+", *_MINUS):
            self.take()
            self.enter(token.column)
            operand = self.unary()
            self.depth -= 1
            return Unary("-" if token.text in _MINUS else "+", operand, token.column)
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.peek().kind == "op" and self.peek().text in _POWER:
            op = self.take()
            self.enter(op.column)
            exponent = self.unary()
            self.depth -= 1
            return Binary("**", base, exponent, op.column)
        return base

    def atom(self) -> Node:
        token = self.take()
        if token.kind == "number":
            return Number(_number_value(token.text, token.column), token.text, token.column)
        if token.kind == "name":
            if self.peek().text == "(":
                raise ExpressionError(
                    f"function calls are not allowed ({token.text}(...))", self.peek().column
                )
            return Name(token.text, token.column)
        if token.text == "(":
            self.enter(token.column)
            inner = self.expression()
            self.depth -= 1
            close = self.take()
            if close.text != ")":
                raise ExpressionError(f"expected ')' to close the '(' at column {token.column}", close.column)
            return Group(inner, token.column)
        if token.kind == "end":
            raise ExpressionError("expression ends where a number or name was expected", token.column)
        raise ExpressionError(f"expected a number, a name or '(', found {token.text!r}", token.column)


def parse(text: str) -> Node:
    """Parse ``text`` into a tree; raises :class:`ExpressionError` on anything outside the grammar."""
    if not text.strip():
        raise ExpressionError("expression is empty", 1)
    parser = _Parser(iter_tokens(text))
    node = parser.expression()
    rest = parser.peek()
    if rest.kind != "end":
        if rest.kind in ("number", "name"):
            raise ExpressionError(f"missing operator before {rest.text!r}", rest.column)
        raise ExpressionError(f"unexpected {rest.text!r}", rest.column)
    return node


def names_in(node: Node) -> tuple[str, ...]:
    """The names an expression uses, in first-use order."""
    found: dict[str, None] = {}
    stack: list[Node] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Name):
            found.setdefault(current.name)
        elif isinstance(current, Unary):
            stack.append(current.operand)
        elif isinstance(current, Group):
            stack.append(current.inner)
        elif isinstance(current, Binary):
            stack.extend((current.right, current.left))
    return tuple(found)


def _bounded(value: Fraction, column: int) -> Fraction:
    if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
        raise ExpressionError(f"intermediate value exceeds {MAX_BITS} bits", column)
    return value


def _lookup(node: Name, names: Mapping[str, Fraction | int]) -> Fraction:
    if node.name in names:
        return Fraction(names[node.name])
    close = difflib.get_close_matches(node.name, list(names), n=4, cutoff=0.6)
    advice = (
        f"did you mean {', '.join(close)}?"
        if close
        else "known names: " + (", ".join(sorted(names)[:12]) or "none")
    )
    raise ExpressionError(f"unknown name {node.name!r}; {advice}", node.column)


def _power(base: Fraction, exponent: Fraction, column: int) -> Fraction:
    if exponent.denominator != 1:
        raise ExpressionError("an exponent must be a whole number", column)
    if abs(exponent) > MAX_EXPONENT:
        raise ExpressionError(f"exponent {exponent} is larger than {MAX_EXPONENT}", column)
    if base == 0 and exponent < 0:
        raise ExpressionError("zero cannot be raised to a negative power", column)
    bits = max(base.numerator.bit_length(), base.denominator.bit_length())
    if bits * abs(int(exponent)) > MAX_BITS:
        raise ExpressionError(f"power exceeds {MAX_BITS} bits", column)
    return base ** int(exponent)


def _apply(node: Binary, left: Fraction, right: Fraction) -> Fraction:
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if node.op == "/":
        if right == 0:
            raise ExpressionError("division by zero", node.column)
        return left / right
    return _power(left, right, node.column)


def evaluate_node(node: Node, names: Mapping[str, Fraction | int]) -> Fraction:
    """The exact value of a parsed expression with ``names`` bound."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Name):
        return _lookup(node, names)
    if isinstance(node, Group):
        return evaluate_node(node.inner, names)
    if isinstance(node, Unary):
        value = evaluate_node(node.operand, names)
        return -value if node.op == "-" else value
    left = evaluate_node(node.left, names)
    right = evaluate_node(node.right, names)
    return _bounded(_apply(node, left, right), node.column)


def evaluate(text: str, names: Mapping[str, Fraction | int] | None = None) -> Fraction:
    """Parse and evaluate ``text`` exactly; names are looked up in ``names``.

    >>> evaluate("61 x (512 + 64) x 2")
    Fraction(70272, 1)
    >>> evaluate("layers * 576 * bytes", {"layers": 61, "bytes": 2})
    Fraction(70272, 1)
    """
    return evaluate_node(parse(text), names or {})


_SHOW = {"*": f" {_TIMES} ", "/": " / ", "+": " + ", "-": " - ", "**": "^"}


def _show_value(value: Fraction) -> str:
    if value.denominator == 1:
        return f"{value.numerator:,}"
    return f"{value.numerator:,}/{value.denominator:,}"


def render(node: Node, names: Mapping[str, Fraction | int] | None = None) -> str:
    """The expression with names replaced by their values (when ``names`` has them), the factor-by-factor
    form the trace shows: ``num_hidden_layers * (kv_lora_rank + qk_rope_head_dim) * bytes`` renders as
    ``61 x (512 + 64) x 2``, written with the multiplication sign.
    """
    bound = names or {}
    if isinstance(node, Number):
        return _show_value(node.value)
    if isinstance(node, Name):
        return _show_value(Fraction(bound[node.name])) if node.name in bound else node.name
    if isinstance(node, Group):
        return f"({render(node.inner, bound)})"
    if isinstance(node, Unary):
        return f"{node.op}{render(node.operand, bound)}"
    return f"{render(node.left, bound)}{_SHOW[node.op]}{render(node.right, bound)}"
