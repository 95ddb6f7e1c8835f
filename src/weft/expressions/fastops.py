"""Templates compiled for the Python fast path: segments that are ``$json`` lookups
(:mod:`weft.expressions.fastpath`) or simple operations on them: ``{{ $json.i * 2 }}``, ``{{ ($json.n ?? 0) + 1 }}``,
``{{ $json.name.toUpperCase() }}``.

A segment made only of ``$json`` lookups of scalars (and ``.length`` of arrays and strings), number and string
literals, parentheses, ``??``, ``+ - * /`` (and unary ``-``), ``toUpperCase()``/``toLowerCase()`` on ASCII text and
object literals of these (``{{ { total: $json.a + $json.b, tags: $json.tags } }}``, as Respond to Webhook bodies
are written) is evaluated in Python. Each step gives what JavaScript gives or declines
(:data:`~weft.expressions.fastpath.DECLINE`), and the segment then goes to the sandbox: a missing key or an object
(JavaScript might see a prototype's property), a number outside the safe integers or not finite, a division by
zero, ``+`` on a number and a string (JavaScript's number formatting), text that is not ASCII. Python's ``int``
and ``float`` arithmetic on safe integers and doubles is JavaScript's. An object literal's keys keep their order
as JavaScript's do, so a key JavaScript would move first (an array index such as ``"0"``) or treat specially
(``__proto__``) is left to the sandbox.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from weft.expressions.fastpath import DECLINE, Path, lookup, parse_path, value_at
from weft.expressions.template import Segment, Template

FastFn = Callable[[list[Any], int], Any]

_MAX_SAFE = 2**53
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_PATH = rf"""\$json(?:\s*(?:\.\s*{_IDENT}(?![\w$]|\s*\()|\[\s*(?:"[^"\\]*"|'[^'\\]*'|\d+)\s*\]))*(?![\w$])"""
_TOKEN = re.compile(
    rf"""\s*(?:(?P<path>{_PATH})|(?P<num>(?:0|[1-9]\d*)(?:\.\d+)?)(?![\w$.])|'(?P<sq>[^'\\\n\r\u2028\u2029]*)'|"(?P<dq>[^"\\\n\r\u2028\u2029]*)"
    |(?P<op>\?\?|[-+*/()])|\.\s*(?P<method>toUpperCase|toLowerCase)\s*\(\s*\)|(?P<punct>[{{}}:,])|(?P<key>{_IDENT}))\s*""",
    re.VERBOSE,
)
_METHODS: dict[str, Callable[[str], str]] = {"toUpperCase": str.upper, "toLowerCase": str.lower}


def compile_fast(template: Template) -> FastFn | None:
    """A Python function evaluating ``template`` over ``(items, item_index)``, or ``None`` if not eligible."""
    parts: list[str | FastFn] = []
    for part in template.parts:
        if isinstance(part, Segment):
            segment = _compile_segment(part.code)
            if segment is None:
                return None
            parts.append(segment)
        else:
            parts.append(part)
    if template.is_single:
        single = parts[0]
        assert not isinstance(single, str)
        return single
    return lambda items, i: _render(items, i, parts)


def _compile_segment(code: str) -> FastFn | None:
    path = parse_path(code)
    if path is not None:
        return lambda items, i: lookup(items, i, path)
    return compile_operation(code)


def _render(items: list[Any], item_index: int, parts: list[str | FastFn]) -> Any:
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        value = part(items, item_index)
        text = None if value is DECLINE else _as_text(value)
        if text is None:
            return DECLINE
        out.append(text)
    return "".join(out)


def _as_text(value: Any) -> str | None:
    """How JavaScript renders a fast-path value inside a mixed template, or ``None`` to decline."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    return None


def _tokens(code: str) -> list[tuple[str, str]] | None:
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(code):
        match = _TOKEN.match(code, pos)
        if match is None or match.end() == pos:
            return None
        kind = match.lastgroup
        assert kind is not None
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    return tokens


def compile_operation(code: str) -> FastFn | None:
    """A Python function evaluating segment ``code`` over ``(items, item_index)``, or ``None`` if the segment is
    not of the supported form (a bare ``$json`` lookup is :mod:`weft.expressions.fastpath`'s)."""
    if "--" in code or "++" in code:  # JavaScript's decrement and increment: `a--1` is a syntax error there
        return None
    tokens = _tokens(code)
    if not tokens or len(tokens) == 1:
        return None
    parser = _Parser(tokens)
    try:
        fn = parser.coalesce()
    except _NotSupported:
        return None
    return _as_result(fn) if parser.at_end() else None


def _as_result(fn: FastFn) -> FastFn:
    """The value as the sandbox hands it back: an integral number is an ``int`` (as :func:`results.number`)."""

    def result(items: list[Any], item_index: int) -> Any:
        value = fn(items, item_index)
        if type(value) is float and value.is_integer() and -_MAX_SAFE < value < _MAX_SAFE:
            return int(value)
        return value

    return result


class _NotSupported(Exception):
    pass


class _Parser:
    """Recursive descent with JavaScript's precedence: ``??`` < ``+ -`` < ``* /`` < unary ``-`` < calls."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.pos = 0

    def at_end(self) -> bool:
        return self.pos == len(self.tokens)

    def _peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def _take(self, kind: str, *texts: str) -> str | None:
        token_kind, text = self._peek()
        if token_kind == kind and (not texts or text in texts):
            self.pos += 1
            return text
        return None

    def coalesce(self) -> FastFn:
        left = self.additive()
        while self._take("op", "??"):
            left = _coalesce(left, self.additive())
        return left

    def additive(self) -> FastFn:
        left = self.term()
        while op := self._take("op", "+", "-"):
            left = _binary(op, left, self.term())
        return left

    def term(self) -> FastFn:
        left = self.unary()
        while op := self._take("op", "*", "/"):
            left = _binary(op, left, self.unary())
        return left

    def unary(self) -> FastFn:
        if self._take("op", "-"):
            return _negate(self.unary())
        return self.postfix()

    def postfix(self) -> FastFn:
        value = self.primary()
        while method := self._take("method"):
            value = _call(_METHODS[method], value)
        return value

    def primary(self) -> FastFn:
        kind, text = self._peek()
        self.pos += 1
        if kind == "path":
            path = parse_path(text)
            if path is None:
                raise _NotSupported
            return _lookup(path)
        if kind == "num":
            return _constant(_number_literal(text))
        if kind in ("sq", "dq"):
            return _constant(text)
        if kind == "op" and text == "(":
            inner = self.coalesce()
            if self._take("op", ")") is None:
                raise _NotSupported
            return inner
        if kind == "punct" and text == "{":
            return self.object_literal()
        raise _NotSupported

    def object_literal(self) -> FastFn:
        """``{ key: value, … }`` after its ``{``: identifier or quoted keys, a trailing comma allowed."""
        entries: list[tuple[str, FastFn]] = []
        while self._take("punct", "}") is None:
            kind, key = self._peek()
            self.pos += 1
            if kind not in ("key", "sq", "dq") or _ARRAY_INDEX.fullmatch(key) or key == "__proto__":
                raise _NotSupported
            if self._take("punct", ":") is None:
                raise _NotSupported
            entries.append((key, self.property_value()))
            if self._take("punct", ",") is None and self._peek() != ("punct", "}"):
                raise _NotSupported
        return _object(entries)

    def property_value(self) -> FastFn:
        """A property's value: a bare lookup may be an object or array (copied), else a scalar expression."""
        kind, text = self._peek()
        after = self.tokens[self.pos + 1] if self.pos + 1 < len(self.tokens) else ("end", "")
        path = parse_path(text) if kind == "path" and after in (("punct", ","), ("punct", "}")) else None
        if path is None:
            return _as_result(self.coalesce())
        self.pos += 1
        return partial(lookup, path=path)


def _number_literal(text: str) -> Any:
    if "." in text:
        return float(text)
    value = int(text)
    if value >= _MAX_SAFE:
        raise _NotSupported
    return value


#: A key JavaScript orders before all others in an object (an array index): left to the sandbox.
_ARRAY_INDEX = re.compile(r"0|[1-9]\d{0,9}")


def _object(entries: list[tuple[str, FastFn]]) -> FastFn:
    def fn(items: list[Any], item_index: int) -> Any:
        built: dict[str, Any] = {}
        for key, value in entries:
            built[key] = value(items, item_index)
            if built[key] is DECLINE:
                return DECLINE
        return built

    return fn


def _constant(value: Any) -> FastFn:
    return lambda items, i: value


def _lookup(path: Path) -> FastFn:
    return partial(_scalar_at, path)


def _scalar_at(path: Path, items: list[Any], item_index: int) -> Any:
    """The scalar at ``path`` in the item's json as JavaScript sees it, or :data:`DECLINE`."""
    value = value_at(items, item_index, path)
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is int or kind is float:
        return _safe_number(value)
    return DECLINE


def _safe_number(value: Any) -> Any:
    """``value`` as a JavaScript number in Python (a safe integer or a finite float), else :data:`DECLINE`."""
    if type(value) is int:
        return value if -_MAX_SAFE < value < _MAX_SAFE else DECLINE
    return value if math.isfinite(value) else DECLINE


def _is_number(value: Any) -> bool:
    kind = type(value)
    return kind is int or kind is float


def _coalesce(left: FastFn, right: FastFn) -> FastFn:
    def fn(items: list[Any], item_index: int) -> Any:
        value = left(items, item_index)
        return right(items, item_index) if value is None else value

    return fn


def _divide(a: Any, b: Any) -> Any:
    return a / b if b != 0 else math.nan  # JavaScript's Infinity or NaN: declined by _safe_number


_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": _divide,
}


def _binary(op: str, left: FastFn, right: FastFn) -> FastFn:
    arithmetic = _ARITHMETIC[op]
    concatenates = op == "+"

    def fn(items: list[Any], item_index: int) -> Any:
        a = left(items, item_index)
        if a is DECLINE:
            return DECLINE
        b = right(items, item_index)
        if _is_number(a) and _is_number(b):
            return _safe_number(arithmetic(a, b))
        if concatenates and type(a) is str and type(b) is str:
            return a + b
        return DECLINE  # mixed types (JavaScript's conversions), or b declined

    return fn


def _negate(operand: FastFn) -> FastFn:
    def fn(items: list[Any], item_index: int) -> Any:
        value = operand(items, item_index)
        # -0 is a number of its own in JavaScript (1 / -0 is -Infinity): left to the sandbox
        return -value if _is_number(value) and value != 0 else DECLINE

    return fn


def _call(method: Callable[[str], str], receiver: FastFn) -> FastFn:
    def fn(items: list[Any], item_index: int) -> Any:
        value = receiver(items, item_index)
        return method(value) if type(value) is str and value.isascii() else DECLINE

    return fn
