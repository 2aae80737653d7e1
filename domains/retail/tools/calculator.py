"""tau2's `calculate` without `eval`: a small recursive-descent parser.

Grammar (Python's precedence and associativity, which the reference inherits
from `eval`)::

    expr   := term (('+' | '-') term)*
    term   := factor (('*' | '/') factor)*
    factor := ('+' | '-') factor | '(' expr ')' | number

Integer literals stay `int` and `/` is true division, so every result equals
what `eval` would give; `**` and `//` are refused rather than guessed at.
"""

from __future__ import annotations

import re

from skills.errors import DomainError

MAX_EXPRESSION_LENGTH = 500
_MAX_DEPTH = 50
_ALLOWED = frozenset("0123456789+-*/(). ")
_TOKEN = re.compile(r"\s*(?:(\d+\.?\d*|\.\d+)|(.))", re.ASCII)

Number = int | float


def calculate(expression: str) -> str:
    """Evaluate `+ - * / ( )` arithmetic and return `str(round(float(result), 2))`."""
    if not all(char in _ALLOWED for char in expression):
        raise DomainError("Invalid characters in expression")
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise DomainError(f"Expression longer than {MAX_EXPRESSION_LENGTH} characters")
    parser = _Parser(_tokens(expression))
    value = parser.expression(0)
    if parser.peek() is not None:
        raise DomainError("Invalid expression")
    return str(round(float(value), 2))


def _tokens(expression: str) -> list[str]:
    tokens = [number or symbol for number, symbol in _TOKEN.findall(expression)]
    return [token for token in tokens if token.strip()]


class _Parser:
    """One pass over the tokens; each method parses one grammar rule."""

    def __init__(self, tokens: list[str]) -> None:
        self._tokens = tokens
        self._pos = 0

    def peek(self) -> str | None:
        return self._tokens[self._pos] if self._pos < len(self._tokens) else None

    def _take(self) -> str:
        token = self.peek()
        if token is None:
            raise DomainError("Invalid expression")
        self._pos += 1
        return token

    def expression(self, depth: int) -> Number:
        value = self._term(depth)
        while self.peek() in ("+", "-"):
            operator = self._take()
            right = self._term(depth)
            value = value + right if operator == "+" else value - right
        return value

    def _term(self, depth: int) -> Number:
        value = self._factor(depth)
        while self.peek() in ("*", "/"):
            operator = self._take()
            if self.peek() == operator:  # `**` and `//`
                raise DomainError("Invalid expression")
            right = self._factor(depth)
            value = value * right if operator == "*" else _divide(value, right)
        return value

    def _factor(self, depth: int) -> Number:
        if depth > _MAX_DEPTH:
            raise DomainError("Expression nested too deeply")
        token = self._take()
        if token in ("+", "-"):
            value = self._factor(depth + 1)
            return value if token == "+" else -value
        if token == "(":
            value = self.expression(depth + 1)
            if self._take() != ")":
                raise DomainError("Invalid expression")
            return value
        return _number(token)


def _number(token: str) -> Number:
    if not token[0].isdigit() and token[0] != ".":
        raise DomainError("Invalid expression")
    if "." in token:
        return float(token)
    if len(token) > 1 and token.startswith("0") and token.strip("0"):
        raise DomainError("Invalid expression")  # Python refuses leading zeros too
    return int(token)


def _divide(left: Number, right: Number) -> float:
    if right == 0:
        raise DomainError("Division by zero")
    return left / right
